@contract
Feature: Contract C13 - the built-in tools: names, schemas, toggles and precedence
  Upstream SPEC §0.11, §4 and §4A: ten built-in tools, source "builtin", on by default, with
  identical names and input schemas across ports; builtins false, {disabled: true} or
  {enabled: false} turn the whole source off, a tools map drops the names it maps to false, and
  a host tool of a builtin's name replaces it. Nothing here runs a built-in tool.

  @id:c13-default-ten @required @src:spec-c13-names
  @C13.1
  Scenario: with no builtins option a toolkit lists the ten built-in tools, in order, each of source builtin
    Given the built-in tools are left to the library's default
    When the toolkit is built
    Then the toolkit lists all ten built-in tools, in order
    When the toolkit is described
    Then the described tool names are, in order, bash, read, write, edit, grep, glob, webfetch, question, apply_patch, todowrite

  @id:c13-schemas-follow-table @required @src:spec-c13-schemas
  @C13.2
  Scenario: each built-in tool's input schema has the table's properties, types and required names
    Given the built-in tools are left to the library's default
    When the toolkit is built
    Then each built-in tool's input schema has the properties, types and required names of upstream SPEC §4A's table

  @id:c13-whole-source-off @required @src:spec-c13-toggle
  @C13.3 @C13.6
  Scenario Outline: builtins <toggle> leaves no built-in tool, in the description or any schema adapter
    Given the built-in tools are set to <toggle>
    When the toolkit is built
    Then no built-in tool is in the toolkit's description or in any schema adapter

    Examples:
      | toggle                                  |
      | false                                   |
      | {"disabled": true}                      |
      | {"enabled": false}                      |
      | {"disabled": true, "tools": {"bash": true}} |
      | {"enabled": true, "disabled": true}     |
      | {"enabled": false, "disabled": false}   |

  @id:c13-per-tool-off @required @src:spec-c13-toggle
  @C13.4
  Scenario Outline: builtins <toggle> drops exactly the tools mapped to false, the rest in order
    Given the built-in tools are set to <toggle>
    When the toolkit is built
    Then the toolkit's built-in tools are, in order, <left>

    Examples:
      | toggle                                          | left                                                                 |
      | {"tools": {"bash": false, "write": false}}      | read, edit, grep, glob, webfetch, question, apply_patch, todowrite   |
      | {"tools": {"todowrite": false, "question": false, "read": true}} | bash, read, write, edit, grep, glob, webfetch, apply_patch |
      | {"enabled": true, "tools": {"apply_patch": false}} | bash, read, write, edit, grep, glob, webfetch, question, todowrite |

  @id:c13-map-not-allowlist @required @src:spec-c13-toggle
  @C13.5
  Scenario Outline: builtins <toggle> keeps all ten: true is no allowlist, an unknown name is ignored
    Given the built-in tools are set to <toggle>
    When the toolkit is built
    Then the toolkit lists all ten built-in tools, in order

    Examples:
      | toggle                                   |
      | true                                     |
      | {}                                       |
      | {"tools": {"bash": true}}                |
      | {"tools": {"nope": false}}               |
      | {"tools": {"Bash": false, "bash ": false}} |
      | {"enabled": true, "disabled": false}     |

  @id:c13-config-key @required @src:spec-c13-config-key
  @C13.7
  Scenario: a top-level "builtins": false in an inline config turns them off, and is no server
    Given the built-in tools are left to the library's default
    And an MCP server "srv" over streamable HTTP
    And the MCP config inline:
      """
      {"mcpServers": {"srv": {"url": {{url:srv}}}}, "builtins": false}
      """
    When the toolkit is built
    Then no built-in tool is in the toolkit's description or in any schema adapter
    When the toolkit is described
    Then the described tool names are, in order, srv_a, srv_b, srv_c, srv_get_balance
    And the status lists exactly the servers srv

  @id:c13-config-key-tools @required @src:spec-c13-config-key
  @C13.7
  Scenario: a top-level "builtins" object in an inline config is applied like the option
    Given the built-in tools are left to the library's default
    And an MCP server "srv" over streamable HTTP
    And the MCP config inline:
      """
      {"mcpServers": {"srv": {"url": {{url:srv}}}}, "builtins": {"tools": {"bash": false, "webfetch": false}}}
      """
    When the toolkit is built
    Then the toolkit's built-in tools are, in order, read, write, edit, grep, glob, question, apply_patch, todowrite
    When the toolkit is described
    Then the status lists exactly the servers srv

  @id:c13-system-prompt-unchanged @required @src:spec-c13-prompt
  @C13.8
  Scenario Outline: the system prompt is the same whatever the built-in tools (<style>, builtins <toggle>)
    Given an <style> client
    And the client's system prompt is "You are terse."
    And the skills tree "prompt"
    And the built-in tools are set to <toggle>
    And the toolkit is built
    When the client runs "go" in run mode
    Then the call succeeds
    And the system prompt of LLM request 1 is exactly:
      """
      You are terse.

      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **a**: A does
      - **b**: B does
      """

    Examples:
      | style     | toggle                          |
      | openai    | true                            |
      | anthropic | true                            |
      | openai    | false                           |
      | anthropic | {"tools": {"bash": false}}      |

  @id:c13-host-shadows-builtin @required @src:spec-c13-shadow
  @C13.9
  Scenario: a native tool named bash replaces the builtin: one bash, source native, after the built-in tools, and it runs the host's function
    Given the built-in tools are left to the library's default
    And a native tool "bash" that returns "sandboxed"
    When the toolkit is built
    Then the toolkit has exactly one "bash", with source "native", after every built-in tool
    And the toolkit's built-in tools are, in order, read, write, edit, grep, glob, webfetch, question, apply_patch, todowrite
    When the tool "bash" is executed with {"command": "echo real"}
    Then the execute result is exactly {"output": "sandboxed", "isError": false}
    And the native tool "bash" was called with {"command": "echo real"}
