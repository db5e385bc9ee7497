package builtins

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/endpoint"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/steps/common"
)

// Steps that run a built-in tool in the scenario's sandbox ({{tmp}} in a step's text is its
// absolute path; ⟨U+XXXX⟩ a code point, such as a newline) and judge what it returned and
// what it left on disk.
func registerRunSteps(sc *kernel.Steps) {
	sc.Step(`^the sandbox has the file "([^"]*)" holding "([^"]*)"$`, (*World).sandboxFile)
	sc.Step(`^the built-in tool "([^"]*)" is run with (\{.*\})$`, (*World).runBuiltin)
	sc.Step(`^the built-in tool's result is an error whose output contains (.+)$`, (*World).errorContains)
	sc.Step(`^the built-in tool's result is an error$`, (*World).isError)
	sc.Step(`^the built-in tool's result is not an error$`, (*World).notError)
	sc.Step(`^the built-in tool's output is exactly "([^"]*)"$`, (*World).outputExactly)
	sc.Step(`^the built-in tool's output, the sandbox path left out, has the number (\d+)$`, (*World).outputHasNumber)
	sc.Step(`^the built-in tool's output is "([^"]*)", give or take one trailing newline$`, (*World).outputLoosely)
	sc.Step(`^the built-in tool returned within (\d+) ms$`, (*World).returnedWithin)
	sc.Step(`^the built-in tool's output lines, the sandbox path and "\./" left out, are, in any order, (.+)$`, (*World).linesAnyOrder)
	sc.Step(`^the built-in tool's output lines, the sandbox path and "\./" left out, are, in this order, (.+)$`, (*World).linesInOrder)
	sc.Step(`^the built-in tool's output has no "<"$`, (*World).noTag)
	sc.Step(`^the endpoint answers "([^"]*)" with the HTML page "([^"]*)"$`, (*World).htmlPage)
	sc.Step(`^the sandbox file "([^"]*)" holds exactly "([^"]*)"$`, (*World).fileHolds)
	sc.Step(`^the sandbox file "([^"]*)" holds "([^"]*)", give or take one trailing newline$`, (*World).fileHoldsLoosely)
	sc.Step(`^the sandbox has no file "([^"]*)"$`, (*World).noFile)
	sc.Step(`^the process whose id the sandbox file "([^"]*)" holds is gone$`, (*World).processGone)
}

func (w *World) st() *State { return kernel.Get[State](w.A) }

// expand puts the sandbox path and code points into a step's text.
func (w *World) expand(text string, jsonText bool) (string, error) {
	dir, err := w.st().dir()
	if err != nil {
		return "", err
	}
	if jsonText {
		b, _ := json.Marshal(dir)
		dir = string(b[1 : len(b)-1])
	}
	return common.CodePoints(strings.ReplaceAll(text, "{{tmp}}", dir))
}

// inSandbox is a sandbox-relative path made absolute; a path that leaves it is a harness error.
func (w *World) inSandbox(rel string) (string, error) {
	dir, err := w.st().dir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
		return "", fmt.Errorf("harness: %q leaves the sandbox", rel)
	}
	return p, nil
}

