package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// Outcome is what one implementation gets from a tree.
type Outcome struct {
	Impl string
	// Env is the overrides its prepare script and adapter run with.
	Env []string
	// Absent is set when a tool it needs is missing here: "npm not found". Not present.
	Absent string
	// Broken is set when its build failed, LogTail the end of the build's log. A red cell,
	// not absence.
	Broken, LogTail string
}

// Builder builds ports of a tree into Cache.
type Builder struct {
	// Root is the harness root, whose runners/<port>/prepare builds a port; Ports its manifests.
	Root  string
	Ports *ports.Set
	Cache string
	// Timeout bounds one port's build.
	Timeout time.Duration
	// Progress gets one line per step; nil: quiet.
	Progress func(format string, args ...any)
	// Getenv reads the user's own overrides (TOOLNEXUS_JS, …), which win over the tree.
	Getenv func(string) string
	// LookPath finds a tool; tests replace it to take one away.
	LookPath func(string) (string, error)
}

func (b *Builder) say(impl, format string, args ...any) {
	if b.Progress != nil {
		b.Progress("%-7s "+format, append([]any{impl}, args...)...)
	}
}

func (b *Builder) lookPath(tool string) error {
	lp := b.LookPath
	if lp == nil {
		lp = exec.LookPath
	}
	if _, err := lp(tool); err != nil {
		return fmt.Errorf("%s not found", tool)
	}
	return nil
}

// Build gets one implementation of the tree ready, as its port's manifest says: "js" builds
// the tree's js/ port, "js@v0.15.0" the same port at that git ref, and a release of a port
// whose releases come from a registry ("python@0.15.0") is left to prepare to fetch. An
// implementation of the harness's own library (the reference) and ports the tree does not
// hold get no environment.
func (b *Builder) Build(ctx context.Context, t *Tree, impl string) Outcome {
	name, ref, _ := strings.Cut(impl, "@")
	out := Outcome{Impl: impl}
	m, spec, ok := b.Ports.Spec(name)
	if !ok || spec.HarnessLibrary() {
		return out
	}
	if ref != "" && m.Releases.FromRegistry() {
		out.Env = []string{m.Releases.Env + "=" + ref}
		b.say(impl, "%s %s from %s (runners/%s/prepare)", m.Releases.Package, ref, m.Releases.Registry, m.Name)
		return out
	}
	if ref == "" && m.Override != "" && b.getenv(m.Override) != "" {
		b.say(impl, "%s is set; using it, not the checkout", m.Override)
		return out
	}
	if t == nil {
		if ref != "" {
			out.Absent = fmt.Sprintf("%s needs --toolnexus pointing at a git checkout to build release %s", name, ref)
		}
		return out
	}
	if ref != "" {
		at, err := b.atRef(ctx, t, ref, impl)
		if err != nil {
			out.Absent = err.Error()
			return out
		}
		t = at
	}
	dir, ok := t.Ports[m.Name]
	if !ok {
		if m.Checkout != nil {
			out.Absent = fmt.Sprintf("the checkout %s holds no %s port", t.Root, m.Name)
		}
		return out
	}
	start := time.Now()
	var err error
	out.Env, out.LogTail, err = b.build(ctx, m, impl, dir)
	switch e := err.(type) {
	case nil:
		b.say(impl, "ready (%s)", time.Since(start).Round(100*time.Millisecond))
	case *missingTool:
		out.Absent = e.Error()
		b.say(impl, "not present: %s", out.Absent)
	default:
		out.Broken = "build failed: " + err.Error()
		b.say(impl, "broken: %s", out.Broken)
	}
	return out
}

// build makes the port's folder (dir, in the tree) into its override: a copy in the cache
// when the manifest asks for one, then either that folder itself or what the port's prepare
// prints after building it (`--build-checkout`). The log tail comes with a failed build.
func (b *Builder) build(ctx context.Context, m *ports.Manifest, impl, dir string) ([]string, string, error) {
	if err := b.need(m.Toolchain.Tools...); err != nil {
		return nil, "", err
	}
	logDir := ""
	if m.Checkout.Copy != nil {
		dst, _, err := b.copyPort(impl, dir, m.Name, m.Checkout.Copy.Skip...)
		if err != nil {
			return nil, "", err
		}
		dir, logDir = dst, dst
	}
	if !m.Checkout.Build {
		b.say(impl, "%s=%s (runners/%s/prepare takes it from there)", m.Override, dir, m.Name)
		return []string{m.Override + "=" + dir}, "", nil
	}
	if logDir == "" {
		// The log never goes into the checkout: beside the build's other files in the cache.
		logDir = filepath.Join(b.Cache, "checkout", m.Name+"-"+shortHash(dir))
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, "", err
		}
	}
	logPath := filepath.Join(logDir, "build.log")
	b.say(impl, "runners/%s/prepare --build-checkout %s (log: %s)", m.Name, dir, logPath)
	vars, log, err := ports.BuildCheckout(ctx, b.Root, b.Cache, m.Name, dir, b.Timeout)
	if log != "" {
		// A build that was current says nothing: the log of the one that built stays.
		_ = os.WriteFile(logPath, []byte(log), 0o644)
	}
	var np *ports.NotPresent
	var br *ports.Broken
	var st *ports.Stopped
	switch {
	case errors.As(err, &np):
		return nil, "", &missingTool{errors.New(np.Reason)}
	case errors.As(err, &br):
		return nil, br.LogTail, errors.New(br.Reason)
	case errors.As(err, &st):
		return nil, "", fmt.Errorf("stopped: %v", st.Cause)
	case err != nil:
		return nil, "", err
	}
	return vars, "", nil
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:16]
}

func (b *Builder) getenv(k string) string {
	if k == "" {
		return ""
	}
	if b.Getenv != nil {
		return b.Getenv(k)
	}
	return os.Getenv(k)
}

// missingTool is a toolchain this machine lacks: the port is not present, not broken.
type missingTool struct{ err error }

func (m *missingTool) Error() string { return m.err.Error() }

func (b *Builder) need(tools ...string) error {
	for _, t := range tools {
		if err := b.lookPath(t); err != nil {
			return &missingTool{err}
		}
	}
	return nil
}

// copyPort copies dir into the cache once per content (path, size and mtime of every file),
// skipping the named folders; fresh says whether it copied now.
func (b *Builder) copyPort(impl, dir, port string, skip ...string) (string, bool, error) {
	// A port folder that is a symlink is walked where it points (WalkDir does not follow it).
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	skipped := map[string]bool{".git": true}
	for _, s := range skip {
		skipped[s] = true
	}
	h := sha256.New()
	fmt.Fprintln(h, dir)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && skipped[d.Name()] {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(h, "%s %d %d\n", rel, info.Size(), info.ModTime().UnixNano())
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	if len(files) == 0 {
		return "", false, fmt.Errorf("%s holds no files", dir)
	}
	dst := filepath.Join(b.Cache, "checkout", port+"-"+hex.EncodeToString(h.Sum(nil))[:16])
	if exists(filepath.Join(dst, ".copied")) {
		return dst, false, nil
	}
	b.say(impl, "copying %s into %s", dir, dst)
	_ = os.RemoveAll(dst)
	for _, rel := range files {
		if err := copyFile(filepath.Join(dir, rel), filepath.Join(dst, rel)); err != nil {
			return "", false, err
		}
	}
	return dst, true, os.WriteFile(filepath.Join(dst, ".copied"), nil, 0o644)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
		return err
	}
	return os.Chtimes(dst, info.ModTime(), info.ModTime())
}
