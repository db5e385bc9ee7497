package ports

import (
	"context"
	"os"
	"path/filepath"
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
	im, err := Resolve(Reference)
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
	for name, want := range map[string]string{"reference": "go", "python": "python", "js@0.15.0": "js"} {
		im, err := Resolve(name)
		if err != nil || im.Port != want {
			t.Errorf("%s: port %q err %v, want %q", name, im.Port, err, want)
		}
	}
	if im, _ := Resolve("go"); im.Absent == "" {
		t.Error("go without TOOLNEXUS_GO must be not present")
	}
	for _, bad := range []string{"pyhton", "reference@1.0", "js@", "js@../x"} {
		if _, err := Resolve(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
