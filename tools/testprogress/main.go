// Command testprogress runs `go test -json` with the arguments it is given and prints what a
// person can follow while a long -race run goes on: a line as each package starts, a line
// every 30 s naming the packages still running and how many of their tests passed, the
// output of each test that fails, and go test's own closing line per package ("ok  …",
// "FAIL …", "?   …") verbatim, so CI logs read as before. It exits as go test did. The go
// command is $GO when set.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
)

// heartbeat is how often the packages still running are named.
const heartbeat = 30 * time.Second

func main() {
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	cmd := exec.Command(gobin, append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
	f := newFormatter(os.Stdout)
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(heartbeat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				f.beat(time.Now())
			case <-stop:
				return
			}
		}
	}()
	f.read(out)
	close(stop)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "testprogress:", err)
		os.Exit(2)
	}
}

// event is one line of test2json's output (go doc test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Output     string
}

// pkg is one package under way.
type pkg struct {
	began   time.Time
	passed  int
	output  []string // package-level lines, shown if the package fails
	closing string   // go test's own line for it, printed last
}

// formatter turns the event stream into the lines described above.
type formatter struct {
	mu    sync.Mutex
	w     io.Writer
	pkgs  map[string]*pkg
	tests map[[2]string][]string // each running test's output, shown if it fails
	now   func() time.Time
}

func newFormatter(w io.Writer) *formatter {
	return &formatter{w: w, pkgs: map[string]*pkg{}, tests: map[[2]string][]string{}, now: time.Now}
}

// read handles every line of r; a line that is not an event is printed as it is.
func (f *formatter) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			f.print(sc.Text() + "\n")
			continue
		}
		f.handle(e)
	}
}

func (f *formatter) print(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprint(f.w, s)
}

func (f *formatter) handle(e event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch e.Action {
	case "build-output": // a compile error, for the build-fail (and package fail) after it
		fmt.Fprint(f.w, e.Output)
		return
	case "build-fail":
		return
	}
	p := f.pkgs[e.Package]
	if p == nil {
		p = &pkg{began: f.now()}
		f.pkgs[e.Package] = p
	}
	key := [2]string{e.Package, e.Test}
	switch {
	case e.Action == "start":
		fmt.Fprintf(f.w, "start\t%s\n", e.Package)
	case e.Test != "" && e.Action == "output":
		f.tests[key] = append(f.tests[key], e.Output)
	case e.Test != "" && e.Action == "fail":
		for _, l := range f.tests[key] {
			fmt.Fprint(f.w, l)
		}
		delete(f.tests, key)
	case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
		if e.Action == "pass" && !strings.Contains(e.Test, "/") {
			p.passed++
		}
		delete(f.tests, key)
	case e.Test == "" && e.Action == "output":
		// go test's own closing line for the package, verbatim; the rest only if it fails.
		if l := e.Output; strings.HasPrefix(l, "ok  \t") || strings.HasPrefix(l, "FAIL\t") || strings.HasPrefix(l, "?   \t") {
			p.closing += l
		} else {
			p.output = append(p.output, l)
		}
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		if e.Action == "fail" {
			for _, l := range p.output {
				if l != "FAIL\n" {
					fmt.Fprint(f.w, l)
				}
			}
			for k, lines := range f.tests { // cut short (a timeout, a panic): what they said
				if k[0] == e.Package {
					for _, l := range lines {
						fmt.Fprint(f.w, l)
					}
					delete(f.tests, k)
				}
			}
		}
		fmt.Fprint(f.w, p.closing)
		delete(f.pkgs, e.Package)
	}
}

// beat names the packages still running, with how long and how many tests passed so far.
func (f *formatter) beat(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.pkgs) == 0 {
		return
	}
	var names []string
	for name := range f.pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	var parts []string
	for _, name := range names {
		p := f.pkgs[name]
		parts = append(parts, fmt.Sprintf("%s (%s, %d passed)", name, now.Sub(p.began).Round(time.Second), p.passed))
	}
	fmt.Fprintf(f.w, "running\t%s\n", strings.Join(parts, ", "))
}
