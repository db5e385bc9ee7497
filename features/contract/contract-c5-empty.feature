@contract
Feature: Contract C5 - the schema adapters of an empty toolkit

  @id:c5-gemini-empty @recommended @src:rec-c5-empty-gemini
  @C5.3
  Scenario: with no tools Gemini still has its one element, with an empty list
    When the schema adapters are rendered
    Then the gemini output is exactly [{"functionDeclarations": []}]
