@contract
Feature: Contract C5 - the order and shape of MCP tools in the toolkit

  @id:c5-grouped-config-order @recommended @src:rec-c2-config-order
  @C5.6
  Scenario: MCP tools are grouped by server in config order, each in its server's list order, even when the first server answers last
    Given an MCP server "one" over streamable HTTP listing the results tools, whose tools/list answers after 400 ms
    And an MCP server "two" over streamable HTTP
    And the MCP config is written to a file
    When the toolkit is described
    Then the described tool names are, in order, one_r_text2, one_r_err2, one_r_err_blank, one_r_struct, one_r_struct_err, one_r_struct_empty, one_r_num, one_r_image, one_r_mixed, one_r_badout, one_r_rpcerr, one_echo, two_a, two_b, two_c, two_get_balance

  @id:c5-schema-kept @recommended @src:rec-c5-schema
  @C5.8
  Scenario: an MCP tool's schema keeps every key the server sent, and is closed
    Given an MCP server "sch" over streamable HTTP listing the schema tools
    When the toolkit is described
    Then every tool of "sch" keeps the server's schema, with type "object", properties and additionalProperties false
