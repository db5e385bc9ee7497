package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
	"github.com/muthuishere/toolnexus-conformance/steps"
)

// cmdMutants proves the suite can fail: the clean reference must pass every scenario and
// every mutant of it must be caught by at least one.
func cmdMutants(args []string) int {
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	var c common
	c.register(fs)
	only := fs.String("only", "", "comma-separated mutant names to run (default: all)")
	tags := fs.String("tags", "", "godog tag expression limiting the scenarios (default: all; a quick iteration aid)")
	callTimeout := fs.Duration("call-timeout", 8*time.Second, "deadline for one adapter call (a mutant that hangs is caught by it)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	c.portList = ports.Reference
	if *callTimeout <= 0 {
		return usageErr(fmt.Errorf("--call-timeout %s: must be positive", *callTimeout))
	}
	if _, _, err := c.resolve(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	ms, err := mutant.Load(filepath.Join(c.root, "mutants"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if *only != "" {
		keep, err := pickMutants(ms, *only)
		if err != nil {
			return usageErr(err)
		}
		ms = keep
	}
	base, err := c.options([]string{ports.Reference}, *tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	base.CallTimeout = *callTimeout
	if base.Jobs <= 0 {
		// A mutant runs a claim's few scenarios: the suite's default pool, not the reference's
		// 24 (port.json jobs), whose processes would be started for every mutant.
		base.Jobs = suite.DefaultJobs()
	}
	run := mutantRunner(base)

	known, err := knownTags(c.root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	start := time.Now()
	clean, err := run(nil, false, "")
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance: the clean reference did not run: %v\n", err)
		return 2
	}
	if !clean.Present {
		fmt.Fprintf(os.Stderr, "conformance: the clean reference did not run: %s\n", clean.Summary())
		return 1
	}
	cleanFails := failed(clean)
	fmt.Printf("clean reference: %d scenarios, %d failed\n", len(clean.Scenarios), len(cleanFails))
	for _, u := range unsupportedOf(clean) {
		fmt.Printf("  unsupported by the Go API (not judged here): %s\n", u)
	}
	for _, f := range cleanFails {
		fmt.Printf("  FAILS CLEAN: %s\n", f)
	}

	survivors, broken, falseRed := 0, 0, 0
	var mislabelled []string    // killed only outside their own claims: reported, not a failure
	caught := map[string]bool{} // scenario names some mutant made fail
	fmt.Printf("\n%-36s %-4s %-8s %s\n", "mutant", "gap", "verdict", "caught by: catalogue IDs (failing scenarios)")
	// Mutants are judged side by side, one per core: a mutant's build is CPU while another's
	// scenarios mostly wait on the fakes' clocks. Lines are printed in the mutants' order.
	verdicts := make([]mutantVerdict, len(ms))
	ready := make([]bool, len(ms))
	var mu sync.Mutex
	printed := 0
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v := judgeMutant(m, c.cache, c.root, run, *tags, known)
			mu.Lock()
			defer mu.Unlock()
			verdicts[i], ready[i] = v, true
			for printed < len(ms) && ready[printed] {
				fmt.Print(verdicts[printed].line)
				printed++
			}
		}()
	}
	wg.Wait()
	for i, v := range verdicts {
		survivors += v.survived
		broken += v.broken
		falseRed += v.falseRed
		if v.outside {
			mislabelled = append(mislabelled, ms[i].Name)
		}
		for _, sc := range v.failed {
			caught[sc] = true
		}
	}
	kills := 0 // the mutants proper: benign variants are not there to be caught
	for _, m := range ms {
		if !m.Benign {
			kills++
		}
	}
	var never []string
	for _, o := range clean.Scenarios {
		// An unsupported scenario (listed above) runs nothing of the reference: no mutant can fail it.
		if !caught[o.Scenario] && o.Status != result.StatusUnsupported {
			never = append(never, o.Scenario)
		}
	}
	judged := len(clean.Scenarios) - len(unsupportedOf(clean))
	fmt.Printf("\n%d of %d scenarios the reference can express were seen failing on at least one mutant\n", judged-len(never), judged)
	for _, n := range never {
		fmt.Printf("  never failed: %s\n", n)
	}
	if len(mislabelled) > 0 {
		fmt.Printf("%d mutants were killed only outside the claims they name (their breaks: line is wrong): %s\n", len(mislabelled), strings.Join(mislabelled, ", "))
	}
	fmt.Printf("mutation run took %s\n", time.Since(start).Round(time.Second))
	// The red mutants again, last, where a CI log's tail shows them: each with its folder.
	for _, v := range verdicts {
		if v.kept != "" {
			fmt.Printf("%s%-36s (source and adapter kept in %s)\n", v.line, "", v.kept)
		}
	}
	if len(cleanFails) > 0 || survivors > 0 || broken > 0 || falseRed > 0 {
		fmt.Printf("FAILED: %d of %d mutants survived, %d broken, %d correct variants failed, clean reference failed %d scenarios\n",
			survivors, kills, broken, falseRed, len(cleanFails))
		return 1
	}
	fmt.Printf("all %d mutants killed, %d correct variants pass; the clean reference passes all %d scenarios it can express (%d unsupported)\n",
		kills, len(ms)-kills, len(clean.Scenarios)-len(unsupportedOf(clean)), len(unsupportedOf(clean)))
	return 0
}

// mutantRun runs the suite on the reference built from env's TOOLNEXUS_GO: once (no retries)
// when once is set, on the scenarios tags selects ("": the --tags given, or all), without X.3.
type mutantRun func(env []string, once bool, tags string) (*result.PortResult, error)

// mutantRunner is the mutantRun of a mutant run's options. A mutant that breaks the ADR needs
// one failing scenario to be caught, so its own claims' scenarios run once; the clean
// reference, the correct variants (keeps:) and a mutant's whole-suite fallback get the retries
// a real port gets, so a loaded machine cannot turn them red, nor a flake kill a survivor.
func mutantRunner(base suite.Options) mutantRun {
	return func(env []string, once bool, tags string) (*result.PortResult, error) {
		opts := base
		opts.AdapterEnv = env
		opts.NoRetry = once
		if tags != "" {
			opts.Tags = withoutX3(tags) // X.3 needs a baseline, which a mutant run never has
		}
		rs, err := suite.Run(context.Background(), opts)
		if err != nil {
			return nil, err
		}
		return rs[0], nil
	}
}

// failed lists the scenarios that did not pass. Unsupported is not among them: the reference
// speaks the Go port's API, and where that API cannot express a case (C7.5: a native function
// returning an object) the catalogue itself allows "unsupported"; unsupportedOf lists those.
func failed(r *result.PortResult) []string {
	var out []string
	for _, o := range r.Scenarios {
		if o.Status != result.StatusPass && o.Status != result.StatusUnsupported {
			out = append(out, fmt.Sprintf("%s [%s] %s", o.Scenario, strings.Join(o.Tags, " "), o.Status))
		}
	}
	return out
}

// caughtBy returns the catalogue IDs with a failing scenario and the number of such scenarios.
func caughtBy(r *result.PortResult) ([]string, int) {
	set := map[string]bool{}
	n := 0
	for _, o := range r.Scenarios {
		if o.Status == result.StatusFail {
			n++
			for _, t := range catalogueTags(o.Tags) {
				set[t] = true
			}
		}
	}
	var ids []string
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return result.SortedIDs(ids), n
}

// pickMutants keeps the mutants --only names; a name that is no mutant is an error naming it.
func pickMutants(ms []mutant.Mutant, only string) ([]mutant.Mutant, error) {
	byName := map[string]mutant.Mutant{}
	var names []string
	for _, m := range ms {
		byName[m.Name] = m
		names = append(names, m.Name)
	}
	var keep []mutant.Mutant
	var unknown []string
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSpace(n)
		m, ok := byName[n]
		if !ok {
			unknown = append(unknown, strconv.Quote(n))
			continue
		}
		keep = append(keep, m)
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("--only: no mutant named %s (known: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	return keep, nil
}

// retried counts the scenarios judged as written after a void quick attempt (steps/quick.go).
func retried(r *result.PortResult) int {
	n := 0
	for _, o := range r.Scenarios {
		if o.Retried != "" {
			n++
		}
	}
	return n
}

// claimRe finds catalogue IDs (C9.11, G1.4, A4.2, X.2) in a mutant's breaks: line.
var claimRe = regexp.MustCompile(`\b(?:[A-Z]\d+|X)\.\d+\b`)

// mutantTags narrows a mutant's first run to the claims it says it breaks: the scenarios tagged
// with the catalogue IDs of its breaks: line that some scenario carries, so a well-labelled
// mutant costs what its own claims' scenarios cost; judgeMutant runs the rest (restTags) only
// when it survives them. A mutant that names no known ID, and every correct variant (keeps:,
// which must pass everything of its contract), falls back to the contract: @contract for gaps
// C1 ... C15, the other features for ADR 0001's gaps. The clean reference still runs
// everything, and --tags still wins ("": the mutant runs what --tags selects, and only that).
func mutantTags(m mutant.Mutant, given string, known map[string]bool) string {
	if given != "" {
		return ""
	}
	if !m.Benign {
		var ids []string
		seen := map[string]bool{}
		for _, id := range claimRe.FindAllString(m.Breaks, -1) {
			if known[id] && !seen[id] {
				seen[id] = true
				ids = append(ids, "@"+id)
			}
		}
		if len(ids) > 0 {
			return strings.Join(ids, ",")
		}
	}
	if strings.HasPrefix(m.Gap, "C") {
		return "@contract"
	}
	return "~@contract"
}

// knownTags are the tags the features carry (without "@"), for mutantTags.
func knownTags(root string) (map[string]bool, error) {
	f, err := suite.LoadFeatures(root, steps.Library().Names()...)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, s := range f.Scenarios {
		for _, t := range s.Tags {
			out[t] = true
		}
	}
	return out, nil
}

func unsupportedOf(r *result.PortResult) []string {
	var out []string
	for _, o := range r.Scenarios {
		if o.Status == result.StatusUnsupported {
			out = append(out, o.Scenario)
		}
	}
	return out
}

// mutantVerdict is one mutant's line and what it adds to the tallies.
type mutantVerdict struct {
	line                       string
	survived, broken, falseRed int
	failed                     []string // scenarios it made fail
	// outside: its own claims' scenarios all passed and the whole-suite fallback caught it,
	// so its breaks: line names the wrong claims (or, naming none, the wrong gap).
	outside bool
	kept    string // a red mutant's folder (its source and adapter), left to be read
}

// judgeMutant builds one mutant of the reference and judges it. A correct variant runs its
// contract's scenarios (mutantTags) and must pass them. A mutant runs its own claims'
// scenarios first; only if it survives them does it run the rest of the suite (restTags), and
// it survives only when nothing failed there either: a bug is not told which claim it breaks,
// so a mislabelled mutant is killed, and its line says it was killed outside its claims.
func judgeMutant(m mutant.Mutant, cache, root string, run mutantRun, tags string, known map[string]bool) mutantVerdict {
	head := fmt.Sprintf("%-36s %-4s ", m.Name, m.Gap)
	// The mutant's source and the adapter built from it live in a folder of its own, which
	// its prepare takes as its cache: about 14 MB a mutant, so left behind the whole set would
	// fill 10 GB of disk (a CI machine ran out of it: 99 mutants broke). It is removed once the
	// mutant is judged green (killed, or a correct variant held); a red one keeps it to be read.
	folder := filepath.Join(cache, "mutants", m.Name)
	v := judgeBuilt(m, folder, root, run, tags, known)
	v.line = head + v.line
	if v.survived+v.broken+v.falseRed == 0 {
		if err := os.RemoveAll(folder); err != nil {
			v.line += fmt.Sprintf("%s(its folder %s was not removed: %v)\n", strings.Repeat(" ", len(head)), folder, err)
		}
	} else {
		v.kept = folder
	}
	return v
}

// judgeBuilt is judgeMutant's work on the mutant's own folder; its line has no name column.
func judgeBuilt(m mutant.Mutant, folder, root string, run mutantRun, tags string, known map[string]bool) mutantVerdict {
	dir := filepath.Join(folder, "golang")
	if err := m.Apply(filepath.Join(root, "reference"), dir); err != nil {
		return mutantVerdict{line: fmt.Sprintf("%-8s %v\n", "BROKEN", err), broken: 1}
	}
	env := []string{"TOOLNEXUS_GO=" + dir, "CONFORMANCE_CACHE=" + folder}
	own := mutantTags(m, tags, known)
	r, err := run(env, !m.Benign, own)
	switch {
	case err != nil:
		return mutantVerdict{line: fmt.Sprintf("%-8s %v\n", "BROKEN", err), broken: 1}
	case !r.Present:
		return mutantVerdict{line: fmt.Sprintf("%-8s does not build: %s%s\n", "BROKEN", r.Reason, logEnd(r.LogTail)), broken: 1}
	case m.Benign:
		// A correct variant: any failure is the suite's false red, not a catch.
		if fails := failed(r); len(fails) > 0 || r.Red() {
			return mutantVerdict{line: fmt.Sprintf("%-8s %d scenarios failed a correct variant (%s): %s [%s]\n", "FALSE RED", len(fails), m.Breaks, strings.Join(append(fails, unsupportedOf(r)...), "; "), r.Summary()), falseRed: 1}
		}
		return mutantVerdict{line: fmt.Sprintf("%-8s every scenario passes (%d judged as written after a void quick attempt)\n", "held", retried(r))}
	}
	v := mutantVerdict{}
	if _, n := caughtBy(r); n == 0 && own != "" {
		// Its own claims missed it: the rest of the suite, with retries (a kill here says the
		// label is wrong, so it must not be a flake's).
		rest, err := run(env, false, restTags(own))
		switch {
		case err != nil:
			return mutantVerdict{line: fmt.Sprintf("%-8s the rest of the suite did not run: %v\n", "BROKEN", err), broken: 1}
		case !rest.Present:
			return mutantVerdict{line: fmt.Sprintf("%-8s the rest of the suite did not run: %s%s\n", "BROKEN", rest.Reason, logEnd(rest.LogTail)), broken: 1}
		}
		r, v.outside = rest, true
	}
	for _, o := range r.Scenarios {
		if o.Status == result.StatusFail {
			v.failed = append(v.failed, o.Scenario)
		}
	}
	ids, n := caughtBy(r)
	if n == 0 {
		where := "in the whole suite"
		if own == "" {
			where = "under --tags"
		}
		v.line, v.survived = fmt.Sprintf("%-8s nothing failed %s: %s\n", "SURVIVED", where, m.Breaks), 1
		v.outside = false
		return v
	}
	line := fmt.Sprintf("%-8s %s (%s)", "killed", strings.Join(ids, " "), scenarioList(v.failed))
	if v.outside {
		line += "; " + outsideNote(own)
	}
	v.line = line + "\n"
	return v
}

// logEnd is the last lines of a failed build's log, escaped, for a BROKEN line: the compiler's
// complaint, or the disk's ("no space left on device").
func logEnd(tail string) string {
	lines := strings.Split(strings.TrimSpace(tail), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range lines[max(0, len(lines)-3):] {
		b.WriteString("\n      | " + safetext.Short(l, 300))
	}
	return b.String()
}

// restTags selects the scenarios mutantTags' expression leaves out: each of its or-ed terms
// negated and and-ed ("@C9.11,@C9.3" gives "~@C9.11 && ~@C9.3"; "@contract" "~@contract").
func restTags(own string) string {
	var out []string
	for _, t := range strings.Split(own, ",") {
		t = strings.TrimSpace(t)
		if neg, ok := strings.CutPrefix(t, "~"); ok {
			out = append(out, neg)
		} else {
			out = append(out, "~"+t)
		}
	}
	return strings.Join(out, " && ")
}

// outsideNote says where a mutant killed only by the rest of the suite was not caught.
func outsideNote(own string) string {
	switch own {
	case "@contract", "~@contract":
		return fmt.Sprintf("killed OUTSIDE its gap's features (%s passed; it names no claim a scenario carries): mislabelled", own)
	}
	return fmt.Sprintf("killed OUTSIDE its breaks: claims (%s passed): mislabelled", strings.ReplaceAll(strings.ReplaceAll(own, "@", ""), ",", " "))
}

// scenarioList names the failing scenarios, the first few of them.
func scenarioList(names []string) string {
	const shown = 3
	noun := "scenarios"
	if len(names) == 1 {
		noun = "scenario"
	}
	s := fmt.Sprintf("%d %s: %s", len(names), noun, strings.Join(names[:min(shown, len(names))], "; "))
	if len(names) > shown {
		s += fmt.Sprintf("; and %d more", len(names)-shown)
	}
	return s
}
