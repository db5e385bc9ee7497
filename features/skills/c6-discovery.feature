@contract
Feature: Contract C6 - how skills are discovered
  A skills tree is our own fixture (fixtures/skills/<name>.json), written into the scenario's own
  directory; its root is handed to the port as the toolkit's skills directory. Paths in what the
  port returns are compared with that root written <SKILLS>.

  @id:c6-depths @required @src:spec-c6-glob
  @C6.1
  Scenario: SKILL.md files at depth 1 and depth 3 are both skills
    Given the skills tree "mixed"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name        | location                |
      | depth-one   | <SKILLS>/one/SKILL.md   |
      | depth-three | <SKILLS>/a/b/c/SKILL.md |

  @id:c6-symlinks-listed @required @src:spec-c6-symlinks
  @C6.2
  Scenario: a skill behind a symlinked directory and one behind a symlinked SKILL.md are discovered, and a symlink cycle ends discovery
    Given the skills tree "mixed"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name          | location                   |
      | via-dir-link  | <SKILLS>/linked/SKILL.md   |
      | via-file-link | <SKILLS>/filelink/SKILL.md |

  @id:c6-symlinks-loaded @required @src:spec-c6-symlinks
  @C6.2
  Scenario Outline: the skill reached through a symlinked <what> loads through the skill tool
    Given the skills tree "mixed"
    When the tool "skill" is executed with {"name": "<name>"}
    Then the execute result is not an error
    And the execute output contains "# Skill: <name>"

    Examples:
      | what      | name          |
      | directory | via-dir-link  |
      | SKILL.md  | via-file-link |

  @id:c6-vendored-skipped @recommended @src:rec-c6-vendored
  @C6.3
  Scenario: SKILL.md files under node_modules and .git are not skills
    Given the skills tree "mixed"
    When the skills of the tree are listed
    Then no listed skill is named "vendored" or "in-git"

  @id:c6-first-root-wins @required @src:spec-c6-first-wins
  @C6.10
  Scenario: of two roots holding one name, the first root's skill loads
    Given the skills trees "dup-a" and "dup-b"
    When the tool "skill" is executed with {"name": "same"}
    Then the execute result is not an error
    And the execute output contains "from a"

  @id:c6-first-root-listed @required @src:spec-c6-first-wins @src:spec-c6-inventory
  @C6.10
  Scenario: of two roots holding one name, the inventory keeps the first and skips the second as a duplicate
    Given the skills trees "dup-a" and "dup-b"
    When the skills of the tree are listed
    Then the listed skills are, with each skills root written <SKILLS>:
      | name | location                |
      | same | <SKILLS>/same/SKILL.md  |
    And the listed skips are, with each skills root written <SKILLS>:
      | location                      | reason         |
      | <SKILLS:dup-b>/same/SKILL.md  | duplicate-name |

  @id:c6-names-differ-in-case @required @src:spec-c6-first-wins @src:spec-c6-block
  @C6.10 @C6.18
  Scenario Outline: two skills whose names differ only in case are no duplicates: each loads by its own name (<name>)
    Given the skills tree "casepair"
    When the tool "skill" is executed with {"name": "<name>"}
    Then the execute result is not an error
    And the execute output contains "# Skill: <name>"
    And the execute output contains "<body>"

    Examples:
      | name   | body       |
      | deploy | from lower |
      | Deploy | from upper |

  @id:c6-crlf-loads @recommended @src:rec-c6-crlf
  @C6.1
  Scenario: a SKILL.md saved with CRLF line endings loads, its name and description read as with LF
    Given the skills tree "crlf"
    When the tool "skill" is executed with {"name": "crlf"}
    Then the execute result is not an error
    And the execute output contains "# Skill: crlf"
    And the skills prompt is exactly:
      """
      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **crlf**: saved on Windows
      """

  @id:c6-first-root-wins-given-order @required @src:spec-c6-first-wins
  @C6.10
  Scenario: of two roots holding one name, the first as given wins, though its path sorts after the other's
    Given the skills trees "dup-b" and "dup-a"
    When the tool "skill" is executed with {"name": "same"}
    Then the execute result is not an error
    And the execute output contains "from b"

  @id:c6-first-root-listed-given-order @required @src:spec-c6-first-wins @src:spec-c6-inventory
  @C6.10
  Scenario: of two roots given in the reverse of their sorted order, the inventory keeps the first as given
    Given the skills trees "dup-b" and "dup-a"
    When the skills of the tree are listed
    Then the listed skills are, with each skills root written <SKILLS>:
      | name | location                |
      | same | <SKILLS>/same/SKILL.md  |
    And the listed skips are, with each skills root written <SKILLS>:
      | location                      | reason         |
      | <SKILLS:dup-a>/same/SKILL.md  | duplicate-name |
