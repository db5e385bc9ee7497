@contract
Feature: Contract C14 - suspension: Pending and waitFor
  Upstream SPEC §0.12 and §10: a tool may return Pending(request); with a waitFor the client
  asks it, runs the tool again with the answer and goes on; without one the run halts with
  status "pending" and the request. The suspending tools here call back to the runner: the first
  run suspends with the scenario's Request (all six keys, non-ASCII), a run carrying an answer
  returns "resumed: <the answer's data as JSON>". The runner's waitFor echoes the request's id.

  Background:
    Given the tool "login" suspends with the request {"id": "req-login-1", "kind": "authorization", "prompt": "Log in to Zürich", "url": "https://auth.example/login?a=1&b=ü", "data": {"scope": ["read"], "n": 2}, "expiresAt": "2027-01-01T00:00:00Z"} and the output "Login required (placeholder)"
    And the tool "approve" suspends with the request {"id": "req-approve-2", "kind": "approval", "prompt": "Approve the trade?", "data": {"amount": 3}} and the output "Waiting for approval"

  @id:c14-resume @required @src:spec-c14-resume
  @C14.1 @C14.11
  Scenario Outline: an ok answer runs the tool again with the same arguments and the answer (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "42", "ü": [1, true, null]}}
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": {"deep": ["ü", 1.5, false, null]}} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"status": "done", "text": "done"}
    And the run has no pending request
    And waitFor was called 1 time
    And waitFor was called with exactly the request of "login"
    And the tool "login" ran again with the first run's arguments and the answer {"ok": true, "data": {"code": "42", "ü": [1, true, null]}}
    And LLM request 2 carries, for "login", its resumed output

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-declined @required @src:spec-c14-declined
  @C14.2 @C14.11
  Scenario Outline: a not-ok answer feeds back "declined/expired: <prompt>" and the loop goes on (<style> <mode> <reason>)
    Given an <style> client
    And the client's waitFor answers {"ok": false, "reason": "<reason>"}
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"status": "done", "text": "done"}
    And waitFor was called 1 time
    And the tool "login" ran 1 time
    And LLM request 2 carries, for "login", the tool result "declined/expired: Log in to Zürich"

    Examples:
      | style     | mode   | reason    |
      | openai    | run    | declined  |
      | anthropic | run    | expired   |
      | openai    | stream | cancelled |
      | anthropic | stream | declined  |

  @id:c14-declined-is-error @required @src:spec-c14-declined
  @C14.2
  Scenario Outline: on the anthropic style the declined result is an error result (<mode>)
    Given an anthropic client
    And the client's waitFor answers {"ok": false, "reason": "declined"}
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And LLM request 2 marks the tool result for "login" "is_error": true

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c14-unresolved @required @src:spec-c14-unresolved
  @C14.3 @C14.11
  Scenario Outline: a retry that suspends again feeds back "unresolved: <prompt>" and never spins (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And once resumed, the tool "login" suspends again
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And waitFor was called 1 time
    And the tool "login" ran 2 times
    And LLM request 2 carries, for "login", the tool result "unresolved: Log in to Zürich"
    And the run result has {"status": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-halt @required @src:spec-c14-halt
  @C14.4 @C14.11
  Scenario Outline: without waitFor the run halts with status pending and the Request (<style> <mode>)
    Given an <style> client
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request
    And the tool "login" ran 1 time
    And the run result has {"status": "pending"}
    And the run's pending request is exactly the request of "login"
    And the run's pending request has exactly the keys id, kind, prompt, url, data, expiresAt

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-halt-transcript @required @src:spec-c14-transcript
  @C14.5
  Scenario Outline: a halted run's transcript ends with the halted call's placeholder (<style> <mode>)
    Given an <style> client
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run's messages end with one tool result, for the call of "login"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-placeholder-content @recommended @src:rec-c14-placeholder
  @C14.5
  Scenario Outline: the halted call's placeholder holds the Request's prompt (<style>)
    Given an <style> client
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's last tool result holds exactly "Log in to Zürich"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c14-first-in-order @required @src:spec-c14-first @src:spec-c14-transcript
  @C14.6
  Scenario Outline: two suspensions without waitFor halt on the first in call order, however slow (<style> <mode>)
    Given an <style> client
    And the tool "login" takes 300 ms to suspend
    And a toolkit with the suspending tools "login" and "approve"
    And the fake LLM first calls, at once, the tool "login" with {"x": 1} and the tool "approve" with {"x": 2}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request
    And the run result has {"status": "pending"}
    And the run's pending request is exactly the request of "login"
    And the run's messages end with one tool result, for the call of "login"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-each-resolved @required @src:spec-c14-each
  @C14.7
  Scenario Outline: two suspensions with waitFor are both resolved (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "7"}}
    And the tool "login" takes 300 ms to suspend
    And a toolkit with the suspending tools "login" and "approve"
    And the fake LLM first calls, at once, the tool "login" with {"x": 1} and the tool "approve" with {"x": 2}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And waitFor was called once for each request of "login" and "approve"
    And LLM request 2 carries, for "login", its resumed output
    And LLM request 2 carries, for "approve", its resumed output
    And the run result has {"status": "done", "text": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-after-tool @required @src:spec-c14-after-tool
  @C14.8
  Scenario Outline: afterTool sees the resolved result, never the suspension (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the afterTool hook saw only the resumed output of "login"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-stream-event @required @src:spec-c14-stream
  @C14.9
  Scenario Outline: the stream's pending event carries the Request, before that call's result (<style>, <waitFor>)
    Given an <style> client
    And <waitFor>
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's pending event carries exactly the request of "login", before that call's tool result

    Examples:
      | style     | waitFor                                                         |
      | openai    | the client's waitFor answers {"ok": true, "data": {"code": "1"}} |
      | anthropic | the client's waitFor answers {"ok": false}                       |
      | openai    | a toolkit of the options the scenario set                       |
      | anthropic | a toolkit of the options the scenario set                       |

  @id:c14-guard @required @src:spec-c14-guard
  @C14.10 @C14.11
  Scenario Outline: a beforeTool hook that returns a suspension halts the run, and the tool never runs (<style> <mode>)
    Given an <style> client
    And the beforeTool hook suspends "echo" with the request {"id": "req-guard-3", "kind": "approval", "prompt": "May I echo?", "data": {"why": "guard"}}
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" never ran
    And the run made 1 LLM request
    And the run result has {"status": "pending"}
    And the run's pending request's "id" is exactly "req-guard-3"
    And the run's pending request's "prompt" is exactly "May I echo?"
    And the run's pending request's "data" is exactly {"why": "guard"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-ask-every-suspension @required @src:spec-c14-ask @src:spec-c14-resume
  @C14.1 @C14.11
  Scenario Outline: every suspension is put to waitFor, even one for a URL an earlier one had answered (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And the tool "relogin" suspends with the request {"id": "req-login-9", "kind": "authorization", "prompt": "Log in to Zürich, again", "url": "https://auth.example/login?a=1&b=ü"} and the output "Login required again (placeholder)"
    And a toolkit with the suspending tools "login" and "relogin"
    And the fake LLM calls the tool "login" with {"x": 1}, then the tool "relogin" with {"x": 2}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 3 LLM requests
    And waitFor was called once for each request of "login" and "relogin"
    And the tool "relogin" ran 2 times
    And LLM request 3 carries, for "relogin", its resumed output
    And the run result has {"status": "done", "text": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-ask-expired @required @src:spec-c14-ask
  @C14.1
  Scenario Outline: a Request whose expiresAt has passed still goes to waitFor, which decides (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And the tool "stale" suspends with the request {"id": "req-stale-4", "kind": "approval", "prompt": "Approve the old trade?", "data": {"amount": 1}, "expiresAt": "2001-01-01T00:00:00Z"} and the output "Waiting for an old approval"
    And a toolkit with the suspending tool "stale"
    And the fake LLM first calls the tool "stale" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And waitFor was called 1 time
    And waitFor was called with exactly the request of "stale"
    And the tool "stale" ran 2 times
    And LLM request 2 carries, for "stale", its resumed output

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c14-resume-error-kept @required @src:spec-c14-resume
  @C14.1 @C14.11
  Scenario Outline: a retry that answers with an error is fed back as that error (<mode>)
    Given an anthropic client
    And the client's waitFor answers {"ok": true, "data": {"code": "41"}}
    And once resumed, the tool "login" answers the error "code rejected ü"
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "login" ran 2 times
    And LLM request 2 carries, for "login", the tool result "code rejected ü"
    And LLM request 2 marks the tool result for "login" "is_error": true

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c14-resume-rewritten-args @required @src:spec-c14-resume
  @C14.1
  Scenario Outline: the retry runs with the arguments the tool first ran with, a beforeTool rewrite's (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook rewrites the arguments of "login" to {"x": "rewritten ü", "n": [1, null]}
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "login" first ran with the arguments {"x": "rewritten ü", "n": [1, null]}
    And the tool "login" ran again with the first run's arguments and the answer {"ok": true, "data": {"code": "42"}}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c14-unresolved-answered-prompt @recommended @src:rec-c14-unresolved-prompt
  @C14.3
  Scenario Outline: a retry that suspends with another prompt still feeds back the answered Request's prompt (<style>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"code": "42"}}
    And once resumed, the tool "login" suspends again, asking "Still waiting for Ω"
    And a toolkit with the suspending tool "login"
    And the fake LLM first calls the tool "login" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And waitFor was called 1 time
    And LLM request 2 carries, for "login", the tool result "unresolved: Log in to Zürich"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c14-declined-edge-prompt @required @src:spec-c14-declined
  @C14.2
  Scenario Outline: the declined text carries the prompt as given: quote, backslash, markup, U+2028, non-BMP, a trailing tab (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": false, "reason": "declined"}
    And the tool "edgy" suspends with the request {"id": "req-edge-5", "kind": "approval", "prompt": ⟨edge-json:escape-all⟩, "data": {"k": ⟨edge:keys-out-of-order⟩, "s": ⟨edge-json:line-separators⟩}} and the output "Waiting (placeholder)"
    And a toolkit with the suspending tool "edgy"
    And the fake LLM first calls the tool "edgy" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And waitFor was called with exactly the request of "edgy"
    And LLM request 2 carries, for "edgy", the tool result "declined/expired: ⟨edge:escape-all⟩"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c14-halt-edge-request @required @src:spec-c14-halt
  @C14.4
  Scenario Outline: without waitFor the pending Request is the tool's as given: every escape, whitespace and line separator (<style> <mode>)
    Given an <style> client
    And the tool "edgy" suspends with the request {"id": "req-edge-6", "kind": "input", "prompt": ⟨edge-json:whitespace⟩, "url": "https://auth.example/p?q=%22&r=<&s=ü", "data": {"k": ⟨edge:keys-out-of-order⟩, "s": ⟨edge-json:escape-all⟩, "c": ⟨edge-json:crlf⟩}, "expiresAt": "2027-01-01T00:00:00Z"} and the output "Waiting (placeholder)"
    And a toolkit with the suspending tool "edgy"
    And the fake LLM first calls the tool "edgy" with the arguments {"x": 1} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request
    And the run result has {"status": "pending"}
    And the run's pending request is exactly the request of "edgy"
    And the run's pending request's text "prompt" is exactly "⟨edge:whitespace⟩"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |
