Feature: Gap 4 - the conversation store is reachable from the client
  The client's store (the one passed in, or the default one) is the single source of truth
  for ask(id); a host may read and write it through the accessor.

  @id:g4-accessor-identity @required @src:adr-g4-identity
  @G4.1
  Scenario: the accessor returns the very store passed in the options
    Given an openai client
    And a host-supplied conversation store
    Then the store accessor returns the host-supplied store

  @id:g4-accessor-default-store @required @src:adr-g4-default
  @G4.2
  Scenario: without a store the accessor is the default store that ask writes
    Given an openai client
    And an empty toolkit
    When the store accessor reads conversation "id1"
    Then the conversation is empty
    When the client asks "hello there" in conversation "id1"
    Then the call succeeds
    When the store accessor reads conversation "id1"
    Then the conversation carries, in order, the messages "hello there", "ok"

  @id:g4-saved-history-continued @required @src:adr-g4-reuse
  @G4.3
  Scenario Outline: a conversation saved through the accessor is continued by ask (<style>)
    Given an <style> client
    And an empty toolkit
    And the store accessor saves conversation "id2":
      """
      [{"role": "user", "content": "earlier question"}, {"role": "assistant", "content": "earlier answer"}]
      """
    When the client asks "next question" in conversation "id2"
    Then the call succeeds
    And the last LLM request carries, in order, the messages "earlier question", "earlier answer", "next question"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:a8-same-id-sends-earlier-turns @required @src:adr-a8-same-id
  @A8.1 @C12.22
  Scenario Outline: a second ask with the same id sends the earlier turns (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "first question" in conversation "id3"
    And the client asks "second question" in conversation "id3"
    Then the call succeeds
    And the last LLM request carries, in order, the messages "first question", "ok", "second question"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:g4-rewind-same-id @required @src:adr-g4-rewind
  @G4.3 @A8.1
  Scenario Outline: a transcript rewound under the same id is what the next ask continues (<style>)
    Given an <style> client
    And an empty toolkit
    When the client asks "first question" in conversation "id4"
    And the client asks "second question" in conversation "id4"
    And the store accessor saves conversation "id4":
      """
      [{"role": "user", "content": "rewound question"}, {"role": "assistant", "content": "rewound answer"}]
      """
    And the client asks "third question" in conversation "id4"
    Then the call succeeds
    And the last LLM request carries, in order, the messages "rewound question", "rewound answer", "third question"
    And the last LLM request does not carry the message "first question"
    And the last LLM request does not carry the message "second question"

    Examples:
      | style     |
      | openai    |
      | anthropic |
