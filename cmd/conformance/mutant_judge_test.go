package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// mislabelled is testdata's mutant: C4.4's break (a "/" written \/) labelled C4.5.
func mislabelled(t *testing.T) mutant.Mutant {
	t.Helper()
	ms, err := mutant.Load(filepath.Join("testdata", "mutants"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == "mislabelled-slash-escaped" {
			return m
		}
	}
	t.Fatal("testdata/mutants/mislabelled-slash-escaped.mutant is missing")
	return mutant.Mutant{}
}

type runCall struct {
	once bool
	tags string
}

// A mutant is not SURVIVED while any scenario of the suite fails on it: its own claims run
// first, once; when they all pass the rest of the suite runs, with retries, and a kill there
// is reported as killed outside its claims (a mislabel), not as a survivor.
func TestMutantKilledOutsideItsClaimsIsNotSurvived(t *testing.T) {
	m := mislabelled(t)
	known := map[string]bool{"C4.4": true, "C4.5": true, "contract": true}
	pass := result.Outcome{Scenario: "numbers in structuredContent are written as JavaScript writes them", Tags: []string{"contract", "C4.5"}, Status: result.StatusPass}
	kill := result.Outcome{Scenario: "structuredContent is the output, byte for byte as JSON.stringify writes it", Tags: []string{"contract", "C4.4"}, Status: result.StatusFail}
	for _, c := range []struct {
		name string
		// outcomes of the first run and of the rest
		own, rest   []result.Outcome
		given       string
		wantCalls   []runCall
		want        []string // in the line
		survived    int
		wantOutside bool
	}{
		{name: "mislabelled", own: []result.Outcome{pass}, rest: []result.Outcome{kill},
			wantCalls: []runCall{{true, "@C4.5"}, {false, "~@C4.5"}},
			want: []string{"killed", "C4.4 (1 scenario: structuredContent is the output, byte for byte",
				"killed OUTSIDE its breaks: claims (C4.5 passed): mislabelled"},
			wantOutside: true},
		{name: "caught by its own claim", own: []result.Outcome{kill},
			wantCalls: []runCall{{true, "@C4.5"}},
			want:      []string{"killed", "C4.4 (1 scenario: "}},
		{name: "nothing fails anywhere", own: []result.Outcome{pass}, rest: []result.Outcome{pass},
			wantCalls: []runCall{{true, "@C4.5"}, {false, "~@C4.5"}},
			want:      []string{"SURVIVED", "nothing failed in the whole suite"}, survived: 1},
		{name: "--tags limits the run", given: "@C4.5", own: []result.Outcome{pass},
			wantCalls: []runCall{{true, ""}},
			want:      []string{"SURVIVED", "nothing failed under --tags"}, survived: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls []runCall
			cache := t.TempDir()
			folder := filepath.Join(cache, "mutants", m.Name)
			run := func(env []string, once bool, tags string) (*result.PortResult, error) {
				calls = append(calls, runCall{once, tags})
				// The mutant's source, and its prepare's cache (where its adapter is built), both
				// in the mutant's own folder.
				want := []string{"TOOLNEXUS_GO=" + filepath.Join(folder, "golang"), "CONFORMANCE_CACHE=" + folder}
				if !slices.Equal(env, want) {
					t.Errorf("env %q, want %q", env, want)
				}
				if _, err := os.Stat(filepath.Join(folder, "golang", "go.mod")); err != nil {
					t.Errorf("the mutant's source is not in its folder: %v", err)
				}
				scs := c.own
				if len(calls) > 1 {
					scs = c.rest
				}
				return &result.PortResult{Port: ports.Reference, Present: true, Scenarios: scs}, nil
			}
			v := judgeMutant(m, cache, harnessRoot(t), run, c.given, known)
			// A green verdict leaves nothing behind; a red one keeps its folder, and says so.
			_, err := os.Stat(folder)
			switch {
			case c.survived == 0 && (!os.IsNotExist(err) || v.kept != ""):
				t.Errorf("killed, yet its folder is left (stat: %v, kept %q)", err, v.kept)
			case c.survived > 0 && (err != nil || v.kept != folder):
				t.Errorf("survived, yet its folder is not kept (stat: %v, kept %q)", err, v.kept)
			}
			if len(calls) != len(c.wantCalls) {
				t.Fatalf("runs %v, want %v\n%s", calls, c.wantCalls, v.line)
			}
			for i := range calls {
				if calls[i] != c.wantCalls[i] {
					t.Errorf("run %d: %+v, want %+v", i+1, calls[i], c.wantCalls[i])
				}
			}
			for _, w := range c.want {
				if !strings.Contains(v.line, w) {
					t.Errorf("line lacks %q:\n%s", w, v.line)
				}
			}
			if v.survived != c.survived || v.outside != c.wantOutside || v.broken+v.falseRed != 0 {
				t.Errorf("survived %d outside %v broken %d falseRed %d, want survived %d outside %v:\n%s",
					v.survived, v.outside, v.broken, v.falseRed, c.survived, c.wantOutside, v.line)
			}
		})
	}
}

