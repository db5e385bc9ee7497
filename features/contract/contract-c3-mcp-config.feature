@contract
Feature: Contract C3 - the MCP config file
  Each scenario writes its config as text, with the fakes put in by placeholder: {{stdio:x}} is a
  stdio fake's server object, {{http:x}} a streamable HTTP fake's, {{hang:x}} a listener that
  counts connections and never answers, {{closed}} a URL nobody listens on.

  @id:c3-wrappers @required @src:spec-c3-wrappers
  @C3.1
  Scenario Outline: servers under "<wrapper>" (<given>) load the same tools and statuses
    Given the MCP config <given>:
      """
      {"<wrapper>": {"one": {{stdio:one}}, "two": {{http:two}}}}
      """
    When the toolkit is built
    Then the tools are exactly one_a, one_b, one_c, one_get_balance, two_a, two_b, two_c, two_get_balance
    And the status lists exactly the servers one, two
    And server "one" is connected
    And server "two" is connected

    Examples:
      | wrapper    | given  |
      | mcpServers | file   |
      | mcpServers | inline |
      | servers    | file   |
      | servers    | inline |
      | mcp        | file   |
      | mcp        | inline |

  @id:c3-reserved-keys @required @src:spec-c3-reserved
  @C3.2
  Scenario: a bare server map ignores the reserved top-level keys
    Given the MCP config file:
      """
      {"one": {{http:one}}, "builtins": {{hang:builtins}}, "agents": {{hang:agents}}, "a2a": {{hang:a2a}}, "mcpServer": {{hang:mcpServer}}}
      """
    When the toolkit is built
    Then the tools are exactly one_a, one_b, one_c, one_get_balance
    And the status lists exactly the servers one
    And the fake "builtins" saw no connection attempt
    And the fake "agents" saw no connection attempt
    And the fake "a2a" saw no connection attempt
    And the fake "mcpServer" saw no connection attempt

  @id:c3-wrapper-precedence @recommended @src:rec-c3-wrapper-order
  @C3.3
  Scenario Outline: with both "<first>" and "<second>", only "<first>" is loaded
    Given the MCP config file:
      """
      {"<second>": {"b": {{hang:b}}}, "<first>": {"a": {{http:a}}}}
      """
    When the toolkit is built
    Then the status lists exactly the servers a
    And the fake "b" saw no connection attempt

    Examples:
      | first      | second  |
      | mcpServers | servers |
      | servers    | mcp     |

  @id:c3-url-is-remote @required @src:spec-c3-transport
  @C3.4
  Scenario: an entry with a url is reached over HTTP, one with a command starts a child
    Given the MCP config file:
      """
      {"mcpServers": {"remote": {{http:remote}}, "local": {"command": {{command:local}}}}}
      """
    When the toolkit is built
    Then server "remote" is connected
    And server "local" is connected
    And the stdio server of "local" was started

  @id:c3-url-path-kept @required @src:spec-c3-remote-url
  @C3.4
  Scenario: a remote server is reached at its URL's own path, not at a default one
    Given the MCP config file:
      """
      {"mcpServers": {"deep": {{http-deep:deep}}}}
      """
    When the toolkit is built
    Then the fake "deep" got every request at the configured path
    And server "deep" is connected
    And the tools are exactly deep_a, deep_b, deep_c, deep_get_balance

  @id:c3-explicit-type-wins @required @src:spec-c3-transport
  @C3.4
  Scenario: type "local" with only a url is a failed server
    Given the MCP config file:
      """
      {"mcpServers": {"typed": {"type": "local", "url": {{url:typed}}}, "good": {{http:good}}}}
      """
    When the toolkit is built
    Then server "typed" is failed
    And server "good" is connected
    And the tools are exactly good_a, good_b, good_c, good_get_balance

  @id:c3-url-and-command @recommended @src:rec-c3-url-wins
  @C3.5
  Scenario: an entry with both a url and a command, and no type, is remote
    Given the MCP config file:
      """
      {"mcpServers": {"both": {"url": {{url:both}}, "command": {{command:both}}}}}
      """
    When the toolkit is built
    Then server "both" is connected
    And the stdio server of "both" was never started

  @id:c3-disabled @required @src:spec-c3-disabled
  @C3.6
  Scenario Outline: <flags> makes a server disabled, and nothing is started for it
    Given the MCP config file:
      """
      {"mcpServers": {"off": {"url": {{hang-url:off}}, <flags>}, "local": {"command": {{command:local}}, <flags>}, "good": {{http:good}}}}
      """
    When the toolkit is built
    Then server "off" is disabled
    And server "local" is disabled
    And server "good" is connected
    And the fake "off" saw no connection attempt
    And the stdio server of "local" was never started

    Examples:
      | flags                             |
      | "disabled": true                  |
      | "enabled": false                  |
      | "disabled": false, "enabled": false |
      | "disabled": true, "enabled": true |

  @id:c3-enabled-string @recommended @src:rec-c3-strict-bool
  @C3.7
  Scenario: "enabled": "false" as a string leaves the server enabled
    Given the MCP config file:
      """
      {"mcpServers": {"one": {"url": {{url:one}}, "enabled": "false"}, "two": {{http:two}}}}
      """
    When the toolkit is built
    Then server "one" is connected
    And server "two" is connected

  @id:c3-failed-isolated @required @src:spec-c3-isolated
  @C3.9
  Scenario: failed servers are isolated: the good ones load and the load raises nothing
    Given the MCP config file:
      """
      {"mcpServers": {
        "good-stdio": {{stdio:good-stdio}},
        "good-http": {{http:good-http}},
        "closed": {"url": {{closed}}, "timeout": 3000},
        "missing": {"command": ["/nonexistent/toolnexus-no-such-binary"], "timeout": 3000},
        "nocwd": {"command": {{command:nocwd}}, "cwd": "/nonexistent/toolnexus-no-such-dir", "timeout": 3000}
      }}
      """
    When the toolkit is built
    Then server "good-stdio" is connected
    And server "good-http" is connected
    And server "closed" is failed
    And server "missing" is failed
    And server "nocwd" is failed
    And the tools are exactly good-stdio_a, good-stdio_b, good-stdio_c, good-stdio_get_balance, good-http_a, good-http_b, good-http_c, good-http_get_balance

  @id:c3-claude-desktop @required @src:spec-c3-claude-superset
  @C3.10
  Scenario: the Claude-desktop form, a command string with args, starts the server
    Given the MCP config file:
      """
      {"mcpServers": {"claude": {"command": {{program:claude}}, "args": {{args:claude}}, "env": {"TNX_FOO": "bar"}}}}
      """
    When the toolkit is built
    Then server "claude" is connected
    And the tools are exactly claude_a, claude_b, claude_c, claude_get_balance

  @id:c3-malformed-isolated @recommended @src:rec-c3-malformed
  @C3.11
  Scenario Outline: a malformed entry (<what>) is "<status>", and the good server beside it loads
    Given the MCP config file:
      """
      {"mcpServers": {"odd": <entry>, "good": {{http:good}}}}
      """
    When the toolkit is built
    Then server "odd" is <status>
    And server "good" is connected

    Examples:
      | what                                  | entry                                                          | status    |
      | a command string naming no executable | {"command": "toolnexus-no-such-binary --stdio"}                | failed    |
      | a timeout given as a string           | {"url": {{url:odd}}, "timeout": "5000"}                        | connected |
      | a server that is a number             | 42                                                             | failed    |
      | a number inside environment           | {"command": {{command:odd}}, "environment": {"TNX_N": 5}}      | connected |

  @id:c3-timeout-zero @recommended @src:rec-c3-timeout-zero
  @C3.12
  Scenario: "timeout": 0 on a healthy server means the default, not "fail at once"
    Given the MCP config file:
      """
      {"mcpServers": {"zero": {"url": {{url:zero}}, "timeout": 0}, "local": {"command": {{command:local}}, "timeout": 0}}}
      """
    When the toolkit is built
    Then server "zero" is connected
    And server "local" is connected

  @id:c3-default-timeout @required @src:spec-c3-timeout
  @C3.8
  Scenario: with no timeout key, a handshake that takes 2 s is waited for
    Given an MCP server "slow" over streamable HTTP whose handshake answers after 2000 ms
    When the toolkit is built
    Then server "slow" is connected

  @id:c3-timeout-honoured @required @src:spec-c3-timeout @src:spec-c3-isolated
  @C3.8
  Scenario: with timeout 700, the same slow handshake fails that server, and the load goes on
    Given an MCP server "slow" over streamable HTTP whose handshake answers after 2000 ms
    And server "slow" has the timeout 700 ms
    And an MCP server "good" over streamable HTTP
    When the toolkit is built
    Then server "slow" is failed
    And server "good" is connected

  @id:c3-header-expanded @required @src:spec-c3-headers
  @C3.13
  Scenario: a ${ENV} header reaches the server expanded, on every step of the session
    Given an MCP server "h" over streamable HTTP listing the results tools
    And server "h" sends the headers {"Authorization": "Bearer ${TNX_SECRET}"}
    When the tool "h_r_text2" is executed with {}
    Then the fake "h" received "Authorization" as "Bearer s3cr3t-9f2c" on initialize, tools/list and tools/call

  @id:c3-header-forms @recommended @src:rec-c3-header-forms
  @C3.14
  Scenario Outline: the header <header>: <value> arrives as "<sent>"
    Given an MCP server "h" over streamable HTTP
    And server "h" sends the headers {"<header>": "<value>"}
    When the toolkit is built
    Then the fake "h" received "<header>" as "<sent>" on initialize and tools/list

    Examples:
      | header | value              | sent               |
      | X-A    | a${TNX_UNSET}b     | ab                 |
      | X-B    | $TNX_SECRET        | $TNX_SECRET        |
      | X-C    | ${TNX_SECRET:-d}   | ${TNX_SECRET:-d}   |

  @id:c3-sse-headers @recommended @src:rec-c3-sse-headers
  @C3.15
  Scenario: on the SSE fallback the expanded header is on the GET and on every POST
    Given an MCP server "sse" over SSE only
    And server "sse" sends the headers {"Authorization": "Bearer ${TNX_SECRET}"}
    When the toolkit is built
    Then the fake "sse" received "Authorization" as "Bearer s3cr3t-9f2c" on every request, its SSE GET included

  @id:c3-secret-never-logged @required @src:spec-c3-secret
  @C3.16
  Scenario Outline: the expanded secret is nowhere in what the adapter reports, for <case>
    Given <server>
    And server "s" sends the headers {"Authorization": "Bearer ${TNX_SECRET}"}
    When the MCP config is built into a toolkit<limit>
    Then nothing the adapter emitted contains the secret

    Examples:
      | case                     | server                                                        | limit                  |
      | a successful load        | an MCP server "s" over streamable HTTP                        |                        |
      | a server answering 401   | an MCP server "s" over streamable HTTP that answers 401       |                        |
      | an unreachable server    | an unreachable MCP server "s"                                 |                        |

  @id:c3-secret-never-logged-cancel @required @src:spec-c3-secret
  @C3.16
  Scenario: the expanded secret is nowhere in what the adapter reports for a load cancelled after 100 ms
    Given a hung MCP server "s"
    And server "s" sends the headers {"Authorization": "Bearer ${TNX_SECRET}"}
    When the MCP config is loaded with a cancel after 100 ms, for the scan
    Then nothing the adapter emitted contains the secret

  @id:c3-env-merged @required @src:spec-c3-env
  @C3.17
  Scenario: the child gets the process environment plus the entry's environment
    Given the MCP config file:
      """
      {"mcpServers": {"e": {"command": {{command:e:env}}, "environment": {"TNX_FOO": "bar"}}}}
      """
    When the tool "e_env" is executed with {}
    Then the child reports "TNX_FOO" as "bar"
    And the child reports "TNX_PARENT" as "1"

  @id:c3-env-alias @required @src:spec-c3-env
  @C3.18
  Scenario: "env" is an alias of "environment"
    Given the MCP config file:
      """
      {"mcpServers": {"e": {"command": {{command:e:env}}, "env": {"TNX_FOO": "bar"}}}}
      """
    When the tool "e_env" is executed with {}
    Then the child reports "TNX_FOO" as "bar"
    And the child reports "TNX_PARENT" as "1"

  @id:c3-env-both @recommended @src:rec-c3-env-both
  @C3.19
  Scenario Outline: with environment <environment> and env {"TNX_FOO": "b"}, the child sees TNX_FOO as <seen>
    Given the MCP config file:
      """
      {"mcpServers": {"e": {"command": {{command:e:env}}, "environment": <environment>, "env": {"TNX_FOO": "b"}}}}
      """
    When the tool "e_env" is executed with {}
    Then the child reports "TNX_FOO" as <seen>

    Examples:
      | environment       | seen |
      | {"TNX_FOO": "a"}  | "a"  |
      | {}                | null |

  @id:c3-cwd @required @src:spec-c3-cwd
  @C3.20
  Scenario: the child runs in the entry's cwd
    Given the scenario's temp dir has a directory "work"
    And the MCP config file:
      """
      {"mcpServers": {"e": {"command": {{command:e:env}}, "cwd": {{tmp-path:work}}}}}
      """
    When the tool "e_env" is executed with {}
    Then the child's working directory is the temp dir's "work"

  @id:c3-paginate @required @src:spec-c3-paginate
  @C3.21
  Scenario: a server that lists 3 pages through nextCursor exposes all 5 tools, in page order
    Given an MCP server "p" over streamable HTTP listing the paged tools
    When the toolkit is described
    Then the described tool names are, in order, p_page1_a, p_page1_b, p_page2_a, p_page2_b, p_page3_a
