@contract
Feature: Contract C5 - the order and shape of MCP tools in the toolkit

  @id:c5-grouped-config-order @recommended @src:rec-c2-config-order
  @C5.6
  Scenario: MCP tools are grouped by server in config order, even when the first server answers last
    Given an MCP server "one" over streamable HTTP listing the paged tools, whose tools/list answers after 400 ms
    And an MCP server "two" over streamable HTTP
    And the MCP config is written to a file
    When the toolkit is described
    Then the described tool names are, in order, one_page1_a, one_page1_b, one_page2_a, one_page2_b, one_page3_a, two_a, two_b, two_c, two_get_balance

  @id:c5-schema-kept @recommended @src:rec-c5-schema
  @C5.8
  Scenario: an MCP tool's schema keeps every key the server sent, and is closed
    Given an MCP server "sch" over streamable HTTP listing the schema tools
    When the toolkit is described
    Then every tool of "sch" keeps the server's schema, with type "object", properties and additionalProperties false
