package timing

import (
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestParseReadsTheTimingTags(t *testing.T) {
	d, err := Parse([]string{"id:x", "required", "G3.8", "quick", "within-limit:2000"})
	if err != nil || d != (Declared{WithinLimit: 2000 * ms, Quick: true}) {
		t.Fatalf("got %+v, %v", d, err)
	}
	if d, err := Parse([]string{"within:2400"}); err != nil || d != (Declared{Within: 2400 * ms}) {
		t.Errorf("@within: got %+v, %v", d, err)
	}
	if d, err := Parse([]string{"within-timeout:2000", "quick"}); err != nil || d != (Declared{WithinTimeout: 2000 * ms, Quick: true}) {
		t.Errorf("@within-timeout: got %+v, %v", d, err)
	}
	if d, err := Parse(nil); err != nil || d != (Declared{}) {
		t.Errorf("no tags: got %+v, %v", d, err)
	}
}

func TestParseRefusesWhatItCannotJudge(t *testing.T) {
	for tags, want := range map[string]string{
		"within:0":                          "above 0",
		"within:-5":                         "above 0",
		"within:2s":                         "whole number",
		"within:+20":                        "whole number",
		"within:0100":                       "whole number",
		"within:":                           "whole number",
		"within:100 within:200":             "given twice",
		"quick quick":                       "given twice",
		"within:100 within-limit:200":       "at most one",
		"quick within:2000":                 "would not move",
		"within-limits:2000":                "no timing tag",
		"withinLimit:2000":                  "no timing tag",
		"quick:1":                           "no timing tag",
		"within-timeout:1 within-timeout:2": "given twice",
	} {
		_, err := Parse(strings.Fields(tags))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", tags, err, want)
		}
	}
}

// Every rule of Bound, with the values the suite's scenarios use.
func TestBoundKeepsThePinnedValues(t *testing.T) {
	cases := []struct {
		name         string
		d            Declared
		limit        time.Duration
		stalls       []time.Duration
		bound, floor time.Duration
	}{
		{"nothing stalls, no limit", Declared{Within: 2000 * ms}, 0, nil, 0, 0},
		{"a hung server and a 100 ms cancel", Declared{Within: 2000 * ms}, 100 * ms, []time.Duration{Forever}, 2000 * ms, 100 * ms},
		{"a 50 ms deadline, a server slow by 5 s", Declared{Within: 4000 * ms}, 50 * ms, []time.Duration{5 * time.Second}, 4000 * ms, 50 * ms},
		{"a hung server's own 400 ms timeout", Declared{Within: 2400 * ms}, 0, []time.Duration{400 * ms}, 2400 * ms, 400 * ms},
		{"relative to the caller's limit", Declared{WithinLimit: 2000 * ms}, 1500 * ms, []time.Duration{Forever}, 3500 * ms, 1500 * ms},
		{"relative to a cut limit", Declared{WithinLimit: 2000 * ms, Quick: true}, QuickLimit, []time.Duration{Forever}, QuickLimit + 2000*ms, QuickLimit},
		{"a limit, no bound pinned", Declared{}, 700 * ms, []time.Duration{Forever}, 700*ms + HangGuard, 700 * ms},
		{"a limit and nothing stalls", Declared{}, 700 * ms, nil, 700*ms + HangGuard, 0},
		{"relative to the server's timeout", Declared{WithinTimeout: 2000 * ms}, 0, []time.Duration{1500 * ms}, 3500 * ms, 1500 * ms},
		{"the slowest of two timeouts", Declared{WithinTimeout: 2000 * ms}, 0, []time.Duration{300 * ms, 1500 * ms}, 3500 * ms, 1500 * ms},
		{"a server timeout, no bound pinned", Declared{}, 0, []time.Duration{1000 * ms}, 1000*ms + HangGuard, 1000 * ms},
		{"a stall nothing ends", Declared{WithinTimeout: 2000 * ms}, 0, []time.Duration{Forever}, 0, 0},
		{"the caller's limit before the server's timeout", Declared{}, 10 * time.Second, []time.Duration{300 * ms}, 10*time.Second + HangGuard, 300 * ms},
	}
	for _, c := range cases {
		bound, floor := c.d.Bound(c.limit, c.stalls)
		if bound != c.bound || floor != c.floor {
			t.Errorf("%s: bound %s floor %s, want %s and %s", c.name, bound, floor, c.bound, c.floor)
		}
	}
}

func TestCutOnlyShortensLimitsOverTheQuickLimit(t *testing.T) {
	for in, want := range map[int]int{1500: 150, 151: 150, 150: 150, 100: 100, 0: 0} {
		got, cut := Cut(in)
		if got != want || cut != (in > 150) {
			t.Errorf("Cut(%d) = %d, %v", in, got, cut)
		}
	}
}

func TestCheckQuickWantsOneActionAfterSetUp(t *testing.T) {
	if err := CheckQuick([]StepKind{Context, Context, Action, Outcome, Outcome}); err != nil {
		t.Errorf("set-up, action, outcomes: %v", err)
	}
	for _, c := range []struct {
		kinds []StepKind
		want  string
	}{
		{[]StepKind{Context, Action, Action, Outcome}, "second"},
		{[]StepKind{Context, Action, Outcome, Action}, "second"},
		{[]StepKind{Outcome, Action}, "only Given"},
		{[]StepKind{Context, Context}, "needs a When"},
	} {
		if err := CheckQuick(c.kinds); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.kinds, err, c.want)
		}
	}
}

func TestLimitsNote(t *testing.T) {
	if LimitsNote(false, "") != "" {
		t.Error("as written: no note")
	}
	if n := LimitsNote(true, ""); !strings.Contains(n, "quick first attempt") || !strings.Contains(n, "150ms") {
		t.Errorf("quick: %q", n)
	}
	if n := LimitsNote(false, "proved nothing"); n != "(proved nothing)" {
		t.Errorf("retried: %q", n)
	}
}
