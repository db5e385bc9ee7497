Feature: Gap 2 - an injectable HTTP client for the LLM path
  A host can hand the client its own HTTP client (or fetch, or transport); every LLM request
  goes through it, and MCP traffic never does.

  @id:g2-injected-client-carries-all @required @src:adr-g2-client
  @G2.1
  Scenario Outline: the injected client carries every LLM request (<style> <mode>)
    Given an <style> client
    And a recording HTTP client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the recording HTTP client carried every LLM request

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g2-default-transport @required @src:adr-g2-default
  @G2.2
  Scenario Outline: without an injected client the default transport is used (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:a5-mcp-not-through-client @required @src:adr-a5-scope
  @A5.1
  Scenario: MCP traffic does not go through the injected client
    Given an openai client
    And a recording HTTP client
    And an MCP server "srv" over streamable HTTP
    And the MCP config is built into a toolkit
    And the fake LLM first calls the tool "srv_a" and then answers "done"
    When the client runs "use the MCP tool" in run mode
    Then the call succeeds
    And LLM request 2 carries the tool output "a:ok"
    And the recording HTTP client carried every LLM request

  @id:g2-injected-client-carries-retries @required @src:adr-g2-client
  @G2.1
  Scenario Outline: the injected client carries the retry of a failed request (<style> <mode>, <fault>)
    Given an <style> client
    And a recording HTTP client
    And an empty toolkit
    And the fake LLM first fails with <fault> and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the fake LLM saw the request retried
    And the call succeeds
    And the recording HTTP client carried every LLM request

    Examples:
      | style     | mode   | fault                |
      | openai    | run    | a 503                |
      | openai    | stream | a 503                |
      | anthropic | run    | a 503                |
      | anthropic | stream | a 503                |
      | openai    | run    | a 429                |
      | openai    | run    | a dropped connection |
      | anthropic | stream | a dropped connection |

  @id:g2-injected-client-used-whole @required @src:adr-g2-client-whole
  @G2.1
  Scenario Outline: the injected client is used whole: its own timeout cuts a slow reply (<style> <mode>)
    Given an <style> client
    And a recording HTTP client with its own request timeout of 300 ms
    And an empty toolkit
    And the fake LLM first answers after 3000 ms and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the client gave up on LLM request 1 within 2000 ms

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |
