@contract
Feature: Contract C12 - resilience: Retry-After
  Upstream SPEC §8 Resilience: Retry-After is honoured only as delay-seconds, a run of ASCII digits
  in 0 … 2147483647 waited as that many whole seconds, 0 included; every other value falls back to
  the backoff, and never raises, waits a negative time or retries without delay. Each scenario's
  retryBaseMs keeps honouring, truncating and backing off apart. Gaps are the fake's arrival stamps.

  @id:c12-retry-after-seconds @required @src:spec-c12-retry-after
  @C12.5
  Scenario Outline: Retry-After 2 is waited as 2 whole seconds, whatever the base (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: 2" and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the gap before LLM request 2 is between 2000 and 2350 ms

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c12-retry-after-on-5xx @required @src:spec-c12-retry-after
  @C12.5
  Scenario Outline: Retry-After on a 503 is honoured as on a 429 (<style> <mode>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 503 with the header line "Retry-After: 1" and then answers "done"
    When the client runs "hi" in <mode> mode
    Then the call succeeds
    And the gap before LLM request 2 is between 1000 and 1350 ms

    Examples:
      | style     | mode   |
      | anthropic | run    |
      | openai    | stream |

  @id:c12-retry-after-zero @required @src:spec-c12-retry-after
  @C12.6
  Scenario Outline: Retry-After 0 means retry now, not the backoff (<style>)
    Given an <style> client
    And the client's retry base is 1500 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: 0" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is below 400 ms

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-retry-after-spaces @required @src:spec-c12-retry-after
  @C12.7
  Scenario Outline: Retry-After "<value>" is a run of digits (spaces around it are not the value), honoured as 1 (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After:<value>" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 1000 and 1350 ms

    Examples:
      | value   | style     |
      | ⟨U+0020⟩⟨U+0020⟩⟨U+0020⟩1⟨U+0020⟩⟨U+0020⟩ | openai    |
      | 01                                     | anthropic |

  @id:c12-retry-after-fallback @required @src:spec-c12-retry-after-fallback
  @C12.8 @C12.10
  Scenario Outline: Retry-After "<value>" is not delay-seconds: the backoff, and the run succeeds (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: <value>" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 100 and 900 ms

    Examples:
      | value                         | style     |
      | 2.5                           | openai    |
      | 1.0                           | anthropic |
      | Wed, 21 Oct 2015 07:28:00 GMT | openai    |
      | Wed, 21 Oct 2099 07:28:00 GMT | anthropic |
      | 2147483648                    | openai    |
      | 99999999999999999999          | anthropic |
      | abc                           | openai    |
      | 2s                            | anthropic |
      | 1e3                           | openai    |
      | 0x10                          | anthropic |
      | ２                            | openai    |

  @id:c12-retry-after-empty @required @src:spec-c12-retry-after-fallback
  @C12.10
  Scenario Outline: an empty Retry-After is not delay-seconds: the backoff (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After:" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 100 and 900 ms

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-retry-after-signed @required @src:spec-c12-retry-after-fallback
  @C12.9
  Scenario Outline: a signed Retry-After "<value>" falls back to the backoff, never to no delay and never to 5 s (<style>)
    Given an <style> client
    And the client's retry base is 400 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: <value>" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 400 and 750 ms

    Examples:
      | value | style     |
      | -5    | openai    |
      | +5    | anthropic |
      | -0    | openai    |
      | +1    | anthropic |

  @id:c12-retry-after-huge @required @src:spec-c12-retry-after
  @C12.11
  Scenario Outline: Retry-After <value> is waited, not overflowed into an early retry: a cancel ends the wait (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: <value>" and then answers "done"
    When the client runs "hi" in run mode, cancelled after 600 ms
    Then the call fails with kind "cancelled"
    And the run ended at least 400 ms after LLM request 1
    And the run made 1 LLM request

    Examples:
      | value      | style     |
      | 2147484    | openai    |
      | 2147483647 | anthropic |
      | 4294968    | anthropic |
      | 86400      | openai    |

  @id:c12-retry-after-case @required @src:spec-c12-retry-after-case
  @C12.12
  Scenario Outline: the header "<name>" is found whatever its case (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "<name>: 1" and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 1000 and 1350 ms

    Examples:
      | name        | style     |
      | retry-after | openai    |
      | RETRY-AFTER | anthropic |

  @id:c12-retry-after-twice @recommended @src:rec-c12-duplicate
  @C12.13
  Scenario Outline: two Retry-After lines are one value, "2, 2", which is not delay-seconds: the backoff (<style>)
    Given an <style> client
    And the client's retry base is 100 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header lines ["Retry-After: 2", "Retry-After: 2"] and then answers "done"
    When the client runs "hi" in run mode
    Then the call succeeds
    And the gap before LLM request 2 is between 100 and 900 ms

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-deadline-cuts-retry-after @recommended @src:rec-c12-deadline-wait
  @C12.15
  Scenario Outline: Retry-After 30 under timeoutMs 500 ends in the deadline error within 1.5 s, one request (<style>)
    Given an <style> client
    And the client's timeout is 500 ms
    And an empty toolkit
    And the fake LLM first answers 429 with the header line "Retry-After: 30" and then answers "done"
    When the client runs "hi" in run mode, timed
    Then the call fails with kind "deadline"
    And the run made 1 LLM request
    And the run ended within 1500 ms of LLM request 1

    Examples:
      | style     |
      | openai    |
      | anthropic |
