@contract
Feature: Contract C12 - resilience: which failures are retried, how often, and the backoff
  Upstream SPEC §8 Resilience: a failed LLM request is retried on 429/500/502/503/504 and network
  errors, "retries" times (default 2), with exponential backoff and jitter (retryBaseMs, default
  500). Gaps are read from the fake LLM's arrival stamps, never a stopwatch around the adapter.

  @id:c12-retry-statuses @required @src:spec-c12-retry-set
  @C12.1
  Scenario Outline: a <status> is retried, and the run succeeds (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers <status> and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"text": "done"}

    Examples:
      | status | style     | mode   |
      | 429    | openai    | run    |
      | 500    | openai    | run    |
      | 502    | anthropic | run    |
      | 503    | anthropic | stream |
      | 504    | openai    | stream |
      | 429    | anthropic | stream |
      | 500    | anthropic | run    |
      | 502    | openai    | stream |
      | 504    | anthropic | run    |

  @id:c12-no-retry-statuses @required @src:spec-c12-retry-set
  @C12.2
  Scenario Outline: a <status> is not retried: one request, and an error that carries the status (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM always answers <status>
    When the client runs "hi" in <mode> mode
    Then the call fails with an error that carries the status <status>
    And the run made 1 LLM request

    Examples:
      | status | style     | mode   |
      | 400    | openai    | run    |
      | 401    | anthropic | run    |
      | 404    | openai    | stream |
      | 422    | anthropic | stream |
      | 403    | openai    | run    |
      | 409    | anthropic | run    |
      | 408    | openai    | run    |
      | 408    | anthropic | stream |

  @id:c12-no-retry-501 @recommended @src:rec-c12-501
  @C12.2
  Scenario Outline: a 501 is not retried (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM always answers 501
    When the client runs "hi" in run mode
    Then the call fails with an error that carries the status 501
    And the run made 1 LLM request

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-default-retries @required @src:spec-c12-retries
  @C12.3
  Scenario Outline: a permanent 503 with no retries set gives exactly 3 requests, then an error (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM always answers 503
    When the client runs "hi" in <mode> mode
    Then the call fails with an error that carries the status 503
    And the run made 3 LLM requests

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c12-set-retries @required @src:spec-c12-retries
  @C12.3
  Scenario: retries 4 against a permanent 502 gives exactly 5 requests
    Given an openai client
    And the client's retries is 4
    And the client's retry base is 20 ms
    And an empty toolkit
    And the fake LLM always answers 502
    When the client runs "hi" in run mode
    Then the call fails with an error that carries the status 502
    And the run made 5 LLM requests

  @id:c12-default-backoff @required @src:spec-c12-backoff
  @C12.4
  Scenario Outline: with no Retry-After and the default base, the gaps are about 500 ms, then about 1000 ms (<style>)
    Given an <style> client
    And an empty toolkit
    And the fake LLM always answers 503
    When the client runs "hi" in run mode
    Then the run made 3 LLM requests
    And the gap before LLM request 2 is between 500 and 850 ms
    And the gap before LLM request 3 is between 1000 and 1350 ms

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-zero-retries @recommended @src:rec-c12-zero-retries
  @C12.16
  Scenario Outline: retries 0 against a permanent 503 is one request (<style>)
    Given an <style> client
    And the client's retries is 0
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM always answers 503
    When the client runs "hi" in run mode
    Then the call fails with an error that carries the status 503
    And the run made 1 LLM request

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-network-retried @required @src:spec-c12-retry-set
  @C12.1
  Scenario Outline: a dropped connection is retried, and the run succeeds (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first fails with a dropped connection and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"text": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c12-backoff-doubles @required @src:spec-c12-backoff
  @C12.4
  Scenario: with retries 3 and base 100 ms the gaps double: about 100, 200 and 400 ms
    Given an anthropic client
    And the client's retries is 3
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM always answers 503
    When the client runs "hi" in run mode
    Then the run made 4 LLM requests
    And the gap before LLM request 2 is between 100 and 450 ms
    And the gap before LLM request 3 is between 200 and 550 ms
    And the gap before LLM request 4 is between 400 and 750 ms

