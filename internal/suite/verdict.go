package suite

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"

	"toolnexus-conformance/steps"
)

// Cell verdicts, per catalogue ID and port.
const (
	Pass           = "pass"
	Fail           = "fail"
	Unsupported    = "unsupported"
	NotPresent     = "not present"
	KnownFailure   = "known failure"
	UnexpectedPass = "unexpected pass"
)

// PortResult is everything one port's run produced.
type PortResult struct {
	Port       string            `json:"port"`
	Present    bool              `json:"present"`
	Reason     string            `json:"reason,omitempty"`
	Identity   map[string]any    `json:"identity,omitempty"`
	Scenarios  []steps.Outcome   `json:"scenarios"`
	Cells      map[string]string `json:"cells"`
	HarnessErr string            `json:"harnessError,omitempty"`
	Expected   map[string]string `json:"expectedFailures,omitempty"`
	Timing     Timing            `json:"-"` // where the wall time went (bench; timing.go)
}

// Expected reads runners/<port>/expected-failures.txt: "<ID> <reason>" per line, # comments.
func Expected(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason; every expected failure needs one", path, n, id)
		}
		out[id] = strings.TrimSpace(reason)
	}
	return out, sc.Err()
}

// Judge folds scenario outcomes into one verdict per catalogue ID.
func (r *PortResult) Judge(ids []string) {
	r.Cells = map[string]string{}
	if !r.Present {
		for _, id := range ids {
			r.Cells[id] = NotPresent
		}
		return
	}
	for _, id := range ids {
		seen, fail, unsup := false, false, false
		for _, o := range r.Scenarios {
			if !hasTag(o.Tags, id) {
				continue
			}
			seen = true
			switch o.Status {
			case "fail":
				fail = true
			case "unsupported":
				unsup = true
			}
		}
		_, listed := r.Expected[id]
		switch {
		case !seen:
			continue // not selected by this run's tags
		case fail && listed:
			r.Cells[id] = KnownFailure
		case fail:
			r.Cells[id] = Fail
		case unsup:
			r.Cells[id] = Unsupported
		case listed:
			r.Cells[id] = UnexpectedPass
		default:
			r.Cells[id] = Pass
		}
	}
}

// Unexpected counts the verdicts that make a run fail.
func (r *PortResult) Unexpected() int {
	n := 0
	for _, v := range r.Cells {
		if v == Fail || v == UnexpectedPass {
			n++
		}
	}
	if r.HarnessErr != "" {
		n++
	}
	return n
}

// Summary is the port's one-line tally.
func (r *PortResult) Summary() string {
	if !r.Present {
		return fmt.Sprintf("%-7s not present: %s", r.Port, r.Reason)
	}
	count := map[string]int{}
	for _, v := range r.Cells {
		count[v]++
	}
	var parts []string
	for _, k := range []string{Pass, Fail, KnownFailure, UnexpectedPass, Unsupported} {
		if count[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[k], k))
		}
	}
	sc := map[string]int{}
	for _, o := range r.Scenarios {
		sc[o.Status]++
	}
	line := fmt.Sprintf("%-7s %s (IDs); scenarios: %d passed, %d failed, %d unsupported", r.Port,
		strings.Join(parts, ", "), sc["pass"], sc["fail"], sc["unsupported"])
	if r.HarnessErr != "" {
		line += "; harness error: " + r.HarnessErr
	}
	return line
}

func hasTag(tags []string, id string) bool {
	for _, t := range tags {
		if t == id {
			return true
		}
	}
	return false
}

// SortedIDs orders catalogue IDs as the catalogue does (G1 … A8, X last).
func SortedIDs(ids []string) []string {
	out := append([]string(nil), ids...)
	sort.SliceStable(out, func(i, j int) bool { return idKey(out[i]) < idKey(out[j]) })
	return out
}

func idKey(id string) string {
	prefix, num, _ := strings.Cut(id, ".")
	order := map[string]string{"G1": "01", "A4": "02", "G2": "03", "A5": "04", "G3": "05", "A1": "06",
		"G7": "07", "G5": "08", "G6": "09", "G4": "10", "A8": "11", "X": "99"}
	o, ok := order[prefix]
	if !ok {
		o = "50" + prefix
	}
	return fmt.Sprintf("%s-%04s", o, num)
}
