@contract
Feature: Contract C13 - the built-in tools at work: bash, read, write, edit and todowrite
  Upstream SPEC §4A's behaviour column, run through tool.execute in the scenario's own sandbox (a
  folder in its temp dir, removed with it: never the clone, never $HOME), given as an absolute
  path. What a port prints is judged where the SPEC says it (an exit code, a byte count) and
  pinned as recommended where it only describes it (SPEC.md §10).

  Background:
    Given the built-in tools are left to the library's default
    And the toolkit is built

  @id:c13-bash-exit-code @required @src:spec-c13-bash
  @C13.10
  Scenario: a command that exits 3 is an error whose output has its stdout, its stderr and the code
    When the built-in tool "bash" is run with {"command": "echo out; echo err 1>&2; exit 3", "workdir": "{{tmp}}"}
    Then the built-in tool's result is an error whose output contains "out", "err" and "3"

  @id:c13-bash-ok @required @src:spec-c13-bash
  @C13.10
  Scenario: a command that succeeds is no error, its output the combined output, run in the workdir
    Given the sandbox has the file "only-in-the-sandbox-c13/keep" holding "k"
    When the built-in tool "bash" is run with {"command": "printf 'é☃'; printf x > only-in-the-sandbox-c13/made.txt", "workdir": "{{tmp}}"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "é☃"
    And the sandbox file "only-in-the-sandbox-c13/made.txt" holds exactly "x"

  @id:c13-bash-output-as-written @required @src:spec-c13-bash
  @C13.10
  Scenario Outline: a command's output comes back as written, its leading and trailing blanks kept (<case>)
    When the built-in tool "bash" is run with {"command": "<command>", "workdir": "{{tmp}}"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<output>"

    Examples:
      | case                            | command                  | output                                          |
      | spaces, then blank lines        | printf '  x\\n\\n'       | ⟨U+0020⟩⟨U+0020⟩x⟨U+000A⟩⟨U+000A⟩               |
      | a tab, a blank line first       | printf '\\n\\tx \\t'     | ⟨U+000A⟩⟨U+0009⟩x ⟨U+0009⟩                      |
      | echo's own newline              | echo hi                  | hi⟨U+000A⟩                                      |

  @id:c13-bash-timeout @required @src:spec-c13-bash
  @C13.10
  Scenario: timeout 200 on a command that would take 5 s kills it: an error, within 1.5 s, the child gone
    When the built-in tool "bash" is run with {"command": "echo $$ > {{tmp}}/pid; exec sleep 5", "timeout": 200}
    Then the built-in tool's result is an error
    And the built-in tool returned within 1500 ms
    And the process whose id the sandbox file "pid" holds is gone

  @id:c13-bash-timeout-grandchild @recommended @src:rec-c13-bash-tree
  @C13.10
  Scenario: timeout 200 also ends what the command started: the call returns within 1.5 s and the grandchild is gone
    When the built-in tool "bash" is run with {"command": "sleep 5 & echo $! > {{tmp}}/gpid; wait", "timeout": 200}
    Then the built-in tool's result is an error
    And the built-in tool returned within 1500 ms
    And the process whose id the sandbox file "gpid" holds is gone

  @id:c13-write-read-edit @required @src:spec-c13-files
  @C13.11
  Scenario: write makes the parent dirs and the file; read gives a line window; edit replaces one occurrence, or all
    When the built-in tool "write" is run with {"path": "{{tmp}}/d/e/f.txt", "content": "l1\nl2\nl3\nl4\n"}
    Then the built-in tool's result is not an error
    And the built-in tool's output, the sandbox path left out, has the number 12
    And the sandbox file "d/e/f.txt" holds exactly "l1⟨U+000A⟩l2⟨U+000A⟩l3⟨U+000A⟩l4⟨U+000A⟩"
    When the built-in tool "read" is run with {"path": "{{tmp}}/d/e/f.txt", "offset": 2, "limit": 2}
    Then the built-in tool's result is not an error
    And the built-in tool's output is "l2⟨U+000A⟩l3", give or take one trailing newline
    When the built-in tool "edit" is run with {"path": "{{tmp}}/d/e/f.txt", "oldString": "l", "newString": "L"}
    Then the built-in tool's result is an error
    And the sandbox file "d/e/f.txt" holds exactly "l1⟨U+000A⟩l2⟨U+000A⟩l3⟨U+000A⟩l4⟨U+000A⟩"
    When the built-in tool "edit" is run with {"path": "{{tmp}}/d/e/f.txt", "oldString": "l2", "newString": "[$&] ☃"}
    Then the built-in tool's result is not an error
    And the sandbox file "d/e/f.txt" holds exactly "l1⟨U+000A⟩[$&] ☃⟨U+000A⟩l3⟨U+000A⟩l4⟨U+000A⟩"
    When the built-in tool "edit" is run with {"path": "{{tmp}}/d/e/f.txt", "oldString": "l", "newString": "$1", "replaceAll": true}
    Then the built-in tool's result is not an error
    And the sandbox file "d/e/f.txt" holds exactly "$11⟨U+000A⟩[$&] ☃⟨U+000A⟩$13⟨U+000A⟩$14⟨U+000A⟩"

  @id:c13-write-bytes @required @src:spec-c13-files
  @C13.11
  Scenario: write reports the count of bytes, not of characters
    When the built-in tool "write" is run with {"path": "{{tmp}}/h.txt", "content": "héllo ☃"}
    Then the built-in tool's result is not an error
    And the built-in tool's output, the sandbox path left out, has the number 10
    And the sandbox file "h.txt" holds exactly "héllo ☃"

  @id:c13-read-missing @required @src:spec-c13-files
  @C13.11
  Scenario: read of a file that is not there is an error
    When the built-in tool "read" is run with {"path": "{{tmp}}/nope.txt"}
    Then the built-in tool's result is an error

  @id:c13-file-texts @recommended @src:rec-c13-texts
  @C13.11
  Scenario: what write, read and edit print: the byte count, the window, the replacements
    When the built-in tool "write" is run with {"path": "{{tmp}}/d/f.txt", "content": "l1\nl2\nl3\nl4\n"}
    Then the built-in tool's output is exactly "Wrote 12 bytes to {{tmp}}/d/f.txt"
    When the built-in tool "read" is run with {"path": "{{tmp}}/d/f.txt", "offset": 2, "limit": 2}
    Then the built-in tool's output is exactly "l2⟨U+000A⟩l3"
    When the built-in tool "edit" is run with {"path": "{{tmp}}/d/f.txt", "oldString": "l2", "newString": "x"}
    Then the built-in tool's output is exactly "Edited {{tmp}}/d/f.txt (1 replacement)"
    When the built-in tool "edit" is run with {"path": "{{tmp}}/d/f.txt", "oldString": "l", "newString": "L", "replaceAll": true}
    Then the built-in tool's output is exactly "Edited {{tmp}}/d/f.txt (3 replacements)"

  @id:c13-todowrite @recommended @src:rec-c13-todowrite
  @C13.17
  Scenario: todowrite renders the list it is given, one line a todo, done ones checked
    When the built-in tool "todowrite" is run with {"todos": [{"id": "1", "text": "a ☃", "completed": false}, {"id": "2", "text": "b", "completed": true}]}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "[ ] a ☃⟨U+000A⟩[x] b"

  @id:c13-read-window-at-end @recommended @src:rec-c13-texts
  @C13.11
  Scenario Outline: a window that reaches the end of a file with a last newline keeps that newline (<window>)
    Given the sandbox has the file "f.txt" holding "l1⟨U+000A⟩l2⟨U+000A⟩l3⟨U+000A⟩l4⟨U+000A⟩"
    When the built-in tool "read" is run with {"path": "{{tmp}}/f.txt", <window>}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<output>"

    Examples:
      | window                   | output                                       |
      | "offset": 4, "limit": 2  | l4⟨U+000A⟩                                   |
      | "offset": 3              | l3⟨U+000A⟩l4⟨U+000A⟩                         |
      | "offset": 1, "limit": 10 | l1⟨U+000A⟩l2⟨U+000A⟩l3⟨U+000A⟩l4⟨U+000A⟩     |
      | "offset": 2, "limit": 2  | l2⟨U+000A⟩l3                                 |

  @id:c13-todowrite-as-given @recommended @src:rec-c13-todowrite
  @C13.17
  Scenario: todowrite keeps the list's own order and every todo, whatever their ids
    When the built-in tool "todowrite" is run with {"todos": [{"id": "b", "text": "first", "completed": false}, {"id": "a", "text": "second", "completed": true}, {"id": "b", "text": "third", "completed": false}]}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "[ ] first⟨U+000A⟩[x] second⟨U+000A⟩[ ] third"

  @id:c13-edit-exact-string @required @src:spec-c13-files
  @C13.11
  Scenario Outline: edit replaces the exact string, never a pattern, and writes the new one as given (<case>)
    Given the sandbox has the file "e.txt" holding "<before>"
    When the built-in tool "edit" is run with {"path": "{{tmp}}/e.txt", "oldString": <old>, "newString": <new>, "replaceAll": <all>}
    Then the built-in tool's result is not an error
    And the sandbox file "e.txt" holds exactly "<after>"

    Examples:
      | case                                  | before                                  | old                      | new                     | all   | after                                        |
      | a dot is no wildcard                  | axb⟨U+000A⟩a.b⟨U+000A⟩                  | "a.b"                    | "X"                     | false | axb⟨U+000A⟩X⟨U+000A⟩                         |
      | a group is no group, replaced in all  | (.)x(.)⟨U+000A⟩                          | "(.)"                    | "[$1]"                  | true  | [$1]x[$1]⟨U+000A⟩                            |
      | backslashes are themselves            | ⟨edge:backslash⟩                        | "\\\\dir\\\\n"           | "\\\\1"                | false | C:\\1 is not a newline                      |
      | every escape, old and new             | <⟨edge:escape-all⟩>                     | ⟨edge-json:escape-all⟩   | ⟨edge-json:crlf⟩        | true  | <⟨edge:crlf⟩>                                |

  @id:c13-read-window-lines @recommended @src:rec-c13-texts
  @C13.11
  Scenario Outline: a window counts every line split on \n: blank lines count, a CR stays with its line (<case>)
    Given the sandbox has the file "w.txt" holding "<file>"
    When the built-in tool "read" is run with {"path": "{{tmp}}/w.txt", <window>}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<output>"

    Examples:
      | case              | file                                                  | window                  | output                   |
      | CRLF lines        | l1⟨U+000D⟩⟨U+000A⟩l2⟨U+000D⟩⟨U+000A⟩l3⟨U+000D⟩⟨U+000A⟩ | "offset": 2, "limit": 1 | l2⟨U+000D⟩               |
      | blank lines count | a⟨U+000A⟩⟨U+000A⟩⟨U+000A⟩b⟨U+000A⟩c                   | "offset": 3, "limit": 2 | ⟨U+000A⟩b                |
      | blanks kept       | a⟨U+000A⟩⟨U+0020⟩⟨U+0009⟩x⟨U+0009⟩⟨U+0020⟩⟨U+000A⟩b    | "offset": 2, "limit": 1 | ⟨U+0020⟩⟨U+0009⟩x⟨U+0009⟩⟨U+0020⟩ |

  @id:c13-bash-output-edge @required @src:spec-c13-bash
  @C13.10
  Scenario Outline: a command's output keeps a CR, a line separator and a character beyond U+FFFF (<case>)
    When the built-in tool "bash" is run with {"command": "<command>", "workdir": "{{tmp}}"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<output>"

    Examples:
      | case                  | command                          | output                                    |
      | CRLF                  | printf 'a\\r\\nb'                | a⟨U+000D⟩⟨U+000A⟩b                        |
      | U+2028 and non-BMP    | printf '🚀⟨U+2028⟩x𝄞'            | 🚀⟨U+2028⟩x𝄞                              |

  @id:c13-todowrite-edge-texts @recommended @src:rec-c13-todowrite
  @C13.17
  Scenario: todowrite renders each text as given: every escape, whitespace, CR and markup kept
    When the built-in tool "todowrite" is run with {"todos": [{"id": "1", "text": ⟨edge-json:escape-all⟩, "completed": false}, {"id": "2", "text": ⟨edge-json:whitespace⟩, "completed": true}, {"id": "3", "text": ⟨edge-json:crlf⟩, "completed": false}, {"id": "4", "text": ⟨edge-json:markup⟩, "completed": true}]}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "[ ] ⟨edge:escape-all⟩⟨U+000A⟩[x] ⟨edge:whitespace⟩⟨U+000A⟩[ ] ⟨edge:crlf⟩⟨U+000A⟩[x] ⟨edge:markup⟩"
