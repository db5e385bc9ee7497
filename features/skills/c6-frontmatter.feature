@contract
Feature: Contract C6 - how a SKILL.md's frontmatter is read
  Upstream SPEC §3: a standard YAML parser reads the `---` fences; scalars are coerced to strings
  and trimmed; `name` is required; malformed YAML never crashes discovery. The "yaml" tree holds one
  skill per case, so each case is judged while the others load beside it.

  @id:c6-block-scalars @required @src:spec-c6-yaml @src:spec-c6-coerce
  @C6.4 @C6.7
  Scenario: folded, literal and quoted scalars resolve, trimmed (surrounding spaces too), and a number is coerced to a string
    Given the skills tree "yaml"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name    | description         |
      | folded  | line one line two   |
      | literal | one\ntwo            |
      | quoted  | it's quoted         |
      | 123     | a number for a name |
      | padded  | spaced out          |
      | plain   | loads beside the broken ones |

  @id:c6-yaml-core-schema @recommended @src:rec-c6-yaml12
  @C6.8
  Scenario: scalars YAML 1.1 and 1.2 read differently give the YAML 1.2 core schema's strings
    Given the skills tree "yaml"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name  | description |
      | yes   | 1           |
      | date  | 2024-01-01  |
      | octal | 7           |

  @id:c6-yaml-exponents @recommended @src:rec-c6-yaml12
  @C6.8
  Scenario: floats with an exponent are written as JavaScript's String() writes them
    Given the skills tree "yaml"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name | description |
      | exp  | 1e+21       |
      | tiny | 1.5e-7      |

  @id:c6-name-required @required @src:spec-c6-name-required
  @C6.5
  Scenario Outline: a skill <what> is not loaded, not even under its directory's name
    Given the skills tree "yaml"
    When the tool "skill" is executed with {"name": "<dir>"}
    Then the execute result is an error with a non-empty output

    Examples:
      | what             | dir        |
      | with no name     | no-name    |
      | whose name is "" | empty-name |

  @id:c6-skip-reasons @required @src:spec-c6-name-required @src:spec-c6-malformed @src:spec-c6-inventory
  @C6.5 @C6.6
  Scenario: the inventory says why each SKILL.md without a name, or with malformed YAML, was skipped
    Given the skills tree "yaml"
    When the skills of the tree are listed
    Then the listed skips include, with each skills root written <SKILLS>:
      | location                     | reason                |
      | <SKILLS>/no-name/SKILL.md    | missing-name          |
      | <SKILLS>/empty-name/SKILL.md | missing-name          |
      | <SKILLS>/malformed/SKILL.md  | malformed-frontmatter |

  @id:c6-bytes-skipped @recommended @src:rec-c6-bytes
  @C6.9
  Scenario: a SKILL.md that starts with a UTF-8 BOM, and one with a byte that is not UTF-8, are skipped with the pinned reasons
    Given the skills tree "bytes"
    When the skills of the tree are listed
    Then the listed skips include, with each skills root written <SKILLS>:
      | location                   | reason       |
      | <SKILLS>/bom/SKILL.md      | missing-name |
      | <SKILLS>/invalid/SKILL.md  | unreadable   |

  @id:c6-malformed-isolated @required @src:spec-c6-malformed
  @C6.6
  Scenario: malformed YAML does not stop the rest of its root loading
    Given the skills tree "yaml"
    When the tool "skill" is executed with {"name": "plain"}
    Then the execute result is not an error
    And the execute output contains "# Skill: plain"

  @id:c6-bytes-isolated @recommended @src:rec-c6-bytes
  @C6.9
  Scenario: a BOM and a byte that is not UTF-8 do not stop the rest of their root loading
    Given the skills tree "bytes"
    When the tool "skill" is executed with {"name": "plain"}
    Then the execute result is not an error
    And the execute output contains "# Skill: plain"

  @id:c6-number-name @required @src:spec-c6-coerce
  @C6.7
  Scenario: name: 123 is the skill "123"
    Given the skills tree "yaml"
    When the tool "skill" is executed with {"name": "123"}
    Then the execute result is not an error
    And the execute output contains "# Skill: 123"

  @id:c6-blank-name-skipped @required @src:spec-c6-coerce @src:spec-c6-name-required
  @C6.5 @C6.4
  Scenario: a name of only whitespace (spaces; a tab, a CR and a newline) is trimmed to "" and so missing, and the rest of the root loads
    Given the skills tree "blank-name"
    When the skills of the tree are listed
    Then the listed skills are, with each skills root written <SKILLS>:
      | name  | location                 |
      | plain | <SKILLS>/plain/SKILL.md  |
    And the listed skips are, with each skills root written <SKILLS>:
      | location                   | reason       |
      | <SKILLS>/spaces/SKILL.md   | missing-name |
      | <SKILLS>/tabbed/SKILL.md   | missing-name |

  @id:c6-description-whitespace-trimmed @required @src:spec-c6-yaml @src:spec-c6-coerce
  @C6.4
  Scenario: a description padded with a tab, a CR and a newline, and a keep-chomped block ending in blank lines, are trimmed
    Given the skills tree "rendered"
    When the skills of the tree are listed
    Then the listed skills include, with each skills root written <SKILLS>:
      | name  | description |
      | Alpha | spaced      |
      | mid   | keep        |
