Feature: X.5 - the shared-example run
  Upstream SPEC §0: a port is correct when it runs the shared example and its outputs match the
  others'. Our own fixtures stand in for upstream's examples/: fixtures/mcp/example.json (one
  stdio server, the fake in place of server-everything) and the skills tree "hello" (one skill
  with a script). One scripted conversation: the model loads the skill, calls an MCP tool, then
  answers. Every body the port sends must equal the reference's golden copy after X.1's
  normalisation, the scenario's own folder written <dir>.

  @id:x5-shared-example @recommended @src:rec-x5-example
  @X.5
  Scenario Outline: the shared example's three turns put the reference's bodies on the wire (<style> <mode>)
    Given an <style> client
    And the client's system prompt is "You are the shared example."
    And the shared fixture config "example.json"
    And the skills tree "hello"
    And the toolkit is built
    And the fake LLM calls the tool "skill" with {"name": "hello-world"}, then the tool "everything_a" with {"x": "ü"}, and then answers "hello, world"
    When the client runs "Say hello to the world." in <mode> mode
    Then the call succeeds
    And the run made 3 LLM requests
    And the wire bodies, the scenario's folder written <dir>, match the golden copy "x5-example-<style>-<mode>"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |
