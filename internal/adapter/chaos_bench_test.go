package adapter

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkCloseEscapedChild: Close of a healthy adapter whose child left its process group
// and holds its pipes (before the fix: 8 s, the two grace periods run out).
func BenchmarkCloseEscapedChild(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := startB(b, "escape", 10*time.Second)
		if _, err := p.Call(context.Background(), "hello", nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		p.Close()
	}
}

// BenchmarkCrashWithEscapedChild: a call to an adapter that crashes while its escaped child
// holds the pipes (before the fix: reported as a timeout after the whole call deadline).
func BenchmarkCrashWithEscapedChild(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := startB(b, "escape-crash", 10*time.Second)
		if _, err := p.Call(context.Background(), "hello", nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		_, err := p.Call(context.Background(), "toolkit.close", closeArgs)
		b.StopTimer()
		if err == nil {
			b.Fatal("no error")
		}
		if i == 0 {
			b.Log(err)
		}
		p.Close()
	}
}

func startB(b *testing.B, mode string, callTimeout time.Duration) *Process {
	s, err := loadSchema()
	if err != nil {
		b.Fatal(err)
	}
	p, err := Start(Config{Port: "chaos", Argv: []string{testExe()}, Env: chaosEnv(mode), CallTimeout: callTimeout, StartTimeout: callTimeout, Schema: s})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func testExe() string {
	exe, _ := os.Executable()
	return exe
}
