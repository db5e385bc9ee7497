package suite

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// scriptedRoot is a harness root whose "python" implementation is testdata/scripted-adapter:
// the real features and fixtures, a scripted prepare, and the expectations given.
func scriptedRoot(t *testing.T, expectations string) string {
	t.Helper()
	real, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, dir := range []string{"features", "fixtures"} {
		if out, err := exec.Command("cp", "-r", filepath.Join(real, dir), filepath.Join(root, dir)).CombinedOutput(); err != nil {
			t.Fatalf("copy %s: %v %s", dir, err, out)
		}
	}
	runner := filepath.Join(root, "runners", "python")
	if err := os.MkdirAll(runner, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "testdata/scripted-prepare", filepath.Join(runner, "prepare"))
	copyFile(t, "testdata/scripted-adapter", filepath.Join(runner, "adapter"))
	copyFile(t, filepath.Join(real, "runners", "python", ports.ManifestName), filepath.Join(runner, ports.ManifestName))
	if expectations != "" {
		writeFile(t, filepath.Join(root, "expectations", "python.txt"), expectations)
	}
	return root
}

func realRoot(t *testing.T) string {
	t.Helper()
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runScripted runs the scripted "python" implementation with FAKE_* settings.
func runScripted(t *testing.T, ctx context.Context, root, tags string, callTimeout time.Duration, env ...string) *result.PortResult {
	t.Helper()
	exe, _ := os.Executable()
	rs, err := Run(ctx, Options{Library: steps.Library(), Returned: steps.Returned, Root: root, Cache: t.TempDir(), Ports: []string{"python"}, Tags: tags,
		CallTimeout: callTimeout, ScenarioTimeout: time.Minute, PrepareTimeout: time.Minute,
		StdioArgv: []string{exe, "fake-mcp-stdio"}, AdapterEnv: env,
		Jobs: BreakerThreshold}) // the breaker tests count failures of one wave
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

func TestBrokenPrepareIsRed(t *testing.T) {
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@G1.4", 5*time.Second, "FAKE_PREPARE=broken")
	if !r.Broken || r.Present || !r.Red() {
		t.Fatalf("a prepare that exits 1 must be broken and red: %+v", r)
	}
	if !strings.Contains(r.Reason, "exit 1") || !strings.Contains(r.LogTail, "undefined: toolnexus.Nope") {
		t.Errorf("reason %q, log tail %q: want the exit and the compiler's words", r.Reason, r.LogTail)
	}
	if r.Cells["G1.4"] != result.Broken {
		t.Errorf("G1.4 = %q, want broken", r.Cells["G1.4"])
	}
}

func TestAbsentIsNotRedUnlessRequired(t *testing.T) {
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@G1.4", 5*time.Second, "FAKE_PREPARE=absent")
	if r.Broken || r.Present || r.Red() || r.Reason != "scripted absence" {
		t.Fatalf("exit 3 is not present, with its reason, and not red: %+v", r)
	}
	r.Required = true
	if !r.Red() {
		t.Error("a required implementation that is not present must be red")
	}
	ref := &result.PortResult{Port: ports.Reference, Reason: "no go"}
	ref.Judge([]string{"G1.4"})
	if !ref.Red() {
		t.Error("an absent reference must be red")
	}
}

func TestAdapterFailingHelloIsBroken(t *testing.T) {
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@G1.4", 5*time.Second, "FAKE_MODE=nohello")
	if !r.Broken || !r.Red() || !strings.Contains(r.Reason, "hello") {
		t.Fatalf("an adapter that dies before hello must be broken and red: %+v", r)
	}
	if !strings.Contains(r.LogTail, "cannot start (scripted)") {
		t.Errorf("log tail %q lacks the adapter's stderr", r.LogTail)
	}
}

func TestUnsupportedEverythingIsRed(t *testing.T) {
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@id:g1-pre-change-keys", 5*time.Second, "FAKE_MODE=unsupported")
	if len(r.Scenarios) != 4 {
		t.Fatalf("%d scenarios, want 4", len(r.Scenarios))
	}
	for _, j := range r.Judged {
		if j.Verdict != result.Unsupported {
			t.Errorf("%s: %s, want unsupported", j.Key, j.Verdict)
		}
	}
	if r.Cells["G1.4"] != result.Unsupported || !r.Red() {
		t.Errorf("an adapter answering unsupported to everything must be red: cell %q", r.Cells["G1.4"])
	}
}

// Listing one unsupported scenario with its evidence makes only that one known; listing it
// with other evidence makes it "known, different evidence", which is red.
func TestListedUnsupportedIsKnown(t *testing.T) {
	entry := func(msg string) string {
		return "version: 1.0\n\n" +
			"id: g1-pre-change-keys\n" +
			"row: openai | run\n" +
			"status: unsupported\nfingerprint: " + result.Fingerprint(msg) + "\nevidence: " + msg + "\nreason: scripted\n"
	}
	count := func(r *result.PortResult, v result.Verdict) int {
		n := 0
		for _, j := range r.Judged {
			if j.Verdict == v {
				n++
			}
		}
		return n
	}
	same := "unsupported: toolkit.create: toolkit.create is not supported here"
	r := runScripted(t, context.Background(), scriptedRoot(t, entry(same)), "@G1.4", 5*time.Second, "FAKE_MODE=unsupported")
	if count(r, result.KnownFailure) != 1 || r.Cells["G1.4"] != result.Unsupported || !r.Red() {
		t.Errorf("%d known (want 1), cell %q (want unsupported: three rows are not listed)", count(r, result.KnownFailure), r.Cells["G1.4"])
	}
	other := "unsupported: client.run: streaming is not supported here"
	r = runScripted(t, context.Background(), scriptedRoot(t, entry(other)), "@G1.4", 5*time.Second, "FAKE_MODE=unsupported")
	if count(r, result.KnownDifferent) != 1 || r.Cells["G1.4"] != result.KnownDifferent || !r.Red() {
		t.Errorf("listed with other evidence: %d known-different (want 1), cell %q", count(r, result.KnownDifferent), r.Cells["G1.4"])
	}
	for _, j := range r.Judged {
		if j.Verdict == result.KnownDifferent && (!strings.Contains(j.Note, other) || !strings.Contains(j.Note, same)) {
			t.Errorf("the note must show both texts: %q", j.Note)
		}
	}
}

// An adapter that reports success for a nil library result (null where the op requires a
// value) fails the scenario: the protocol schema rejects the result and says which field.
func TestNilResultReportedAsSuccessIsRed(t *testing.T) {
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@G7.1", 5*time.Second, "FAKE_MODE=nil")
	if len(r.Scenarios) == 0 {
		t.Fatal("no scenario ran")
	}
	o := r.Scenarios[0]
	if o.Status != result.StatusFail || !r.Red() {
		t.Fatalf("ok:true with tools:null must fail: %s %q", o.Status, o.Message)
	}
	if !strings.Contains(o.Message, "toolkit.create") || !strings.Contains(o.Message, `"tools" is null`) {
		t.Errorf("the failure must name the op and the field: %q", o.Message)
	}
}

// A hung adapter trips the breaker after BreakerThreshold failures: the remaining scenarios
// are not run, the run is red, and the cost is about BreakerThreshold call deadlines.
func TestBreakerStopsAHungAdapter(t *testing.T) {
	const deadline = 300 * time.Millisecond
	start := time.Now()
	r := runScripted(t, context.Background(), scriptedRoot(t, ""), "@G1.1,@G1.3,@G1.4", deadline, "FAKE_MODE=hang")
	took := time.Since(start)
	t.Logf("hung adapter, %s call deadline: run took %s for %d scenarios", deadline, took.Round(time.Millisecond), len(r.Scenarios))
	if r.Unresponsive == "" || !r.Red() {
		t.Fatalf("breaker did not trip: %s", r.Summary())
	}
	notRun, failed := 0, 0
	for _, o := range r.Scenarios {
		switch o.Status {
		case result.StatusUnresponsive:
			notRun++
		case result.StatusFail:
			failed++
		}
	}
	if notRun == 0 || failed > BreakerThreshold {
		t.Errorf("%d failed, %d not run: want at most %d failures before the breaker", failed, notRun, BreakerThreshold)
	}
}

// Stopping the run (what SIGINT does) ends it promptly; the scenario in flight and the rest
// are "not run (interrupted)", with the cause, never "fail".
func TestInterruptEndsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stopAt := make(chan time.Time, 1)
	go func() {
		time.Sleep(1500 * time.Millisecond)
		stopAt <- time.Now()
		cancel(errors.New("interrupted by test"))
	}()
	r := runScripted(t, ctx, scriptedRoot(t, ""), "@id:g1-params-top-level,@id:g1-pre-change-keys", time.Minute, "FAKE_MODE=hang")
	ended := time.Since(<-stopAt)
	t.Logf("run ended %s after the stop", ended.Round(time.Millisecond))
	if ended > 20*time.Second {
		t.Fatalf("the run went on %s after the stop (it waited for the call deadline)", ended)
	}
	if r.Interrupted != "interrupted by test" || !r.Red() {
		t.Fatalf("interrupted = %q", r.Interrupted)
	}
	for _, o := range r.Scenarios {
		if o.Status != result.StatusInterrupted {
			t.Errorf("%s: %s, want not run (interrupted)", o.Scenario, o.Status)
		}
	}
	if len(r.Scenarios) != 8 {
		t.Errorf("%d scenarios reported, want all 8 selected", len(r.Scenarios))
	}
}

func TestReleaseOfIgnoresTheBuildFolder(t *testing.T) {
	if releaseOf("0.16.0 (/tmp/tn/js)") != releaseOf("0.16.0 (/home/me/toolnexus/js)") || releaseOf("0.16.0") == releaseOf("0.21.0 (/x)") {
		t.Error("releaseOf must compare releases, not build folders")
	}
}

func TestExpectationsVersionWarning(t *testing.T) {
	msg := "unsupported: toolkit.create: toolkit.create is not supported here"
	root := scriptedRoot(t, "version: 0.9\n\n"+
		"id: g1-pre-change-keys\n"+
		"row: openai | run\n"+
		"status: unsupported\nfingerprint: "+result.Fingerprint(msg)+"\nevidence: "+msg+"\nreason: scripted\n")
	r := runScripted(t, context.Background(), root, "@G1.4", 5*time.Second, "FAKE_MODE=unsupported")
	if !strings.Contains(r.VersionWarning, `"0.9"`) || !strings.Contains(r.VersionWarning, `"1.0"`) {
		t.Errorf("version warning %q", r.VersionWarning)
	}
}

// TestImplEnvReachesItsImplementationOnly: a checkout's or a release's environment
// (Options.ImplEnv) reaches that implementation's prepare and adapter and no other's, and it
// makes `go` present without TOOLNEXUS_GO (the checkout supplies the library).
func TestImplEnvReachesItsImplementationOnly(t *testing.T) {
	t.Setenv("TOOLNEXUS_GO", "")
	root := scriptedRoot(t, "")
	for _, port := range []string{"go", "js"} {
		dir := filepath.Join(root, "runners", port)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, "testdata/scripted-prepare", filepath.Join(dir, "prepare"))
		copyFile(t, "testdata/scripted-adapter", filepath.Join(dir, "adapter"))
		// The real manifest: `go` is not present without TOOLNEXUS_GO because runners/go says so.
		copyFile(t, filepath.Join(realRoot(t), "runners", port, ports.ManifestName), filepath.Join(dir, ports.ManifestName))
	}
	exe, _ := os.Executable()
	rs, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned, Root: root, Cache: t.TempDir(),
		Ports: []string{"python", "js", "python@2.5", "python@v2.5", "go"}, Tags: "@G1.4",
		CallTimeout: 5 * time.Second, ScenarioTimeout: time.Minute, PrepareTimeout: time.Minute,
		StdioArgv: []string{exe, "fake-mcp-stdio"},
		ImplEnv: map[string][]string{"js": {"FAKE_PREPARE=absent"}, "python@2.5": {"FAKE_VERSION=2.5"},
			"python@v2.5": {"FAKE_VERSION=2.5"}, "go": {"TOOLNEXUS_GO=/checkout/golang"}}})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*result.PortResult{}
	for _, r := range rs {
		byName[r.Port] = r
	}
	if r := byName["python"]; !r.Present || r.Version() != "1.0" {
		t.Errorf("python got another implementation's environment: present %v, version %q (%s)", r.Present, r.Version(), r.Reason)
	}
	if r := byName["js"]; r.Present || r.Reason != "scripted absence" {
		t.Errorf("js: ImplEnv did not reach its prepare: present %v, reason %q", r.Present, r.Reason)
	}
	for _, name := range []string{"python@2.5", "python@v2.5"} {
		if r := byName[name]; !r.Present || r.Broken || r.Version() != "2.5" {
			t.Errorf("%s: ImplEnv did not reach its adapter, or the release check refused it: present %v, version %q, %s",
				name, r.Present, r.Version(), r.Reason)
		}
	}
	if r := byName["go"]; !r.Present {
		t.Errorf("go with a checkout's TOOLNEXUS_GO in ImplEnv must run, not be absent: %s", r.Reason)
	}
}

