package ports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Two runs in one checkout prepare the reference at the same time, sharing the cache: both
// must get a working adapter (each builds in its own directory and renames the binary in).
func TestConcurrentPreparesDoNotInterfere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter twice")
	}
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	im, err := ResolveIn(root, Reference)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	argv := make([][]string, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := PrepareImplementation(context.Background(), root, cache, im, 5*time.Minute)
			errs[i] = err
			if r != nil {
				argv[i] = r.Argv
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("prepare %d: %v", i, err)
			continue
		}
		if st, err := os.Stat(argv[i][0]); err != nil || st.Mode()&0o111 == 0 {
			t.Errorf("prepare %d: %v is not an executable (%v)", i, argv[i], err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(cache, "go", "src-*"))
	if len(left) > 0 {
		t.Errorf("build directories left behind: %v", left)
	}
}

func TestResolve(t *testing.T) {
	t.Setenv("TOOLNEXUS_GO", "")
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"reference": "go", "python": "python", "js@0.15.0": "js"} {
		im, err := set.Resolve(name)
		if err != nil || im.Port != want {
			t.Errorf("%s: port %q err %v, want %q", name, im.Port, err, want)
		}
	}
	if im, _ := set.Resolve("reference"); !im.Required || !slices.Contains(im.Env, "TOOLNEXUS_GO=") {
		t.Errorf("the reference must be required and clear TOOLNEXUS_GO: %+v", im)
	}
	if im, _ := set.Resolve("go"); im.Absent == "" {
		t.Error("go without TOOLNEXUS_GO must be not present")
	}
	for _, bad := range []string{"pyhton", "reference@1.0", "js@", "js@../x"} {
		if _, err := set.Resolve(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// prepare's last line is the adapter command: a JSON array, or the absolute path of an
// executable; a log line that happens to come last is never run as a program.
func TestParseCommand(t *testing.T) {
	exe, _ := os.Executable()
	for line, ok := range map[string]bool{
		`["node", "adapter.mjs"]`: true,
		exe:                       true,
		"BUILD SUCCESSFUL in 3s":  false,
		"relative/adapter":        false,
		"/no/such/adapter":        false,
		"[not json":               false,
		os.TempDir():              false, // a directory
	} {
		if _, err := parseCommand(line); (err == nil) != ok {
			t.Errorf("%q: err %v, want ok %v", line, err, ok)
		}
	}
}

// A prepare script's output is outside text: its reason and log tail reach the terminal,
// report.md and report.html escaped (ESC, OSC, bidi overrides) and capped, however long.
func TestPrepareOutputIsEscapedAndCapped(t *testing.T) {
	root := t.TempDir()
	junk := `printf '\033]0;pwned\007\033[31mred\342\200\256evil '; head -c 2000000 /dev/zero | tr '\0' x; echo`
	for port, tail := range map[string]string{"notthere": "exit 3", "broken": "exit 1", "nocommand": "echo 'BUILD SUCCESSFUL'; exit 0"} {
		dir := filepath.Join(root, "runners", port)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/usr/bin/env bash\n(" + junk + ") >&2\n" + tail + "\n"
		if err := os.WriteFile(filepath.Join(dir, "prepare"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Prepare(context.Background(), root, t.TempDir(), port, time.Minute)
		var text string
		var np *NotPresent
		var b *Broken
		switch {
		case errors.As(err, &np):
			text = np.Reason
		case errors.As(err, &b):
			text = b.Reason + "\n" + b.LogTail
		default:
			t.Fatalf("%s: %v", port, err)
		}
		if strings.ContainsAny(text, "\x1b\x07\u202e") {
			t.Errorf("%s: raw control or bidi bytes reach the report: %q", port, text[:min(len(text), 80)])
		}
		if len(text) > 20<<10 {
			t.Errorf("%s: %d bytes of prepare output reach the report", port, len(text))
		}
	}
}

// A prepare may name a fork server on a line before the command; a malformed one is broken,
// not silently a plain start.
func TestPrepareForkServerLine(t *testing.T) {
	root := t.TempDir()
	for port, out := range map[string]string{
		"forks": `echo 'fork-server: ["/bin/srv","a b"]'; echo '["/bin/adapter"]'`,
		"plain": `echo '["/bin/adapter"]'`,
		"bad":   `echo 'fork-server: /bin/srv'; echo '["/bin/adapter"]'`,
	} {
		dir := filepath.Join(root, "runners", port)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "prepare"), []byte("#!/usr/bin/env bash\n"+out+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Prepare(context.Background(), root, t.TempDir(), "forks", time.Minute)
	if err != nil || !slices.Equal(r.ForkArgv, []string{"/bin/srv", "a b"}) || !slices.Equal(r.Argv, []string{"/bin/adapter"}) {
		t.Errorf("forks: %+v %v", r, err)
	}
	if r, err := Prepare(context.Background(), root, t.TempDir(), "plain", time.Minute); err != nil || r.ForkArgv != nil {
		t.Errorf("plain: %+v %v", r, err)
	}
	var b *Broken
	if _, err := Prepare(context.Background(), root, t.TempDir(), "bad", time.Minute); !errors.As(err, &b) || !strings.Contains(b.Reason, "fork-server") {
		t.Errorf("bad: %v", err)
	}
}
