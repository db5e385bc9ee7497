// Package timing is the suite's timing policy: the bounds a scenario is judged at, the
// margin and hang guard around them, the quick first attempt of a stall scenario and the
// waits even a perfect port cannot avoid (SPEC.md §3 "Quick first", "Judged at the bound").
// A scenario declares its timing in tags (Parse); what only a running step knows (a stalled
// server, its timeout) is handed in when the step runs. It imports only the standard library.
package timing

import "time"

// QuickLimit is what a quick first attempt cuts every longer caller limit and stalled
// server's timeout to.
const QuickLimit = 150 * time.Millisecond