// A scenario whose adapter hung is tried again, but its retry does not wait the whole call
// deadline for the same call again (kernel.HungRetryShare): the hang is still the port's
// failure, and the two hangs are consecutive adapter failures, so the breaker trips after that
// one scenario. Before, each of three attempts waited the whole deadline and none counted for
// the breaker until the last.
func TestAHungCallIsNotWaitedOnTwice(t *testing.T) {
	const deadline = 2 * time.Second
	exe, _ := os.Executable()
	rs, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned, Root: scriptedRoot(t, ""), Cache: t.TempDir(), Ports: []string{"python"},
		Tags: "@id:g1-params-top-level", CallTimeout: deadline, ScenarioTimeout: time.Minute, PrepareTimeout: time.Minute,
		StdioArgv: []string{exe, "fake-mcp-stdio"}, AdapterEnv: []string{"FAKE_MODE=hang"}, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	var hung []result.Outcome
	for _, o := range r.Scenarios {
		switch o.Status {
		case result.StatusFail:
			hung = append(hung, o)
		case result.StatusUnresponsive:
		default:
			t.Errorf("%s: %s %q", o.Scenario, o.Status, o.Message)
		}
	}
	if len(hung) != 1 || r.Unresponsive == "" || !r.Red() {
		t.Fatalf("%d scenarios failed, unresponsive %q: want one scenario's two hangs to trip the breaker", len(hung), r.Unresponsive)
	}
	o := hung[0]
	t.Logf("hung scenario: %s in %d attempts", o.Elapsed.Round(time.Millisecond), len(o.Attempts))
	if len(o.Attempts) != 2 || o.Attempts[1].Status != result.StatusFail ||
		!strings.Contains(o.Attempts[0].Message, "did not answer toolkit.create within 2s") ||
		!strings.Contains(o.Attempts[1].Message, "the same hang") {
		t.Fatalf("attempts %+v; want the full-deadline hang, then its retry judged as the same hang", o.Attempts)
	}
	if second := o.Attempts[1].Elapsed; second > deadline/2 {
		t.Errorf("the retry took %s: it waited on the hung call again", second)
	}
	if o.Elapsed > deadline+deadline/2+2*time.Second {
		t.Errorf("the hung scenario took %s; want about one deadline (%s) and a short retry", o.Elapsed, deadline)
	}
}

