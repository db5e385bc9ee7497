package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"toolnexus-conformance/schema"
)

// TestMain lets the test binary play a misbehaving adapter, chosen by FAKE_ADAPTER.
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKE_ADAPTER"); mode != "" {
		fakeAdapter(mode)
		return
	}
	os.Exit(m.Run())
}

func fakeAdapter(mode string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var req struct {
			ID int    `json:"id"`
			Op string `json:"op"`
		}
		_ = json.Unmarshal(sc.Bytes(), &req)
		fmt.Fprintf(os.Stderr, "got %s\n", req.Op)
		switch {
		case req.Op == "shutdown":
			fmt.Printf(`{"id":%d,"ok":true,"result":{},"warnings":[]}`+"\n", req.ID)
			return
		case mode == "crash" && req.Op == "toolkit.close":
			fmt.Fprintln(os.Stderr, "panic: boom")
			os.Exit(2)
		case mode == "silent" && req.Op == "toolkit.close":
			time.Sleep(time.Hour)
		case mode == "garbage" && req.Op == "toolkit.close":
			fmt.Println("hello there")
		case mode == "badkind" && req.Op == "toolkit.close":
			fmt.Printf(`{"id":%d,"ok":false,"error":{"kind":"oops","message":"x"},"warnings":[]}`+"\n", req.ID)
		default:
			fmt.Printf(`{"id":%d,"ok":true,"result":{},"warnings":["w1"]}`+"\n", req.ID)
		}
	}
}

func start(t *testing.T, mode string) *Process {
	t.Helper()
	s, err := schema.Load()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	p, err := Start(Config{Port: "fake", Argv: []string{exe}, Env: []string{"FAKE_ADAPTER=" + mode},
		CallTimeout: 500 * time.Millisecond, Schema: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func TestGoodCall(t *testing.T) {
	p := start(t, "good")
	r, err := p.Call(context.Background(), "toolkit.close", map[string]any{"toolkit": "t"})
	if err != nil || !r.OK || len(r.Warnings) != 1 {
		t.Fatalf("r=%+v err=%v", r, err)
	}
}

func TestMisbehavingAdapters(t *testing.T) {
	for mode, want := range map[string]string{
		"crash":   "exited",
		"silent":  "did not answer",
		"garbage": "broke the protocol",
		"badkind": "broke the protocol",
	} {
		t.Run(mode, func(t *testing.T) {
			p := start(t, mode)
			_, err := p.Call(context.Background(), "toolkit.close", map[string]any{"toolkit": "t"})
			var b *Broken
			if !errors.As(err, &b) || !strings.Contains(b.What, want) {
				t.Fatalf("err=%v, want Broken containing %q", err, want)
			}
			if !strings.Contains(b.StderrTail, "got toolkit.close") {
				t.Errorf("stderr tail missing: %q", b.StderrTail)
			}
			if !p.IsBroken() {
				t.Error("process not marked broken")
			}
			if _, err := p.Call(context.Background(), "hello", nil); err == nil {
				t.Error("broken process accepted another call")
			}
		})
	}
}

func TestHarnessRequestRejected(t *testing.T) {
	p := start(t, "good")
	_, err := p.Call(context.Background(), "client.create", map[string]any{"handle": "c"})
	if err == nil || !strings.Contains(err.Error(), "harness bug") {
		t.Fatalf("err=%v", err)
	}
}
