Feature: Gap 5 - no tools key when there are no tools
  Many providers reject "tools": []. With an empty effective tool list the body has no
  tools key (and, openai style, no tool_choice key): the keys are absent, not empty.

  @id:g5-zero-tools-no-keys @required @src:adr-g5-omit
  Scenario Outline: a zero-tool toolkit sends no tools key (<style> <mode>)
    Given an <style> client
    And an empty toolkit
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And no LLM request body has the key "tool_choice"

    @G5.1
    Examples: openai run
      | style  | mode |
      | openai | run  |

    @G5.2
    Examples: the other three paths
      | style     | mode   |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g5-one-tool-sent @required @src:adr-g5-omit
  @G5.3
  Scenario Outline: a one-tool toolkit sends its tool (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request offers exactly the tools echo
    And the LLM request body's "tool_choice" is <choice>

    Examples:
      | style     | mode   | choice |
      | openai    | run    | "auto" |
      | openai    | stream | "auto" |
      | anthropic | run    | absent |
      | anthropic | stream | absent |

  @id:g5-hook-empty-list-omits @required @src:adr-g5-omit
  @G5.4
  Scenario Outline: a BeforeLLM hook that empties the tool list omits the keys (<style> <mode>)
    Given an <style> client
    And a BeforeLLM hook that returns an empty tool list
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And no LLM request body has the key "tool_choice"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g5-caller-tool-params-sent @required @src:adr-g5-caller
  @G5.5
  Scenario Outline: with no tools, the caller's tool_choice and parallel_tool_calls are sent as given (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false, "temperature": 0.3}
      """
    And an empty toolkit
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And every LLM request body has "tool_choice" equal to <choice>
    And every LLM request body has "parallel_tool_calls" equal to false
    And every LLM request body has "temperature" equal to 0.3

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |

  @id:g5-hook-empty-caller-tool-params-sent @required @src:adr-g5-caller
  @G5.5
  Scenario Outline: a BeforeLLM hook that empties the tools still sends the caller's tool_choice (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false}
      """
    And a BeforeLLM hook that returns an empty tool list
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And every LLM request body has "tool_choice" equal to <choice>
    And every LLM request body has "parallel_tool_calls" equal to false

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |

  @id:g5-caller-tool-params-warned @recommended @src:rec-g5-warn
  @G5.5
  Scenario Outline: with no tools, the caller's tool_choice and parallel_tool_calls are sent with a warning that names them (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false}
      """
    And an empty toolkit
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request body has "tool_choice" equal to <choice>
    And the warnings name "tool_choice"
    And the warnings name "parallel_tool_calls"

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |

  @id:g5-caller-tool-params-win @required @src:adr-g1-wins
  @G5.5
  Scenario Outline: with tools, the caller's tool_choice and parallel_tool_calls win (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false}
      """
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request offers exactly the tools echo
    And every LLM request body has "tool_choice" equal to <choice>
    And every LLM request body has "parallel_tool_calls" equal to false
    And no warning names "tool_choice"

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |
