@contract
Feature: Contract C15 - single-turn translate
  Upstream SPEC §0.13 and §11: translate sends OpenAI-shaped messages to the provider in the
  client's style, makes exactly one provider call (retries aside), runs nothing, keeps no state,
  and returns {text, toolCalls [{id, name, arguments as a JSON string}], finishReason, usage,
  model}. The fake LLM answers with the raw provider reply each scenario gives.

  @id:c15-one-call @required @src:spec-c15-one-call
  @C15.1 @C15.2
  Scenario Outline: one provider call, no tool run, the calls returned with string arguments (<style>)
    Given an <style> client
    And the client's model is "model-ü"
    And a toolkit with the host tools "echo" and "ping"
    And <reply>
    When the client translates, with the scenario's toolkit, the request:
      """
      {"messages": [{"role": "user", "content": "call echo"}]}
      """
    Then the call succeeds
    And the translate made 1 LLM request
    And no tool ran during the translate
    And the translate's tool calls are, in order, "c1"
    And the translate's tool call "c1" has arguments that parse to {"x": ["ü", 1, true, null, {"y": 2.5}]}
    And the translate result has {"model": "model-ü", "finishReason": "tool_calls"}

    Examples:
      | style     | reply                                                                                                                                                                                              |
      | openai    | the fake LLM replies in the openai style with the message {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "echo", "arguments": "{\"x\": [\"ü\", 1, true, null, {\"y\": 2.5}]}"}}]} and the finish reason "tool_calls" |
      | anthropic | the fake LLM replies in the anthropic style with the content [{"type": "tool_use", "id": "c1", "name": "echo", "input": {"x": ["ü", 1, true, null, {"y": 2.5}]}}] and the stop reason "tool_use"                                   |

  @id:c15-inbound-tool-use @required @src:spec-c15-inbound
  @C15.3 @C15.7
  Scenario Outline: an assistant turn's tool_calls reach anthropic as tool_use blocks, arguments as an object (<arguments>)
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": <arguments>}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r1"}]}
      """
    Then the call succeeds
    And LLM request 1's message 2 has the role "assistant" and a content block including {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": 1, "ü": [true, null]}}
    And LLM request 1's message 3 is a user message whose tool_result blocks answer, in order, "c1"

    Examples:
      | arguments                          |
      | "{\\"a\\": 1, \\"ü\\": [true, null]}" |
      | {"a": 1, "ü": [true, null]}         |

  @id:c15-inbound-same-body @required @src:spec-c15-inbound
  @C15.7
  Scenario: arguments given as an object send the same wire body as the string
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r1"}]}
      """
    And the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r1"}]}
      """
    Then the call succeeds
    And LLM requests 1 and 2 have the same "messages"

  @id:c15-inbound-merge @required @src:spec-c15-inbound
  @C15.4
  Scenario: consecutive tool results merge into one user turn, in order
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r1"}, {"role": "tool", "tool_call_id": "c2", "content": "r2 ü"}]}
      """
    Then the call succeeds
    And LLM request 1 has 3 messages
    And LLM request 1's message 3 is a user message whose tool_result blocks answer, in order, "c1" and "c2"

  @id:c15-inbound-system @required @src:spec-c15-system
  @C15.5
  Scenario: system and developer messages are hoisted into anthropic's system
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "system", "content": "Be brief ü."}, {"role": "developer", "content": "Use tools."}, {"role": "user", "content": "hi"}]}
      """
    Then the call succeeds
    And no message of LLM request 1 has the role "system" or "developer"
    And LLM request 1's "system" contains, in order, "Be brief ü." and "Use tools."
    And LLM request 1's message 1 has the role "user" and the text "hi"

  @id:c15-system-separator @recommended @src:rec-c15-system-join
  @C15.5
  Scenario: hoisted system texts are joined by a blank line
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "system", "content": "Be brief ü."}, {"role": "developer", "content": "Use tools."}, {"role": "user", "content": "hi"}]}
      """
    Then the call succeeds
    And LLM request 1's "system" is exactly "Be brief ü.\n\nUse tools."

  @id:c15-system-override @required @src:spec-c15-system
  @C15.5
  Scenario: an explicit request system overrides the hoisted ones
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"system": "X ☃", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]}
      """
    Then the call succeeds
    And LLM request 1's "system" is exactly "X ☃"
    And no message of LLM request 1 has the role "system"

  @id:c15-parts @required @src:spec-c15-inbound
  @C15.6
  Scenario: content given as parts is flattened to text
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b ü"}]}]}
      """
    Then the call succeeds
    And LLM request 1's message 1 has the role "user" and the text "ab ü"

  @id:c15-finish-tool-calls @required @src:spec-c15-finish
  @C15.8
  Scenario Outline: a turn with a tool call finishes "tool_calls", whatever the provider said (<style> <said>)
    Given an <style> client
    And <reply>
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate result has {"finishReason": "tool_calls"}

    Examples:
      | style     | said     | reply                                                                                                                                                                                 |
      | anthropic | end_turn | the fake LLM replies in the anthropic style with the content [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}] and the stop reason "end_turn"                                |
      | openai    | stop     | the fake LLM replies in the openai style with the message {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]} and the finish reason "stop" |

  @id:c15-finish-map @required @src:spec-c15-finish
  @C15.9
  Scenario Outline: without tool calls the stop reason maps to length, content_filter or stop (<style> <said>)
    Given an <style> client
    And <reply>
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate result has {"finishReason": "<finish>", "text": "part ü"}

    Examples:
      | style     | said           | finish         | reply                                                                                                                            |
      | anthropic | max_tokens     | length         | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "part ü"}] and the stop reason "max_tokens"     |
      | anthropic | refusal        | content_filter | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "part ü"}] and the stop reason "refusal"        |
      | anthropic | end_turn       | stop           | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "part ü"}] and the stop reason "end_turn"       |
      | anthropic | stop_sequence  | stop           | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "part ü"}] and the stop reason "stop_sequence"  |
      | anthropic | pause_turn     | stop           | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "part ü"}] and the stop reason "pause_turn"     |
      | openai    | length         | length         | the fake LLM replies in the openai style with the message {"role": "assistant", "content": "part ü"} and the finish reason "length"          |
      | openai    | content_filter | content_filter | the fake LLM replies in the openai style with the message {"role": "assistant", "content": "part ü"} and the finish reason "content_filter"  |
      | openai    | stop           | stop           | the fake LLM replies in the openai style with the message {"role": "assistant", "content": "part ü"} and the finish reason "stop"            |

  @id:c15-order @required @src:spec-c15-order
  @C15.10
  Scenario Outline: three tool calls come back in provider order, none dropped (<style>)
    Given an <style> client
    And <reply>
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool calls are, in order, "t1", "t2" and "t3"
    And the translate's tool call "t2" has arguments that parse to {"n": 2}

    Examples:
      | style     | reply                                                                                                                                                                                                                                                                                                                                                  |
      | anthropic | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "three"}, {"type": "tool_use", "id": "t1", "name": "f", "input": {"n": 1}}, {"type": "tool_use", "id": "t2", "name": "g", "input": {"n": 2}}, {"type": "tool_use", "id": "t3", "name": "f", "input": {"n": 3}}] and the stop reason "tool_use" |
      | openai    | the fake LLM replies in the openai style with the message {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{\"n\":1}"}}, {"id": "t2", "type": "function", "function": {"name": "g", "arguments": "{\"n\":2}"}}, {"id": "t3", "type": "function", "function": {"name": "f", "arguments": "{\"n\":3}"}}]} and the finish reason "tool_calls" |

  @id:c15-tools-compose @required @src:spec-c15-tools
  @C15.11
  Scenario Outline: the toolkit's declarations come first, then the request's tools (<style>)
    Given an <style> client
    And a toolkit with the host tools "echo" and "ping"
    And the fake LLM replies in the <style> style with <reply>
    When the client translates, with the scenario's toolkit, the request:
      """
      {"messages": [{"role": "user", "content": "go"}], "tools": [{"type": "function", "function": {"name": "ext", "description": "an outside tool", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]}
      """
    Then the call succeeds
    And every LLM request offers exactly the tools echo, ping, ext
    And no tool ran during the translate

    Examples:
      | style     | reply                                                                                      |
      | anthropic | the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"                 |
      | openai    | the message {"role": "assistant", "content": "ok"} and the finish reason "stop"             |

  @id:c15-hooks @required @src:spec-c15-hooks
  @C15.12
  Scenario Outline: beforeLLM and afterLLM fire once each, tool hooks never (<style>)
    Given an <style> client
    And every hook records what it sees
    And a toolkit with the host tools "echo" and "ping"
    And the fake LLM replies in the <style> style with <reply>
    When the client translates, with the scenario's toolkit, the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's hooks were, in order, beforeLLM(0), afterLLM(0)
    And no tool ran during the translate

    Examples:
      | style     | reply                                                                                                                                             |
      | anthropic | the content [{"type": "tool_use", "id": "t1", "name": "echo", "input": {}}] and the stop reason "tool_use"                                         |
      | openai    | the message {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "echo", "arguments": "{}"}}]} and the finish reason "tool_calls" |

  @id:c15-no-state @required @src:spec-c15-one-call
  @C15.13
  Scenario Outline: two translates on one client share no state (<style>)
    Given an <style> client
    And the fake LLM replies in the <style> style with <reply>
    And the fake LLM replies in the <style> style with <reply>
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "first"}]}
      """
    And the client translates the request:
      """
      {"messages": [{"role": "user", "content": "second ü"}]}
      """
    Then the call succeeds
    And the translate made 2 LLM requests
    And LLM request 2 has <count> message
    And LLM request 2's message <count> has the role "user" and the text "second ü"

    Examples:
      | style     | count | reply                                                                            |
      | anthropic | 1     | the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"       |
      | openai    | 1     | the message {"role": "assistant", "content": "ok"} and the finish reason "stop"   |

  @id:c15-retry @required @src:spec-c15-retry
  @C15.14
  Scenario: a 503 is retried as the loop would, and the translate still returns
    Given an openai client
    And the fake LLM first fails with 503, then replies in the openai style with the message {"role": "assistant", "content": "after ü"} and the finish reason "stop"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate made 2 LLM requests
    And the translate result has {"text": "after ü", "finishReason": "stop"}
    And LLM requests 1 and 2 have the same "messages"

  @id:c15-arguments-bytes @recommended @src:rec-c15-arguments
  @C15.15
  Scenario: anthropic input becomes arguments as compact JSON, in the provider's key order, "<" and non-ASCII as themselves
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "tool_use", "id": "t1", "name": "f", "input": {"b": 1, "city": "Zürich", "h": "<i>", "a": [1.5, null]}}] and the stop reason "tool_use"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool call "t1" has exactly the arguments {"b":1,"city":"Zürich","h":"<i>","a":[1.5,null]}

  @id:c15-openai-arguments-verbatim @required @src:spec-c15-arguments
  @C15.15
  Scenario: openai arguments come back as the provider wrote them
    Given an openai client
    And the fake LLM replies in the openai style with the message {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{\"b\": 1, \"a\": \"ü<\"}"}}]} and the finish reason "tool_calls"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool call "t1" has exactly the arguments {"b": 1, "a": "ü<"}

  @id:c15-tool-choice-openai @required @src:spec-c15-tool-choice
  @C15.16
  Scenario Outline: openai's tool_choice goes on the wire verbatim (<choice>)
    Given an openai client
    And the fake LLM replies in the openai style with the message {"role": "assistant", "content": "ok"} and the finish reason "stop"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}], "toolChoice": <choice>}
      """
    Then the call succeeds
    And LLM request 1's "tool_choice" is exactly <choice>

    Examples:
      | choice                                             |
      | {"type": "function", "function": {"name": "f"}}    |
      | "required"                                         |
      | "none"                                             |

  @id:c15-tool-choice-anthropic @recommended @src:rec-c15-tool-choice
  @C15.16
  Scenario Outline: on anthropic, tool_choice maps to any, tool or none, and auto to nothing (<choice>)
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}], "toolChoice": <choice>}
      """
    Then the call succeeds
    And <check>

    Examples:
      | choice                                          | check                                                             |
      | "required"                                      | LLM request 1's "tool_choice" is exactly {"type": "any"}           |
      | {"type": "function", "function": {"name": "f"}} | LLM request 1's "tool_choice" is exactly {"type": "tool", "name": "f"} |
      | "none"                                          | LLM request 1's "tool_choice" is exactly {"type": "none"}          |
      | "auto"                                          | LLM request 1 has no "tool_choice"                                 |

  @id:c15-parts-assistant @required @src:spec-c15-inbound
  @C15.6
  Scenario: an assistant turn's content given as parts is flattened to text too
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b ü"}]}, {"role": "user", "content": [{"type": "text", "text": "c"}, {"type": "text", "text": "d"}]}]}
      """
    Then the call succeeds
    And LLM request 1 has 3 messages
    And LLM request 1's message 2 has the role "assistant" and the text "ab ü", in one piece
    And LLM request 1's message 3 has the role "user" and the text "cd", in one piece

  @id:c15-inbound-merge-given-order @required @src:spec-c15-inbound
  @C15.4
  Scenario: merged tool results keep the order they were given in, not their ids' order
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_b", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "call_a", "type": "function", "function": {"name": "g", "arguments": "{}"}}, {"id": "call_Z", "type": "function", "function": {"name": "h", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "call_b", "content": "rb"}, {"role": "tool", "tool_call_id": "call_a", "content": "ra ü"}, {"role": "tool", "tool_call_id": "call_Z", "content": "rz"}]}
      """
    Then the call succeeds
    And LLM request 1 has 3 messages
    And LLM request 1's message 3 is a user message whose tool_result blocks answer, in order, "call_b", "call_a" and "call_Z"

  @id:c15-system-as-given @recommended @src:rec-c15-system-join
  @C15.5
  Scenario: hoisted system texts keep their own whitespace
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "system", "content": "  rules ü"}, {"role": "developer", "content": "Be terse.\n"}, {"role": "user", "content": "hi"}]}
      """
    Then the call succeeds
    And LLM request 1's "system" is exactly "  rules ü\n\nBe terse.\n"

  @id:c15-inbound-big-integer @recommended @src:rec-c15-big-integer
  @C15.3
  Scenario: an integer beyond 2^53 in an assistant turn's arguments reaches the tool_use input as written
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"id\": 9007199254740993, \"f\": 1.5}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "r1"}]}
      """
    Then the call succeeds
    And LLM request 1's message 2 has, as written on the wire, a tool_use block "c1" whose input is exactly {"id": 9007199254740993, "f": 1.5}

  @id:c15-usage-as-reported @required @src:spec-c15-one-call @src:spec-c9-usage
  @C15.2
  Scenario Outline: the result's usage is the provider's: openai's total as it reports it, not the sum of its parts (<style>)
    Given an <style> client
    And <reply>
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate result has {"usage": <usage>}

    Examples:
      | style     | usage                                                          | reply                                                                                                                                                                                   |
      | openai    | {"promptTokens": 11, "completionTokens": 7, "totalTokens": 25} | the fake LLM replies in the openai style with the message {"role": "assistant", "content": "ok"}, the finish reason "stop" and the usage {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 25} |
      | anthropic | {"promptTokens": 11, "completionTokens": 7, "totalTokens": 18} | the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}], the stop reason "end_turn" and the usage {"input_tokens": 11, "output_tokens": 7}           |

  @id:c15-arguments-edge-strings @recommended @src:rec-c15-arguments
  @C15.15
  Scenario: anthropic input strings become arguments as JSON.stringify writes them: quote, backslash, controls, U+2028, non-BMP, whitespace, the provider's key order
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "tool_use", "id": "t1", "name": "f", "input": {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "ls": ⟨edge-json:line-separators⟩, "c": ⟨edge-json:controls⟩, "nb": ⟨edge-json:non-bmp⟩, "m": ⟨edge-json:markup⟩, "k": ⟨edge:keys-out-of-order⟩, "names": ⟨edge:names-out-of-order⟩}}] and the stop reason "tool_use"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool call "t1" has exactly the arguments {"s":⟨edge-json:escape-all⟩,"ws":⟨edge-json:whitespace⟩,"crlf":⟨edge-json:crlf⟩,"ls":⟨edge-json:line-separators⟩,"c":⟨edge-json:controls⟩,"nb":⟨edge-json:non-bmp⟩,"m":⟨edge-json:markup⟩,"k":⟨edge:keys-out-of-order⟩,"names":⟨edge:names-out-of-order⟩}

  @id:c15-arguments-numbers @recommended @src:rec-c15-arguments
  @C15.15
  Scenario: anthropic input numbers become arguments as the provider wrote them: an integer beyond 2^53 not rounded, a double's JSON spelling kept
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "tool_use", "id": "t1", "name": "f", "input": {"id": ⟨edge:beyond-2^53⟩, "f": ⟨edge:float-sum⟩, "t": ⟨edge:min-subnormal⟩, "n": -1}}] and the stop reason "tool_use"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool call "t1" has exactly the arguments {"id":⟨edge:beyond-2^53⟩,"f":⟨edge:float-sum⟩,"t":⟨edge:min-subnormal⟩,"n":-1}

  @id:c15-openai-arguments-whitespace @required @src:spec-c15-arguments
  @C15.15
  Scenario: openai arguments come back byte for byte: the provider's tabs, CRLF, padding and escape sequences kept
    Given an openai client
    And the fake LLM replies in the openai style with the message {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "\n\t{ \"b\" :\r\n 1 , \"a\": \"\\u2028 \\/ \\u00fc\" }  \n"}}]} and the finish reason "tool_calls"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": "go"}]}
      """
    Then the call succeeds
    And the translate's tool call "t1" has exactly the arguments ⟨U+000A⟩⟨U+0009⟩{ "b" :⟨U+000D⟩⟨U+000A⟩ 1 , "a": "\u2028 \/ \u00fc" }⟨U+0020⟩⟨U+0020⟩⟨U+000A⟩

  @id:c15-inbound-edge-texts @required @src:spec-c15-inbound
  @C15.4 @C15.6
  Scenario: parts and tool results reach anthropic as written: every escape, whitespace and line separator kept, parts joined as they are
    Given an anthropic client
    And the fake LLM replies in the anthropic style with the content [{"type": "text", "text": "ok"}] and the stop reason "end_turn"
    When the client translates the request:
      """
      {"messages": [{"role": "user", "content": [{"type": "text", "text": ⟨edge-json:whitespace⟩}, {"type": "text", "text": ⟨edge-json:escape-all⟩}, {"type": "text", "text": ⟨edge-json:blank-lines⟩}]}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": ⟨edge-json:crlf⟩}, {"role": "tool", "tool_call_id": "c2", "content": ⟨edge-json:line-separators⟩}]}
      """
    Then the call succeeds
    And LLM request 1 has 3 messages
    And LLM request 1's message 1 has the role "user" and the text "⟨edge:whitespace⟩⟨edge:escape-all⟩⟨edge:blank-lines⟩", in one piece
    And LLM request 1's message 3 holds, for "c1", the tool result text "⟨edge:crlf⟩"
    And LLM request 1's message 3 holds, for "c2", the tool result text "⟨edge:line-separators⟩"
