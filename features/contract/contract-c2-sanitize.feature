@contract
Feature: Contract C2 - sanitize
  The port's exported sanitize replaces every character outside [a-zA-Z0-9_-] with "_".

  @id:c2-sanitize-ascii @required @src:spec-c2-sanitize
  @C2.1
  Scenario Outline: sanitize "<value>" gives "<sanitized>"
    When "<value>" is sanitized
    Then the sanitized value is "<sanitized>"

    Examples:
      | value       | sanitized   |
      | get.balance | get_balance |
      | send money  | send_money  |
      | a-b_c       | a-b_c       |
      | x/y:z       | x_y_z       |
      |             |             |

  @id:c2-sanitize-bmp @required @src:spec-c2-sanitize
  @C2.3
  Scenario Outline: a character inside the BMP is one underscore: "<value>" gives "<sanitized>"
    When "<value>" is sanitized
    Then the sanitized value is "<sanitized>"

    Examples:
      | value  | sanitized |
      | café   | caf_      |
      | naïve  | na_ve     |
      | é     | e_        |

  @id:c2-sanitize-astral @required @src:spec-c2-sanitize-js
  @C2.4
  Scenario: a character outside the BMP is two underscores, one per UTF-16 unit
    When "🚀launch" is sanitized
    Then the sanitized value is "__launch"
