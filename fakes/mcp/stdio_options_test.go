package mcpfake

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flagged is the stdio child running StdioMain with args, with the environment
// variables in drop removed from its environment and env added.
func flagged(t *testing.T, args []string, drop []string, env ...string) *exec.Cmd {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := child(t, envArgs+"="+string(b))
	cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, k)
	})
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

func TestStdioCatalogueFlags(t *testing.T) {
	begin := time.Now()
	cmd := flagged(t, []string{"--catalogue", "results", "--list-delay", "200", "--init-delay", "200ms"}, nil)
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	defer cs.Close()
	if took := time.Since(begin); took < 200*time.Millisecond {
		t.Errorf("handshake took %v with --init-delay 200ms", took)
	}
	begin = time.Now()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took < 200*time.Millisecond {
		t.Errorf("tools/list took %v with --list-delay 200", took)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if want := CatalogueToolNames(CatalogueResults, true); !slices.Equal(names, want) {
		t.Errorf("listed %q, want %q", names, want)
	}
	r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "r_text2"})
	if err != nil || len(r.Content) != 2 {
		t.Fatalf("r_text2: %+v %v", r, err)
	}
}

// r_die ends the process mid-call, answering nothing.
func TestStdioDie(t *testing.T) {
	cmd := flagged(t, []string{"--catalogue", "results"}, nil)
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "r_die"}); err == nil {
		t.Error("r_die answered")
	}
	_ = cs.Close()
	deadline := time.Now().Add(5 * time.Second)
	for cmd.ProcessState == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != DieExitCode {
		t.Errorf("child ended with %v, want exit %d", cmd.ProcessState, DieExitCode)
	}
}

// The env tool reports the child's own environment and working directory.
func TestStdioEnv(t *testing.T) {
	dir := t.TempDir()
	cmd := flagged(t, []string{"--catalogue", "env"}, []string{"TNX_FOO", "TNX_PARENT"}, "TNX_FOO=bar \"q\"")
	cmd.Dir = dir
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	defer cs.Close()
	r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "env"})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Content[0].(*mcp.TextContent).Text
	want := `{"TNX_FOO":"bar \"q\"","TNX_PARENT":null,"cwd":` + jsonString(dir) + `}`
	if got != want {
		var m map[string]any
		_ = json.Unmarshal([]byte(got), &m)
		real, _ := filepath.EvalSymlinks(dir)
		if cwd, _ := m["cwd"].(string); cwd != real || !strings.HasPrefix(got, `{"TNX_FOO":"bar \"q\"","TNX_PARENT":null,"cwd":`) {
			t.Errorf("env answered %s, want %s", got, want)
		}
	}
}

func TestStdioMainRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"--catalogue", "nope"},
		{"--list-delay", "soon"},
		{"--init-delay", "-5"},
		{"--stall", "nope"},
	} {
		if code := StdioMain(args); code != 2 {
			t.Errorf("StdioMain(%q) = %d, want 2", args, code)
		}
	}
	var d msDuration
	for in, want := range map[string]time.Duration{"400": 400 * time.Millisecond, "2s": 2 * time.Second, "0": 0} {
		if err := d.Set(in); err != nil || time.Duration(d) != want {
			t.Errorf("Set(%q) = %v, %v", in, time.Duration(d), err)
		}
	}
}

func TestEnvOutput(t *testing.T) {
	t.Setenv("TNX_FOO", "é<")
	t.Setenv("TNX_PARENT", "")
	os.Unsetenv("TNX_PARENT")
	wd, _ := os.Getwd()
	if got, want := EnvOutput(), `{"TNX_FOO":"é<","TNX_PARENT":null,"cwd":`+jsonString(wd)+`}`; got != want {
		t.Errorf("EnvOutput %s, want %s", got, want)
	}
}
