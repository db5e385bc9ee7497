@contract
Feature: X.4 - what each port's library returns, against the reference
  The same calls on every port; what the library returned (tool lists, execute results,
  adapter JSON, a run's tool calls) is compared with the Go reference's golden copy and shown as
  a diff. The C scenarios judge each pinned rule; these show every other difference, as advice.

  @id:x4-mixed-toolkit @recommended @src:rec-x4-parity
  @X.4
  Scenario: a mixed toolkit's description and adapter JSON
    Given an MCP server "bank.v2" over streamable HTTP listing the awkward tools
    And an MCP server "sch" over streamable HTTP listing the schema tools
    And a native tool "ping" that returns "pong"
    And a native tool "plain" with no input schema that returns "ok"
    And an http tool "get weather" for GET "http://127.0.0.1:9/weather/{city}"
    And the MCP config is written to a file
    When the toolkit is described
    And the schema adapters are rendered
    Then the returned values match the golden copy "x4-mixed-toolkit"

  @id:x4-mcp-results @recommended @src:rec-x4-parity
  @X.4
  Scenario: every result shape of an MCP tool
    Given an MCP server "r" over streamable HTTP listing the results tools
    When the tool "r_r_text2" is executed with {}
    And the tool "r_r_err2" is executed with {}
    And the tool "r_r_err_blank" is executed with {}
    And the tool "r_r_struct" is executed with {}
    And the tool "r_r_struct_err" is executed with {}
    And the tool "r_r_struct_empty" is executed with {}
    And the tool "r_r_num" is executed with {}
    And the tool "r_r_image" is executed with {}
    And the tool "r_r_mixed" is executed with {}
    And the tool "r_r_badout" is executed with {}
    And the tool "ghost" is executed with {}
    Then the returned values match the golden copy "x4-mcp-results"

  @id:x4-http-results @recommended @src:rec-x4-parity
  @X.4
  Scenario: http tool results
    Given the endpoint answers "/ok" with status 200 and the body "fine"
    And the endpoint answers "/down" with status 503 and the body "down"
    And the endpoint answers "/json" with status 200 and the body:
      """
      {"b": 1, "a": "<", "n": 1.0}
      """
    And an http tool "ok" for GET "{{endpoint}}/ok"
    And an http tool "down" for GET "{{endpoint}}/down"
    And an http tool "st" for GET "{{endpoint}}/ok" with:
      """
      {"resultMode": "status+text"}
      """
    And an http tool "js" for GET "{{endpoint}}/json" with:
      """
      {"resultMode": "json"}
      """
    When the tool "ok" is executed with {}
    And the tool "down" is executed with {}
    And the tool "st" is executed with {}
    And the tool "js" is executed with {}
    Then the returned values match the golden copy "x4-http-results"

  @id:x4-loop-calls @recommended @src:rec-x4-parity
  @X.4
  Scenario Outline: a <style> run's tool calls
    Given an <style> client
    And an MCP server "r" over streamable HTTP listing the results tools
    And the toolkit is built
    And the fake LLM first calls the tool "r_r_struct" and then answers "done"
    When the client runs "go" in run mode
    Then the returned values match the golden copy "x4-loop-calls-<style>"

    Examples:
      | style     |
      | openai    |
      | anthropic |
