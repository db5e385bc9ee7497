@contract
Feature: Contract C4 - how an MCP tool's result becomes a ToolResult
  The results fake ("r") has one tool per result shape; its structuredContent is sent as exact raw
  bytes, so key order and number spelling are the server's.

  Background:
    Given an MCP server "r" over streamable HTTP listing the results tools

  @id:c4-text-joined @required @src:spec-c4-text
  @C4.1
  Scenario: a result's text parts are its output
    When the tool "r_r_text2" is executed with {}
    Then the execute result is not an error
    And the execute output contains "one" and then "two"

  @id:c4-text-newline @recommended @src:rec-c4-separators
  @C4.1
  Scenario: text parts are joined with a newline
    When the tool "r_r_text2" is executed with {}
    Then the execute output is exactly:
      """
      one
      two
      """

  @id:c4-error-joined @required @src:spec-c4-error
  @C4.2
  Scenario: an isError result is an error carrying its text parts
    When the tool "r_r_err2" is executed with {}
    Then the execute result is an error with a non-empty output
    And the execute output contains "bad" and then "worse"

  @id:c4-error-separators @recommended @src:rec-c4-separators
  @C4.2
  Scenario Outline: an error's text is <what>
    When the tool "<tool>" is executed with {}
    Then the execute result is an error whose output is exactly "<output>"

    Examples:
      | what                                   | tool          | output                     |
      | the fixed text when every part is blank | r_r_err_blank | MCP tool returned an error |

  @id:c4-error-blank-line @recommended @src:rec-c4-separators
  @C4.2
  Scenario: error parts are joined with a blank line
    When the tool "r_r_err2" is executed with {}
    Then the execute output is exactly:
      """
      bad

      worse
      """

  @id:c4-error-before-struct @required @src:spec-c4-error
  @C4.3
  Scenario: isError is checked before structuredContent
    When the tool "r_r_struct_err" is executed with {}
    Then the execute result is an error whose output is exactly "struct failed"

  @id:c4-struct-byte-exact @required @src:spec-c4-struct
  @C4.4
  Scenario: structuredContent is the output, byte for byte as JSON.stringify writes it
    When the tool "r_r_struct" is executed with {}
    Then the execute result is not an error
    And the execute output is exactly:
      """
      {"z":1,"a":"é<&>","e":"🚀","n":[true,null],"o":{"y":2,"x":1}}
      """

  @id:c4-struct-numbers @required @src:spec-c4-struct
  @C4.5
  Scenario: numbers in structuredContent are written as JavaScript writes them
    When the tool "r_r_num" is executed with {}
    Then the execute output is exactly:
      """
      {"f":1,"g":100,"h":-0.5,"i":1.5e-7}
      """

  @id:c4-struct-all-types @required @src:spec-c4-struct
  @C4.4
  Scenario Outline: every JSON type, escape and non-ASCII character is written as JSON.stringify writes it (<transport>)
    Given an MCP server "w" over <transport> listing the rendering tools
    When the tool "w_r_struct_all" is executed with {}
    Then the execute result is not an error
    And the execute output is exactly, with ⟨U+XXXX⟩ standing for that code point:
      """
      {"s":"q\"b\\s/e\b\f\n\r\t c\u0001\u001f d⟨U+007F⟩ l⟨U+2028⟩p⟨U+2029⟩ é🚀 ü","e":[],"o":{},"n":null,"t":true,"f":false,"a":[[],{},null,[{"k":[null]}]],"ü":"key non-ASCII","":"empty key"}
      """

    Examples:
      | transport       |
      | streamable HTTP |
      | stdio           |

  @id:c4-struct-number-edges @required @src:spec-c4-struct
  @C4.5
  Scenario Outline: number edges in structuredContent are written as JavaScript writes them (<transport>)
    Given an MCP server "w" over <transport> listing the rendering tools
    When the tool "w_r_num_edges" is executed with {}
    Then the execute output is exactly:
      """
      {"z":0,"p":0.1,"big":1e+21,"bigger":1.5e+300,"small":1e-7,"smaller":1.23e-18,"tiny":5e-324,"max":1.7976931348623157e+308,"int":-42,"exp":2,"frac":0.30000000000000004,"under":0.000001,"over":100000000000000000000,"neg":-1.25e-10}
      """

    Examples:
      | transport       |
      | streamable HTTP |
      | stdio           |

  @id:c4-struct-empty @required @src:spec-c4-text
  @C4.6
  Scenario: an empty structuredContent {} is the output, not the text parts
    When the tool "r_r_struct_empty" is executed with {}
    Then the execute output is exactly:
      """
      {}
      """

  @id:c4-image-only @required @src:spec-c4-text
  @C4.7
  Scenario: a result with only an image has an empty output, not an error
    When the tool "r_r_image" is executed with {}
    Then the execute result is exactly {"output": "", "isError": false, "metadata": {"server": "r"}}

  @id:c4-mixed-parts @recommended @src:rec-c4-separators
  @C4.7
  Scenario: only the text parts of a mixed result are joined
    When the tool "r_r_mixed" is executed with {}
    Then the execute output is exactly:
      """
      A
      B
      """

  @id:c4-args-pass-through @required @src:spec-c4-args
  @C4.8
  Scenario: the arguments reach the server as given
    When the tool "r_echo" is executed with {"s": "é", "n": 2.5, "b": false, "z": null, "arr": [1, "x"], "obj": {"k": [{}]}}
    Then the fake "r" received tools/call of "echo" with the arguments {"s": "é", "n": 2.5, "b": false, "z": null, "arr": [1, "x"], "obj": {"k": [{}]}}

  @id:c4-big-number @recommended @src:rec-c4-bigint
  @C4.9
  Scenario: a big integer the model wrote reaches the server unrounded
    Given an openai client
    And the toolkit is built
    And the fake LLM first calls the tool "r_echo" with the arguments {"big": 9007199254740993, "one": 1.0} and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the fake "r" received tools/call of "echo" whose argument "big" is written 9007199254740993

  @id:c4-server-metadata @recommended @src:rec-c4-server-meta
  @C4.10
  Scenario: metadata.server is the server name as configured, on execute and on the run's tool calls
    Given an MCP server "bank.v2" over streamable HTTP listing the awkward tools
    And an openai client
    And the toolkit is built
    And the fake LLM first calls the tool "bank_v2_get_balance" and then answers "done"
    When the tool "bank_v2_get_balance" is executed with {}
    Then the execute metadata is {"server": "bank.v2"}
    When the client runs "go" in run mode
    Then the run's tool call 1 has the metadata {"server": "bank.v2"}

  @id:c4-rpc-error @recommended @src:rec-c1-failure-result
  @C4.11
  Scenario: a JSON-RPC error answer is an error result carrying its message
    When the tool "r_r_rpcerr" is executed with {}
    Then the execute result is an error with a non-empty output
    And the execute output contains "rpc-broke"

  @id:c4-output-schema @recommended @src:rec-c4-outschema
  @C4.12
  Scenario: structuredContent that breaks the tool's outputSchema is an error result
    When the tool "r_r_badout" is executed with {}
    Then the execute result is an error with a non-empty output

  @id:c4-struct-fed-back @required @src:spec-c4-feedback @src:spec-c4-struct
  @C4.13
  Scenario Outline: in the <style> loop the model gets the structured JSON text back as the tool result
    Given an <style> client
    And the toolkit is built
    And the fake LLM first calls the tool "r_r_struct" and then answers "done"
    When the client runs "go" in run mode
    Then the call succeeds
    And the tool result sent back in LLM request 2 is exactly:
      """
      {"z":1,"a":"é<&>","e":"🚀","n":[true,null],"o":{"y":2,"x":1}}
      """

    Examples:
      | style     |
      | openai    |
      | anthropic |

  @id:c4-struct-all-fed-back @required @src:spec-c4-feedback @src:spec-c4-struct
  @C4.13
  Scenario Outline: in the <style> <mode> loop the model gets every JSON type, escape and non-ASCII character back as JSON.stringify writes them
    Given an <style> client
    And an MCP server "w" over stdio listing the rendering tools
    And the toolkit is built
    And the fake LLM first calls the tool "w_r_struct_all" and then answers "done"
    When the client runs "go" in <mode> mode
    Then the call succeeds
    And the tool result sent back in LLM request 2 is exactly, with ⟨U+XXXX⟩ standing for that code point:
      """
      {"s":"q\"b\\s/e\b\f\n\r\t c\u0001\u001f d⟨U+007F⟩ l⟨U+2028⟩p⟨U+2029⟩ é🚀 ü","e":[],"o":{},"n":null,"t":true,"f":false,"a":[[],{},null,[{"k":[null]}]],"ü":"key non-ASCII","":"empty key"}
      """

    Examples:
      | style     | mode   |
      | openai    | run    |
      | anthropic | run    |
      | openai    | stream |
      | anthropic | stream |
