@contract
Feature: Contract C13 - the built-in tools at work: glob, grep and webfetch
  Upstream SPEC §4A: glob lists the files matching a pattern under a path as newline-joined
  relative paths; grep gives file:line:text lines for a regex, filtered by an include glob;
  webfetch GETs a URL (here the runner's HTTP endpoint fake) and gives its body as text or
  html, a non-2xx status as an error naming it.

  Background:
    Given the built-in tools are left to the library's default
    And the toolkit is built
    And the sandbox has the file "a.txt" holding "a⟨U+000A⟩b⟨U+000A⟩"
    And the sandbox has the file "sub/b.txt" holding "c⟨U+000A⟩zz⟨U+000A⟩"
    And the sandbox has the file "sub/deep/c.md" holding "a⟨U+000A⟩"
    And the sandbox has the file "z é.txt" holding "x⟨U+000A⟩"

  @id:c13-glob-relative @required @src:spec-c13-search
  @C13.12
  Scenario: glob **/*.txt under the sandbox lists exactly the .txt files, as paths relative to it
    When the built-in tool "glob" is run with {"pattern": "**/*.txt", "path": "{{tmp}}"}
    Then the built-in tool's result is not an error
    And the built-in tool's output lines, the sandbox path and "./" left out, are, in any order, "a.txt", "sub/b.txt", "z é.txt"

  @id:c13-glob-sorted @recommended @src:rec-c13-glob-order
  @C13.12
  Scenario: glob's paths are relative and sorted by code point
    When the built-in tool "glob" is run with {"pattern": "**/*.txt", "path": "{{tmp}}"}
    Then the built-in tool's output is exactly "a.txt⟨U+000A⟩sub/b.txt⟨U+000A⟩z é.txt"

  @id:c13-grep-lines @required @src:spec-c13-search
  @C13.12
  Scenario: grep ^[a-c]$ with include *.txt gives each matching line as file:line:text, and nothing from the .md file
    When the built-in tool "grep" is run with {"pattern": "^[a-c]$", "path": "{{tmp}}", "include": "*.txt"}
    Then the built-in tool's result is not an error
    And the built-in tool's output lines, the sandbox path and "./" left out, are, in any order, "a.txt:1:a", "a.txt:2:b", "sub/b.txt:1:c"

  @id:c13-grep-order @recommended @src:rec-c13-grep-order
  @C13.12
  Scenario: grep's matches come by their file's relative path in code-point order, then by line, whatever the walk
    Given the sandbox has the file "B.txt" holding "b⟨U+000A⟩"
    And the sandbox has the file "sub.txt" holding "a⟨U+000A⟩"
    And the sandbox has the file "t.txt" holding "a⟨U+000A⟩"
    When the built-in tool "grep" is run with {"pattern": "^[a-c]$", "path": "{{tmp}}", "include": "*.txt"}
    Then the built-in tool's result is not an error
    And the built-in tool's output lines, the sandbox path and "./" left out, are, in this order, "B.txt:1:b", "a.txt:1:a", "a.txt:2:b", "sub.txt:1:a", "sub/b.txt:1:c", "t.txt:1:a"

  @id:c13-grep-limit-cut @recommended @src:rec-c13-grep-order
  @C13.12
  Scenario Outline: grep with limit 1 keeps the first match in that order, on every port the same (<tree>)
    Given the sandbox has the file "<first>" holding "q⟨U+000A⟩"
    And the sandbox has the file "<second>" holding "q⟨U+000A⟩"
    When the built-in tool "grep" is run with {"pattern": "^q$", "path": "{{tmp}}", "limit": 1}
    Then the built-in tool's result is not an error
    And the built-in tool's output lines, the sandbox path and "./" left out, are, in this order, "<want>"

    Examples:
      | tree                                  | first   | second  | want        |
      | a file beside a folder of its name    | s.txt   | s/b.txt | s.txt:1:q   |
      | a folder's file before a later file   | r/x.txt | s.txt   | r/x.txt:1:q |

  @id:c13-webfetch-404 @required @src:spec-c13-webfetch
  @C13.13
  Scenario: a 404 is an error naming HTTP 404
    Given the endpoint answers "/gone" with status 404 and the body "no such page"
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/gone"}
    Then the built-in tool's result is an error whose output contains "HTTP 404"

  @id:c13-webfetch-html @required @src:spec-c13-webfetch
  @C13.13
  Scenario: format html gives the page verbatim; format text gives it with no tag left
    Given the endpoint answers "/page" with the HTML page "<html><body><h1>Zürich</h1><p>a &amp; b</p></body></html>"
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/page", "format": "html"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<html><body><h1>Zürich</h1><p>a &amp; b</p></body></html>"
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/page", "format": "text"}
    Then the built-in tool's result is not an error
    And the built-in tool's output has no "<"

  @id:c13-webfetch-html-as-sent @required @src:spec-c13-webfetch
  @C13.13
  Scenario Outline: format html gives the body as sent, every byte of it (<what>)
    Given the endpoint answers "/page" with the HTML page "<page>"
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/page", "format": "html"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "<page>"

    Examples:
      | what                            | page                                                   |
      | CR LF lines, a blank line        | <p>a</p>⟨edge:crlf⟩⟨U+000D⟩⟨U+000A⟩<p>b</p>⟨U+000D⟩⟨U+000A⟩ |
      | leading and trailing whitespace | ⟨edge:whitespace⟩<p>x</p>⟨U+000A⟩⟨U+000A⟩                  |
      | escapes, U+2028, non-BMP        | <pre>⟨edge:escape-all⟩ ⟨edge:line-separators⟩ ⟨edge:non-bmp⟩</pre> |
      | entities left as written        | ⟨edge:markup⟩ &#x1F680; &nbsp;                          |

  @id:c13-webfetch-2xx @required @src:spec-c13-webfetch
  @C13.13
  Scenario Outline: a 2xx answer other than 200 is no error: its body comes back (<status>)
    Given the endpoint answers "/made" with status <status> and the body "made ☃ <b>"
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/made", "format": "html"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "made ☃ <b>"

    Examples:
      | status |
      | 201    |
      | 203    |
      | 226    |

  @id:c13-webfetch-timeout-seconds @required @src:spec-c13-webfetch
  @C13.13
  Scenario: timeout 5 is five seconds: a page that answers after 300 ms comes back
    Given the endpoint's /slow answers after 300 ms
    When the built-in tool "webfetch" is run with {"url": "{{endpoint}}/slow", "format": "html", "timeout": 5}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "slow-body"

  @id:c13-glob-code-point-order @recommended @src:rec-c13-glob-order
  @C13.12
  Scenario: glob sorts by code point, not by case and not by UTF-16 unit: B before a, U+FF21 before U+1F680
    Given the sandbox has the file "B.txt" holding "b⟨U+000A⟩"
    And the sandbox has the file "⟨U+1F680⟩.txt" holding "r⟨U+000A⟩"
    And the sandbox has the file "⟨U+FF21⟩.txt" holding "f⟨U+000A⟩"
    When the built-in tool "glob" is run with {"pattern": "**/*.txt", "path": "{{tmp}}"}
    Then the built-in tool's result is not an error
    And the built-in tool's output is exactly "B.txt⟨U+000A⟩a.txt⟨U+000A⟩sub/b.txt⟨U+000A⟩z é.txt⟨U+000A⟩⟨U+FF21⟩.txt⟨U+000A⟩⟨U+1F680⟩.txt"
