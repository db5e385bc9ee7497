//go:build unix

package report

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chromiumPath is where CI installs Chromium (apt-get install -y chromium).
const chromiumPath = "/usr/bin/chromium"

// chromiumTimeout bounds every Chromium call.
const chromiumTimeout = 30 * time.Second

// TestHTMLInChromium loads the page for the synthetic run in headless Chromium and reads the
// grid back from the live DOM, after the page's script ran.
func TestHTMLInChromium(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s is not installed (CI installs it with `apt-get install -y chromium`): %v", chromiumPath, err)
	}
	tmp := t.TempDir()
	page := filepath.Join(tmp, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(HTML(f, testCatalogue, syntheticRun()), f.Close()); err != nil {
		t.Fatal(err)
	}
	// The hash opens the failing cell's evidence, through the same code a click runs, without
	// scrolling the page (a scroll before the first paint left it blank, in headless Chromium
	// too, for a cell far down such as python/G3.9).
	link := (&url.URL{Scheme: "file", Path: page, Fragment: "go/G1.2"}).String()

	dom := string(chromium(t, tmp, "--dump-dom", link))
	got := gridCells(t, dom)
	if len(got) != len(wantCells) {
		t.Errorf("the DOM holds %d cells, want %d (IDs x ports)", len(got), len(wantCells))
	}
	for k, v := range wantCells {
		if got[k] != v {
			t.Errorf("%s: data-verdict %q in the DOM, want %q", k, got[k], v)
		}
	}
	body := regexp.MustCompile(`<body\b[^>]*>`).FindString(dom)
	if !strings.Contains(body, `data-ready="1"`) {
		t.Errorf("the page's script did not run (no data-ready on <body>): %s", body)
	}
	if !strings.Contains(body, `data-open="go/G1.2"`) {
		t.Errorf("the script did not open the cell named in the hash: %s", body)
	}
	if !regexp.MustCompile(`<td class="cell selected"[^>]*data-id="G1.2" data-port="go"[^>]*aria-pressed="true"`).MatchString(dom) {
		t.Error("the opened cell is not marked selected")
	}
	sections := regexp.MustCompile(`<section class="evidence" id="([^"]+)"[^>]*>`).FindAllStringSubmatch(dom, -1)
	if len(sections) != len(wantCells) {
		t.Errorf("%d evidence panels, want %d", len(sections), len(wantCells))
	}
	for _, s := range sections {
		hidden := strings.Contains(s[0], " hidden")
		if open := s[1] == "ev-go-G1.2"; open == hidden {
			t.Errorf("panel %s: hidden=%v", s[1], hidden)
		}
	}

	artifacts := os.Getenv("REPORT_ARTIFACTS")
	if artifacts == "" {
		artifacts = tmp
	} else if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	shot, err := filepath.Abs(filepath.Join(artifacts, "report.png"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(shot)
	chromium(t, tmp, "--screenshot="+shot, "--window-size=1400,1000", link)
	b, err := os.ReadFile(shot)
	if err != nil || len(b) == 0 {
		t.Fatalf("no screenshot at %s: %v", shot, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", shot, err)
	}
	if sz := img.Bounds().Size(); sz.X < 1000 || sz.Y < 700 {
		t.Errorf("screenshot is %v, want about 1400x1000", sz)
	}
	if colours(img) < 8 {
		t.Errorf("screenshot %s is (nearly) blank", shot)
	}
	t.Logf("screenshot: %s", shot)
}

// colours counts distinct colours on a coarse sample of the image, up to 64.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 7 {
		for x := r.Min.X; x < r.Max.X; x += 7 {
			c0, c1, c2, c3 := img.At(x, y).RGBA()
			seen[[4]uint32{c0, c1, c2, c3}] = true
			if len(seen) >= 64 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// chromium runs headless Chromium once with its own profile, bounded by chromiumTimeout, and
// kills its whole process group afterwards (renderers, zygotes and all); it returns stdout.
func chromium(t *testing.T, tmp string, args ...string) []byte {
	t.Helper()
	profile, err := os.MkdirTemp(tmp, "chromium-profile-")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	argv := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile}, args...)
	cmd := exec.CommandContext(ctx, chromiumPath, argv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second // children holding stdout open must not hang Wait
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	defer killGroup(cmd.Process.Pid)
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("chromium %s took over %s; stderr:\n%s", strings.Join(args, " "), chromiumTimeout, tail(stderr.String()))
	}
	if err != nil {
		t.Fatalf("chromium %s: %v; stderr:\n%s", strings.Join(args, " "), err, tail(stderr.String()))
	}
	return stdout.Bytes()
}

// killGroup kills a process group and waits (briefly) until none of it is left.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
	}
}

// tail is the end of a long stderr.
func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
