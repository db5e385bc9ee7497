package ports

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A missing facts file wraps fs.ErrNotExist; a bad one names the file and the violation; a
// fact no area's key is read names the file and the key.
func TestFactsErrors(t *testing.T) {
	root := t.TempDir()
	noCheck := func([]byte) error { return nil }
	if _, err := LoadFacts(root, "cobol", noCheck); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "runners/cobol/facts.json") {
		t.Errorf("missing: %v", err)
	}
	dir := filepath.Join(root, "runners", "cobol")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, FactsName), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"deadline": {"kind": "soon"}}`)
	refuse := func([]byte) error { return errors.New("at '/deadline/kind': value must be one of") }
	if _, err := LoadFacts(root, "cobol", refuse); err == nil || !strings.HasPrefix(err.Error(), "runners/cobol/facts.json: at '/deadline/kind'") {
		t.Errorf("refused: %v", err)
	}
	f, err := LoadFacts(root, "cobol", noCheck)
	if err != nil {
		t.Fatal(err)
	}
	var d struct{ Kind string }
	if err := f.Decode("deadline", &d); err != nil || d.Kind != "soon" {
		t.Errorf("Decode(deadline) = %+v, %v", d, err)
	}
	if err := f.Decode("cancel", &d); err == nil || !strings.Contains(err.Error(), `runners/cobol/facts.json has no "cancel"`) {
		t.Errorf("Decode(cancel) = %v", err)
	}
	write(`{"deadline": `)
	if _, err := LoadFacts(root, "cobol", noCheck); err == nil || !strings.Contains(err.Error(), "runners/cobol/facts.json") {
		t.Errorf("not JSON: %v", err)
	}
}