// With more jobs than the breaker's threshold, scenarios that started while the adapter was
// still on probation wait for a process; when the breaker trips they are "not run (adapter
// unresponsive)", never failed with the breaker's error. Only the first wave fails.
func TestBreakerWithMoreJobsThanItsThreshold(t *testing.T) {
	const deadline = 300 * time.Millisecond
	exe, _ := os.Executable()
	rs, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned, Root: scriptedRoot(t, ""), Cache: t.TempDir(), Ports: []string{"python"},
		Tags: "@G1.1,@G1.3,@G1.4", CallTimeout: deadline, ScenarioTimeout: time.Minute, PrepareTimeout: time.Minute,
		StdioArgv: []string{exe, "fake-mcp-stdio"}, AdapterEnv: []string{"FAKE_MODE=hang"}, Jobs: BreakerThreshold + 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	failed, notRun := 0, 0
	for _, o := range r.Scenarios {
		switch o.Status {
		case result.StatusFail:
			failed++
			if strings.Contains(o.Message, "unresponsive") {
				t.Errorf("%s failed with the breaker's error instead of not running: %q", o.Scenario, o.Message)
			}
		case result.StatusUnresponsive:
			notRun++
		default:
			t.Errorf("%s: %s %q", o.Scenario, o.Status, o.Message)
		}
	}
	if r.Unresponsive == "" || !r.Red() || failed > BreakerThreshold+1 || notRun == 0 {
		t.Errorf("%d failed, %d not run, unresponsive %q: want at most the first wave (%d) failed, the rest not run",
			failed, notRun, r.Unresponsive, BreakerThreshold+1)
	}
}

