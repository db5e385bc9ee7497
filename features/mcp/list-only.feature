Feature: Gap 6 - a list-only MCP inventory
  Listing connects to every enabled server, lists its tools under their original names,
  unfiltered, and disconnects before it returns. One bad server is only marked failed.

  @id:g6-good-and-unreachable @required @src:adr-g6-shape
  @G6.1
  Scenario: a good and an unreachable server
    Given an MCP server "good" over streamable HTTP
    And an unreachable MCP server "bad"
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "good" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And server "good" is connected
    And server "bad" is failed

  @id:g6-no-stdio-child @required @src:adr-g6-teardown
  @G6.2
  Scenario: listing leaves no stdio child behind
    Given an MCP server "local" over stdio
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "local" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And the stdio server of "local" is gone

  @id:g6-disabled-never-contacted @required @src:adr-g6-disabled
  @G6.3
  Scenario: a disabled server is never contacted
    Given a disabled MCP server "off"
    And an MCP server "good" over streamable HTTP
    When the MCP config is listed
    Then the call succeeds
    And server "off" is disabled
    And server "good" is connected
    And the fake "off" saw no connection attempt

  @id:g6-cancel-hung-listing @required @src:adr-g6-ctx @src:adr-g3-cancel
  @G6.4
  @within:2000
  Scenario: a cancel ends a listing stuck on a hung server
    Given a hung MCP server "stuck"
    When the MCP config is listed with a cancel after 100 ms
    Then the call fails with kind "cancelled"
    And the call returns within its declared bound

  @id:g6-ignores-allowlist @required @src:adr-g6-unfiltered
  @G6.5
  Scenario: the inventory ignores the allowlist and keeps original names
    Given an MCP server "srv" over streamable HTTP with the tools filter {"a": true, "nope": true}
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "srv" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And no warning names "nope"

  @id:g6-ignores-every-filter @required @src:adr-g6-unfiltered
  @G6.6
  Scenario Outline: the inventory ignores every filter shape (<shape>)
    Given an MCP server "srv" over streamable HTTP with the tools filter <filter>
    When the MCP config is listed
    Then the call succeeds
    And the inventory of "srv" lists exactly a, b, c, get.balance with the fake's descriptions and input schemas
    And server "srv" is connected

    Examples:
      | shape                  | filter                                                  |
      | allowlist              | {"a": true, "b": true}                                  |
      | drop-list              | {"c": false, "get.balance": false}                      |
      | mixed                  | {"a": true, "c": false}                                 |
      | several true and false | {"b": false, "a": true, "get.balance": true, "c": false} |

  @id:g6-no-leak-after-listing @required @src:adr-g6-teardown
  @G6.7
  Scenario Outline: nothing is left open after a listing succeeds (<transport>)
    Given an MCP server "one" over <transport>
    And an MCP server "two" over <transport>
    When the MCP config is listed
    Then the call succeeds
    And server "one" is connected
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g6-no-leak-after-failed-server @required @src:adr-g6-teardown
  @G6.7
  @quick
  Scenario Outline: nothing is left open after a listing with a failed server (<transport>)
    Given an MCP server "stuck" over <transport> that stalls in tools/list with a timeout of 1500 ms
    And an MCP server "good" over <transport>
    When the MCP config is listed
    Then the call succeeds
    And server "stuck" is failed
    And server "good" is connected
    And the fake "stuck" saw the client reach tools/list
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g6-no-leak-after-cancelled-listing @required @src:adr-g6-teardown @src:adr-a1-no-leak
  @G6.7
  @quick
  Scenario Outline: nothing is left open after a cancelled listing (<transport>)
    Given an MCP server "stuck" over <transport> that stalls in tools/list
    And an MCP server "good" over <transport>
    When the MCP config is listed with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
    And the fake "stuck" saw the client reach tools/list
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g6-disconnects-before-returning @required @src:adr-g6-teardown
  @G6.2 @G6.7
  Scenario: listing has ended its stdio child by the time it returns
    Given an MCP server "local" over stdio that takes 300 ms to exit
    And an MCP server "other" over stdio that takes 300 ms to exit
    When the MCP config is listed
    Then the call succeeds
    And server "local" is connected
    And the stdio server of "local" was already gone when the call returned
    And the stdio server of "other" was already gone when the call returned
