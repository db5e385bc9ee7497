@contract
Feature: Contract C1 - the Tool and ToolResult shape
  Every tool, whatever made it, has a name, a description, an object input schema and a source;
  executing one by name gives a string output and a boolean isError.

  @id:c1-tool-shape @required @src:spec-c1-shape
  @C1.1
  Scenario: every tool of a mixed toolkit has the shape of a Tool
    Given an MCP server "srv" over streamable HTTP
    And a native tool "ping" that returns "pong"
    And an http tool "fetch" for GET "{{endpoint}}/x"
    When the toolkit is described
    Then every described tool has a name, a description, an object input schema and a source

  @id:c1-sources @required @src:spec-c1-source
  @C1.2
  Scenario: MCP, native and http tools report their own source
    Given an MCP server "srv" over streamable HTTP
    And a native tool "ping" that returns "pong"
    And an http tool "fetch" for GET "{{endpoint}}/x"
    When the toolkit is described
    Then the described tools are, in order, with their sources:
      | name            | source |
      | srv_a           | mcp    |
      | srv_b           | mcp    |
      | srv_c           | mcp    |
      | srv_get_balance | mcp    |
      | ping            | native |
      | fetch           | http   |

  @id:c1-result-shape @required @src:spec-c1-shape
  @C1.3
  Scenario Outline: executing the <kind> tool gives a string output and a boolean isError
    Given an MCP server "srv" over streamable HTTP
    And a native tool "ping" that returns "pong"
    And an http tool "fetch" for GET "{{endpoint}}/x"
    When the tool "<tool>" is executed with {}
    Then the execute result is exactly <result>

    Examples:
      | kind   | tool  | result                                                                |
      | MCP    | srv_a | {"output": "a:ok", "isError": false, "metadata": {"server": "srv"}}   |
      | native | ping  | {"output": "pong", "isError": false}                                  |
      | http   | fetch | {"output": "ok", "isError": false, "metadata": {"status": 200}}       |

  @id:c1-unknown-tool @recommended @src:rec-c1-unknown
  @C1.4
  Scenario: executing a name no tool has is an error result, not an exception
    Given a native tool "ping" that returns "pong"
    When the tool "ghost" is executed with {}
    Then the execute result is an error whose output is exactly "Unknown tool: ghost"

  @id:c1-no-args-empty-object @recommended @src:rec-c1-noargs
  @C1.5
  Scenario Outline: executing an MCP tool with <given> arguments sends an empty object
    Given an MCP server "r" over streamable HTTP listing the results tools
    When the tool "r_echo" is executed with <given> arguments
    Then the fake "r" received tools/call of "echo" with the arguments {}

    Examples:
      | given |
      | no    |
      | null  |

  @id:c1-dead-server-result @recommended @src:rec-c1-failure-result
  @C1.6
  Scenario: a server that dies in the middle of a call gives an error result, not an exception
    Given an MCP server "d" over stdio listing the results tools
    # A port that notices the dead server only at its own request timeout (the server's
    # timeout, 30 s by default) ends well inside the call's bound with this one.
    And server "d" has the timeout 3000 ms
    When the tool "d_r_die" is executed with {}
    Then the execute result is an error with a non-empty output

  @id:c1-closed-port-result @recommended @src:rec-c1-failure-result
  @C1.6
  Scenario: an http tool aimed at a closed port gives an error result, not an exception
    Given an http tool "gone" for GET "{{closed}}/x"
    When the tool "gone" is executed with {}
    Then the execute result is an error with a non-empty output
