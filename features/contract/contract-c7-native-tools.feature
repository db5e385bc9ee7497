@contract
Feature: Contract C7 - native tools
  A native tool is a host function the port wraps with its own helper (JS defineTool, Python
  define_tool, Go NativeTool, Java NativeTool.of). Its function calls back to the runner, so what
  it returns or raises is decided here, once, and the port's mapping of it is what is judged.

  @id:c7-string-return @required @src:spec-c7-string @src:spec-c1-source
  @C7.1
  Scenario: a native function's string is the output, and the tool's source is native
    Given a native tool "ping" that returns "pong"
    When the toolkit is described
    Then the described tools are, in order, with their sources:
      | name | source |
      | ping | native |
    When the tool "ping" is executed with {}
    Then the execute result is exactly {"output": "pong", "isError": false}

  @id:c7-throw-is-error @required @src:spec-c7-throw
  @C7.2
  Scenario: a native function that raises gives an error result with its message
    Given a native tool "boom" that throws "boom"
    When the tool "boom" is executed with {}
    Then the execute result is an error whose output is exactly "boom"

  @id:c7-throw-in-loop @required @src:spec-c7-throw @src:spec-c4-feedback
  @C7.2
  Scenario Outline: in the <style> loop a raising tool's message goes back to the model and the run goes on
    Given an <style> client
    And a native tool "boom" that throws "boom"
    And the toolkit is built
    And the fake LLM first calls the tool "boom" and then answers "recovered"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's final text is "recovered"
    And the tool result sent back in LLM request 2 is exactly "boom"

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c7-args-as-given @required @src:spec-c7-args
  @C7.3
  Scenario: the function receives the arguments object as given, whatever its schema declares
    Given a native tool "probe" with no input schema that returns "ok"
    When the tool "probe" is executed with {"a": [1, {"b": "é"}]}
    Then the native tool "probe" was called with {"a": [1, {"b": "é"}]}

  @id:c7-whole-result @recommended @src:rec-c7-result
  @C7.4
  Scenario: a function returning a whole ToolResult is passed through, metadata included
    Given a native tool "res" that returns the result {"output": "x", "isError": false, "metadata": {"k": 1}}
    When the tool "res" is executed with {}
    Then the execute result is exactly {"output": "x", "isError": false, "metadata": {"k": 1}}

  @id:c7-result-metadata-in-loop @recommended @src:rec-c7-result
  @C7.4
  Scenario: the run's tool call carries the metadata the function returned
    Given an openai client
    And a native tool "res" that returns the result {"output": "x", "isError": false, "metadata": {"k": 1}}
    And the toolkit is built
    And the fake LLM first calls the tool "res" and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the run's tool call 1 has the metadata {"k": 1}

  @id:c7-object-compact-json @recommended @src:rec-c7-object
  @C7.5
  Scenario: a function returning an object gives compact JSON in the object's key order
    Given a native tool "obj" that returns the object {"b": 1, "a": "é"}
    When the tool "obj" is executed with {}
    Then the execute output is exactly:
      """
      {"b":1,"a":"é"}
      """

  @id:c7-default-schema @recommended @src:rec-c7-schema
  @C7.6
  Scenario: a native tool declared without a schema exposes the empty object schema
    Given a native tool "plain" with no input schema that returns "ok"
    When the toolkit is described
    Then the described tool "plain" has the input schema {"type": "object", "properties": {}, "additionalProperties": false}
