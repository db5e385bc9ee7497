package result

import "time"

// Versions identify what a run was judged against, so results from different runs can be
// merged only when they answer the same questions (internal/suite.SuiteVersions computes
// them).
type Versions struct {
	// Catalogue is a hash of fixtures/catalogue.txt: the IDs and what each checks.
	Catalogue string
	// Suite is a hash of everything that decides a verdict besides the port: the features, the
	// fixtures (golden bodies, MCP configs) and the protocol schema.
	Suite string
	// Harness, Command and Duration say how the run was made, for the reports' headers: the
	// harness version, the command line, the wall time. Not compared by merge.
	Harness, Command string
	Duration         time.Duration
}
