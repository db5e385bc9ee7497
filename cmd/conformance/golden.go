package main

// goldenTags are the scenarios that compare with a golden copy: X.1 and X.5 (wire bodies),
// X.2 (inventories), X.4's own scenarios, and every contract scenario (X.4's returned values,
// C5.7's adapter JSON). A golden run records every file in fixtures/<area>/golden from them.
const goldenTags = "@X.1,@X.2,@X.4,@X.5,@contract"

const goldenUsage = `usage: conformance golden [flags]
  Re-records every golden copy, fixtures/<area>/golden/*.json, from the reference (and only from
  it): X.1 and X.5's wire bodies, X.2's inventories, X.4's returned values (x4-returned.json, every
  contract scenario that passes) and C5.7's adapter JSON. Review the diff before committing.
  --tags narrows the run: only the scenarios it selects are re-recorded.`

// cmdGolden is a run of the reference over goldenTags that writes what it saw.
func cmdGolden(args []string) int {
	return cmdRun(append([]string{"--ports", "reference", "--tags", goldenTags}, args...), true)
}
