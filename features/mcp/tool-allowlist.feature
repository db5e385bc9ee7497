Feature: Gap 7 - a per-server tool allowlist keyed by original tool names
  The fake server exposes a, b, c and get.balance. A `tools` map with any true entry is an
  allowlist; one with only false entries is a drop-list; no map or {} loads everything.

  @id:g7-filter-shapes @required @src:adr-g7-allowlist @src:adr-g7-droplist @src:adr-g7-empty @src:adr-g7-original
  Scenario Outline: the tools filter <filter> exposes <tools>
    Given an MCP server "srv" over streamable HTTP with the tools filter <filter>
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly <tools>

    @G7.1
    Examples: allowlist
      | filter                  | tools        |
      | {"a": true, "b": true}  | srv_a, srv_b |

    @G7.2
    Examples: drop-list
      | filter        | tools                         |
      | {"c": false}  | srv_a, srv_b, srv_get_balance |

    @G7.4
    Examples: empty map means every tool
      | filter | tools                                |
      | {}     | srv_a, srv_b, srv_c, srv_get_balance |

    @G7.6
    Examples: original names, before sanitize and prefix
      | filter                 | tools           |
      | {"get.balance": true}  | srv_get_balance |

    @G7.7
    Examples: a mixed map is a pure allowlist
      | filter                   | tools |
      | {"a": true, "c": false}  | srv_a |

  @id:g7-no-map-all-tools @required @src:adr-g7-empty
  @G7.4
  Scenario: no tools map loads every tool
    Given an MCP server "srv" over streamable HTTP
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly srv_a, srv_b, srv_c, srv_get_balance

  @id:g7-unknown-name-warned @required @src:adr-g7-unknown
  @G7.3
  Scenario: an unknown allowlist name is ignored with a warning that names it
    Given an MCP server "srv" over streamable HTTP with the tools filter {"a": true, "nope": true}
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly srv_a
    And exactly one warning names "nope"

  @id:g7-filter-from-file @required @src:adr-g7-file
  @G7.5
  Scenario: the filter is honoured when the config comes from an mcp.json file
    Given an MCP server "srv" over stdio with the tools filter {"a": true, "b": true}
    And the MCP config is written to a file
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly srv_a, srv_b

  @id:g7-shared-fixture @required @src:adr-g7-fixture
  @G7.8
  Scenario: the shared filtered fixture yields the same tool list on every port
    Given the shared fixture config "shared-filtered.json"
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools match the fixture "mcp/shared-filtered.expected.json"

  @id:g7-sanitized-key-matches-nothing @required @src:adr-g7-original @src:adr-g7-unknown
  @G7.9
  Scenario Outline: a filter key that is a sanitized or prefixed name matches nothing and is warned (<key>)
    Given an MCP server "srv" over streamable HTTP with the tools filter <filter>
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly <tools>
    And exactly one warning names "<key>"

    Examples:
      | key             | filter                      | tools                                |
      | get_balance     | {"get_balance": true}       | none                                 |
      | srv_a           | {"srv_a": true}             | none                                 |
      | srv_get_balance | {"srv_get_balance": true}   | none                                 |
      | srv_c           | {"srv_c": false}            | srv_a, srv_b, srv_c, srv_get_balance |
      | get_balance     | {"get_balance": false}      | srv_a, srv_b, srv_c, srv_get_balance |

  @id:g7-mixed-order-independent @required @src:adr-g7-allowlist
  @G7.10
  Scenario Outline: several true and several false entries make a pure allowlist, whatever the key order (<filter>)
    Given an MCP server "srv" over streamable HTTP with the tools filter <filter>
    When the MCP config is built into a toolkit 5 times
    Then every build succeeds and exposes exactly <tools>

    Examples:
      | filter                                                | tools        |
      | {"a": true, "b": true, "c": false, "nope": false}     | srv_a, srv_b |
      | {"nope": false, "c": false, "b": true, "a": true}     | srv_a, srv_b |
      | {"b": true, "nope": false, "a": true, "c": false}     | srv_a, srv_b |
      | {"a": false, "b": false, "c": true, "zzz": true}      | srv_c        |
      | {"zzz": true, "b": false, "c": true, "a": false}      | srv_c        |

  @id:g7-filter-per-server @required @src:adr-g7-allowlist @src:adr-g7-droplist
  @G7.1 @G7.2
  Scenario Outline: a server's filter applies to that server only, whichever comes first (<filtered> filtered by <filter>)
    Given an MCP server "<filtered>" over streamable HTTP with the tools filter <filter>
    And an MCP server "<plain>" over streamable HTTP
    When the MCP config is built into a toolkit
    Then the call succeeds
    And the tools are exactly <tools>

    Examples:
      | filtered | plain | filter         | tools                                                                 |
      | alpha    | beta  | {"a": true}    | alpha_a, beta_a, beta_b, beta_c, beta_get_balance                     |
      | beta     | alpha | {"a": true}    | alpha_a, alpha_b, alpha_c, alpha_get_balance, beta_a                  |
      | alpha    | beta  | {"c": false}   | alpha_a, alpha_b, alpha_get_balance, beta_a, beta_b, beta_c, beta_get_balance |
      | beta     | alpha | {"c": false}   | alpha_a, alpha_b, alpha_c, alpha_get_balance, beta_a, beta_b, beta_get_balance |
