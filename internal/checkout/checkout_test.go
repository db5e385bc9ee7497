package checkout

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// harness is the real harness root and its port manifests: the builds run its prepare scripts.
func harness(t *testing.T) (string, *ports.Set) {
	t.Helper()
	root, set, err := ports.Harness()
	if err != nil {
		t.Fatal(err)
	}
	return root, set
}

func builder(t *testing.T) *Builder {
	root, set := harness(t)
	return &Builder{Root: root, Ports: set, Cache: t.TempDir(), Timeout: 2 * time.Minute, Getenv: func(string) string { return "" },
		Progress: func(f string, a ...any) { t.Logf(f, a...) }}
}

func find(t *testing.T, root string) *Tree {
	t.Helper()
	_, set := harness(t)
	tr, err := Find(root, set)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestFind(t *testing.T) {
	root := writeTree(t, map[string]string{
		"golang/go.mod": "module github.com/muthuishere/toolnexus/golang\n", "js/package.json": "{}",
		"clojure/deps.edn": "{}", "elixir/mix.exs": "", "docs/index.md": "",
	})
	tr := find(t, root)
	if d := cmp.Diff(map[string]string{"go": filepath.Join(root, "golang"), "js": filepath.Join(root, "js")}, tr.Ports); d != "" {
		t.Errorf("ports (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"clojure (deps.edn)", "elixir (mix.exs)"}, tr.Unadapted); d != "" {
		t.Errorf("unadapted (-want +got):\n%s", d)
	}
	_, set := harness(t)
	if _, err := Find(t.TempDir(), set); err == nil || !strings.Contains(err.Error(), "no toolnexus port") || !strings.Contains(err.Error(), "golang/go.mod") {
		t.Errorf("an empty tree: %v", err)
	}
}

func TestBuildMissingToolIsAbsent(t *testing.T) {
	tr := find(t, writeTree(t, map[string]string{"js/package.json": "{}"}))
	b := builder(t)
	b.LookPath = func(tool string) (string, error) {
		if tool == "npm" {
			return "", errors.New("nope")
		}
		return "/bin/" + tool, nil
	}
	o := b.Build(context.Background(), tr, "js")
	if o.Absent != "npm not found" || o.Broken != "" || o.Env != nil {
		t.Errorf("js without npm = %+v, want absent: npm not found", o)
	}
}

// TestBuildFailureIsBroken runs runners/js/prepare --build-checkout with a real npm on a
// package whose build script fails: the port is broken with the build log's tail, the whole
// log is beside the copy, and nothing was written into the checkout.
func TestBuildFailureIsBroken(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not here")
	}
	root := writeTree(t, map[string]string{"js/package.json": `{"name":"x","version":"1.0.0","scripts":{"build":"echo compile error TS2304 >&2 && exit 2"}}`})
	tr := find(t, root)
	b := builder(t)
	o := b.Build(context.Background(), tr, "js")
	if o.Broken == "" || !strings.Contains(o.LogTail, "TS2304") || o.Absent != "" {
		t.Errorf("a failing build = %+v, want broken with the log tail", o)
	}
	if logs, _ := filepath.Glob(filepath.Join(b.Cache, "checkout", "js-*", "build.log")); len(logs) != 1 {
		t.Errorf("build logs in the cache: %v, want one", logs)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "js"))
	if len(entries) != 1 {
		t.Errorf("the build wrote into the checkout: %v", entries)
	}
}

func TestBuildEnv(t *testing.T) {
	root := writeTree(t, map[string]string{"golang/go.mod": "module m\n", "js/package.json": "{}"})
	tr := find(t, root)
	b := builder(t)
	if o := b.Build(context.Background(), tr, "go"); !cmp.Equal(o.Env, []string{"TOOLNEXUS_GO=" + filepath.Join(root, "golang")}) {
		t.Errorf("go: %+v", o)
	}
	if o := b.Build(context.Background(), nil, "python@0.15.0"); !cmp.Equal(o.Env, []string{"TOOLNEXUS_PYTHON_VERSION=0.15.0"}) {
		t.Errorf("python@0.15.0: %+v", o)
	}
	if o := b.Build(context.Background(), nil, "go@v0.15.0"); !strings.Contains(o.Absent, "needs --toolnexus") {
		t.Errorf("go@ref without a tree: %+v", o)
	}
	if o := b.Build(context.Background(), tr, "java"); !strings.Contains(o.Absent, "holds no java port") {
		t.Errorf("java not in the tree: %+v", o)
	}
	b.Getenv = func(k string) string { return map[string]string{"TOOLNEXUS_JS": "/mine"}[k] }
	if o := b.Build(context.Background(), tr, "js"); o.Env != nil || o.Absent != "" || o.Broken != "" {
		t.Errorf("TOOLNEXUS_JS set by the user must win: %+v", o)
	}
}

