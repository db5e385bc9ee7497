@contract
Feature: Contract C12 - conversation memory
  Upstream SPEC §8 Conversation memory: run(prompt, {history}) continues a transcript and
  RunResult.messages is the transcript to pass back; a conversation object keeps it across
  sends; ask without an id is stateless; a stream with an id saves its transcript when done
  fires. The fake LLM answers "ok" unless told otherwise.

  @id:c12-history-continued @required @src:spec-c12-history
  @C12.19
  Scenario Outline: run 2 given run 1's messages sends exactly them, then the new user message (<style>)
    Given an <style> client
    And the client's system prompt is "Answer in one word."
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "première"
    When the client runs "a ☃ question" in run mode
    Then the call succeeds
    When the client runs "and then?" in run mode with the messages of run 1 as history
    Then the call succeeds
    And LLM request 3 starts with exactly the messages of run 1, then only the user message "and then?"
    And the system prompt of LLM request 3 is exactly:
      """
      Answer in one word.
      """

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-history-one-system @recommended @src:rec-c12-one-system
  @C12.19
  Scenario: a history that carries the system message gets no second one (openai)
    Given an openai client
    And the client's system prompt is "Answer in one word."
    And an empty toolkit
    When the client runs "first" in run mode
    Then the call succeeds
    When the client runs "second" in run mode with the messages of run 1 as history
    Then the call succeeds
    And LLM request 2 has at most one system message

  @id:c12-conversation-keeps-and-resets @required @src:spec-c12-conversation
  @C12.20
  Scenario Outline: a conversation sends a, then b with a's exchange; after reset, c goes alone (<style>)
    Given an <style> client
    And the client's system prompt is "Be brief."
    And an empty toolkit
    And a conversation on the client
    When the conversation sends "a"
    And the conversation sends "b"
    Then the call succeeds
    And LLM request 2 carries exactly the messages "a", "ok", "b", besides a system prompt
    And the conversation's messages are the messages of its last send
    When the conversation is reset
    Then the conversation's messages are empty
    When the conversation sends "c"
    Then the call succeeds
    And LLM request 3 carries exactly the messages "c", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-conversation-with-tools @required @src:spec-c12-conversation
  @C12.20
  Scenario Outline: a conversation's second send carries the first send's tool exchange (<style>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    And a conversation on the client
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the conversation sends "use it"
    And the conversation sends "again"
    Then the call succeeds
    And LLM request 3 starts with exactly the messages of run 1, then only the user message "again"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-ask-without-id @required @src:spec-c12-ask-stateless
  @C12.21
  Scenario Outline: ask without an id leaves the store untouched, and a later ask with an id starts afresh (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "one-shot" without a conversation id
    Then the call succeeds
    And the store holds nothing under "t", "", "default"
    When the client asks "fresh" in conversation "t"
    Then the call succeeds
    And LLM request 2 carries exactly the messages "fresh", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-stream-id-saved @required @src:spec-c12-stream-id
  @C12.23
  Scenario Outline: a stream with an id saves done's messages, and the next ask sends them (<style>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "streamed"
    When the client runs "go ☃" in stream mode in conversation "s"
    Then the call succeeds
    And the store holds, under "s", exactly the messages of the last run
    When the client asks "next" in conversation "s"
    Then the call succeeds
    And LLM request 3 starts with exactly the messages of run 1, then only the user message "next"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-stream-id-continues @required @src:spec-c12-stream-id
  @C12.23
  Scenario Outline: a stream with an id continues what ask saved under it (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "earlier" in conversation "s2"
    And the client runs "later" in stream mode in conversation "s2"
    Then the call succeeds
    And LLM request 2 starts with exactly the messages of run 1, then only the user message "later"
    And the store holds, under "s2", exactly the messages of the last run

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-ask-keeps-whole-thread @required @src:spec-c12-ask-stateless
  @C12.22
  Scenario Outline: a third ask with the same id still sends the first exchange, and the system prompt (<style>)
    Given an <style> client
    And the client's system prompt is "Be brief."
    And an empty toolkit
    When the client asks "one ☃" in conversation "t3"
    And the client asks "two" in conversation "t3"
    And the client asks "three" in conversation "t3"
    Then the call succeeds
    And LLM request 3 carries exactly the messages "one ☃", "ok", "two", "ok", "three", besides a system prompt
    And the system prompt of LLM request 3 is exactly:
      """
      Be brief.
      """

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-ask-on-text-remembers @required @src:spec-c12-ask-stateless @src:spec-c12-stream-id
  @C12.22
  Scenario Outline: ask with an id and a text callback remembers like ask without one (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "first" in conversation "t4", with a text callback
    And the client asks "second" in conversation "t4", with a text callback
    Then the call succeeds
    And the ask's text deltas join to its text
    And LLM request 2 carries exactly the messages "first", "ok", "second", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-default-store-per-client @required @src:spec-c12-ask-stateless
  @C12.21
  Scenario Outline: each client's default store is its own (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "mine" in conversation "t5"
    Then the call succeeds
    When a second client of the same style asks "yours" in conversation "t5"
    Then the call succeeds
    And LLM request 2 carries exactly the messages "yours", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-failed-send-keeps-transcript @required @src:spec-c12-conversation
  @C12.20
  Scenario Outline: a send that fails leaves the conversation as it was (<style>)
    Given an <style> client
    And the client's retries is 0
    And an empty toolkit
    And a conversation on the client
    And the fake LLM answers "ok", then fails with 400, then answers "ok"
    When the conversation sends "a"
    And the conversation sends "b"
    Then the call fails with an error that carries the status 400
    When the conversation sends "c"
    Then the call succeeds
    And LLM request 3 carries exactly the messages "a", "ok", "c", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c12-failed-stream-keeps-thread @required @src:spec-c12-stream-id
  @C12.23
  Scenario Outline: a stream with an id that fails saves nothing: the thread stays as it was (<style>)
    Given an <style> client
    And the client's retries is 0
    And an empty toolkit
    And the fake LLM answers "ok", then fails with 400, then answers "ok"
    When the client asks "kept" in conversation "s3"
    And the client runs "lost" in stream mode in conversation "s3"
    Then the call fails with an error that carries the status 400
    When the client asks "next" in conversation "s3"
    Then the call succeeds
    And LLM request 3 carries exactly the messages "kept", "ok", "next", besides a system prompt

    Examples:
      | style     |
      | openai    |
      | anthropic |


  @id:c12-conversation-edge-texts @required @src:spec-c12-conversation
  @C12.20
  Scenario Outline: a conversation sends and keeps its prompts as given: every escape, whitespace, CR and line separator (<style>)
    Given an <style> client
    And an empty toolkit
    And a conversation on the client
    When the conversation sends "⟨edge:escape-all⟩"
    And the conversation sends "⟨edge:whitespace⟩"
    And the conversation sends "⟨edge:crlf⟩⟨edge:line-separators⟩⟨edge:blank-lines⟩"
    Then the call succeeds
    And LLM request 3 carries exactly the messages "⟨edge:escape-all⟩", "ok", "⟨edge:whitespace⟩", "ok", "⟨edge:crlf⟩⟨edge:line-separators⟩⟨edge:blank-lines⟩", besides a system prompt
    And the conversation's messages are the messages of its last send

    Examples:
      | style     |
      | openai    |
      | anthropic |
