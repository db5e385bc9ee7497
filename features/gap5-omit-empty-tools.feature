Feature: Gap 5 - no tools key when there are no tools
  Many providers reject "tools": []. With an empty effective tool list the body has no
  tools key (and, openai style, no tool_choice key): the keys are absent, not empty.

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

  @G5.5
  Scenario Outline: with no tools, tool_choice and parallel_tool_calls from RequestParams are dropped with a warning (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false, "temperature": 0.3}
      """
    And an empty toolkit
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And no LLM request body has the key "tool_choice"
    And no LLM request body has the key "parallel_tool_calls"
    And every LLM request body has "temperature" equal to 0.3
    And the warnings name "tool_choice"
    And the warnings name "parallel_tool_calls"

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |

  @G5.5
  Scenario Outline: a BeforeLLM hook that empties the tools drops the caller's tool_choice too (<style> <mode>)
    Given an <style> client with request params:
      """
      {"tool_choice": <choice>, "parallel_tool_calls": false}
      """
    And a BeforeLLM hook that returns an empty tool list
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And no LLM request body has the key "tools"
    And no LLM request body has the key "tool_choice"
    And no LLM request body has the key "parallel_tool_calls"

    Examples:
      | style     | mode   | choice          |
      | openai    | run    | "required"      |
      | openai    | stream | "required"      |
      | anthropic | run    | {"type": "any"} |
      | anthropic | stream | {"type": "any"} |

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
