@contract
Feature: Contract C11 - the stream's events
  Upstream SPEC §8 Streaming: the same loop as run(), incremental: text deltas, tool_call before each
  tool runs, tool_result after, usage, and done carrying the final RunResult. A streamed
  client.run returns every event the port emitted, in order, with the SPEC's field names.

  @id:c11-events @required @src:spec-c11-events
  @C11.1 @C11.3
  Scenario Outline: a tool call and two text deltas stream as their events, the call's before its result, done last (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams "hel" and "lo"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's events include, in this order, [{"type": "tool_call", "id": "<id>", "name": "ping", "args": {}}, {"type": "tool_result", "id": "<id>", "name": "ping", "output": "ping-output", "isError": false}, {"type": "text", "delta": "hel"}, {"type": "text", "delta": "lo"}]
    And the stream's last event is its done event, whose result includes {"text": "hello", "turns": 2}

    Examples:
      | style     | id      |
      | openai    | call_1  |
      | anthropic | toolu_1 |

  @id:c11-event-types @recommended @src:rec-c11-order
  @C11.2
  Scenario Outline: usage comes once, right before done, and nothing else is emitted (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams "hel" and "lo"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's event types are exactly tool_call, tool_result, text, text, usage, done

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-openai-stream-body @required @src:spec-c11-openai
  @C11.4
  Scenario: every openai stream request asks for usage
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams "hel" and "lo"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the run made 2 LLM requests
    And every LLM request body has "stream" equal to true
    And every LLM request body has "stream_options" equal to {"include_usage": true}

  @id:c11-interleaved-fragments @required @src:spec-c11-assemble
  @C11.5 @C11.6
  Scenario Outline: argument fragments of two calls, interleaved, are assembled by index (<style>)
    Given an <style> client
    And a toolkit with the host tools "a" and "b"
    And the fake LLM first calls the tool "a" with {"a": "xyz é"} and the tool "b" with {"b": [1, 2, {"c": null}]} at once, their argument fragments interleaved, and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the tool "a" ran once, with the arguments {"a": "xyz é"}
    And the tool "b" ran once, with the arguments {"b": [1, 2, {"c": null}]}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-interleaved-index-1-first @required @src:spec-c11-assemble
  @C11.5
  Scenario: an openai stream that opens index 1 before index 0 and interleaves their fragments gives each call its own arguments
    Given an openai client
    And a toolkit with the host tools "a" and "b"
    And the fake LLM first calls the tool "a" with {"a": ⟨edge-json:escape-all⟩, "n": [1, 2.5, null, true]} and the tool "b" with {"b": ⟨edge:keys-out-of-order⟩, "ws": ⟨edge-json:whitespace⟩} at once, index 1 opened before index 0 and their argument fragments interleaved, and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the tool "a" ran once, with the arguments {"a": ⟨edge-json:escape-all⟩, "n": [1, 2.5, null, true]}
    And the tool "b" ran once, with the arguments {"b": ⟨edge:keys-out-of-order⟩, "ws": ⟨edge-json:whitespace⟩}
    And the stream's last event is its done event, whose result includes {"text": "done", "turns": 2}

  @id:c11-done-equals-run @required @src:spec-c11-same-loop
  @C11.7
  Scenario Outline: the stream's done result is the run's result (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM, twice over, first calls the tool "ping" and then answers "done"
    When the client runs "go" in run mode
    And the client runs "go" in stream mode
    Then the call succeeds
    And the stream's done result equals the run's in <fields>
    And the stream's text deltas join to its result's text

    # An anthropic stream's usage reading is SPEC.md §9's recommended C9.11 pin
    # (c9-usage-anthropic-stream), so it is not compared here.
    Examples:
      | style     | fields                               |
      | openai    | text, turns, toolCalls and usage     |
      | anthropic | text, turns and toolCalls            |

  @id:c11-limit-done @recommended @src:rec-c11-limit
  @C11.9
  Scenario Outline: a stream cut by maxTurns ends with done, incomplete (<style>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's last event is its done event, whose result includes {"status": "incomplete", "limit": "maxTurns", "turns": 2}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-end-turn-with-tools @recommended @src:rec-c11-end-turn
  @C11.8
  Scenario Outline: tool_use blocks followed by stop_reason end_turn run the tool, in <mode> as in run
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping", saying stop_reason "end_turn", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the tool "ping" ran once, with the arguments {}

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c11-blank-deltas @required @src:spec-c11-events @src:spec-c11-same-loop
  @C11.1 @C11.7
  Scenario Outline: a text delta of only a space is an event too, and part of the text (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams " " and "¡hola"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's events include, in this order, [{"type": "text", "delta": " "}, {"type": "text", "delta": "¡hola"}]
    And the stream's last event is its done event, whose result includes {"text": " ¡hola"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-error-tool-result @required @src:spec-c11-events
  @C11.1
  Scenario Outline: a failed call's tool_result event carries isError true (<style>)
    Given an <style> client
    And a native tool "boom" that throws "it broke"
    And the toolkit is built
    And the fake LLM first calls the tool "boom" and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's events include, in this order, [{"type": "tool_call", "id": "<id>", "name": "boom"}, {"type": "tool_result", "id": "<id>", "name": "boom", "isError": true}]
    And the stream's last event is its done event, whose result includes {"text": "done"}

    Examples:
      | style     | id      |
      | openai    | call_1  |
      | anthropic | toolu_1 |


  @id:c11-sse-data-no-space @required @src:spec-c11-sse
  @C11.1
  Scenario Outline: a provider that writes "data:" without the space streams the same run (<style>)
    Given an <style> client
    And a toolkit with the host tool "a"
    And the fake LLM first calls the tool "a" with {"s": "é"} and then answers "done", reporting 3+4 and then 5+6 tokens, from a provider that writes "data:" without the space
    When the client runs "go" in stream mode
    Then the call succeeds
    And the tool "a" ran once, with the arguments {"s": "é"}
    And the stream's last event is its done event, whose result includes {"text": "done", "turns": 2}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-sse-crlf @required @src:spec-c11-sse
  @C11.1
  Scenario Outline: a provider that ends every SSE line with CR LF streams the same run (<style>)
    Given an <style> client
    And a toolkit with the host tool "a"
    And the fake LLM first calls the tool "a" with {"s": ⟨edge-json:escape-all⟩, "crlf": ⟨edge-json:crlf⟩} and then answers "done", reporting 3+4 and then 5+6 tokens, from a provider that ends every line with CR LF
    When the client runs "go" in stream mode
    Then the call succeeds
    And the tool "a" ran once, with the arguments {"s": ⟨edge-json:escape-all⟩, "crlf": ⟨edge-json:crlf⟩}
    And the stream's events include, in this order, [{"type": "tool_call", "name": "a"}, {"type": "tool_result", "name": "a"}, {"type": "text"}, {"type": "usage"}, {"type": "done"}]
    And the stream's last event is its done event, whose result includes {"text": "done", "turns": 2}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-repeated-call-id @recommended @src:rec-c11-repeated-id
  @C11.3 @C11.5
  Scenario: an openai stream that repeats a call's id on every fragment gives that id once, in the events and the tool message
    Given an openai client
    And a toolkit with the host tool "a"
    And the fake LLM first calls the tool "a" with {"s": "long enough to come in pieces"} and then answers "done", reporting 3+4 and then 5+6 tokens, from a provider that repeats each call's id on every fragment
    When the client runs "go" in stream mode
    Then the call succeeds
    And the tool "a" ran once, with the arguments {"s": "long enough to come in pieces"}
    And the stream's events include, in this order, [{"type": "tool_call", "id": "call_1", "name": "a"}, {"type": "tool_result", "id": "call_1", "name": "a"}]
    And the tool messages of LLM request 2 are exactly [{"role": "tool", "tool_call_id": "call_1", "content": "a-output"}]

  @id:c11-usage-reported-twice @recommended @src:rec-c11-usage-chunks
  @C11.7 @C9.11
  Scenario: an openai stream that reports its cumulative usage on two chunks counts it once
    Given an openai client
    And a toolkit with the host tool "a"
    And the fake LLM first calls the tool "a" with {} and then answers "done", reporting 3+4 and then 5+6 tokens, from a provider that reports the usage on two chunks
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's last event is its done event, whose result includes {"usage": {"promptTokens": 8, "completionTokens": 10, "totalTokens": 18}}

  @id:c11-anthropic-delta-input-tokens @recommended @src:rec-c9-stream-usage
  @C9.11 @C11.6
  Scenario: an anthropic stream whose message_delta repeats input_tokens counts the prompt once per turn
    Given an anthropic client
    And a toolkit with the host tool "a"
    And the fake LLM first calls the tool "a" with {} and then answers "done", reporting 3+4 and then 5+6 tokens, from a provider that repeats input_tokens in message_delta
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's last event is its done event, whose result includes {"usage": {"promptTokens": 8, "completionTokens": 10, "totalTokens": 18}}

  @id:c11-many-deltas @required @src:spec-c11-events @src:spec-c11-same-loop
  @C11.1 @C11.7
  Scenario Outline: 5000 text deltas that arrive together are 5000 text events, none lost (<style>)
    Given an <style> client
    And the client's timeout is 5000 ms
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams 5000 text deltas, each "<piece>"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream has 5000 text events, each "<piece>", and its done result's text is all of them joined

    Examples:
      | style     | piece |
      | openai    | é🚀   |
      | anthropic | a⟨U+2028⟩ |

  @id:c11-long-delta @required @src:spec-c11-events @src:spec-c11-same-loop
  @C11.1 @C11.7
  Scenario Outline: one text delta of 100000 characters, a single SSE line past 64 KiB, is streamed whole (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then streams one text delta of 100000 "x" characters
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's done result's text is 100000 "x" characters
    And the stream's text deltas join to its result's text

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c11-events-edge-values @required @src:spec-c11-events @src:spec-c10-after-tool
  @C11.1 @C11.3
  Scenario Outline: tool_call carries the model's arguments parsed, escapes, whitespace and keys kept, and tool_result the output an afterTool hook put in its place (<style>)
    Given an <style> client
    And every hook records what it sees
    And the afterTool hook replaces the output of "echo" with "⟨edge:escape-all⟩"
    And a toolkit with the host tool "echo"
    And the fake LLM first calls, at once, the tool "echo" with {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "k": ⟨edge:keys-out-of-order⟩}, and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the stream's events include, in this order, [{"type": "tool_call", "id": "<id>", "name": "echo", "args": {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "k": ⟨edge:keys-out-of-order⟩}}, {"type": "tool_result", "id": "<id>", "name": "echo", "output": ⟨edge-json:escape-all⟩, "isError": false}]

    Examples:
      | style     | id      |
      | openai    | call_1  |
      | anthropic | toolu_1 |
