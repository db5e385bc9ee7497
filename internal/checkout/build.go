package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Outcome is what one implementation gets from a tree.
type Outcome struct {
	Impl string
	// Env is the overrides its prepare script and adapter run with.
	Env []string
	// Absent is set when a tool it needs is missing here: "npm not found". Not present.
	Absent string
	// Broken is set when its build failed, with the build log's tail. A red cell, not absence.
	Broken string
}

// Builder builds ports of a tree into Cache.
type Builder struct {
	Cache   string
	Timeout time.Duration // per build step
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

// Build gets one implementation of the tree ready: "js" builds the tree's js/ port, "js@v0.15.0"
// the same port at that git ref, "python@0.15.0" takes that release from PyPI. The reference
// and ports the tree does not hold get no environment.
func (b *Builder) Build(ctx context.Context, t *Tree, impl string) Outcome {
	port, ref, _ := strings.Cut(impl, "@")
	out := Outcome{Impl: impl}
	if port == "python" && ref != "" {
		// PyPI serves every Python release; runners/python/prepare installs it in its own venv.
		out.Env = []string{"TOOLNEXUS_PYTHON_VERSION=" + ref}
		b.say(impl, "toolnexus==%s from PyPI (runners/python/prepare)", ref)
		return out
	}
	if ref == "" && b.getenv(Var[port]) != "" {
		b.say(impl, "%s is set; using it, not the checkout", Var[port])
		return out
	}
	if t == nil {
		if ref != "" {
			out.Absent = fmt.Sprintf("%s needs --toolnexus pointing at a git checkout to build release %s", port, ref)
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
	dir, ok := t.Ports[port]
	if !ok {
		if Var[port] != "" {
			out.Absent = fmt.Sprintf("the checkout %s holds no %s port", t.Root, port)
		}
		return out
	}
	start := time.Now()
	var err error
	switch port {
	case "go":
		out.Env, err = b.goPort(impl, dir)
	case "python":
		out.Env, err = b.python(ctx, impl, dir)
	case "js":
		out.Env, err = b.js(ctx, impl, dir)
	case "java":
		out.Env, err = b.java(ctx, impl, dir)
	case "csharp":
		out.Env, err = b.csharp(impl, dir)
	}
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

// goPort: the adapter's module replace points at the port; runners/go/prepare builds it.
func (b *Builder) goPort(impl, dir string) ([]string, error) {
	if err := b.need("go"); err != nil {
		return nil, err
	}
	b.say(impl, "module replace -> %s (runners/go/prepare builds it)", dir)
	return []string{"TOOLNEXUS_GO=" + dir}, nil
}

// python: a copy of the port in the cache; runners/python/prepare makes a venv with it.
func (b *Builder) python(ctx context.Context, impl, dir string) ([]string, error) {
	if err := b.need("python3"); err != nil {
		return nil, err
	}
	dst, fresh, err := b.copyPort(impl, dir, "python", ".venv", "__pycache__", "dist", "build")
	if err != nil {
		return nil, err
	}
	if fresh {
		b.say(impl, "copied %s into %s (runners/python/prepare installs it in a venv)", dir, dst)
	}
	return []string{"TOOLNEXUS_PYTHON=" + dst}, nil
}

// js: npm ci and the package's own build script, in a copy under the cache.
func (b *Builder) js(ctx context.Context, impl, dir string) ([]string, error) {
	if err := b.need("node", "npm"); err != nil {
		return nil, err
	}
	dst, _, err := b.copyPort(impl, dir, "js", "node_modules", "dist")
	if err != nil {
		return nil, err
	}
	env := []string{"TOOLNEXUS_JS=" + dst}
	if exists(filepath.Join(dst, ".built")) {
		b.say(impl, "built copy in %s is current", dst)
		return env, nil
	}
	logf, done := b.logFor(dst)
	defer done()
	install := []string{"ci", "--no-audit", "--no-fund"}
	if !exists(filepath.Join(dst, "package-lock.json")) {
		install = []string{"install", "--no-audit", "--no-fund"}
	}
	b.say(impl, "npm %s", install[0])
	if err := step(ctx, b.Timeout, dst, logf, nil, "npm", install...); err != nil {
		return nil, err
	}
	b.say(impl, "npm run build")
	if err := step(ctx, b.Timeout, dst, logf, nil, "npm", "run", "build"); err != nil {
		return nil, err
	}
	return env, os.WriteFile(filepath.Join(dst, ".built"), nil, 0o644)
}

// csharp: runners/csharp/prepare builds the adapter with the port as a ProjectReference.
func (b *Builder) csharp(impl, dir string) ([]string, error) {
	if err := b.need("dotnet"); err != nil {
		return nil, err
	}
	proj := filepath.Join(dir, "src", "Toolnexus", "Toolnexus.csproj")
	b.say(impl, "dotnet build of %s (runners/csharp/prepare)", proj)
	return []string{"TOOLNEXUS_CSHARP=" + proj}, nil
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
	b.say(impl, "copying %s into the cache", dir)
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
