Feature: Gap 3 - the MCP load honours the caller's cancellation and deadline
  Every phase of an MCP load (start, initialize, list) is bounded by the server's timeout
  and by the caller. A caller's cancel or deadline fails the whole load; one server's own
  failure only marks that server failed.

  @id:g3-cancel-hung-server @required @src:adr-g3-cancel
  @G3.1
  @within:2000
  Scenario Outline: a cancel ends a load stuck on a hung server (<entry>)
    Given a hung MCP server "stuck"
    When the MCP config is <entry> with a cancel after 100 ms
    Then the call fails with kind "cancelled"
    And the call returns within its declared bound

    Examples:
      | entry                 |
      | loaded                |
      | built into a toolkit  |

  @id:g3-sse-fallback-hang-bounded @required @src:adr-g3-sse-bound
  @G3.2
  @within:2400
  Scenario: a server that forces the SSE fallback and then hangs is failed within its timeout
    Given an MCP server "fallback" that refuses streamable HTTP and hangs on SSE, with a timeout of 400 ms
    When the MCP config is loaded
    Then the call succeeds
    And server "fallback" is failed
    And the fake "fallback" saw the client reach its SSE endpoint
    And the call returns within its declared bound

  @id:g3-deadline-beats-slow-server @required @src:adr-g3-deadline
  @G3.3
  @within:4000
  Scenario Outline: a 50 ms deadline beats a server that answers after 5 s (<entry>)
    Given a slow MCP server "slow" that answers after 5 s
    When the MCP config is <entry> with a deadline of 50 ms
    Then the call fails with this port's deadline error
    And the call returns within its declared bound

    Examples:
      | entry                 |
      | loaded                |
      | built into a toolkit  |

  @id:g3-no-context-load @required @src:adr-g3-backcompat
  @G3.4
  Scenario: the no-context load of the shared fixture config connects and lists as before
    Given the shared fixture config "shared.json"
    When the MCP config is loaded without a context
    Then the call succeeds
    And server "files" is connected
    And server "hr" is connected
    And the tools match the fixture "mcp/shared.expected.json"

  @id:g3-cancel-mid-load-no-leak @required @src:adr-a1-no-leak
  @G3.5
  Scenario: a cancel mid-load leaves no child process and no open connection
    Given an MCP server "local" over stdio
    And a hung MCP server "stuck"
    When the MCP config is loaded with a cancel after 700 ms
    Then the call fails with kind "cancelled"
    And the stdio server of "local" is gone
    And the fake "stuck" has no open connection

  @id:g3-sse-only-fallback @required @src:spec-2-sse-fallback
  @G3.6
  Scenario: an SSE-only server is reached through the fallback
    Given an MCP server "legacy" over SSE only
    When the MCP config is loaded
    Then the call succeeds
    And server "legacy" is connected
    And the tools are exactly legacy_a, legacy_b, legacy_c, legacy_get_balance

  @id:a1-per-server-timeout-isolated @required @src:adr-a1-isolation
  @A1.1
  Scenario: a per-server timeout within the caller's budget fails only that server
    Given a hung MCP server "stuck" with a timeout of 300 ms
    And an MCP server "good" over streamable HTTP
    When the MCP config is loaded with a deadline of 10000 ms
    Then the call succeeds
    And server "stuck" is failed
    And server "good" is connected
    And the tools are exactly good_a, good_b, good_c, good_get_balance

  @id:g3-pre-cancelled @required @src:adr-g3-cancel @src:adr-a1-no-leak
  @G3.7
  @within:2000
  Scenario Outline: a context cancelled before the call fails it and leaves nothing running (<entry>)
    Given an MCP server "local" over stdio
    And an MCP server "remote" over streamable HTTP
    When the MCP config is <entry> with an already cancelled context
    Then the call fails with kind "cancelled"
    And the call returns within its declared bound
    And no stdio child is left and no fake has an open connection

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-pre-cancelled-starts-nothing @recommended @src:rec-g3-pre-cancel-nothing
  @G3.7
  Scenario Outline: a context cancelled before the call starts no stdio child (<entry>)
    Given an MCP server "local" over stdio
    When the MCP config is <entry> with an already cancelled context
    Then the call fails with kind "cancelled"
    And the stdio server of "local" was never started

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-cancel-during-spawn @required @src:adr-g3-prompt @src:adr-a1-no-leak
  @G3.7
  @within:6000
  Scenario Outline: a cancel while a stdio server is still starting fails the call and leaves no child (<entry>)
    Given an MCP server "slowstart" over stdio that stalls in spawn
    When the MCP config is <entry> with a cancel after 300 ms
    Then the call fails with kind "cancelled"
    And the call returns within its declared bound
    And the fake "slowstart" saw the client reach spawn
    And no stdio child is left and no fake has an open connection

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-cancel-during-spawn-2s @recommended @src:rec-g3-spawn-2s
  @G3.7
  @within:2000
  Scenario Outline: a cancel while a stdio server is still starting returns within 2 s (<entry>)
    Given an MCP server "slowstart" over stdio that stalls in spawn
    When the MCP config is <entry> with a cancel after 300 ms
    Then the call fails with kind "cancelled"
    And the call returns within its declared bound
    And the fake "slowstart" saw the client reach spawn

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-cancel-stalled-phase @required @src:adr-g3-phases @src:adr-g3-cancel @src:adr-a1-no-leak
  @G3.8
  @quick
  Scenario Outline: a cancel ends a load stalled at <phase> over <transport>
    Given an MCP server "stuck" over <transport> that stalls in <phase>
    When the MCP config is loaded with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
    And the call returns within the declared bound of the caller's limit
    And the fake "stuck" saw the client reach <phase>
    And no stdio child is left and no fake has an open connection

    @G3.7 @src:adr-g3-prompt
    @within-limit:4500
    Examples: spawn (a stdio child still starting: well before the server's own timeout)
      | phase | transport | grace |
      | spawn | stdio     | 4500  |

    @within-limit:2000
    Examples: initialize and tools/list
      | phase      | transport       | grace |
      | initialize | stdio           | 2000  |
      | initialize | streamable HTTP | 2000  |
      | initialize | SSE only        | 2000  |
      | tools/list | stdio           | 2000  |
      | tools/list | streamable HTTP | 2000  |
      | tools/list | SSE only        | 2000  |

  @id:g3-cancel-stalled-list @required @src:adr-g3-phases @src:adr-g3-cancel
  @G3.8
  @quick @within-limit:2000
  Scenario Outline: a cancel ends a call stalled in tools/list (<entry>)
    Given an MCP server "stuck" over streamable HTTP that stalls in tools/list
    When the MCP config is <entry> with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
    And the call returns within the declared bound of the caller's limit
    And the fake "stuck" saw the client reach tools/list

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-deadline-stalled-list @required @src:adr-g3-phases @src:adr-g3-deadline
  @G3.8
  @quick @within-limit:2000
  Scenario Outline: a deadline ends a call stalled in tools/list (<entry>)
    Given an MCP server "stuck" over streamable HTTP that stalls in tools/list
    When the MCP config is <entry> with a deadline of 1500 ms
    Then the call fails with this port's deadline error
    And the call returns within the declared bound of the caller's limit
    And the fake "stuck" saw the client reach tools/list

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-server-timeout-stalled-list @required @src:adr-g3-phases @src:adr-a1-isolation
  @G3.8
  @quick @within-timeout:2000
  Scenario Outline: a server's own timeout ends its stall in tools/list; the others load (<entry>)
    Given an MCP server "stuck" over streamable HTTP that stalls in tools/list with a timeout of 1500 ms
    And an MCP server "good" over streamable HTTP
    When the MCP config is <entry>
    Then the call succeeds
    And server "stuck" is failed
    And server "good" is connected
    And the call returns within the declared bound of the server's timeout
    And the fake "stuck" saw the client reach tools/list

    Examples:
      | entry                |
      | loaded               |
      | built into a toolkit |
      | listed               |

  @id:g3-no-leak-after-server-timeout @required @src:adr-a1-no-leak
  @G3.9
  @quick
  Scenario Outline: nothing is left open after a per-server timeout (<transport>)
    Given an MCP server "stuck" over <transport> that stalls in tools/list with a timeout of 1500 ms
    And an MCP server "good" over streamable HTTP
    When the MCP config is loaded
    Then the call succeeds
    And server "stuck" is failed
    And the fake "stuck" saw the client reach tools/list
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-leak-after-cancel @required @src:adr-a1-no-leak
  @G3.9
  @quick
  Scenario Outline: nothing is left open after a caller's cancel (<transport>)
    Given an MCP server "stuck" over <transport> that stalls in tools/list
    And an MCP server "good" over <transport>
    When the MCP config is loaded with a cancel after 1500 ms
    Then the call fails with kind "cancelled"
    And the fake "stuck" saw the client reach tools/list
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-leak-after-deadline @required @src:adr-a1-no-leak
  @G3.9
  @quick
  Scenario Outline: nothing is left open after a caller's deadline (<transport>)
    Given an MCP server "stuck" over <transport> that stalls in tools/list
    And an MCP server "good" over <transport>
    When the MCP config is loaded with a deadline of 1500 ms
    Then the call fails with this port's deadline error
    And the fake "stuck" saw the client reach tools/list
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-leak-after-close @required @src:adr-a1-no-leak
  @G3.9
  Scenario Outline: nothing is left open after a normal close (<transport>)
    Given an MCP server "one" over <transport>
    And an MCP server "two" over <transport>
    When the MCP config is loaded
    Then the call succeeds
    And server "one" is connected
    And server "two" is connected
    And no stdio child is left and no fake has an open stream

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-idle-after-close @recommended @src:rec-g3-idle
  @G3.9
  Scenario Outline: no idle connection is left after a normal close (<transport>)
    Given an MCP server "one" over <transport>
    And an MCP server "two" over <transport>
    When the MCP config is loaded
    Then the call succeeds
    And server "one" is connected
    And server "two" is connected
    And no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-leak-after-hung-stdio-timeout @required @src:adr-a1-no-leak
  @G3.9
  @quick
  Scenario: nothing is left after a hung stdio server's own timeout
    Given a hung stdio MCP server "hung" with a timeout of 1000 ms
    And an MCP server "good" over streamable HTTP
    When the MCP config is loaded
    Then the call succeeds
    And server "hung" is failed
    And server "good" is connected
    And the fake "hung" saw the client reach initialize
    And no stdio child is left and no fake has an open connection

  @id:g3-no-leak-after-toolkit-close @required @src:adr-a1-no-leak
  @G3.9
  Scenario Outline: nothing is left open after a toolkit is closed (<transport>)
    Given an MCP server "one" over <transport>
    When the MCP config is built into a toolkit
    Then the call succeeds
    And server "one" is connected
    When the toolkit is closed
    Then no stdio child is left and no fake has an open stream

    Examples:
      | transport       |
      | stdio           |
      | streamable HTTP |
      | SSE only        |

  @id:g3-no-idle-after-toolkit-close @recommended @src:rec-g3-idle
  @G3.9
  Scenario Outline: no idle connection is left after a toolkit is closed (<transport>)
    Given an MCP server "one" over <transport>
    When the MCP config is built into a toolkit
    Then the call succeeds
    And server "one" is connected
    When the toolkit is closed
    Then no stdio child is left and no fake has an open connection

    Examples:
      | transport       |
      | streamable HTTP |
      | SSE only        |
