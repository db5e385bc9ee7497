package suite

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// LoadExpectations reads and checks one file against the declared scenarios: every entry must
// name a scenario that exists, once, with a status, a fingerprint and a reason. Every problem
// is reported as file:line. A missing file is an empty set.
func LoadExpectations(path string, features *Features) (*result.Expectations, error) {
	ex := &result.Expectations{Path: path}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return ex, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var errs []string
	bad := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d: %s", path, line, fmt.Sprintf(format, args...)))
	}
	var cur *result.Entry
	seen := map[string]int{}
	finish := func() {
		if cur == nil {
			return
		}
		if features != nil {
			if s, ok := features.ByKey(cur.Key); ok {
				cur.Key = s.Key // today's title, for people
			} else {
				bad(cur.Line, "%s matches no scenario in features/ (%s)", cur.Key.Stable(), nearest(features, cur.Key))
			}
		}
		switch {
		case cur.Status == "":
			bad(cur.Line, "%s has no status: (fail or unsupported)", cur.Key)
		case cur.Fingerprint == "":
			bad(cur.Line, "%s has no fingerprint: (run with --update-expected to record it)", cur.Key)
		case cur.Reason == "":
			bad(cur.Line, "%s has no reason: every expectation needs one", cur.Key)
		}
		if first, dup := seen[cur.Key.Stable()]; dup {
			bad(cur.Line, "%s is listed twice (first at line %d)", cur.Key.Stable(), first)
		}
		seen[cur.Key.Stable()] = cur.Line
		ex.Entries = append(ex.Entries, cur)
		cur = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		if !ok {
			bad(n, "%q is not \"<field>: <value>\"", line)
			continue
		}
		switch k {
		case "version":
			if ex.Version != "" || len(ex.Entries) > 0 || cur != nil {
				bad(n, "version: must be given once, before the entries")
			}
			ex.Version = v
		case "id":
			finish()
			if !stableID.MatchString(v) {
				bad(n, "id: must be a scenario's @id: tag, got %q", v)
			}
			cur = &result.Entry{Key: result.Key{ID: v}, Line: n, File: shortPath(path)}
		case "scenario", "row", "status", "fingerprint", "evidence", "reason", "flaky":
			if cur == nil {
				bad(n, "%s: before any id:", k)
				continue
			}
			switch k {
			case "scenario":
				cur.Key.Feature, cur.Key.Name, _ = strings.Cut(v, ": ")
			case "row":
				cur.Key.Row = v
			case "status":
				switch result.Status(v) {
				case result.StatusFail, result.StatusUnsupported:
					cur.Status = result.Status(v)
				default:
					bad(n, "status %q: must be fail or unsupported", v)
				}
			case "fingerprint":
				cur.Fingerprint = v
			case "evidence":
				cur.Evidence = v
			case "reason":
				cur.Reason = v
			case "flaky":
				cur.Flaky = v
			}
		default:
			bad(n, "unknown field %q (fields: version, id, scenario, row, status, fingerprint, evidence, reason, flaky)", k)
		}
	}
	finish()
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: a line longer than 1 MiB (an expectations line is one field)", path, n+1)
		}
		return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return ex, nil
}

// nearest helps a reader fix an entry that names no scenario.
func nearest(f *Features, k result.Key) string {
	var rows []string
	for _, s := range f.Scenarios {
		if s.Key.ID == k.ID {
			rows = append(rows, "["+s.Key.Row+"]")
		}
	}
	if len(rows) > 0 {
		return "that scenario's rows: " + strings.Join(rows, ", ")
	}
	return "no scenario has @id:" + k.ID
}

