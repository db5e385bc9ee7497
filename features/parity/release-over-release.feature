Feature: Release over release
  ADR 0001 promises that no port ships a breaking release: with none of the new options set, a
  release puts the same bodies on the wire as an earlier release of the same port. The earlier
  release is named with `--baseline <port>@<release>`; the run first records its bodies, then
  compares every implementation of that port with them (normalised as for X.1). Without a
  baseline these scenarios are not run (the CLI leaves @X.3 out and says so); run on a port the
  baseline is not a release of, they are unsupported with that reason, never a pass.

  @id:x3-release-over-release @required @src:adr-x3-release
  @X.3
  Scenario Outline: a tool loop with no new option puts the baseline release's bodies on the wire (<style> <mode>)
    Given an <style> client
    And a toolkit with the host tool "echo"
    And the fake LLM first calls the tool "echo" and then answers "done"
    When the client runs "use the tool" in <mode> mode
    Then the call succeeds
    And the wire bodies match the baseline release's "tool-loop-<style>-<mode>"

    Examples:
      | style     | mode   |
      | openai    | run    |
      | openai    | stream |
      | anthropic | run    |
      | anthropic | stream |