// The same on the real suite: testdata's mislabelled mutant passes its C4.5 scenarios and is
// killed by C4.4's, which the whole-suite fallback runs.
func TestMislabelledMutantIsKilledOutsideItsClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a mutant of the reference and runs the whole suite on it")
	}
	root := harnessRoot(t)
	known, err := knownTags(root)
	if err != nil {
		t.Fatal(err)
	}
	c := common{root: root, cache: filepath.Join(root, ".cache"), prepareTimeout: 5 * time.Minute}
	base, err := c.options([]string{ports.Reference}, "")
	if err != nil {
		t.Fatal(err)
	}
	base.CallTimeout, base.Jobs = 8*time.Second, suite.DefaultJobs()
	v := judgeMutant(mislabelled(t), c.cache, root, mutantRunner(base), "", known)
	if v.survived != 0 || v.broken != 0 || !v.outside {
		t.Fatalf("want killed outside its claims, got (survived %d, broken %d, outside %v):\n%s", v.survived, v.broken, v.outside, v.line)
	}
	for _, w := range []string{"killed", "C4.4", "killed OUTSIDE its breaks: claims (C4.5 passed)"} {
		if !strings.Contains(v.line, w) {
			t.Errorf("line lacks %q:\n%s", w, v.line)
		}
	}
	t.Log(v.line)
}

func TestRestTags(t *testing.T) {
	for own, want := range map[string]string{
		"@C9.11,@C9.3": "~@C9.11 && ~@C9.3",
		"@contract":    "~@contract",
		"~@contract":   "@contract",
	} {
		if got := restTags(own); got != want {
			t.Errorf("restTags(%q) = %q, want %q", own, got, want)
		}
	}
}

// A mutant whose adapter does not build is BROKEN, with the build log's last lines (where a full
// disk says so), and its folder is kept to be read.
func TestBrokenMutantShowsTheBuildsEnd(t *testing.T) {
	m := mislabelled(t)
	cache := t.TempDir()
	run := func(env []string, once bool, tags string) (*result.PortResult, error) {
		return &result.PortResult{Port: ports.Reference, Broken: true, Reason: "prepare exited 1",
			LogTail: "go: downloading nothing\nlink: write adapter.tmp: no space left on device\x1b[31m\n"}, nil
	}
	v := judgeMutant(m, cache, harnessRoot(t), run, "", map[string]bool{"C4.5": true})
	if v.broken != 1 || v.kept != filepath.Join(cache, "mutants", m.Name) {
		t.Fatalf("broken %d kept %q:\n%s", v.broken, v.kept, v.line)
	}
	for _, w := range []string{"BROKEN", "does not build: prepare exited 1", "| link: write adapter.tmp: no space left on device"} {
		if !strings.Contains(v.line, w) {
			t.Errorf("line lacks %q:\n%s", w, v.line)
		}
	}
	if strings.Contains(v.line, "\x1b") {
		t.Errorf("the log's escape byte reached the terminal unescaped:\n%q", v.line)
	}
}
