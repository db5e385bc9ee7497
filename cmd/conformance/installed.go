package main

import (
	"fmt"
	"os"
	"path/filepath"

	conformance "github.com/muthuishere/toolnexus-conformance"
	"github.com/muthuishere/toolnexus-conformance/internal/bundle"
)

// unpack is the harness root of an installed binary run outside a clone: the embedded tree,
// unpacked into the cache ($CONFORMANCE_CACHE, else the user cache dir), which also becomes
// the cache for adapters and venvs.
func (c *common) unpack() (string, error) {
	base := c.cache
	if base == "" {
		base = os.Getenv("CONFORMANCE_CACHE")
	}
	if base == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no harness clone here and no cache dir for the built-in one (set CONFORMANCE_CACHE): %w", err)
		}
		base = filepath.Join(dir, "github.com/muthuishere/toolnexus-conformance")
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	root, err := bundle.Unpack(conformance.Files(), base)
	if err != nil {
		return "", fmt.Errorf("no harness clone here, and the built-in harness would not unpack: %w", err)
	}
	if c.cache == "" {
		c.cache = base
	}
	fmt.Fprintf(os.Stderr, "conformance: not in a harness clone; using the built-in harness in %s\n", root)
	return root, nil
}