// A column is judged by the expectations written for the version its library reports
// (expectations/<name>@<version>.txt) when there is one, and the run says which file judged it.
func TestExpectationsFollowTheVersion(t *testing.T) {
	msg := "unsupported: toolkit.create: toolkit.create is not supported here"
	entry := "id: g1-pre-change-keys\nrow: openai | run\nstatus: unsupported\nfingerprint: " + result.Fingerprint(msg) +
		"\nevidence: " + msg + "\nreason: scripted\n"
	root := scriptedRoot(t, "version: 0.9\n\n"+entry)
	writeFile(t, filepath.Join(root, "expectations", "python@1.0.txt"), "version: 1.0\n\n"+entry)
	var progress lockedBuffer
	r := runScriptedProgress(t, root, "@id:g1-pre-change-keys", &progress, "FAKE_MODE=unsupported")
	if !strings.HasSuffix(r.Expectations.Path, "python@1.0.txt") || r.VersionWarning != "" {
		t.Errorf("judged by %q (warning %q); want python@1.0.txt, no warning", r.Expectations.Path, r.VersionWarning)
	}
	if !strings.Contains(string(progress.Bytes()), "judged against expectations/python@1.0.txt") {
		t.Errorf("the run does not say which file judged it:\n%s", string(progress.Bytes()))
	}
	writeFile(t, filepath.Join(root, "expectations", "python@1.1.txt"), "id: no-such-scenario\nstatus: fail\nfingerprint: x\nreason: r\n")
	if _, err := Validate(Options{Root: root, Ports: []string{"python"}, CallTimeout: 1, ScenarioTimeout: 1, PrepareTimeout: 1,
		Library: steps.Library()}); err == nil || !strings.Contains(err.Error(), "python@1.1.txt") {
		t.Errorf("a bad file for another version is not named before the run: %v", err)
	}
}

func runScriptedProgress(t *testing.T, root, tags string, progress io.Writer, env ...string) *result.PortResult {
	t.Helper()
	rs, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned, Root: root, Cache: t.TempDir(),
		Ports: []string{"python"}, Tags: tags, CallTimeout: 5 * time.Second, ScenarioTimeout: time.Minute,
		PrepareTimeout: time.Minute, AdapterEnv: env, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

// A slow step says it is still at it, and stops saying so when it is done.
func TestSlowStepsShowProgress(t *testing.T) {
	saved := progressEvery
	progressEvery = 20 * time.Millisecond
	defer func() { progressEvery = saved }()
	var out lockedBuffer
	stop := tick(Options{Progress: &out}, "python", "still preparing the adapter")
	time.Sleep(70 * time.Millisecond)
	stop()
	n := strings.Count(string(out.Bytes()), "python    still preparing the adapter (")
	time.Sleep(50 * time.Millisecond)
	if n == 0 || strings.Count(string(out.Bytes()), "still preparing") != n {
		t.Errorf("%d progress lines, then more after stop:\n%s", n, string(out.Bytes()))
	}
}
