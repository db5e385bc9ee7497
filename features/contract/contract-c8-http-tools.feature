@contract
Feature: Contract C8 - http tools
  An http tool is declared as data and built with the port's own helper; it calls the HTTP
  endpoint fake, which records the method, the raw path and query, the headers and the raw body.
  {{endpoint}} is this scenario's base URL on that fake.

  @id:c8-placeholder @required @src:spec-c8-placeholder
  @C8.1
  Scenario: a {placeholder} in the URL is filled from the matching argument
    Given an http tool "item" for GET "{{endpoint}}/items/{id}"
    When the tool "item" is executed with {"id": "42"}
    Then the endpoint received GET with the raw path "/items/42"

  @id:c8-json-body @required @src:spec-c8-placeholder @src:spec-c8-body
  @C8.2
  Scenario: a POST sends the arguments left after the placeholders as a JSON body
    Given an http tool "put-item" for POST "{{endpoint}}/items/{id}"
    When the tool "put-item" is executed with {"id": "7", "name": "n", "n": 2}
    Then the endpoint received POST with the raw path "/items/7"
    And the endpoint received the header "Content-Type" starting with "application/json"
    And the endpoint received a body that decodes to {"name": "n", "n": 2}

  @id:c8-query-names @required @src:spec-c8-query
  @C8.3
  Scenario: the arguments named in query go to the querystring, the rest to the body
    Given an http tool "search" for POST "{{endpoint}}/search" with:
      """
      {"query": ["page"]}
      """
    When the tool "search" is executed with {"page": 3, "q": "x"}
    Then the endpoint received the raw query "page=3"
    And the endpoint received a body that decodes to {"q": "x"}

  @id:c8-get-leftovers @recommended @src:rec-c8-get-query
  @C8.4
  Scenario: a GET sends its leftover arguments as the query and no body
    Given an http tool "find" for GET "{{endpoint}}/find"
    When the tool "find" is executed with {"q": "a b", "n": 1}
    Then the endpoint received a query that decodes to {"q": "a b", "n": "1"}
    And the endpoint received an empty body

  @id:c8-header-secret @required @src:spec-c8-headers
  @C8.5
  Scenario Outline: a ${ENV} header is expanded and the value never leaks, when the endpoint answers <status>
    Given the endpoint answers "/secure" with status <status> and the body ""
    And an http tool "secure" for GET "{{endpoint}}/secure" with:
      """
      {"headers": {"X-Token": "${TNX_SECRET}"}}
      """
    When the tool "secure" is executed with {}
    Then the endpoint received the header "X-Token" as "s3cr3t-9f2c"
    And nothing the adapter emitted contains the secret

    Examples:
      | status |
      | 200    |
      | 401    |

  @id:c8-non-2xx @required @src:spec-c8-status
  @C8.6
  Scenario Outline: a <status> answer is the error "HTTP <status>: <body>" with the status in metadata
    Given the endpoint answers "/x" with status <status> and the body "<body>"
    And an http tool "x" for GET "{{endpoint}}/x"
    When the tool "x" is executed with {}
    Then the execute result is exactly {"output": "HTTP <status>: <body>", "isError": true, "metadata": {"status": <status>}}

    Examples:
      | status | body |
      | 503    | down |
      | 404    |      |

  @id:c8-2xx-body @required @src:spec-c8-status
  @C8.7
  Scenario Outline: a <status> answer's body is the output exactly, with the status in metadata
    Given the endpoint answers "/x" with status <status> and the body:
      """
      ünï

      """
    And an http tool "x" for GET "{{endpoint}}/x"
    When the tool "x" is executed with {}
    Then the execute result is exactly {"output": "ünï\n", "isError": false, "metadata": {"status": <status>}}

    Examples:
      | status |
      | 200    |
      | 201    |

  @id:c8-escape @recommended @src:rec-c8-escape
  @C8.8
  Scenario: a placeholder value is escaped as encodeURIComponent escapes it
    Given an http tool "q" for GET "{{endpoint}}/q/{q}"
    When the tool "q" is executed with {"q": "a b/c&d=e+f it's (ok)!~*"}
    Then the endpoint received GET with the raw path "/q/a%20b%2Fc%26d%3De%2Bf%20it's%20(ok)!~*"

  @id:c8-query-non-ascii @recommended @src:rec-c8-escape
  @C8.8
  Scenario: a non-ASCII query value is escaped as its UTF-8 bytes
    Given an http tool "find" for GET "{{endpoint}}/find" with:
      """
      {"query": ["q"]}
      """
    When the tool "find" is executed with {"q": "é🚀ü"}
    Then the endpoint received the raw query "q=%C3%A9%F0%9F%9A%80%C3%BC"

  @id:c8-escape-non-ascii @recommended @src:rec-c8-escape
  @C8.8
  Scenario: a non-ASCII placeholder value is escaped as encodeURIComponent escapes it, as UTF-8
    Given an http tool "q" for GET "{{endpoint}}/q/{q}"
    When the tool "q" is executed with {"q": "é🚀ü"}
    Then the endpoint received GET with the raw path "/q/%C3%A9%F0%9F%9A%80%C3%BC"

  @id:c8-json-text-args @recommended @src:rec-c8-json-text
  @C8.9
  Scenario: numbers and booleans the model sends are written as JSON writes them
    Given an openai client
    And an http tool "rec" for GET "{{endpoint}}/r/{id}/{f}" with:
      """
      {"query": ["b"]}
      """
    And the toolkit is built
    And the fake LLM first calls the tool "rec" with the arguments {"id": 1234567, "f": 2.5, "b": true} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the endpoint received GET with the raw path "/r/1234567/2.5"
    And the endpoint received the raw query "b=true"

  @id:c8-json-text-every-type @recommended @src:rec-c8-json-text
  @C8.9
  Scenario Outline: a <what> the model sends is written as its JSON text in the path and the query
    Given an openai client
    And an http tool "rec" for GET "{{endpoint}}/r/{v}" with:
      """
      {"query": ["q"]}
      """
    And the toolkit is built
    And the fake LLM first calls the tool "rec" with the arguments {"v": <value>, "q": <value>} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the endpoint received GET with the raw path "/r/<path>"
    And the endpoint received the raw query "q=<query>"

    Examples:
      | what            | value      | path                           | query                          |
      | negative number | -3         | -3                             | -3                             |
      | zero            | 0          | 0                              | 0                              |
      | false           | false      | false                          | false                          |
      | small number    | 1e-7       | 1e-7                           | 1e-7                           |
      | huge number     | 1e21       | 1e%2B21                        | 1e%2B21                        |
      | fraction        | 0.1        | 0.1                            | 0.1                            |
      | array           | [1, "x"]   | %5B1%2C%22x%22%5D              | %5B1%2C%22x%22%5D              |
      | object          | {"k": "é"} | %7B%22k%22%3A%22%C3%A9%22%7D   | %7B%22k%22%3A%22%C3%A9%22%7D   |

  @id:c8-missing-placeholder @recommended @src:rec-c8-missing
  @C8.10
  Scenario: a placeholder with no matching argument becomes empty
    Given an http tool "item" for GET "{{endpoint}}/items/{id}"
    When the tool "item" is executed with {}
    Then the endpoint received GET with the raw path "/items/"

  @id:c8-redirect @recommended @src:rec-c8-redirect
  @C8.11
  Scenario: a redirect is followed and the final body is the output
    Given an http tool "moved" for GET "{{endpoint}}/redirect"
    When the tool "moved" is executed with {}
    Then the execute result is not an error
    And the execute output contains "final-body"

  @id:c8-timeout @required @src:spec-c8-timeout
  @C8.12
  Scenario: a 300 ms timeout gives up on an endpoint that answers after 5 s
    Given the endpoint's /slow answers after 5000 ms
    And an http tool "slow" for GET "{{endpoint}}/slow" with:
      """
      {"timeoutMs": 300}
      """
    When the tool "slow" is executed with {}
    Then the execute result is an error with a non-empty output
    And the client gave up on the endpoint before it answered

  @id:c8-status-text @recommended @src:rec-c8-result-mode
  @C8.13
  Scenario: resultMode status+text gives the status, a newline and the body
    Given the endpoint answers "/x" with status 200 and the body "hello"
    And an http tool "x" for GET "{{endpoint}}/x" with:
      """
      {"resultMode": "status+text"}
      """
    When the tool "x" is executed with {}
    Then the execute output is exactly:
      """
      200
      hello
      """

  @id:c8-json-mode @recommended @src:rec-c8-result-mode
  @C8.13
  Scenario: resultMode json writes the body back as compact JSON in its own key order
    Given the endpoint answers "/x" with status 200 and the body:
      """
      {"b": 1, "a": "<"}
      """
    And an http tool "x" for GET "{{endpoint}}/x" with:
      """
      {"resultMode": "json"}
      """
    When the tool "x" is executed with {}
    Then the execute output is exactly:
      """
      {"b":1,"a":"<"}
      """

  @id:c8-json-mode-every-type @recommended @src:rec-c8-result-mode
  @C8.13
  Scenario: resultMode json writes every JSON type, escape and number edge back as JSON.stringify does
    Given the endpoint answers "/x" with status 200 and the body:
      """
      {"s":"q\"b\\s\/e\b\f\n\r\t c\u0001\u001f d\u007f l\u2028p\u2029 \u00e9\ud83d\ude80 ü","e":[],"o":{},"n":null,"t":true,"f":false,"a":[[],{},null,[{"k":[null]}]],"ü":"key non-ASCII","":"empty key","z":-0,"big":1e21,"small":1E-7,"tiny":5e-324,"exp":2e0,"under":0.000001}
      """
    And an http tool "x" for GET "{{endpoint}}/x" with:
      """
      {"resultMode": "json"}
      """
    When the tool "x" is executed with {}
    Then the execute output is exactly, with ⟨U+XXXX⟩ standing for that code point:
      """
      {"s":"q\"b\\s/e\b\f\n\r\t c\u0001\u001f d⟨U+007F⟩ l⟨U+2028⟩p⟨U+2029⟩ é🚀 ü","e":[],"o":{},"n":null,"t":true,"f":false,"a":[[],{},null,[{"k":[null]}]],"ü":"key non-ASCII","":"empty key","z":0,"big":1e+21,"small":1e-7,"tiny":5e-324,"exp":2,"under":0.000001}
      """

  @id:c8-status-in-loop @required @src:spec-c8-loop-meta
  @C8.14
  Scenario: the run's tool call carries the status the endpoint sent
    Given the endpoint answers "/x" with status 202 and the body "queued"
    And an openai client
    And an http tool "x" for GET "{{endpoint}}/x"
    And the toolkit is built
    And the fake LLM first calls the tool "x" and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's tool call 1 has the metadata {"status": 202}
