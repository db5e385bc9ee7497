@contract
Feature: Contract C6 - skillsPrompt, the system prompt's catalog
  Upstream SPEC §0.6: with at least one described skill, skillsPrompt() is the preamble, a blank
  line, "## Available Skills" and one "- **name**: description" line per described skill, sorted.

  @id:c6-prompt-byte-exact @required @src:spec-c6-prompt
  @C6.19
  Scenario: two described skills and one without a description give the SPEC's catalog byte for byte
    Given the skills tree "prompt"
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **a**: A does
      - **b**: B does
      """

  @id:c6-undescribed-still-loads @required @src:spec-c6-prompt
  @C6.19
  Scenario: a skill left out of the catalog for want of a description still loads
    Given the skills tree "prompt"
    When the tool "skill" is executed with {"name": "u"}
    Then the execute result is not an error
    And the execute output contains "u body"

  @id:c6-prompt-none-described @required @src:spec-c6-prompt-empty
  @C6.20
  Scenario: with no described skill the catalog is "No skills are currently available."
    Given the skills tree "undescribed"
    Then the skills prompt is exactly:
      """
      No skills are currently available.
      """

  @id:c6-prompt-no-skills @recommended @src:rec-c6-prompt-empty
  @C6.20
  Scenario: with no skills directory at all the catalog is empty
    Then the skills prompt is empty

  @id:c6-prompt-code-points @recommended @src:rec-c6-prompt-order
  @C6.21
  Scenario: the catalog is sorted by code point, so Zeta comes before alpha
    Given the skills tree "case"
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **Zeta**: upper case first
      - **alpha**: lower case
      """

  @id:c6-prompt-names-sorted @recommended @src:rec-c6-prompt-order
  @C6.21
  Scenario: the catalog is sorted by name, so deploy comes before "deploy (prod)" although " " sorts before "*"
    Given the skills tree "prefix"
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **deploy**: plain
      - **deploy (prod)**: production
      """

  @id:c6-prompt-empty-description @recommended @src:rec-c6-empty-description
  @C6.22
  Scenario: a skill whose description is "" is left out of the catalog
    Given the skills tree "yaml"
    And the skills filter is {"empty-description": true, "plain": true}
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **plain**: loads beside the broken ones
      """

  @id:c6-literal-in-prompt @required @src:spec-c6-yaml @src:spec-c6-prompt
  @C6.4
  Scenario: a literal block keeps its inner newline and loses its trailing one
    Given the skills tree "yaml"
    And the skills filter is {"literal": true}
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **literal**: one
      two
      """

  @id:c6-filter-allowlist @required @src:spec-c6-filter
  @C6.24
  Scenario Outline: a skills filter with a true entry is an allowlist, for the catalog and the tool alike (<filter>)
    Given the skills tree "prompt"
    And the skills filter is <filter>
    When the tool "skill" is executed with {"name": "a"}
    Then the execute result is an error with a non-empty output
    And the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **b**: B does
      """

    Examples:
      | filter                  |
      | {"b": true}             |
      | {"b": true, "a": false} |
      | {"b": true, "zz": true} |

  @id:c6-filter-droplist @required @src:spec-c6-filter
  @C6.24
  Scenario: a skills filter of only false entries drops those skills
    Given the skills tree "prompt"
    And the skills filter is {"b": false}
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **a**: A does
      """

  @id:c6-prompt-description-as-written @required @src:spec-c6-prompt
  @C6.19
  Scenario: a description with a quote, a backslash, markup, a non-BMP character and U+2028 is written into the catalog as it is, unescaped
    Given the skills tree "rendered"
    And the skills filter is {"zed": true}
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **zed**: say "hi" C:\dir <b>a & b</b> 🚀 a⟨U+2028⟩b
      """

  @id:c6-prompt-sorted-by-name-not-path @required @src:spec-c6-prompt
  @C6.19
  Scenario: the catalog is sorted by the skills' names, not by their directories (z-dir holds Alpha, m-dir holds mid)
    Given the skills tree "rendered"
    And the skills filter is {"Alpha": true, "mid": true}
    Then the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **Alpha**: spaced
      - **mid**: keep
      """
