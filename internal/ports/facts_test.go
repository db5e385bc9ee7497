package ports

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every port folder carries its facts, and they say what SPEC.md §1 and §3 pin.
func TestEveryPortsFacts(t *testing.T) {
	root, _ := filepath.Abs("../..")
	deadline := map[string]string{"go": "deadline", "js": "deadline", "python": "cancelled", "java": "cancelled", "csharp": "cancelled"}
	// JS and Python always sent "system" on anthropic before ADR 0001; Go and Java did not.
	anthropicRun := map[string][]string{
		"go":     {"max_tokens", "messages", "model", "tools"},
		"python": {"max_tokens", "messages", "model", "system", "tools"},
		"js":     {"max_tokens", "messages", "model", "system", "tools"},
	}
	for port, kind := range deadline {
		f, err := LoadFacts(root, port)
		if err != nil {
			t.Fatal(err)
		}
		if f.Port != port || f.Deadline.Kind != kind || f.Deadline.Fact == "" || f.PreChangeKeys.Fact == "" {
			t.Errorf("%s: %+v; want deadline kind %q with facts", port, f, kind)
		}
		for _, path := range []string{"openai run", "openai stream", "anthropic run", "anthropic stream"} {
			if keys, ok := f.KeysFor(path); !ok || len(keys) < 4 {
				t.Errorf("%s %s: %v", port, path, keys)
			}
		}
		if want, ok := anthropicRun[port]; ok {
			got, _ := f.KeysFor("anthropic run")
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s anthropic run (-want +got):\n%s", port, d)
			}
		}
		if _, ok := f.KeysFor("gemini run"); ok {
			t.Errorf("%s: an unknown path has keys", port)
		}
	}
}

// A missing facts file wraps fs.ErrNotExist; a bad one names the file and the violation.
func TestFactsErrors(t *testing.T) {
	root := t.TempDir()
	if _, err := LoadFacts(root, "cobol"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "runners/cobol/facts.json") {
		t.Errorf("missing: %v", err)
	}
	dir := filepath.Join(root, "runners", "cobol")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{
		`{"deadline": {"kind": "soon", "fact": "x"}}`: "runners/cobol/facts.json: ",
		`{"deadline": `: "not JSON",
	} {
		if err := os.WriteFile(filepath.Join(dir, FactsName), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadFacts(root, "cobol"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
}

// A cancel guarantee covers the modes its seam names (js: "AbortSignal on run/ask"), every
// mode when the table names none; js's facts.json says run only.
func TestCancelGuaranteeCoversTheSeamsModes(t *testing.T) {
	all := CancelFact{Guarantee: "mid-request"}
	runOnly := CancelFact{Guarantee: "mid-request", Modes: []string{"run"}}
	if !all.Covers("stream") || !all.Covers("run") || !runOnly.Covers("run") || runOnly.Covers("stream") {
		t.Errorf("Covers: every mode without modes, only the named ones with them")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFacts(root, "js")
	if err != nil {
		t.Fatal(err)
	}
	if f.Cancel.Covers("stream") {
		t.Errorf("js's cancel guarantee covers the stream; upstream SPEC §7D's seam is \"AbortSignal on run/ask\"")
	}
}
