@contract
Feature: Contract C12 - resilience: the deadline, a cancel, and onError
  Upstream SPEC §8 Resilience: timeoutMs is a whole-run deadline, and a timeout or an external
  cancel aborts the call in flight and is never retried; onError classifies each failed attempt
  ("retry", bounded by retries, or "fail"), and aborts never reach it.

  @id:c12-timeout-aborts @required @src:spec-c12-abort
  @C12.14
  Scenario Outline: timeoutMs 300 against a model that answers after 5 s fails with the deadline error, one request (<style> <mode>)
    Given an <style> client
    And the client's timeout is 300 ms
    And an empty toolkit
    And the fake LLM answers only after 5 s
    When the client runs "hi" in <mode> mode, timed
    Then the call fails with kind "deadline"
    And the run made 1 LLM request
    And the run ended within 1500 ms of LLM request 1
    And the client closed LLM request 1 within 1500 ms of its arrival

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c12-cancel-aborts @required @src:spec-c12-abort @src:spec-c12-cancel-table
  @C12.14
  Scenario Outline: a cancel after 300 ms aborts the call in flight, one request, the cancellation error (<style> <mode>)
    Given an <style> client
    And an empty toolkit
    And the fake LLM answers only after 5 s
    When the client runs "hi" in <mode> mode, cancelled after 300 ms
    Then the call fails with kind "cancelled"
    And the run made 1 LLM request
    And the run ended within 1500 ms of LLM request 1
    And the client closed LLM request 1 within 1500 ms of its arrival, where this port's cancel aborts mid-request

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c12-on-error-retry-bounded @required @src:spec-c12-on-error
  @C12.17
  Scenario Outline: onError "retry" on a permanent 400 is bounded by retries 2: 3 requests (<style> <mode>)
    Given an <style> client
    And the client's retries is 2
    And the client's retry base is 50 ms
    And an onError classifier that answers "retry" for the status 400
    And an empty toolkit
    And the fake LLM always answers 400
    When the client runs "hi" in <mode> mode
    Then the call fails with an error that carries the status 400
    And the run made 3 LLM requests
    And the onError classifier was first given, in order, [{"status": 400, "attempt": 0, "retryable": false}, {"status": 400, "attempt": 1, "retryable": false}]

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c12-on-error-every-attempt @recommended @src:rec-c12-on-error-last
  @C12.17
  Scenario: onError is given every failed attempt, the last one included
    Given an openai client
    And the client's retries is 2
    And the client's retry base is 50 ms
    And an onError classifier that answers "retry" for the status 400
    And an empty toolkit
    And the fake LLM always answers 400
    When the client runs "hi" in run mode
    Then the run made 3 LLM requests
    And the onError classifier was given, in order, [{"status": 400, "attempt": 0, "retryable": false}, {"status": 400, "attempt": 1, "retryable": false}, {"status": 400, "attempt": 2, "retryable": false}]

  @id:c12-on-error-fail @required @src:spec-c12-on-error
  @C12.17
  Scenario Outline: onError "fail" on a 503 surfaces it at once: one request (<style> <mode>)
    Given an <style> client
    And the client's retry base is 50 ms
    And an onError classifier that answers "fail" for the status 503
    And an empty toolkit
    And the fake LLM always answers 503
    When the client runs "hi" in <mode> mode
    Then the call fails with an error that carries the status 503
    And the run made 1 LLM request
    And the onError classifier was given, in order, [{"status": 503, "attempt": 0, "retryable": true}]

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |

  @id:c12-on-error-default-answers @required @src:spec-c12-on-error
  @C12.17
  Scenario Outline: an onError that answers as the default does sees a 429, then a 500, each retryable, attempts 0 and 1 (<style>)
    Given an <style> client
    And the client's retry base is 50 ms
    And an onError classifier that answers as the default does
    And an empty toolkit
    And the fake LLM answers 429, then 500, and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the run made 3 LLM requests
    And the onError classifier was given, in order, [{"status": 429, "attempt": 0, "retryable": true}, {"status": 500, "attempt": 1, "retryable": true}]
    And the run result has {"text": "done"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-on-error-network @required @src:spec-c12-on-error
  @C12.17
  Scenario Outline: a dropped connection reaches onError as an error, with no status, retryable (<style>)
    Given an <style> client
    And the client's retry base is 50 ms
    And an onError classifier that answers as the default does
    And an empty toolkit
    And the fake LLM first fails with a dropped connection and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the onError classifier was given, in order, [{"attempt": 0, "retryable": true}]
    And onError call 1 was given an error and no status

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-timeout-bypasses-on-error @required @src:spec-c12-on-error-abort
  @C12.18
  Scenario Outline: a timeout never reaches onError and is not retried (<style> <mode>)
    Given an <style> client
    And the client's timeout is 300 ms
    And an onError classifier that answers "retry" for the status 400
    And an empty toolkit
    And the fake LLM answers only after 5 s
    When the client runs "hi" in <mode> mode
    Then the call fails with kind "deadline"
    And the run made 1 LLM request
    And the onError classifier was never called

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c12-cancel-bypasses-on-error @required @src:spec-c12-on-error-abort
  @C12.18
  Scenario Outline: a cancel never reaches onError and is not retried (<style> <mode>)
    Given an <style> client
    And an onError classifier that answers "retry" for the status 400
    And an empty toolkit
    And the fake LLM answers only after 5 s
    When the client runs "hi" in <mode> mode, cancelled after 300 ms
    Then the call fails with kind "cancelled"
    And the run made 1 LLM request
    And the onError classifier was never called

    Examples:
      | style     | mode   |
      | anthropic | run    |
      | openai    | stream |

  @id:c12-timeout-whole-run @required @src:spec-c12-abort
  @C12.14
  Scenario Outline: timeoutMs 1000 cuts a run whose turns each answer in 400 ms but together take longer, with the deadline error (<style> <mode>)
    Given an <style> client
    And the client's timeout is 1000 ms
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn, each answer after 400 ms
    When the client runs "go" in <mode> mode, timed
    Then the call fails with kind "deadline"
    And the run ended within 2500 ms of LLM request 1

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
