@contract
Feature: Contract C10 - the loop's hooks
  Upstream SPEC §8 Hooks: beforeLLM and afterLLM around each model call, beforeTool and afterTool
  around each tool call; beforeTool may answer for the tool or rewrite its arguments, afterTool may
  replace its result. Each hook calls back to the runner, which stamps the call on the same clock
  as the fake LLM's requests, so their order is read, not guessed. The host tool "echo" answers
  "echo-output".

  @id:c10-order @required @src:spec-c10-hooks
  @C10.1 @C10.7
  Scenario Outline: the hooks and the requests come in the loop's order (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the loop's order is: beforeLLM(0), LLM request 1, afterLLM(0), beforeTool(echo), tool echo, afterTool(echo), beforeLLM(1), LLM request 2, afterLLM(1)

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c10-after-llm-usage @required @src:spec-c10-after-llm
  @C10.2
  Scenario Outline: afterLLM sees the provider's usage of its turn (<style> run)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting 3 prompt and 4 completion tokens, then answers "done" reporting 5 prompt and 6 completion tokens
    When the client runs "go" in run mode
    Then the call succeeds
    And the afterLLM hook saw, on turn 0, the usage <turn0>
    And the afterLLM hook saw, on turn 1, the usage <turn1>

    Examples:
      | style     | turn0                                                          | turn1                                                          |
      | openai    | {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7} | {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11} |
      | anthropic | {"input_tokens": 3, "output_tokens": 4}                         | {"input_tokens": 5, "output_tokens": 6}                          |

  @id:c10-deny @required @src:spec-c10-before-tool
  @C10.3 @C10.7
  Scenario Outline: beforeTool answering for the tool short-circuits it (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook denies "echo" with "denied"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" never ran
    And LLM request 2 carries the tool output "denied"
    And the run's tool call 1 includes {"name": "echo", "output": "denied"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c10-deny-skips-after-tool @recommended @src:rec-c10-deny-after-tool
  @C10.3
  Scenario Outline: afterTool is not called for a call beforeTool answered (<style>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook denies "echo" with "denied"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the afterTool hook was never called

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c10-rewrite-args @required @src:spec-c10-before-tool
  @C10.4
  Scenario Outline: beforeTool rewriting the arguments makes the call with them (<style>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook rewrites the arguments of "echo" to {"x": "rewritten", "n": [1, null]}
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig", "extra": true} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments {"x": "rewritten", "n": [1, null]}
    And the run's tool call 1 includes {"name": "echo", "args": {"x": "rewritten", "n": [1, null]}}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c10-replace-output @required @src:spec-c10-after-tool
  @C10.5 @C10.7
  Scenario Outline: afterTool replacing the result changes what the model gets back (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the afterTool hook replaces the output of "echo" with "redacted ✂"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And LLM request 2 carries the tool output "redacted ✂"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c10-before-tool-event @required @src:spec-c10-before-tool
  @C10.6
  Scenario Outline: beforeTool sees the tool's name, the parsed arguments, the call's id and the turn (<style>)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "é", "n": 2.5, "b": false, "z": null} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the beforeTool hook saw {"name": "echo", "args": {"x": "é", "n": 2.5, "b": false, "z": null}, "id": "<id>", "turn": 0}

    Examples:
      | style     | id      |
      | openai    | call_1  |
      | anthropic | toolu_1 |

  @id:c10-before-llm-tools @recommended @src:rec-c10-tools-replaced
  @C10.8
  Scenario Outline: a beforeLLM that returns one tool on turn 0 leaves only that tool in every request (<style> <mode>)
    Given an <style> client
    And a BeforeLLM hook that, on turn 0, returns only the tool "b"
    And a toolkit with the host tools "a" and "b"
    And the fake LLM first calls the tool "b" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And every LLM request offers exactly the tools b

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c10-after-tool-error-result @required @src:spec-c10-after-tool
  @C10.5
  Scenario Outline: afterTool sees a failed call's error result, and its replacement, flag included, is the call's result (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the afterTool hook replaces the output of "boom" with "redacted"
    And a native tool "boom" that throws "secret ☂ leaked"
    And the toolkit is built
    And the fake LLM first calls the tool "boom" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the afterTool hook saw {"name": "boom", "result": {"isError": true}}
    And LLM request 2 carries the tool output "redacted"
    And the run's tool call 1 includes {"name": "boom", "output": "redacted", "isError": false}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | anthropic | stream |

  @id:c10-after-tool-sees-rewritten-args @recommended @src:rec-c10-after-tool-args
  @C10.4
  Scenario Outline: afterTool sees the arguments the tool ran with: a rewrite's, whole (<style>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook rewrites the arguments of "echo" to {"x": "rewritten"}
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig", "extra": 1} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments {"x": "rewritten"}
    And the afterTool hook saw exactly the arguments {"x": "rewritten"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c10-tool-hooks-turn @required @src:spec-c10-before-tool @src:spec-c10-after-tool
  @C10.6
  Scenario Outline: the tool hooks see each call's turn, the second turn's two calls included (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tools "a" and "b"
    And the fake LLM calls the tool "a", then calls "b" and "a" at once, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the beforeTool hook saw, in order, the turns 0, 1, 1
    And the afterTool hook saw, in order, the turns 0, 1, 1

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |


  @id:c10-deny-as-error @required @src:spec-c10-before-tool @src:spec-c9-tool-calls
  @C10.3
  Scenario Outline: a beforeTool answer flagged isError is fed back and recorded as an error (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook denies "echo" with "⟨edge:markup⟩", flagged as an error
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" never ran
    And the run's tool call 1 includes {"name": "echo", "output": ⟨edge-json:markup⟩, "isError": true}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | anthropic | stream |

  @id:c10-before-llm-messages-persist @required @src:spec-c10-messages-replace
  @C10.8
  Scenario Outline: messages a beforeLLM returns on turn 0 are the transcript every later request continues (<style> <mode>)
    Given an <style> client
    And a BeforeLLM hook that, on turn 0 only, replaces the last user message with "rewritten by the hook"
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "original prompt" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the messages of LLM request 2 carry "rewritten by the hook" and not "original prompt"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |

  @id:c10-replace-output-edge-values @required @src:spec-c10-after-tool @src:spec-c4-feedback
  @C10.5 @C9.4 @C9.5
  Scenario Outline: an afterTool replacement holding <value> is what the run records and what goes back to the model, byte for byte (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the afterTool hook replaces the output of "echo" with "⟨edge:<value>⟩"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run's tool call 1 includes {"name": "echo", "output": ⟨edge-json:<value>⟩}
    And LLM request 2 carries the run's tool call 1 output exactly

    Examples:
      | style     | mode   | value           |
      | openai    | run    | escape-all      |
      | openai    | stream | whitespace      |
      | openai    | run    | line-separators |
      | anthropic | run    | blank-lines     |
      | anthropic | stream | crlf            |
      | anthropic | run    | controls        |

  @id:c10-rewrite-args-edge @required @src:spec-c10-before-tool
  @C10.4 @C10.7
  Scenario Outline: beforeTool rewriting the arguments to <what> makes the call with them, and the run records them (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And the beforeTool hook rewrites the arguments of "echo" to <args>
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the arguments {"x": "orig", "extra": true} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments <args>
    And the run's tool call 1 includes {"name": "echo", "args": <args>}

    Examples:
      | what                          | style     | mode   | args                                                                                              |
      | escapes, whitespace and order | openai    | stream | {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "k": ⟨edge:keys-out-of-order⟩}         |
      | escapes, whitespace and order | anthropic | stream | {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "names": ⟨edge:names-out-of-order⟩}   |
      | an empty object               | openai    | run    | {}                                                                                                |
      | an empty object               | anthropic | stream | {}                                                                                                |

  @id:c10-after-llm-provider-total @required @src:spec-c10-after-llm
  @C10.2
  Scenario: afterLLM sees the provider's total_tokens as sent, not the sum of its parts (openai run)
    Given an openai client
    And every hook records what it sees
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting the usage {"prompt": 3, "completion": 4, "total": 9}, then answers "done" reporting the usage {"prompt": 5, "completion": 6, "total": 12}
    When the client runs "go" in run mode
    Then the call succeeds
    And the afterLLM hook saw, on turn 0, the usage {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 9}
    And the afterLLM hook saw, on turn 1, the usage {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 12}

  @id:c10-before-tool-event-edge @required @src:spec-c10-before-tool
  @C10.6 @C10.7
  Scenario Outline: beforeTool sees the model's arguments parsed, every escape, whitespace and key kept (<style> <mode>)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tool "echo"
    And the fake LLM first calls, at once, the tool "echo" with {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "k": ⟨edge:keys-out-of-order⟩}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the beforeTool hook saw {"name": "echo", "args": {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "k": ⟨edge:keys-out-of-order⟩}, "id": "<id>", "turn": 0}

    Examples:
      | style     | mode   | id      |
      | openai    | run    | call_1  |
      | anthropic | run    | toolu_1 |
      | openai    | stream | call_1  |
      | anthropic | stream | toolu_1 |
