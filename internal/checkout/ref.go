package checkout

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// atRef extracts the tree at a git ref (`git archive`, which reads the repository and writes
// nothing into it) into the cache, once per commit, and reads it as a tree.
func (b *Builder) atRef(ctx context.Context, t *Tree, ref, impl string) (*Tree, error) {
	if err := b.need("git", "tar"); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", t.Root, "rev-parse", "--verify", "--quiet", ref+"^{commit}").Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %s is not a git checkout with ref %q", impl, t.Root, ref)
	}
	commit := strings.TrimSpace(string(out))
	dst := filepath.Join(b.Cache, "checkout", "ref-"+commit[:16])
	if !exists(filepath.Join(dst, ".extracted")) {
		b.say(impl, "git archive %s (%s) into the cache", ref, commit[:12])
		_ = os.RemoveAll(dst)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return nil, err
		}
		// Only the ports' folders: faster, and a partial clone may lack other folders' blobs.
		top, err := exec.CommandContext(ctx, "git", "-C", t.Root, "ls-tree", "--name-only", commit).Output()
		if err != nil {
			return nil, fmt.Errorf("%s: git ls-tree %s: %v", impl, ref, err)
		}
		var portDirs []string
		known := dirs(b.Ports)
		for _, name := range strings.Fields(string(top)) {
			if known[name] {
				portDirs = append(portDirs, name)
			}
		}
		if len(portDirs) == 0 {
			return nil, fmt.Errorf("%s: %s at %s holds no toolnexus port", impl, t.Root, ref)
		}
		var log bytes.Buffer
		cmd := fmt.Sprintf("git -C %q archive --format=tar %s -- %s | tar -x -C %q", t.Root, commit, strings.Join(portDirs, " "), dst)
		if err := step(ctx, time.Minute, dst, &log, nil, "bash", "-o", "pipefail", "-c", cmd); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dst, ".extracted"), []byte(ref+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	return Find(dst, b.Ports)
}
