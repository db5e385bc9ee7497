@contract
Feature: Contract C13 - the built-in tools apply_patch and question
  Upstream SPEC §4A: apply_patch applies one patch in opencode's grammar, atomically; question
  suspends (§10) with a rendered prompt, byte-identical across ports, and once answered returns
  the answer's data as JSON. Files live in a sandbox the runner makes for the scenario.

  @id:c13-patch-applies @required @src:spec-c13-patch
  @C13.14
  Scenario: a patch that adds one file and updates another applies both
    Given the built-in tools are set to true
    And the sandbox has the file "f.txt" holding "alpha⟨U+000A⟩beta⟨U+000A⟩gamma⟨U+000A⟩"
    And a toolkit of the options the scenario set
    When the built-in tool "apply_patch" is run with {"patchText": "*** Begin Patch\n*** Add File: {{tmp}}/n.txt\n+new ü\n+line 2\n*** Update File: {{tmp}}/f.txt\n@@\n alpha\n-beta\n+BETA ☃\n gamma\n*** End Patch"}
    Then the built-in tool's result is not an error
    And the sandbox file "n.txt" holds "new ü⟨U+000A⟩line 2", give or take one trailing newline
    And the sandbox file "f.txt" holds exactly "alpha⟨U+000A⟩BETA ☃⟨U+000A⟩gamma⟨U+000A⟩"

  @id:c13-patch-atomic @required @src:spec-c13-patch
  @C13.14
  Scenario Outline: a patch with a hunk that does not match is an error and writes nothing (<case>)
    Given the built-in tools are set to true
    And the sandbox has the file "f.txt" holding "alpha⟨U+000A⟩beta⟨U+000A⟩gamma⟨U+000A⟩"
    And the sandbox has the file "g.txt" holding "one⟨U+000A⟩two⟨U+000A⟩"
    And a toolkit of the options the scenario set
    When the built-in tool "apply_patch" is run with {"patchText": "<patch>"}
    Then the built-in tool's result is an error
    And the sandbox has no file "n.txt"
    And the sandbox file "f.txt" holds exactly "alpha⟨U+000A⟩beta⟨U+000A⟩gamma⟨U+000A⟩"
    And the sandbox file "g.txt" holds exactly "one⟨U+000A⟩two⟨U+000A⟩"

    Examples:
      | case                                  | patch                                                                                                                                                                   |
      | the second hunk of one file           | *** Begin Patch\\n*** Add File: {{tmp}}/n.txt\\n+new\\n*** Update File: {{tmp}}/f.txt\\n@@\\n-alpha\\n+ALPHA\\n@@\\n-no such line\\n+x\\n*** End Patch                           |
      | the second file, after a good first   | *** Begin Patch\\n*** Update File: {{tmp}}/f.txt\\n@@\\n-beta\\n+BETA\\n*** Update File: {{tmp}}/g.txt\\n@@\\n-three\\n+THREE\\n*** Add File: {{tmp}}/n.txt\\n+new\\n*** End Patch |
      | a delete of a file that is not there  | *** Begin Patch\\n*** Update File: {{tmp}}/g.txt\\n@@\\n-one\\n+ONE\\n*** Delete File: {{tmp}}/gone.txt\\n*** Add File: {{tmp}}/n.txt\\n+new\\n*** End Patch                |

  @id:c13-question-pending @required @src:spec-c13-question
  @C13.15 @C14.4
  Scenario Outline: question with no waitFor halts the run on its rendered prompt (<style> <mode>)
    Given an <style> client
    And the built-in tools are set to true
    And a toolkit of the options the scenario set
    And the fake LLM first calls the tool "question" with the arguments {"questions": [{"question": "Colour?", "options": ["red", "blue"]}, {"question": "Why ü?", "header": "h", "options": []}]} and then answers "done"
    When the client runs "ask" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request
    And the run result has {"status": "pending"}
    And the run's pending request's "kind" is exactly "question"
    And the run's pending request's "prompt" is exactly "Colour? (options: red, blue)\nWhy ü?"
    And the run's pending request's "data" is exactly {"questions": [{"question": "Colour?", "options": ["red", "blue"]}, {"question": "Why ü?", "header": "h", "options": []}]}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |

  @id:c13-question-answered @required @src:spec-c13-question
  @C13.16
  Scenario Outline: an answered question gives the model the answer's data (<style> <mode>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"answers": ["blue"]}}
    And the built-in tools are set to true
    And a toolkit of the options the scenario set
    And the fake LLM first calls the tool "question" with the arguments {"questions": [{"question": "Colour?", "options": ["red", "blue"]}]} and then answers "done"
    When the client runs "ask" in <mode> mode
    Then the call succeeds
    And the run result has {"status": "done", "text": "done"}
    And waitFor was called 1 time
    And LLM request 2 carries, for "question", the tool result whose JSON is {"answers": ["blue"]}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | stream |

  @id:c13-question-answer-bytes @recommended @src:rec-c13-question-json
  @C13.16
  Scenario Outline: the answer's data goes to the model as compact JSON, "<" and non-ASCII as themselves (<style>)
    Given an <style> client
    And the client's waitFor answers {"ok": true, "data": {"a": null, "answers": ["blue ü", "<b>"], "n": 1.5}}
    And the built-in tools are set to true
    And a toolkit of the options the scenario set
    And the fake LLM first calls the tool "question" with the arguments {"questions": [{"question": "Colour?"}]} and then answers "done"
    When the client runs "ask" in run mode
    Then the call succeeds
    And LLM request 2 carries, for "question", exactly the tool result {"a":null,"answers":["blue ü","<b>"],"n":1.5}

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c13-question-edge-texts @required @src:spec-c13-question
  @C13.15
  Scenario Outline: the rendered prompt keeps each question and option as given, options in their given order: escapes, whitespace, CR, line separators (<style> <mode>)
    Given an <style> client
    And the built-in tools are set to true
    And a toolkit of the options the scenario set
    And the fake LLM first calls, at once, the tool "question" with {"questions": [{"question": ⟨edge-json:escape-all⟩, "options": ⟨edge:names-out-of-order⟩}, {"question": ⟨edge-json:whitespace⟩, "header": ⟨edge-json:quote⟩, "options": [⟨edge-json:markup⟩, ⟨edge-json:crlf⟩]}, {"question": ⟨edge-json:line-separators⟩}]}, and then answers "done"
    When the client runs "ask" in <mode> mode
    Then the call succeeds
    And the run made 1 LLM request
    And the run result has {"status": "pending"}
    And the run's pending request's text "prompt" is exactly "⟨edge:escape-all⟩ (options: zeta, Alpha, beta, _under, 0num)⟨U+000A⟩⟨edge:whitespace⟩ (options: ⟨edge:markup⟩, ⟨edge:crlf⟩)⟨U+000A⟩⟨edge:line-separators⟩"
    And the run's pending request's "data" is exactly {"questions": [{"question": ⟨edge-json:escape-all⟩, "options": ⟨edge:names-out-of-order⟩}, {"question": ⟨edge-json:whitespace⟩, "header": ⟨edge-json:quote⟩, "options": [⟨edge-json:markup⟩, ⟨edge-json:crlf⟩]}, {"question": ⟨edge-json:line-separators⟩}]}

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |
