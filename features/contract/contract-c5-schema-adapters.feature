@contract
Feature: Contract C5 - the OpenAI, Anthropic and Gemini schema adapters
  The adapters render the toolkit's tools for each provider. The toolkit here holds the fake MCP
  server's tools (a, b, c, get.balance) and native tools, so every source's schema is rendered.

  Background:
    Given an MCP server "srv" over streamable HTTP
    And a native tool "ping" that returns "pong"
    And a native tool "plain" with no input schema that returns "ok"

  @id:c5-openai-shape @required @src:spec-c5-openai
  @C5.1
  Scenario: every OpenAI entry is {type: "function", function: {name, description, parameters}}
    When the schema adapters are rendered
    Then every openai entry has exactly the keys type and function, and its function exactly name, description and parameters

  @id:c5-anthropic-shape @required @src:spec-c5-anthropic
  @C5.2
  Scenario: every Anthropic entry is {name, description, input_schema}
    When the schema adapters are rendered
    Then every anthropic entry has exactly the keys name, description and input_schema

  @id:c5-gemini-shape @required @src:spec-c5-gemini
  @C5.3
  Scenario: Gemini is one element wrapping every tool in functionDeclarations
    When the toolkit is described
    And the schema adapters are rendered
    Then the gemini output is one element whose only key is functionDeclarations, each with exactly name, description and parameters

  @id:c5-schema-is-input-schema @required @src:spec-c5-params
  @C5.4
  Scenario: each adapter's schema is the tool's own input schema
    When the toolkit is described
    And the schema adapters are rendered
    Then each adapter's schema equals the described input schema of the same tool

  @id:c5-assembly-order @required @src:spec-c5-order
  @C5.5
  Scenario: MCP tools come first, then the extra tools in the order given, everywhere
    When the toolkit is described
    And the schema adapters are rendered
    Then the tool order is srv_a, srv_b, srv_c, srv_get_balance, ping, plain in the description and in all three adapters

  @id:c5-outputs-match-reference @required @src:spec-c5-parity
  @C5.7
  Scenario: the three adapter outputs equal the reference's
    When the schema adapters are rendered
    Then the schema adapters match the golden copy "c5-adapters"

