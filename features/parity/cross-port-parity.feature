Feature: Cross-port parity with the Go reference
  For the same scenario every port should put the same bodies on the wire. The Go reference's
  bodies are the golden copy (fixtures/parity/golden, recorded with `conformance golden`); bodies are
  compared after normalisation (key order, number spelling, fake URLs). X.2 does the same for the
  list-only inventory (fixtures/parity/golden/inventory-*.json).

  @id:x1-shaped-loop-parity @recommended @src:rec-x1-parity
  @X.1
  Scenario Outline: a shaped tool loop puts the reference's bodies on the wire (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42, "chat_template_kwargs": {"enable_thinking": false}}
      """
    And a body transform that appends " /nothink" to the last user message
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the wire bodies match the golden copy "tool-loop-<style>-<mode>"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:x1-plain-request-parity @recommended @src:rec-x1-parity
  @X.1
  Scenario Outline: a plain request puts the reference's body on the wire (<style> <mode>)
    Given an <style> client
    And an empty toolkit
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the wire bodies match the golden copy "plain-<style>-<mode>"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:x2-inventory-parity @required @src:adr-x2-inventory
  @X.2
  Scenario: a port's list-only inventory equals the reference's
    Given an MCP server "http" over streamable HTTP
    And an MCP server "local" over stdio
    And an unreachable MCP server "down"
    And a disabled MCP server "off"
    When the MCP config is listed
    Then the call succeeds
    And the inventory matches the golden copy "inventory-mixed"

  @id:x2-filtered-sse-inventory-parity @required @src:adr-x2-inventory @src:spec-2-sse-fallback
  @X.2
  Scenario: a port's inventory of a filtered SSE server equals the reference's
    Given an MCP server "legacy" over SSE only with the tools filter {"a": true}
    When the MCP config is listed
    Then the call succeeds
    And the inventory matches the golden copy "inventory-sse-filtered"
