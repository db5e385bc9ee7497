package adapter

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// A flood of stderr costs the runner the tail's fixed size, not memory in proportion to what
// was written: 50 MB in 32 KiB writes (io.Copy's) allocates nothing once the tail exists.
// It used to copy the tail anew on every write: 100 MB of garbage a call, which GOGC=400 let
// grow to gigabytes over a run.
func TestTailOfAFloodAllocatesNothing(t *testing.T) {
	tl := newTail(64 << 10)
	chunk := bytes.Repeat([]byte("flood line\n"), 32<<10/11)
	_, _ = tl.Write(chunk) // the tail's own buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for n := 0; n < 50_000_000; n += len(chunk) {
		_, _ = tl.Write(chunk)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("writing 50 MB allocated %d bytes", grew)
	}
}

// The tail keeps the last max bytes across writes of any size, and Since what came after a
// mark, as far as it still holds it.
func TestTailKeepsTheLastBytes(t *testing.T) {
	tl := newTail(10)
	var all strings.Builder
	for _, w := range []string{"abc", "defgh", "ijklmnopqrstu", "v", "wxyz0123456789", "A"} {
		mark := tl.Total()
		if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write(%q) = %d, %v: a short write stops io.Copy, and the adapter blocks on stderr", w, n, err)
		}
		all.WriteString(w)
		want := all.String()
		if len(want) > 10 {
			want = want[len(want)-10:]
		}
		if got := tl.Since(0); got != want {
			t.Errorf("after %q: tail %q, want %q", w, got, want)
		}
		since := w
		if len(since) > 10 {
			since = since[len(since)-10:]
		}
		if got := tl.Since(mark); got != since {
			t.Errorf("after %q: since the mark %q, want %q", w, got, since)
		}
	}
	if tl.Total() != int64(all.Len()) {
		t.Errorf("total %d, want %d", tl.Total(), all.Len())
	}
}
