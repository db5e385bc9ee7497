Feature: Gap 1 - request shaping with RequestParams and BodyTransform
  A host shapes every LLM request body: RequestParams are merged at the top level (the
  caller wins) and BodyTransform has the last word, on all four paths and every turn.

  @id:g1-params-top-level @required @src:adr-g1-merge
  @G1.1
  Scenario Outline: RequestParams keys reach the top level of the body (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42, "chat_template_kwargs": {"enable_thinking": false}}
      """
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request body has "temperature" equal to 0.42
    And every LLM request body has "chat_template_kwargs" equal to {"enable_thinking": false}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g1-caller-max-tokens-wins @required @src:adr-g1-wins
  @G1.2
  Scenario Outline: the caller's max_tokens wins over the anthropic default (<mode>)
    Given an anthropic client with request params:
      """
      {"max_tokens": 999}
      """
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request body has "max_tokens" equal to 999

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:g1-transform-sees-merge @required @src:adr-g1-transform
  @G1.3
  Scenario Outline: BodyTransform sees the merged body and its result is what is sent (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42, "top_p": 0.9}
      """
    And a body transform that deletes "top_p" and sets "injected" to "yes"
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the body transform saw "top_p" equal to 0.9
    And no LLM request body has the key "top_p"
    And every LLM request body has "injected" equal to "yes"
    And each wire body is exactly what the body transform returned

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g1-pre-change-keys @required @src:adr-g1-backcompat
  @G1.4
  Scenario Outline: with no shaping option the body keeps this port's pre-change keys (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And every LLM request body has exactly this port's pre-change keys for "<style> <mode>"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g1-every-turn-params @required @src:adr-g1-every-call
  @G1.5
  Scenario Outline: every turn of a tool loop carries the params (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42}
      """
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And LLM request 2 carries the tool output "echo-output"
    And every LLM request body has "temperature" equal to 0.42

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g1-pipeline-order @required @src:adr-g1-order
  @G1.6
  Scenario Outline: the hook runs before the merge and the transform runs last (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42}
      """
    And a BeforeLLM hook that replaces the last user message with "rewritten by the hook"
    And a body transform that records what it sees
    And a toolkit with the host tool "echo"
    When the client runs "original prompt" in <mode> mode
    Then the call succeeds
    And the body transform saw the last user message "rewritten by the hook"
    And the body transform saw "temperature" equal to 0.42
    And the last user message on the wire is "rewritten by the hook"
    And each wire body is exactly what the body transform returned

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:a4-forbidden-keys-stripped @required @src:adr-a4-forbid
  @A4.1
  Scenario Outline: messages, tools and stream in RequestParams are stripped with a warning (<style> <mode>)
    Given an <style> client with request params:
      """
      {"messages": [{"role": "user", "content": "injected"}], "tools": [{"name": "bogus"}], "stream": true, "temperature": 0.1}
      """
    And a toolkit with the host tool "echo"
    When the client runs "real prompt" in <mode> mode
    Then the call succeeds
    And the last user message on the wire is "real prompt"
    And every LLM request offers exactly the tools echo
    And the LLM request body's "stream" is <stream>
    And every LLM request body has "temperature" equal to 0.1
    And the warnings name "messages"
    And the warnings name "tools"
    And the warnings name "stream"

    Examples:
      | style     | mode   | stream |
      | openai    | run    | absent |
      | openai    | stream | true   |
      | anthropic | run    | absent |
      | anthropic | stream | true   |

  @id:a4-transform-rewrites-messages @required @src:adr-a4-rewrite
  @A4.2
  Scenario Outline: BodyTransform may rewrite messages and is sent verbatim (<style> <mode>)
    Given an <style> client
    And a body transform that appends " /nothink" to the last user message
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the last user message on the wire is "hi /nothink"
    And each wire body is exactly what the body transform returned

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:a4-transform-null-unchanged @required @src:adr-g1-nil
  @A4.3
  Scenario Outline: BodyTransform returning null leaves the body unchanged (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42}
      """
    And a body transform that returns null
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the body transform ran on every LLM request
    And each wire body is exactly what the body transform returned
    And every LLM request body has "temperature" equal to 0.42
    And every LLM request offers exactly the tools echo

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:g1-auth-headers-plain @required @src:spec-8-headers
  @G1.7
  Scenario Outline: with no shaping option every LLM request carries the style's auth headers (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And every LLM request carries the header "<header>" equal to "<value>"
    And every LLM request carries the header "<header2>" equal to "<value2>"

    Examples:
      | style     | mode   | header        | value           | header2           | value2          |
      | openai    | run    | Authorization | Bearer test-key | Authorization     | Bearer test-key |
      | openai    | stream | Authorization | Bearer test-key | Authorization     | Bearer test-key |
      | anthropic | run    | x-api-key     | test-key        | anthropic-version | 2023-06-01      |
      | anthropic | stream | x-api-key     | test-key        | anthropic-version | 2023-06-01      |

  @id:g1-auth-headers-shaped @required @src:spec-8-headers
  @G1.7
  Scenario Outline: with request params and a body transform the auth headers are unchanged (<style> <mode>)
    Given an <style> client with request params:
      """
      {"temperature": 0.42}
      """
    And a body transform that deletes "temperature" and sets "injected" to "yes"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And every LLM request carries the header "<header>" equal to "<value>"
    And every LLM request carries the header "<header2>" equal to "<value2>"

    Examples:
      | style     | mode   | header        | value           | header2           | value2          |
      | openai    | run    | Authorization | Bearer test-key | Authorization     | Bearer test-key |
      | openai    | stream | Authorization | Bearer test-key | Authorization     | Bearer test-key |
      | anthropic | run    | x-api-key     | test-key        | anthropic-version | 2023-06-01      |
      | anthropic | stream | x-api-key     | test-key        | anthropic-version | 2023-06-01      |

  @id:a4-in-place-edit-one-request @required @src:adr-g1-owned
  @A4.4
  Scenario Outline: a transform that edits its input in place changes only that request (<style> <mode>)
    Given an <style> client with request params:
      """
      {"chat_template_kwargs": {"enable_thinking": false}}
      """
    And a body transform that edits its input in place: it appends " /nothink" to the last user message and sets "edited" to "yes" inside "metadata"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    And the client runs "again" in <mode> mode
    Then the call succeeds
    And the run made 3 LLM requests
    And the body transform ran on every LLM request
    And the body transform never saw " /nothink"
    And the body transform never saw "edited"
    And the body transform saw "chat_template_kwargs" equal to {"enable_thinking": false}
    And each wire body is exactly what the body transform returned

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:a4-in-place-nested-param @recommended @src:rec-a4-nested
  @A4.4
  Scenario Outline: an in-place edit of a nested RequestParams value changes only that request (<style> <mode>)
    Given an <style> client with request params:
      """
      {"chat_template_kwargs": {"enable_thinking": false}}
      """
    And a body transform that edits its input in place: it appends " /nothink" to the last user message and sets "edited" to "yes" inside "chat_template_kwargs"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    And the client runs "again" in <mode> mode
    Then the call succeeds
    And the run made 3 LLM requests
    And the body transform never saw "edited"
    And the body transform saw "chat_template_kwargs" equal to {"enable_thinking": false}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |

  @id:a4-in-place-edit-not-stored @required @src:adr-g1-owned
  @A4.4
  Scenario Outline: an in-place edit never reaches the stored conversation (<style>)
    Given an <style> client
    And a body transform that edits its input in place: it appends " /nothink" to the last user message and sets "edited" to "yes" inside "metadata"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client asks "use the tool" in conversation "c1"
    And the store accessor reads conversation "c1"
    Then the conversation does not contain " /nothink"
    And the conversation carries, in order, the messages "use the tool", "echo-output", "done"
    And the body transform never saw " /nothink"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:g1-base-url-with-v1 @required @src:spec-8-base-url
  @G1.4
  Scenario Outline: a base URL that already ends in /v1 gets no second /v1 (<style> <mode>)
    Given an <style> client whose base URL ends in "/v1"
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then every LLM request went to "<path>" under the fake's route
    And the call succeeds

    Examples:
      | style     | mode   | path                 |
      | openai    | run    | /v1/chat/completions |
      | openai    | stream | /v1/chat/completions |
      | anthropic | run    | /v1/messages         |
      | anthropic | stream | /v1/messages         |

  @id:g1-base-url-trailing-slash @recommended @src:rec-base-url-slash
  @G1.4
  Scenario Outline: a base URL with a trailing slash gets no double slash (<style> <mode>)
    Given an <style> client whose base URL ends in "/"
    And a toolkit with the host tool "echo"
    When the client runs "hi" in <mode> mode
    Then every LLM request went to "<path>" under the fake's route
    And the call succeeds

    Examples:
      | style     | mode   | path              |
      | openai    | run    | /chat/completions |
      | anthropic | run    | /v1/messages      |
