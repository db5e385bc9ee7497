// Package leakcheck lets the fakes' tests prove that Close leaves no goroutine
// behind. It is a few lines of what go.uber.org/uber-go/goleak does, so the
// module needs no new dependency.
package leakcheck

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"
)

// grace is how long Check waits for new goroutines to end.
var grace = 3 * time.Second

// Check snapshots the running goroutines and, when t ends, fails it if new
// ones are still running after a grace period (net/http connection goroutines
// take a moment to notice a closed socket). Tests using it must not be
// parallel, or they would see each other's goroutines.
func Check(t testing.TB) {
	t.Helper()
	before := ids()
	t.Cleanup(func() {
		var extra []string
		deadline := time.Now().Add(grace)
		for {
			extra = extra[:0]
			for id, stack := range stacks() {
				if !before[id] && !benign(stack) {
					extra = append(extra, stack)
				}
			}
			if len(extra) == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if len(extra) > 0 {
			t.Errorf("%d goroutine(s) leaked:\n\n%s", len(extra), strings.Join(extra, "\n\n"))
		}
	})
}

// benign reports goroutines the test framework or runtime own.
func benign(stack string) bool {
	for _, s := range []string{
		"testing.tRunner", "testing.(*T).Run", "testing.(*M).", "testing.runTests",
		"runtime.goexit0", "os/signal.", "runtime/trace.",
	} {
		if strings.Contains(firstFrames(stack), s) {
			return true
		}
	}
	return false
}

// firstFrames is the header and the function of the innermost frames, enough
// to tell a leaked server loop from the test runner itself.
func firstFrames(stack string) string {
	lines := strings.Split(stack, "\n")
	if len(lines) > 6 {
		lines = lines[:6]
	}
	return strings.Join(lines, "\n")
}

func ids() map[string]bool {
	m := map[string]bool{}
	for id := range stacks() {
		m[id] = true
	}
	return m
}

// stacks maps goroutine id to its stack, for every goroutine but the caller.
func stacks() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	m := map[string]string{}
	for i, g := range bytes.Split(buf, []byte("\n\n")) {
		if i == 0 {
			continue // the calling goroutine
		}
		s := string(g)
		var id string
		if f := strings.Fields(s); len(f) > 1 {
			id = f[1]
		}
		m[id] = s
	}
	return m
}
