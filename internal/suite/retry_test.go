package suite

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// flipOnce is Go code for the reference: true the first time any adapter process runs it
// (a file named by CONFORMANCE_TEST_FLIP is created then), false ever after, so exactly one
// attempt of one scenario behaves differently, as a port that flips under load would.
const flipOnce = `
func flipOnce() bool {
	p := os.Getenv("CONFORMANCE_TEST_FLIP")
	if p == "" {
		return false
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
`

// flipInOneProcess is flipOnce bound to the process that flipped first: every later call in
// that process flips too, so a retry that reused the first attempt's adapter would fail again
// (the test then sees no flaky verdict), while a fresh process never flips.
const flipInOneProcess = `
func flipOnce() bool {
	p := os.Getenv("CONFORMANCE_TEST_FLIP")
	if p == "" {
		return false
	}
	me := strconv.Itoa(os.Getpid())
	if f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
		f.WriteString(me)
		f.Close()
		return true
	}
	first, _ := os.ReadFile(p)
	return string(first) == me
}
`

// flippedReference applies hunks to a copy of the reference and returns the adapter env.
func flippedReference(t *testing.T, root string, hunks ...mutant.Hunk) []string {
	t.Helper()
	dir := t.TempDir()
	m := mutant.Mutant{Name: "flip", Hunks: hunks}
	if err := m.Apply(filepath.Join(root, "reference"), dir); err != nil {
		t.Fatal(err)
	}
	return []string{"TOOLNEXUS_GO=" + dir, "CONFORMANCE_TEST_FLIP=" + filepath.Join(t.TempDir(), "flipped")}
}

// A port whose first attempt sends a wrong body and whose retry is right: the scenario is run
// again on a fresh adapter and reported flaky with both attempts, not silently green or red.
func TestAFlipIsRetriedAndReportedFlaky(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	o := speedOptions(t, "@id:g1-pre-change-keys", 1)
	o.NoRetry = false
	o.AdapterEnv = flippedReference(t, o.Root,
		mutant.Hunk{File: "client_body.go", Find: "\t\"net/http\"\n", Replace: "\t\"net/http\"\n\t\"os\"\n"}, // strconv is imported already
		mutant.Hunk{File: "client_body.go", Find: "func deepCopy(v any) any {", Replace: flipInOneProcess + "\nfunc deepCopy(v any) any {"},
		mutant.Hunk{File: "client_body.go", Find: "\tif c.opts.BodyTransform != nil {\n",
			Replace: "\tif flipOnce() {\n\t\tbody[\"flipped\"] = true\n\t}\n\tif c.opts.BodyTransform != nil {\n"})
	r := runOne(t, o)
	flaky := 0
	for i, j := range r.Judged {
		switch j.Verdict {
		case result.Flaky:
			flaky++
			if len(j.Attempts) != 2 || j.Attempts[0].Status != result.StatusFail || j.Attempts[1].Status != result.StatusPass ||
				!strings.Contains(j.Note, "flipped") || !strings.Contains(j.Note, "attempt 2: pass") {
				t.Errorf("%s: attempts %+v, note %q; want a failure naming \"flipped\", then a pass", j.Key, j.Attempts, j.Note)
			}
			if n := len(r.Scenarios[i].Attempts); n != 2 {
				t.Errorf("%s: the outcome carries %d attempts", j.Key, n)
			}
		case result.Pass:
		default:
			t.Errorf("%s: %s %q", j.Key, j.Verdict, j.Note)
		}
	}
	if flaky != 1 || r.Red() {
		t.Errorf("%d flaky scenarios, red %v; want exactly one, and a green run", flaky, r.Red())
	}
	// The retry met a fresh adapter: the flipping process flips on every call, so a retry on
	// it would have failed again and left no flaky verdict (counted above). A count of
	// replacements would not do: under load the run may end before a spare's start completes.
}

// A port that, once, never spawns the stdio child before the caller's cancel (a starved
// runtime): that attempt is inconclusive, re-run, and never counted against the port.
func TestAnUnreachedPreconditionIsRerunNotBlamed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	o := speedOptions(t, "@id:g3-cancel-during-spawn", 1)
	o.NoRetry = false
	o.AdapterEnv = flippedReference(t, o.Root,
		mutant.Hunk{File: "mcp_connect.go", Find: "func stdioTransport(", Replace: flipOnce + "\nfunc stdioTransport("},
		mutant.Hunk{File: "mcp_connect.go", Find: "\tbudget, cancel := context.WithTimeoutCause(ctx, cfg.timeout(), errMcpServerTimeout)\n",
			Replace: "\tif k, _ := cfg.kind(); k == mcpKindStdio && flipOnce() {\n\t\t<-ctx.Done()\n\t\treturn nil, context.Cause(ctx)\n\t}\n" +
				"\tbudget, cancel := context.WithTimeoutCause(ctx, cfg.timeout(), errMcpServerTimeout)\n"})
	r := runOne(t, o)
	retried := 0
	for _, j := range r.Judged {
		if j.Verdict != result.Pass {
			t.Errorf("%s: %s %q; an unreached precondition must never be the port's failure", j.Key, j.Verdict, j.Note)
		}
		if len(j.Attempts) > 0 {
			retried++
			if j.Attempts[0].Status != result.StatusInconclusive || !strings.Contains(j.Attempts[0].Message, "never started") {
				t.Errorf("%s: first attempt %+v; want inconclusive: never started", j.Key, j.Attempts[0])
			}
		}
	}
	// The flip fires once; a loaded machine may starve another row the same way, which is
	// retried as well and still never blamed.
	if retried < 1 || r.Red() {
		t.Errorf("%d scenarios retried, red %v; want at least the flipped one retried, a green run", retried, r.Red())
	}
}