func (w *World) sandboxFile(rel, content string) error {
	rel, err := common.CodePoints(rel) // a name may hold a character written ⟨U+XXXX⟩
	if err != nil {
		return err
	}
	p, err := w.inSandbox(rel)
	if err != nil {
		return err
	}
	text, err := common.CodePoints(content)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

func (w *World) runBuiltin(name, raw string) error {
	args, err := w.expand(raw, true)
	if err != nil {
		return err
	}
	if args, err = w.EndpointURL(args); err != nil {
		return err
	}
	if !json.Valid([]byte(args)) {
		return fmt.Errorf("harness: arguments %s are not JSON", args)
	}
	if w.TK().Current == "" {
		return fmt.Errorf("harness: the scenario built no toolkit")
	}
	start := time.Now()
	r, err := w.Must("tool.execute", map[string]any{"toolkit": w.TK().Current, "name": name, "args": json.RawMessage(args)})
	w.st().took, w.st().result = time.Since(start), r
	return err
}

func (w *World) res() (map[string]any, error) {
	if w.st().result == nil {
		return nil, fmt.Errorf("harness: no built-in tool was run")
	}
	return w.st().result, nil
}

func (w *World) isError() error {
	r, err := w.res()
	if err != nil {
		return err
	}
	if r["isError"] != true {
		return fmt.Errorf("the built-in tool's result is not an error: %s", common.ClipString(common.CompactJSON(r), 400))
	}
	return nil
}

func (w *World) notError() error {
	r, err := w.res()
	if err != nil {
		return err
	}
	if r["isError"] != false {
		return fmt.Errorf("the built-in tool's result is an error: %s", common.ClipString(common.CompactJSON(r), 400))
	}
	return nil
}

func (w *World) errorContains(list string) error {
	if err := w.isError(); err != nil {
		return err
	}
	out, _ := w.st().result["output"].(string)
	for _, want := range common.QuotedList(list) {
		if !strings.Contains(out, want) {
			return fmt.Errorf("the built-in tool's error output lacks %q: %q", want, common.ClipString(out, 400))
		}
	}
	return nil
}

func (w *World) outputExactly(want string) error {
	r, err := w.res()
	if err != nil {
		return err
	}
	if want, err = w.expand(want, false); err != nil {
		return err
	}
	if got, _ := r["output"].(string); got != want {
		return fmt.Errorf("the built-in tool's output is %q; want %q", common.ClipString(got, 400), want)
	}
	return nil
}

// outputHasNumber: the output names n as a number of its own, once the sandbox path (whose
// digits are the temp dir's) is taken out.
func (w *World) outputHasNumber(n int) error {
	r, err := w.res()
	if err != nil {
		return err
	}
	out, _ := r["output"].(string)
	rest := strings.ReplaceAll(out, w.st().sandbox, "")
	if !regexp.MustCompile(fmt.Sprintf(`(^|\D)%d(\D|$)`, n)).MatchString(rest) {
		return fmt.Errorf("the built-in tool's output does not name the number %d: %q", n, common.ClipString(out, 400))
	}
	return nil
}

// outputLoosely: the SPEC gives the window, not whether a trailing newline comes with it.
func (w *World) outputLoosely(want string) error {
	r, err := w.res()
	if err != nil {
		return err
	}
	if want, err = w.expand(want, false); err != nil {
		return err
	}
	if got, _ := r["output"].(string); strings.TrimSuffix(got, "\n") != strings.TrimSuffix(want, "\n") {
		return fmt.Errorf("the built-in tool's output is %q; want %q, give or take one trailing newline", common.ClipString(got, 400), want)
	}
	return nil
}

func (w *World) returnedWithin(ms int) error {
	if _, err := w.res(); err != nil {
		return err
	}
	if d := w.st().took; d >= time.Duration(ms)*time.Millisecond {
		return fmt.Errorf("the built-in tool returned after %d ms; want within %d ms", d.Milliseconds(), ms)
	}
	return nil
}

func (w *World) fileHolds(rel, want string) error {
	p, err := w.inSandbox(rel)
	if err != nil {
		return err
	}
	if want, err = common.CodePoints(want); err != nil {
		return err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("the sandbox file %s: %w", rel, err)
	}
	if string(b) != want {
		return fmt.Errorf("the sandbox file %s holds %q; want %q", rel, common.ClipString(string(b), 400), want)
	}
	return nil
}

// fileHoldsLoosely is fileHolds where the SPEC leaves a last newline open (apply_patch's
// added file: "+" lines, nothing said of the end).
func (w *World) fileHoldsLoosely(rel, want string) error {
	if err := w.fileHolds(rel, want); err == nil {
		return nil
	}
	if err := w.fileHolds(rel, want+"⟨U+000A⟩"); err == nil {
		return nil
	}
	return w.fileHolds(rel, want)
}

func (w *World) noFile(rel string) error {
	p, err := w.inSandbox(rel)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		return fmt.Errorf("the sandbox has the file %s (stat: %v); want none", rel, err)
	}
	return nil
}

// processGone: the process the command wrote its id for was ended with the call (a moment's
// grace for the signal to land).
func (w *World) processGone(rel string) error {
	p, err := w.inSandbox(rel)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return &kernel.Inconclusive{Why: fmt.Sprintf("the command never wrote its process id (%v), so there is no child to look for", err), Final: true}
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return fmt.Errorf("harness: %s holds %q, not a process id", rel, b)
	}
	gone := func() bool {
		err := syscall.Kill(pid, 0)
		if err != nil {
			return true // ESRCH: no such process
		}
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return strings.Contains(string(stat), ") Z ") // a zombie has ended
	}
	if !common.WaitFor(time.Second, gone) {
		_ = syscall.Kill(pid, syscall.SIGKILL) // the harness cleans up what the port left
		return fmt.Errorf("process %d (the command's) was still running 1 s after the tool returned", pid)
	}
	return nil
}

// linesAnyOrder: the output's lines, each with the sandbox path (and a leading "./") taken
// off its front, are exactly these, in any order: what a path names, not how it is spelled.
func (w *World) linesAnyOrder(list string) error {
	got, out, err := w.outputLines()
	if err != nil {
		return err
	}
	want := common.QuotedList(list)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("the built-in tool's output lines are %q; want, in any order, %q (output %q)", got, want, common.ClipString(out, 400))
	}
	return nil
}

func (w *World) linesInOrder(list string) error {
	got, out, err := w.outputLines()
	if err != nil {
		return err
	}
	if want := common.QuotedList(list); !slices.Equal(got, want) {
		return fmt.Errorf("the built-in tool's output lines are, in this order, %q; want %q (output %q)", got, want, common.ClipString(out, 400))
	}
	return nil
}

// outputLines are the result's output lines with the sandbox path (a port may print absolute
// paths) and a leading "./" left out.
func (w *World) outputLines() (lines []string, out string, err error) {
	r, err := w.res()
	if err != nil {
		return nil, "", err
	}
	out, _ = r["output"].(string)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		l = strings.TrimPrefix(l, w.st().sandbox+"/")
		lines = append(lines, strings.TrimPrefix(l, "./"))
	}
	return lines, out, nil
}

func (w *World) noTag() error {
	r, err := w.res()
	if err != nil {
		return err
	}
	if out, _ := r["output"].(string); strings.Contains(out, "<") {
		return fmt.Errorf("the built-in tool's output still has a tag: %q", common.ClipString(out, 400))
	}
	return nil
}

// htmlPage serves body as a web page is served: 200, Content-Type text/html.
func (w *World) htmlPage(path, body string) error {
	body, err := common.CodePoints(body) // the page may be made of ⟨edge:…⟩ values
	if err != nil {
		return err
	}
	return w.EndpointAnswers(path, endpoint.Answer{Body: body, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}})
}
