@contract
Feature: Contract C9 - the unified client loop
  Upstream SPEC §0.10 and §8: one loop for both styles: call the model, execute its tool calls,
  feed the results back in the provider's shape, repeat up to maxTurns (10). The host tool "ping"
  answers "ping-output".

  @id:c9-system-with-skills @required @src:spec-c9-system
  @C9.1
  Scenario Outline: the <style> system prompt is the caller's prompt, a blank line and skillsPrompt()
    Given an <style> client
    And the client's system prompt is "You are terse."
    And the skills tree "prompt"
    And the toolkit is built
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the system prompt of LLM request 1 is exactly:
      """
      You are terse.

      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **a**: A does
      - **b**: B does
      """

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-system-parts-dropped @recommended @src:rec-c9-system-parts
  @C9.2
  Scenario Outline: with <what>, the <style> system prompt is the other part alone
    Given an <style> client
    And <given>
    And the toolkit is built
    When the client runs "go" in run mode
    Then the call succeeds
    And the system prompt of LLM request 1 is exactly:
      """
      <system>
      """

    Examples:
      | what                 | style     | given                                         | system         |
      | no system prompt     | openai    | the skills tree "undescribed"                 | No skills are currently available. |
      | no system prompt     | anthropic | the skills tree "undescribed"                 | No skills are currently available. |
      | no skills directory  | openai    | the client's system prompt is "You are terse." | You are terse. |
      | no skills directory  | anthropic | the client's system prompt is "You are terse." | You are terse. |

  @id:c9-loop-done @required @src:spec-c9-loop
  @C9.3
  Scenario Outline: a tool call and then text is two requests, and the run is done (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And LLM request 2 carries the tool output "ping-output"
    And the run result has {"text": "done", "turns": 2, "toolCallCount": 1, "status": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-openai-tool-message @required @src:spec-c9-openai-results
  @C9.4
  Scenario Outline: openai gets each tool result as a message of exactly role, tool_call_id and content (<mode>)
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool messages of LLM request 2 are exactly [{"role": "tool", "tool_call_id": "call_1", "content": "ping-output"}]

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-anthropic-tool-result @required @src:spec-c9-anthropic-results
  @C9.5
  Scenario Outline: anthropic gets the tool results as one user message of tool_result blocks (<mode>)
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the last message of LLM request 2 is a user message of the tool_result blocks toolu_1 "ping-output"

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-anthropic-is-error-false @recommended @src:rec-c9-is-error
  @C9.5
  Scenario Outline: each anthropic tool_result block carries is_error, false included (<mode>)
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the last message of LLM request 2 is a user message of the tool_result blocks toolu_1 "ping-output"
    And every tool_result block of LLM request 2 carries "is_error": false

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-max-turns-default @required @src:spec-c9-max-turns
  @C9.7
  Scenario Outline: a model that calls a tool on every turn is stopped after 10 requests, incomplete (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 10 LLM requests
    And the run result has {"turns": 10, "toolCallCount": 10, "status": "incomplete", "limit": "maxTurns", "text": ""}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-max-turns-set @required @src:spec-c9-max-turns
  @C9.8
  Scenario Outline: maxTurns 3 makes exactly 3 requests (<style>)
    Given an <style> client
    And the client's max turns is 3
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn
    When the client runs "go" in run mode
    Then the call succeeds
    And the run made 3 LLM requests
    And the run result has {"turns": 3, "status": "incomplete", "limit": "maxTurns"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-max-turns-with-text-status @required @src:spec-c9-limit-stop
  @C9.9
  Scenario Outline: a turn cap reached while the model still talks is incomplete, limit maxTurns, never a silent done (<style>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn, saying "working"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run result has {"turns": 2, "status": "incomplete", "limit": "maxTurns"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-max-turns-with-text @recommended @src:rec-c9-limit-text
  @C9.9
  Scenario Outline: a turn cap reached while the model still talks keeps its last text (<style>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn, saying "working"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run result has {"turns": 2, "text": "working"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-model-verbatim @required @src:spec-c9-model
  @C9.10
  Scenario Outline: the model id with a slash reaches every <style> request unchanged
    Given an <style> client
    And the client's model is "deepseek/deepseek-chat"
    And the client's max turns is 3
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn
    When the client runs "go" in run mode
    Then the call succeeds
    And the run made 3 LLM requests
    And every LLM request body has "model" equal to "deepseek/deepseek-chat"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-usage-summed @required @src:spec-c9-usage
  @C9.11
  Scenario Outline: token usage is summed over the turns (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting 3 prompt and 4 completion tokens, then answers "done" reporting 5 prompt and 6 completion tokens
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run result has {"usage": {"promptTokens": 8, "completionTokens": 10, "totalTokens": 18}}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |

  @id:c9-usage-anthropic-stream @recommended @src:rec-c9-stream-usage
  @C9.11
  Scenario: an anthropic stream's usage counts message_delta's cumulative output once per turn
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting 3 prompt and 4 completion tokens, then answers "done" reporting 5 prompt and 6 completion tokens
    When the client runs "go" in stream mode
    Then the call succeeds
    And the run result has {"usage": {"promptTokens": 8, "completionTokens": 10, "totalTokens": 18}}

  @id:c9-unknown-tool-fed-back @recommended @src:rec-c1-unknown
  @C9.13
  Scenario Outline: a call to a tool the toolkit lacks is fed back as an error and the loop goes on (<style>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ghost" and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And LLM request 2 carries the tool output "Unknown tool: ghost"
    And the run result has {"text": "done", "turns": 2}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-parallel-call-order @recommended @src:rec-c9-call-order
  @C9.6
  Scenario: three calls in one turn, the first the slowest, are fed back in call order (openai)
    Given an openai client
    And a toolkit with the host tools "slow", "b" and "c", where "slow" answers after 300 ms
    And the fake LLM first calls, at once, the tool "slow" with {}, the tool "b" with {} and the tool "c" with {}, and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the tool messages of LLM request 2 are exactly [{"role": "tool", "tool_call_id": "call_1", "content": "slow-output"}, {"role": "tool", "tool_call_id": "call_2", "content": "b-output"}, {"role": "tool", "tool_call_id": "call_3", "content": "c-output"}]

  @id:c9-parallel-call-order-anthropic @recommended @src:rec-c9-call-order
  @C9.6
  Scenario: three calls in one turn, the first the slowest, are fed back in call order (anthropic)
    Given an anthropic client
    And a toolkit with the host tools "slow", "b" and "c", where "slow" answers after 300 ms
    And the fake LLM first calls, at once, the tool "slow" with {}, the tool "b" with {} and the tool "c" with {}, and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the last message of LLM request 2 is a user message of the tool_result blocks toolu_1 "slow-output", toolu_2 "b-output", toolu_3 "c-output"

  @id:c9-calls-recorded @required @src:spec-c9-tool-calls
  @C9.12
  Scenario Outline: an MCP call and an http call are both in RunResult.toolCalls, in order, with args, outputs, flags and metadata (<style>)
    Given an <style> client
    And an MCP server "r" over streamable HTTP listing the results tools
    And the endpoint answers "/x" with status 200 and the body "hello"
    And an http tool "x" for GET "{{endpoint}}/x" with:
      """
      {"query": ["q"]}
      """
    And the toolkit is built
    And the fake LLM first calls, at once, the tool "r_r_text2" with {"n": 1.5, "s": "é"} and the tool "x" with {"q": "é"}, and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's tool call 1 includes {"name": "r_r_text2", "args": {"n": 1.5, "s": "é"}, "output": "one\ntwo", "isError": false, "metadata": {"server": "r"}}
    And the run's tool call 2 includes {"name": "x", "args": {"q": "é"}, "output": "hello", "isError": false, "metadata": {"status": 200}}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-raw-arguments @recommended @src:rec-c9-raw-arguments
  @C9.14
  Scenario Outline: openai arguments sent as <what> reach the tool as <args>, and the run goes on
    Given an openai client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the raw openai arguments <raw>, and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments <args>
    And the run result has {"text": "done"}

    Examples:
      | what                   | raw                 | args              |
      | text that is not JSON  | "not json"          | {}                |
      | an empty string        | ""                  | {}                |
      | an object, not a string | {"a": 1, "b": "é"}  | {"a": 1, "b": "é"} |

  @id:c9-openai-assistant-echo @recommended @src:rec-c9-assistant-echo
  @C9.15
  Scenario Outline: openai's assistant turn goes back as role, a null content and tool_calls, without the provider's extra fields (<mode>)
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" beside the reasoning_content "r", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the assistant message of LLM request 2 is exactly {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-anthropic-thinking-echo @recommended @src:rec-c9-thinking
  @C9.16
  Scenario: anthropic's assistant turn goes back with its thinking, text and tool_use blocks unchanged, in order
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first thinks "t" (signature "sig"), says "x" and calls the tool "ping", and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the assistant message of LLM request 2 is exactly {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "sig"}, {"type": "text", "text": "x"}, {"type": "tool_use", "id": "toolu_1", "name": "ping", "input": {}}]}

  @id:c9-anthropic-thinking-echo-stream @recommended @src:rec-c9-thinking
  @C9.16 @C11.7
  Scenario Outline: a streamed anthropic turn goes back with its thinking (<thought>), text and tool_use blocks unchanged, and its thinking is no text
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first thinks "<thinks>" (signature "EqQBCkgIARABGAIiQL+/9w=="), says "x" and calls the tool "ping", and then answers "done"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the assistant message of LLM request 2 is exactly {"role": "assistant", "content": [{"type": "thinking", "thinking": <json>, "signature": "EqQBCkgIARABGAIiQL+/9w=="}, {"type": "text", "text": "x"}, {"type": "tool_use", "id": "toolu_1", "name": "ping", "input": {}}]}
    And the stream's text deltas join to "xdone"

    Examples:
      | thought         | thinks             | json                    |
      | one character   | t                  | "t"                     |
      | escapes, non-BMP | ⟨edge:escape-all⟩  | ⟨edge-json:escape-all⟩  |
      | blank lines     | ⟨edge:blank-lines⟩ | ⟨edge-json:blank-lines⟩ |
      | CR LF           | ⟨edge:crlf⟩        | ⟨edge-json:crlf⟩        |
      | whitespace      | ⟨edge:whitespace⟩  | ⟨edge-json:whitespace⟩  |

  @id:c9-tool-call-count @required @src:spec-c9-loop
  @C9.3
  Scenario Outline: three calls in one turn are three tool calls, in the model's order (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tools "a" and "b"
    And the fake LLM first calls, at once, the tool "a" with {"n": 1}, the tool "b" with {} and the tool "a" with {"n": 2}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run result has {"toolCallCount": 3, "toolCalls": ["a", "b", "a"], "turns": 2, "text": "done"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c9-system-every-request @required @src:spec-c9-system
  @C9.1
  Scenario Outline: the system prompt goes with every request of a run, not the first alone (<style> <mode>)
    Given an <style> client
    And the client's system prompt is "You are terse."
    And the skills tree "prompt"
    And the toolkit is built
    And the fake LLM first calls the tool "skill" with the arguments {"name": "a"} and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the system prompt of LLM request 2 is exactly:
      """
      You are terse.

      Skills provide specialized instructions and workflows for specific tasks.
      Use the skill tool to load a skill when a task matches its description.

      ## Available Skills
      - **a**: A does
      - **b**: B does
      """

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | anthropic | stream |

  @id:c9-error-result-fed-back @required @src:spec-c9-openai-results @src:spec-c9-anthropic-results @src:spec-c4-feedback
  @C9.4 @C9.5
  Scenario Outline: a tool that fails is fed back with the very output RunResult records, flagged (<style> <mode>)
    Given an <style> client
    And a native tool "boom" that throws "it broke ☂"
    And the toolkit is built
    And the fake LLM first calls the tool "boom" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run's tool call 1 includes {"name": "boom", "isError": true}
    And LLM request 2 carries the run's tool call 1 output exactly

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |

  @id:c9-error-call-recorded @required @src:spec-c9-tool-calls
  @C9.12
  Scenario Outline: an http call answered 404 is in RunResult.toolCalls as an error, with its status (<style>)
    Given an <style> client
    And the endpoint answers "/gone" with status 404 and the body "no such thing"
    And an http tool "x" for GET "{{endpoint}}/gone" with:
      """
      {}
      """
    And the toolkit is built
    And the fake LLM first calls the tool "x" with the arguments {} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's tool call 1 includes {"name": "x", "isError": true, "metadata": {"status": 404}}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-openai-assistant-echo-raw @recommended @src:rec-c9-assistant-echo
  @C9.15
  Scenario Outline: openai's assistant turn echoes the model's arguments text as it came, spacing and key order kept (<mode>)
    Given an openai client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the raw openai arguments "{\"b\": 2,  \"a\": \"é\"}", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the assistant message of LLM request 2 is exactly {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{\"b\": 2,  \"a\": \"é\"}"}}]}

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-tool-args-edge-values @required @src:spec-c9-tool-calls
  @C9.12
  Scenario Outline: a tool gets, and the run's tool call records, the arguments the model sent: every escape, whitespace and order kept (<style> <mode>)
    Given an <style> client
    And a native tool "echo" that returns "ok"
    And the toolkit is built
    And the fake LLM first calls, at once, the tool "echo" with {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "k": ⟨edge:keys-out-of-order⟩, "names": ⟨edge:names-out-of-order⟩}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the native tool "echo" was called with {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "k": ⟨edge:keys-out-of-order⟩, "names": ⟨edge:names-out-of-order⟩}
    And the run's tool call 1 includes {"name": "echo", "args": {"s": ⟨edge-json:escape-all⟩, "ws": ⟨edge-json:whitespace⟩, "crlf": ⟨edge-json:crlf⟩, "k": ⟨edge:keys-out-of-order⟩, "names": ⟨edge:names-out-of-order⟩}}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-anthropic-text-blocks-joined @required @src:spec-c9-loop
  @C9.3
  Scenario: an anthropic answer split into several text blocks is the run's text, every block in order
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM answers with one anthropic message of the text blocks "Hello, ", "wide " and "world."
    When the client runs "go" in run mode
    Then the call succeeds
    And the run result has {"text": "Hello, wide world.", "turns": 1, "status": "done"}

  @id:c9-answer-on-last-turn-done @required @src:spec-c9-limit-stop @src:spec-c9-loop
  @C9.8
  Scenario Outline: a text answer on the last turn maxTurns allows is done, no limit named (<style> <mode>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"text": "done", "turns": 2, "status": "done", "limit": null}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-openai-assistant-echo-text @recommended @src:rec-c9-assistant-echo
  @C9.15
  Scenario Outline: openai's assistant turn that says something beside its calls goes back with that text as content (<mode>)
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping", saying "working on it: é", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the assistant message of LLM request 2 is exactly {"role": "assistant", "content": "working on it: é", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-call-order-ids-unsorted @recommended @src:rec-c9-call-order
  @C9.6
  Scenario Outline: calls whose ids do not sort in call order are fed back in call order (openai <mode>, ids <first> then <second>)
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" several times at once, under the ids "<first>", "<second>", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool messages of LLM request 2 are exactly [{"role": "tool", "tool_call_id": "<first>", "content": "ping-output"}, {"role": "tool", "tool_call_id": "<second>", "content": "ping-output"}]

    Examples:
      | first  | second  | mode   |
      | call_b | call_a  | run    |
      | call_9 | call_10 | run    |
      | call_b | call_a  | stream |

  @id:c9-system-prompt-verbatim @required @src:spec-c9-system
  @C9.1
  Scenario Outline: a system prompt with leading and trailing whitespace reaches the wire byte for byte, then a blank line and the skills (<style> <mode>)
    Given an <style> client
    And the client's system prompt is the JSON string ⟨edge-json:whitespace⟩
    And the skills tree "prompt"
    And the toolkit is built
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the system prompt of LLM request 1 is the client's system prompt, a blank line, and then the skills prompt

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | anthropic | stream |

  @id:c9-usage-provider-total @required @src:spec-c9-usage
  @C9.11
  Scenario Outline: openai's total_tokens is summed as the provider reports it, not recomputed from its parts (<mode>)
    Given an openai client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting the usage {"prompt": 3, "completion": 4, "total": 9}, then answers "done" reporting the usage {"prompt": 5, "completion": 6, "total": 12}
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run result has {"usage": {"promptTokens": 8, "completionTokens": 10, "totalTokens": 21}}

    Examples:
      | mode   |
      | run    |
      | stream |

  @id:c9-max-turns-with-text-status-stream @required @src:spec-c9-limit-stop
  @C9.9 @C11.9
  Scenario Outline: a stream whose turn cap is reached while the model still talks is incomplete, limit maxTurns, never a silent done (<style>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn, saying "working"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the run made 2 LLM requests
    And the run result has {"turns": 2, "status": "incomplete", "limit": "maxTurns"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-max-turns-with-text-stream @recommended @src:rec-c9-limit-text
  @C9.9
  Scenario Outline: a stream whose turn cap is reached while the model still talks keeps its last text (<style>)
    Given an <style> client
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn, saying "working"
    When the client runs "go" in stream mode
    Then the call succeeds
    And the run result has {"turns": 2, "text": "working"}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c9-model-verbatim-cased @required @src:spec-c9-model
  @C9.10
  Scenario Outline: a model id in mixed case with a slash, a dot, a colon and an @ reaches every <style> <mode> request unchanged
    Given an <style> client
    And the client's model is "Org/Model-V2.5:Beta@2024-01"
    And the client's max turns is 2
    And a toolkit with the host tool "ping"
    And the fake LLM calls the tool "ping" on every turn
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run made 2 LLM requests
    And every LLM request body has "model" equal to "Org/Model-V2.5:Beta@2024-01"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-unknown-tool-as-called @recommended @src:rec-c1-unknown
  @C9.13
  Scenario Outline: a call to "<called>", which the toolkit lacks, is fed back as unknown by the name the model wrote, and the loop goes on (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "<called>" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "ping" never ran
    And LLM request 2 carries the tool output "Unknown tool: <called>"
    And the run result has {"text": "done", "turns": 2}

    Examples:
      | style     | mode   | called |
      | openai    | stream | ghost  |
      | anthropic | stream | ghost  |
      | openai    | run    | PING   |
      | anthropic | stream | Ping   |

  @id:c9-raw-arguments-stream @recommended @src:rec-c9-raw-arguments
  @C9.14
  Scenario Outline: openai arguments sent as <what> reach the tool as <args>, and the run goes on (<mode>)
    Given an openai client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the raw openai arguments <raw>, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments <args>
    And the run result has {"text": "done"}

    Examples:
      | what                                      | raw                             | args               | mode   |
      | text that is not JSON                     | "not json"                      | {}                 | stream |
      | an empty string                           | ""                              | {}                 | stream |
      | JSON with spaces, tabs and CRLF around it | " \t{\"a\": 1, \"b\": \"é\"}\r\\n" | {"a": 1, "b": "é"} | run    |
      | JSON with spaces, tabs and CRLF around it | " \t{\"a\": 1, \"b\": \"é\"}\r\\n" | {"a": 1, "b": "é"} | stream |

  @id:c9-call-order-ids-unsorted-anthropic @recommended @src:rec-c9-call-order
  @C9.6
  Scenario Outline: anthropic calls whose ids do not sort in call order are fed back in call order (<mode>, ids <first> then <second>)
    Given an anthropic client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" several times at once, under the ids "<first>", "<second>", and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the last message of LLM request 2 is a user message of the tool_result blocks <first> "ping-output", <second> "ping-output"

    Examples:
      | first   | second   | mode   |
      | toolu_b | toolu_a  | run    |
      | toolu_9 | toolu_10 | run    |
      | toolu_b | toolu_a  | stream |

  @id:c9-big-integer-arguments @recommended @src:rec-c4-bigint
  @C9.12 @C9.14
  Scenario Outline: an integer beyond 2^53 in the model's arguments reaches the tool with its digits as written (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" with the exact arguments {"big": ⟨edge:beyond-2^53⟩, "s": "⟨edge:beyond-2^53⟩"}, and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool "echo" ran once, with the arguments {"big": ⟨edge:beyond-2^53⟩, "s": "⟨edge:beyond-2^53⟩"}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c9-usage-past-int32 @required @src:spec-c9-usage
  @C9.11
  Scenario Outline: usage summed past 2^31 - 1, one token over a 32-bit integer's limit, is the sum (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "ping"
    And the fake LLM first calls the tool "ping" reporting 2147483647 prompt and 1 completion tokens, then answers "done" reporting 1 prompt and 2147483647 completion tokens
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the run result has {"usage": {"promptTokens": 2147483648, "completionTokens": 2147483648, "totalTokens": 4294967296}}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
