@contract
Feature: Contract C6 - the skill tool
  Upstream SPEC §0.6: the skill tool's output is byte-exact. Paths are compared with the skills root
  written <SKILLS>; everything else byte for byte.

  @id:c6-tool-described @required @src:spec-c6-skill-txt
  @C6.11
  Scenario: the skill tool is one tool named skill, source skill, described by skill.txt, taking a name
    Given the skills tree "hello"
    When the toolkit is described
    Then the described tools have exactly one "skill"
    And the described tool "skill" has source "skill"
    And the described tool "skill" has exactly the description:
      """
      Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.

      Use this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.

      The skill name must match one of the skills listed in your system prompt.
      """

  @id:c6-tool-schema @recommended @src:rec-c6-closed-schema @src:spec-c6-skill-txt
  @C6.11
  Scenario: the skill tool's input schema is the SPEC's, closed as the upstream reference has it
    Given the skills tree "hello"
    When the toolkit is described
    Then the described tool "skill" has the input schema {"type": "object", "properties": {"name": {"type": "string", "description": "The name of the skill to load"}}, "required": ["name"], "additionalProperties": false}

  @id:c6-block-byte-exact @required @src:spec-c6-block
  @C6.12
  Scenario: loading hello-world gives the SPEC's block byte for byte
    Given the skills tree "hello"
    When the tool "skill" is executed with {"name": "hello-world"}
    Then the execute result is not an error
    And the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="hello-world">
      # Skill: hello-world

      # Hello world

      Run `scripts/greet.sh <name>` and show its output to the user.

      Base directory for this skill: file://<SKILLS>/hello-world
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>
      <file><SKILLS>/hello-world/scripts/greet.sh</file>
      </skill_files>
      </skill_content>
      """

  @id:c6-block-name-as-written @required @src:spec-c6-block
  @C6.12
  Scenario: a name with a quote, a backslash, <, & and a non-BMP character is written into the block as it is, unescaped
    Given the skills tree "quoted"
    When the tool "skill" is executed with {"name": "say \"hi\" \\ <&> 🚀"}
    Then the execute result is not an error
    And the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="say "hi" \ <&> 🚀">
      # Skill: say "hi" \ <&> 🚀

      Q

      Base directory for this skill: file://<SKILLS>/quoted
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>
      <file><SKILLS>/quoted/notes.txt</file>
      </skill_files>
      </skill_content>
      """

  @id:c6-block-body-trimmed @required @src:spec-c6-block
  @C6.12
  Scenario: a body with blank lines, spaces and tabs around it is trimmed of them all in the block
    Given the skills tree "body"
    When the tool "skill" is executed with {"name": "padded-body"}
    Then the execute result is not an error
    And the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="padded-body">
      # Skill: padded-body

      # Title

      Text

      Base directory for this skill: file://<SKILLS>/padded-body
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>
      <file><SKILLS>/padded-body/notes.txt</file>
      </skill_files>
      </skill_content>
      """

  @id:c6-sample-ten @required @src:spec-c6-sample
  @C6.13
  Scenario: a skill with 14 sibling files lists 10 of them
    Given the skills tree "files"
    When the tool "skill" is executed with {"name": "many"}
    Then the execute output lists 10 files, each inside "<SKILLS>/many", none of them a SKILL.md, none twice

  @id:c6-sample-cap-edges @required @src:spec-c6-sample
  @C6.13
  Scenario Outline: a skill with <siblings> sibling files, at the cap and one past it, lists <listed> of them
    Given the skills tree "counts"
    When the tool "skill" is executed with {"name": "<skill>"}
    Then the execute output lists <listed> files, each inside "<SKILLS>/<skill>", none of them a SKILL.md, none twice

    Examples:
      | skill  | siblings | listed |
      | nine   | 9        | 9      |
      | ten    | 10       | 10     |
      | eleven | 11       | 10     |

  @id:c6-sample-order @recommended @src:rec-c6-sample-order
  @C6.14
  Scenario: sibling files are listed in code-point order, files before subdirectories, depth first
    Given the skills tree "files"
    When the tool "skill" is executed with {"name": "few"}
    Then the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="few">
      # Skill: few

      f

      Base directory for this skill: file://<SKILLS>/few
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>
      <file><SKILLS>/few/a.txt</file>
      <file><SKILLS>/few/z.txt</file>
      <file><SKILLS>/few/sub/m.txt</file>
      </skill_files>
      </skill_content>
      """

  @id:c6-sample-order-case @recommended @src:rec-c6-sample-order
  @C6.14
  Scenario: sibling files are listed by code point, not blind to case: README.md and Z.txt before a.txt
    Given the skills tree "files"
    When the tool "skill" is executed with {"name": "cased"}
    Then the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="cased">
      # Skill: cased

      c

      Base directory for this skill: file://<SKILLS>/cased
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>
      <file><SKILLS>/cased/README.md</file>
      <file><SKILLS>/cased/Z.txt</file>
      <file><SKILLS>/cased/a.txt</file>
      </skill_files>
      </skill_content>
      """

  @id:c6-sample-empty @recommended @src:rec-c6-empty-sample
  @C6.15
  Scenario: a skill with no sibling file keeps an empty <skill_files> block
    Given the skills tree "files"
    When the tool "skill" is executed with {"name": "lonely"}
    Then the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="lonely">
      # Skill: lonely

      l

      Base directory for this skill: file://<SKILLS>/lonely
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      Note: file list is sampled.

      <skill_files>

      </skill_files>
      </skill_content>
      """

  @id:c6-sample-limit-off @required @src:spec-c6-sample-limit
  @C6.16
  Scenario: a sample limit of -1 leaves out the note and the <skill_files> block
    Given the skills tree "hello"
    And the skill sample limit is -1
    When the tool "skill" is executed with {"name": "hello-world"}
    Then the execute output, with each skills root written <SKILLS>, is exactly:
      """
      <skill_content name="hello-world">
      # Skill: hello-world

      # Hello world

      Run `scripts/greet.sh <name>` and show its output to the user.

      Base directory for this skill: file://<SKILLS>/hello-world
      Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
      </skill_content>
      """

  @id:c6-sample-limit-two @required @src:spec-c6-sample-limit
  @C6.16
  Scenario: a sample limit of 2 lists 2 files
    Given the skills tree "files"
    And the skill sample limit is 2
    When the tool "skill" is executed with {"name": "many"}
    Then the execute output lists 2 files, each inside "<SKILLS>/many", none of them a SKILL.md, none twice

  @id:c6-file-url @recommended @src:rec-c6-file-url
  @C6.17
  Scenario: the base directory of a skill in "my skill (v2) é" is a WHATWG file URL
    Given the skills tree "paths"
    When the tool "skill" is executed with {"name": "spaced"}
    Then the execute output, with each skills root written <SKILLS>, contains "Base directory for this skill: file://<SKILLS>/my%20skill%20(v2)%20%C3%A9"

  @id:c6-file-url-reserved @recommended @src:rec-c6-file-url
  @C6.17
  Scenario: the base directory of a skill in "c#, 100% <done>?" escapes #, %, <, > and ? as a WHATWG file URL does
    Given the skills tree "paths"
    When the tool "skill" is executed with {"name": "reserved"}
    Then the execute output, with each skills root written <SKILLS>, contains "Base directory for this skill: file://<SKILLS>/c%23,%20100%25%20%3Cdone%3E%3F"

  @id:c6-not-found @required @src:spec-c6-block
  @C6.18
  Scenario: loading a name no skill has is an error result
    Given the skills tree "prompt"
    When the tool "skill" is executed with {"name": "nope"}
    Then the execute result is an error with a non-empty output
    And the execute output contains "nope"

  @id:c6-not-found-case @required @src:spec-c6-block
  @C6.18
  Scenario Outline: a name that differs from a skill's only in case is not found (<name>)
    Given the skills tree "case"
    When the tool "skill" is executed with {"name": "<name>"}
    Then the execute result is an error with a non-empty output

    Examples:
      | name  |
      | ALPHA |
      | zeta  |
      | Alpha |

  @id:c6-not-found-text @recommended @src:rec-c6-not-found
  @C6.18
  Scenario Outline: the not-found error names the available skills <how>
    Given the skills tree "<tree>"
    When the tool "skill" is executed with {"name": "nope"}
    Then the execute result is an error with a non-empty output
    And the execute output is exactly:
      """
      <output>
      """

    Examples:
      | how                            | tree   | output                                            |
      | sorted and joined with ", "    | prompt | Skill "nope" not found. Available skills: a, b, u |
      | in code-point order            | case   | Skill "nope" not found. Available skills: Zeta, alpha |
      | with a quoted name as written  | quoted | Skill "nope" not found. Available skills: b, say "hi" \ <&> 🚀 |

  @id:c6-not-found-asked-as-written @recommended @src:rec-c6-not-found
  @C6.18
  Scenario: the not-found error writes the asked name as it was asked, a quote and a backslash unescaped
    Given the skills tree "quoted"
    When the tool "skill" is executed with {"name": "no \"such\" \\ one"}
    Then the execute result is an error with a non-empty output
    And the execute output is exactly:
      """
      Skill "no "such" \ one" not found. Available skills: b, say "hi" \ <&> 🚀
      """

  @id:c6-metadata @recommended @src:rec-c6-metadata
  @C6.23
  Scenario: the skill tool's result metadata names the skill and its directory
    Given the skills tree "hello"
    When the tool "skill" is executed with {"name": "hello-world"}
    Then the execute metadata, with each skills root written <SKILLS>, is {"name": "hello-world", "dir": "<SKILLS>/hello-world"}
