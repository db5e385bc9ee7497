@contract
Feature: Contract C2 - how MCP tools are named and called
  The awkward fake lists get.balance, send money, café, 🚀launch, 2fa, a.b, a_b, t, y.t, patch, a
  70-character name and echo; every one of them answers with the name it was called by and the
  arguments it received.

  @id:c2-prefix @required @src:spec-c2-prefix
  @C2.2
  Scenario: a tool is exposed as sanitize(server)_sanitize(tool)
    Given an MCP server "bank.v2" over streamable HTTP listing the awkward tools
    And an MCP server "my server" over streamable HTTP listing the awkward tools
    When the toolkit is built
    Then the tools include bank_v2_get_balance, bank_v2_send_money, bank_v2_caf_, my_server_send_money, my_server_get_balance

  @id:c2-astral-exposed @required @src:spec-c2-sanitize-js
  @C2.4
  Scenario: a tool named with a character outside the BMP gets one underscore per UTF-16 unit of it
    Given an MCP server "x" over streamable HTTP listing the awkward tools
    When the toolkit is built
    Then the tools include x___launch

  @id:c2-passthrough @recommended @src:rec-c2-passthrough
  @C2.5
  Scenario: a leading digit and a 70-character name pass through unchanged
    Given an MCP server "9lives" over streamable HTTP listing the awkward tools
    When the toolkit is built
    Then the tools include 9lives_2fa, 9lives_long_name_012345678901234567890123456789012345678901234567890123456789

  @id:c2-calls-original-name @required @src:spec-c2-original
  @C2.6
  Scenario: executing the exposed name calls the server's original name
    Given an MCP server "bank.v2" over streamable HTTP listing the awkward tools
    When the tool "bank_v2_get_balance" is executed with {"x": "acct-1"}
    Then the fake "bank.v2" received tools/call of "get.balance" with the arguments {"x": "acct-1"}

  @id:c2-dedupe-first-wins @required @src:spec-c2-dedupe
  @C2.7
  Scenario: two tools that sanitize to one name: the first listed is kept and called
    Given an MCP server "s" over streamable HTTP listing the awkward tools
    When the toolkit is described
    Then the described tools have exactly one "s_a_b"
    When the tool "s_a_b" is executed with {"x": "1"}
    Then the fake "s" received tools/call of "a.b" with the arguments {"x": "1"}

  @id:c2-dedupe-warned @recommended @src:rec-c2-dedupe-warn
  @C2.7
  Scenario: the dropped duplicate is named in one warning
    Given an MCP server "s" over streamable HTTP listing the awkward tools
    When the toolkit is built
    Then exactly one warning names "s_a_b"

  @id:c2-config-order-wins @recommended @src:rec-c2-config-order
  @C2.8
  Scenario: across servers the config order decides which duplicate is kept, even when the first server answers last
    Given an MCP server "x.y" over streamable HTTP listing the awkward tools, whose tools/list answers after 400 ms
    And an MCP server "x" over streamable HTTP listing the awkward tools
    And the MCP config is written to a file
    When the toolkit is described
    Then the described tools have exactly one "x_y_t"
    When the tool "x_y_t" is executed with {"x": "1"}
    Then the fake "x.y" received tools/call of "t" with the arguments {"x": "1"}
    And the fake "x.y" received 1 tools/call request
    And the fake "x" received 0 tools/call requests

  @id:c2-mcp-beats-builtin @required @src:spec-c2-builtin
  @C2.9
  Scenario: an MCP tool beats the built-in tool of the same name
    Given an MCP server "apply" over streamable HTTP listing the awkward tools
    And the built-in tools are on
    And a toolkit with only the built-in tools has a built-in "apply_patch"
    When the toolkit is described
    Then the described tools have exactly one "apply_patch"
    And the described tool "apply_patch" has source "mcp"
    When the tool "apply_patch" is executed with {"x": "1"}
    Then the fake "apply" received tools/call of "patch" with the arguments {"x": "1"}
    And the fake "apply" received 1 tools/call request

  @id:c2-native-verbatim @recommended @src:rec-c2-verbatim
  @C2.10
  Scenario: native and http tool names are used verbatim
    Given a native tool "my.tool" that returns "ok"
    And an http tool "get weather" for GET "http://127.0.0.1:9/weather"
    When the toolkit is described
    And the schema adapters are rendered
    Then the tool order is my.tool, get weather in the description and in all three adapters
