// Package chaos is a deliberately misbehaving adapter, one mode per way an adapter can fail
// the runner: the harness's own tests start it (through a test binary's TestMain, or
// cmd/chaos) and check that the runner outlives it, names it, and leaves nothing behind.
//
// Every mode answers hello properly (except exit-at-start and hang-hello) and applies its
// fault to the first request after hello, the "fault op"; "good" never misbehaves.
package chaos

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// EnvMode selects the mode; a test binary that sees it set plays the chaos adapter.
const EnvMode = "CHAOS_MODE"

// EnvServes, when set, is the JSON {"ops": [...], "slots": [...]} hello lists: the runner's
// tests pass the composed protocol's, so a chaos adapter serves every area as a port must
// (SPEC.md §3) and meets no harness error for an area it lacks.
const EnvServes = "CHAOS_SERVES"

// Modes lists every mode with the fault it plays.
var Modes = map[string]string{
	"good":             "answers every request (unsupported for all but hello)",
	"exit-at-start":    "exits 1 before reading anything",
	"hang-hello":       "never answers, not even hello",
	"slow-hello":       "answers hello after 1.5 s (a runtime starting on a loaded machine), then like good",
	"unhandled":        "answers every op, and reports an unhandled rejection of the library with each answer",
	"escape-daemon":    "at hello, leaves a daemon behind the way a port's child could: a new session, an empty environment, SIGTERM ignored, its parent gone",
	"escape-cgroup":    "as escape-daemon, and the daemon moves itself to the root cgroup (where it may)",
	"forker":           "(the daemon's short-lived parent) starts the daemon and exits",
	"daemon":           "ignores SIGTERM and sleeps",
	"root-daemon":      "(escape-cgroup's daemon) moves itself to the root cgroup, then is the daemon",
	"crash":            "answers hello, then panics and exits 2; with CHAOS_LEAVE_TMP set, leaves a file in its TMPDIR first (as a dying runtime leaves its sockets)",
	"garbage":          "writes a line that is not JSON",
	"binary":           "writes a line of control bytes, escape sequences and invalid UTF-8",
	"huge":             "writes one line that never ends",
	"closed-stdout":    "closes stdout and stays alive",
	"hang":             "answers hello, then nothing, and ignores SIGTERM",
	"wrong-id":         "answers with another request's id",
	"duplicate":        "answers once, then writes the same answer again at once",
	"duplicate-late":   "answers once, then writes the same answer again just before answering the next request",
	"trailing-garbage": "answers once, then writes a line that is not JSON",
	"ansi-error":       "reports a port error whose message holds escape sequences",
	"schema":           "answers ok without a result",
	"callback":         "calls a host tool back, reads the answer from fd 3 and fails the request with it as a relayed library error",
	"bad-callback":     "writes a callback that breaks the protocol schema",
	"stderr-flood":     "writes 32 MiB of escape sequences to stderr, then answers",
	"stderr-each":      "writes 50 MB to stderr before each answer (a library that logs every byte it sends)",
	"escape":           "starts a child in a new session that holds the pipes, then behaves",
	"escape-crash":     "starts a child in a new session that holds the pipes, then crashes",
	"sleeper":          "(the escaped child itself) sleeps",
}

// lateDuplicate is the request duplicate-late answers again, before the next answer.
var lateDuplicate int

// lifetime bounds every sleep, so a chaos process the runner failed to kill still ends.
const lifetime = 2 * time.Minute

