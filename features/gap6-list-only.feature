Feature: Gap 6 - a list-only MCP inventory
  Listing connects to every enabled server, lists its tools under their original names,
  unfiltered, and disconnects before it returns. One bad server is only marked failed.

  @G6.1
  Scenario: a good and an unreachable server
    Given an MCP server "good" over streamable HTTP
    And an unreachable MCP server "bad"
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "good" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And server "good" is connected
    And server "bad" is failed

  @G6.2
  Scenario: listing leaves no stdio child behind
    Given an MCP server "local" over stdio
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "local" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And the stdio server of "local" is gone

  @G6.3
  Scenario: a disabled server is never contacted
    Given a disabled MCP server "off"
    And an MCP server "good" over streamable HTTP
    When the MCP config is listed
    Then the call succeeds
    And server "off" is disabled
    And server "good" is connected
    And the fake "off" saw no connection attempt

  @G6.4
  Scenario: a cancel ends a listing stuck on a hung server
    Given a hung MCP server "stuck"
    When the MCP config is listed with a cancel after 100 ms
    Then the call fails with kind "cancelled"
    And the call returns within 2000 ms

  @G6.5
  Scenario: the inventory ignores the allowlist and keeps original names
    Given an MCP server "srv" over streamable HTTP with the tools filter {"a": true, "nope": true}
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "srv" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And no warning names "nope"
