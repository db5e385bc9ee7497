package result

import "testing"

func TestFingerprintIsStable(t *testing.T) {
	a := "mcp.load did not return within 2000 ms: took 15.003s; fake at http://127.0.0.1:39411/s/7 pid 4411 in /tmp/conformance-scenario-123/mcp.json\n--- adapter stderr (tail) ---\nTraceback line 88"
	b := "mcp.load did not return within 2000 ms: took 15.117s; fake at http://127.0.0.1:40022/s/31 pid 9021 in /tmp/conformance-scenario-987/mcp.json\n--- adapter stderr (tail) ---\nother"
	if Fingerprint(a) != Fingerprint(b) {
		t.Errorf("same failure, different fingerprints:\n%s\n%s", normalizeFailure(a), normalizeFailure(b))
	}
	// go-cmp varies its spaces between runs on purpose.
	if Fingerprint("x differs:\n-\t\"a\",\n+\t\"b\"") != Fingerprint("x  differs:\n-\u00a0\"a\",\n+\t\"b\"") {
		t.Error("whitespace changed the fingerprint")
	}
	for _, other := range []string{
		"toolkit.create did not return within 2000 ms: took 15.003s",
		"mcp.load failed: kind failed, want cancelled",
	} {
		if Fingerprint(other) == Fingerprint(a) {
			t.Errorf("a different failure has the same fingerprint: %q", other)
		}
	}
}