// Main plays the mode named by CHAOS_MODE and exits.
func Main() {
	mode := os.Getenv(EnvMode)
	if _, ok := Modes[mode]; !ok {
		fmt.Fprintf(os.Stderr, "chaos: unknown mode %q\n", mode)
		os.Exit(2)
	}
	switch mode {
	case "exit-at-start":
		fmt.Fprintln(os.Stderr, "chaos: refusing to start")
		os.Exit(1)
	case "sleeper":
		time.Sleep(lifetime)
		os.Exit(0)
	case "forker":
		daemonize(os.Getenv("CHAOS_DAEMON"))
		os.Exit(0)
	case "root-daemon":
		toRootCgroup()
		fallthrough
	case "daemon":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		time.Sleep(lifetime)
		os.Exit(0)
	}
	out := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	faulted := false
	for sc.Scan() {
		var req struct {
			ID int    `json:"id"`
			Op string `json:"op"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(os.Stderr, "chaos: bad request %q\n", sc.Text())
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "chaos %s: got %s\n", mode, req.Op)
		switch {
		case req.Op == "shutdown":
			answer(out, req.ID, `"ok":true,"result":{}`)
			os.Exit(0)
		case req.Op == "hello" && mode == "hang-hello":
			time.Sleep(lifetime)
			os.Exit(0)
		case req.Op == "hello" && mode == "slow-hello":
			time.Sleep(1500 * time.Millisecond)
			answer(out, req.ID, helloResult())
			mode = "good"
			continue
		case req.Op == "hello":
			switch {
			case mode == "escape-daemon":
				startForker("daemon")
			case mode == "escape-cgroup":
				startForker("root-daemon")
			case strings.HasPrefix(mode, "escape"):
				escape()
			}
			answer(out, req.ID, helloResult())
			continue
		case mode == "unhandled":
			answer(out, req.ID, unsupported+`,"crashes":["unhandled rejection: Error: boom after the call"]`)
			continue
		case mode == "callback":
			fmt.Fprintln(out, `{"callback":1,"fn":"contract.tool","args":{"toolkit":"t","name":"echo","input":{}}}`)
			_ = out.Flush()
			got, err := bufio.NewReader(os.NewFile(3, "callback")).ReadString('\n')
			if err != nil {
				os.Exit(4)
			}
			msg, _ := json.Marshal(strings.TrimSpace(got))
			answer(out, req.ID, `"ok":false,"error":{"message":`+string(msg)+`,"type":"chaos.Error","chain":[{"type":"chaos.Error","is":["chaos.Cancel"],"message":"x"}]}`)
			continue
		case mode == "bad-callback":
			fmt.Fprintln(out, `{"callback":1,"fn":"nope","args":{}}`)
			_ = out.Flush()
			time.Sleep(lifetime)
		case mode == "stderr-each":
			flood(50_000_000)
			answer(out, req.ID, unsupported)
			continue
		case mode == "ansi-error":
			answer(out, req.ID, `"ok":false,"error":{"kind":"failed","message":"\u001b]0;pwned\u0007\u001b[31mboom\u009b"}`)
			continue
		case mode == "good" || faulted:
			if lateDuplicate != 0 {
				answer(out, lateDuplicate, unsupported)
				lateDuplicate = 0
			}
			answer(out, req.ID, unsupported)
			continue
		}
		faulted = true
		fault(out, mode, req.ID)
	}
}

const unsupported = `"ok":false,"error":{"kind":"unsupported","message":"the chaos adapter supports only hello"}`

// flood writes about n bytes of escape sequences and invalid UTF-8 to stderr.
func flood(n int) {
	line := strings.Repeat("\x1b[31mflood\x1b]0;title\x07 \xff", 100) + "\n"
	for w := 0; w < n; w += len(line) {
		os.Stderr.WriteString(line)
	}
}

func answer(out *bufio.Writer, id int, body string) {
	fmt.Fprintf(out, `{"id":%d,%s,"warnings":[]}`+"\n", id, body)
	if err := out.Flush(); err != nil {
		os.Exit(3)
	}
}

func fault(out *bufio.Writer, mode string, id int) {
	switch mode {
	case "crash", "escape-crash":
		if mode == "crash" && os.Getenv("CHAOS_LEAVE_TMP") != "" {
			_ = os.WriteFile(filepath.Join(os.TempDir(), fmt.Sprintf("chaos-crash-%d.left", os.Getpid())), nil, 0o600)
		}
		fmt.Fprintln(os.Stderr, "panic: chaos crash")
		os.Exit(2)
	case "garbage":
		fmt.Fprintln(out, "this is not JSON")
	case "binary":
		out.WriteString("\x00\xff\xfe\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x9b\n")
	case "huge":
		chunk := strings.Repeat("a", 64*1024)
		for { // until the runner stops reading and kills us
			if _, err := out.WriteString(chunk); err != nil {
				os.Exit(3)
			}
		}
	case "closed-stdout":
		_ = out.Flush()
		_ = os.Stdout.Close()
		time.Sleep(lifetime)
		os.Exit(0)
	case "hang":
		signal.Ignore(syscall.SIGTERM) // as a runtime stuck in native code may: only SIGKILL ends it
		time.Sleep(lifetime)
		os.Exit(0)
	case "wrong-id":
		answer(out, id+7, unsupported)
	case "duplicate":
		answer(out, id, unsupported)
		answer(out, id, unsupported)
	case "duplicate-late":
		answer(out, id, unsupported)
		lateDuplicate = id
	case "trailing-garbage":
		answer(out, id, unsupported)
		fmt.Fprintln(out, "\x1b[31mtrailing garbage")
	case "schema":
		fmt.Fprintf(out, `{"id":%d,"ok":true,"warnings":[]}`+"\n", id)
	case "stderr-flood":
		flood(32 << 20)
		answer(out, id, unsupported)
	default:
		answer(out, id, unsupported)
	}
	_ = out.Flush()
}

// escape starts a copy of this program as the sleeper, in a new session (so outside the
// adapter's process group), holding the adapter's stdout and stderr.
// startForker runs the daemon's parent in a new session with nothing of the adapter's
// environment (no CONFORMANCE_ADAPTER token), and waits for it: once it exits the daemon is
// an orphan that only a cgroup (or the subreaper) still ties to the adapter.
func startForker(daemon string) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{EnvMode + "=forker", "CHAOS_DAEMON=" + daemon}
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "chaos: forker:", err)
		os.Exit(2)
	}
}

func daemonize(mode string) {
	exe, err := os.Executable()
	if err != nil {
		os.Exit(2)
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{EnvMode + "=" + mode}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "chaos: daemon:", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "chaos: daemon pid %d\n", cmd.Process.Pid)
}

// toRootCgroup moves this process to the root of the cgroup2 hierarchy, out of the cgroup
// the runner made for its adapter; where it may not (no cgroup2, no permission) it stays.
func toRootCgroup() {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		left, right, ok := strings.Cut(line, " - ")
		if f, r := strings.Fields(left), strings.Fields(right); ok && len(r) > 0 && r[0] == "cgroup2" && len(f) > 4 {
			_ = os.WriteFile(f[4]+"/cgroup.procs", []byte(fmt.Sprint(os.Getpid())), 0o644)
			return
		}
	}
}

func escape() {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), EnvMode+"=sleeper")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "chaos: escaped child pid %d\n", cmd.Process.Pid)
}

// helloResult is hello's answer: the ops and slots of EnvServes, else allOps and the wave-1 slots.
func helloResult() string {
	serves := `"ops":` + allOps + `,"slots":["llm.bodyTransform","llm.beforeLLM","transport.http","contract.tool"]`
	var given struct{ Ops, Slots []string }
	if err := json.Unmarshal([]byte(os.Getenv(EnvServes)), &given); err == nil && len(given.Ops) > 0 {
		ops, _ := json.Marshal(append([]string{"hello"}, given.Ops...))
		slots, _ := json.Marshal(given.Slots)
		serves = `"ops":` + string(ops) + `,"slots":` + string(slots)
	}
	return `"ok":true,"result":{"port":"chaos","library":"chaos","version":"0","runtime":"go",` + serves + `}`
}

// allOps is every op of the protocol: the chaos adapter says it has them all, so every
// scenario's calls reach it and meet its fault.
const allOps = `["hello","client.create","client.run","client.ask","store.get","store.save","store.identity",` +
	`"toolkit.create","toolkit.close","mcp.load","mcp.list","toolkit.describe","tool.execute","adapters","sanitize"]`