// TestBuildAtRef extracts a port at a tag of a git checkout, not the working tree's version.
func TestBuildAtRef(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not here")
	}
	root := writeTree(t, map[string]string{"golang/go.mod": "module m // v1\n"})
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "v1")
	git("tag", "v1")
	if err := os.WriteFile(filepath.Join(root, "golang", "go.mod"), []byte("module m // v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := find(t, root)
	o := builder(t).Build(context.Background(), tr, "go@v1")
	if len(o.Env) != 1 || !strings.HasPrefix(o.Env[0], "TOOLNEXUS_GO=") {
		t.Fatalf("go@v1: %+v", o)
	}
	dir := strings.TrimPrefix(o.Env[0], "TOOLNEXUS_GO=")
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(b) != "module m // v1\n" {
		t.Errorf("go@v1 built from %s holding %q, want the v1 go.mod", dir, b)
	}
	if o := builder(t).Build(context.Background(), tr, "go@nope"); !strings.Contains(o.Absent, `ref "nope"`) {
		t.Errorf("unknown ref: %+v", o)
	}
}

// TestJavaBuildCheckout runs runners/java/prepare --build-checkout with a stand-in mvn that
// records the POM it is given: the POM names the dependencies and version the build.gradle
// declares, and the build hands prepare the jar and those coordinates.
func TestJavaBuildCheckout(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no JDK here")
	}
	bin := t.TempDir()
	mvn := "#!/usr/bin/env bash\n" + `pom=""; while [ $# -gt 0 ]; do [ "$1" = -f ] && pom="$2"; shift; done
d="$(dirname "$pom")"; mkdir -p "$d/target"; cp "$pom" "$d/seen-pom.xml"; touch "$d/target/toolnexus-0.16.0.jar"` + "\n"
	if err := os.WriteFile(filepath.Join(bin, "mvn"), []byte(mvn), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	root := writeTree(t, map[string]string{"java/src/main/java/A.java": "class A {}\n", "java/build.gradle": "version = '0.16.0'\ndependencies {\n" +
		"    api 'io.modelcontextprotocol.sdk:mcp:2.0.0'\n    implementation \"org.yaml:snakeyaml:2.3\"\n" +
		"    testImplementation 'org.junit.jupiter:junit-jupiter'\n    implementation platform('x:y:1')\n}\n"})
	b := builder(t)
	o := b.Build(context.Background(), find(t, root), "java")
	if o.Absent != "" || o.Broken != "" || len(o.Env) != 2 {
		t.Fatalf("java build = %+v", o)
	}
	jar := strings.TrimPrefix(o.Env[0], "TOOLNEXUS_JAVA=")
	if !strings.HasSuffix(jar, "/target/toolnexus-0.16.0.jar") || !strings.HasPrefix(jar, b.Cache) {
		t.Errorf("TOOLNEXUS_JAVA = %q, want the jar in the cache's copy", jar)
	}
	if o.Env[1] != "TOOLNEXUS_JAVA_DEPS=io.modelcontextprotocol.sdk:mcp:2.0.0 org.yaml:snakeyaml:2.3" {
		t.Errorf("deps: %q", o.Env[1])
	}
	pom, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(jar)), "seen-pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<artifactId>snakeyaml</artifactId><version>2.3</version>", "<version>0.16.0</version>"} {
		if !strings.Contains(string(pom), want) {
			t.Errorf("the POM lacks %s:\n%s", want, pom)
		}
	}
	if strings.Contains(string(pom), "junit") {
		t.Errorf("a test dependency reached the POM:\n%s", pom)
	}
}

// A port folder that is a symlink (a tree assembled from links) is copied where it points.
func TestCopyPortFollowsASymlinkedFolder(t *testing.T) {
	real := writeTree(t, map[string]string{"js/package.json": "{}", "js/src/index.ts": "export {}\n"})
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(real, "js"), filepath.Join(linked, "js")); err != nil {
		t.Fatal(err)
	}
	b := builder(t)
	dst, fresh, err := b.copyPort("js", filepath.Join(linked, "js"), "js")
	if err != nil || !fresh {
		t.Fatalf("copy through a symlink: %v (fresh %v)", err, fresh)
	}
	if _, err := os.Stat(filepath.Join(dst, "src", "index.ts")); err != nil {
		t.Errorf("the linked folder's files were not copied: %v", err)
	}
	if _, _, err := b.copyPort("js", t.TempDir(), "js"); err == nil {
		t.Error("an empty port folder must be an error, not an empty copy")
	}
}

// A build log is outside text: its tail reaches reports escaped and capped.
func TestTailEscapesAndCaps(t *testing.T) {
	log := "ok\n\x1b]0;pwned\x07\x1b[31mred\u202eevil\n" + strings.Repeat("x", 2<<20) + "\n"
	got := Tail(log, 12)
	if strings.ContainsAny(got, "\x1b\x07\u202e") || len(got) > 5<<10 {
		t.Errorf("tail of %d bytes, raw controls: %v", len(got), strings.ContainsAny(got, "\x1b\x07\u202e"))
	}
}