// UpdateExpectations rewrites e's file from the run r: scenarios the run selected get an entry when they
// did not pass (new or changed evidence is marked UNVERIFIED for a person to check and reword)
// and lose it when they passed; entries for scenarios the run did not select are kept as they
// are. It returns the keys added, changed and dropped.
func UpdateExpectations(e *result.Expectations, r *result.PortResult) (added, changed, dropped []string, err error) {
	if !r.Present {
		return nil, nil, nil, fmt.Errorf("%s did not run; nothing to record", r.Port)
	}
	ran := map[string]*result.Judged{}
	for i := range r.Judged {
		ran[r.Judged[i].Key.Stable()] = &r.Judged[i]
	}
	var out []*result.Entry
	for _, x := range e.Entries {
		j, selected := ran[x.Key.Stable()]
		// A flaky or inconclusive verdict says nothing settled about the entry: keep it.
		if !selected || j.Status == result.StatusInterrupted || j.Status == result.StatusUnresponsive ||
			j.Verdict == result.Flaky || j.Verdict == result.Inconclusive {
			out = append(out, x)
			continue
		}
		if j.Status == result.StatusPass && x.Flaky == "" {
			dropped = append(dropped, x.Key.String())
			continue
		}
		if j.Status != result.StatusPass && (!x.Matches(j.Fingerprint) || x.Status != j.Status) {
			y := *x
			y.Status, y.Fingerprint, y.Evidence = j.Status, j.Fingerprint, j.Evidence
			if !strings.HasPrefix(y.Reason, "UNVERIFIED") {
				y.Reason = "UNVERIFIED (evidence changed; was: " + x.Evidence + "): " + x.Reason
			}
			out = append(out, &y)
			changed = append(changed, x.Key.String())
			continue
		}
		out = append(out, x)
	}
	for _, j := range r.Judged {
		if j.Status != result.StatusFail && j.Status != result.StatusUnsupported || e.Find(j.Key) != nil ||
			j.Verdict == result.Flaky || j.Verdict == result.Inconclusive {
			continue
		}
		out = append(out, &result.Entry{Key: j.Key, Status: j.Status, Fingerprint: j.Fingerprint,
			Evidence: j.Evidence, Reason: "UNVERIFIED: read the wire bodies and say why"})
		added = append(added, j.Key.String())
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Key.Stable() < out[b].Key.Stable() })
	if len(out) == 0 && len(e.Entries) == 0 {
		if _, err := os.Stat(e.Path); errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil, nil // nothing to expect, no file to write
		}
	}
	e.Entries = out
	if v := r.Version(); v != "" {
		e.Version = v
	}
	return added, changed, dropped, WriteExpectations(e, r.Port)
}

// WriteExpectations saves e to its file, in the format result.Expectations describes.
func WriteExpectations(e *result.Expectations, implementation string) error {
	var b strings.Builder
	of := implementation
	if file := strings.TrimSuffix(filepath.Base(e.Path), ".txt"); file != implementation {
		of += " (" + file + ": the column's library reports that release)"
	}
	fmt.Fprintf(&b, "# Expectations for %s: scenarios it is known not to pass, with the\n", of)
	b.WriteString("# evidence the run saw (format: SPEC.md §2). `conformance run --ports " + implementation + " --update-expected`\n")
	b.WriteString("# rewrites the entries of the scenarios it ran; UNVERIFIED reasons must be checked and reworded.\n")
	fmt.Fprintf(&b, "version: %s\n", e.Version)
	for _, x := range e.Entries {
		fmt.Fprintf(&b, "\nid: %s\nscenario: %s: %s\n", x.Key.ID, x.Key.Feature, x.Key.Name)
		if x.Key.Row != "" {
			fmt.Fprintf(&b, "row: %s\n", x.Key.Row)
		}
		fmt.Fprintf(&b, "status: %s\nfingerprint: %s\nevidence: %s\nreason: %s\n", x.Status, x.Fingerprint,
			oneLineText(x.Evidence), oneLineText(x.Reason))
		if x.Flaky != "" {
			fmt.Fprintf(&b, "flaky: %s\n", oneLineText(x.Flaky))
		}
	}
	if err := os.MkdirAll(filepath.Dir(e.Path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteBytes(e.Path, []byte(b.String()))
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// shortPath is "expectations/<file>" for messages.
func shortPath(path string) string {
	return filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
}
