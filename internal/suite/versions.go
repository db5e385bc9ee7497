package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// SuiteVersions hashes the catalogue and the suite files under root.
func SuiteVersions(root string) (result.Versions, error) {
	cat, err := hashFiles(root, []string{filepath.Join("fixtures", "catalogue.txt")})
	if err != nil {
		return result.Versions{}, err
	}
	var files []string
	for _, dir := range []string{"features", "fixtures", "schema"} {
		// A root may link its folders (a scratch root in tests): walk what the link names.
		top, err := filepath.EvalSymlinks(filepath.Join(root, dir))
		if err != nil {
			return result.Versions{}, fmt.Errorf("suite version: %w", err)
		}
		err = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			// schema's loader code is not the contract, nor the port manifests' schema (which
			// says how ports are found and built, not how they are judged).
			if filepath.Ext(p) == ".go" || filepath.Base(p) == "port.schema.json" {
				return nil
			}
			rel, _ := filepath.Rel(top, p)
			files = append(files, filepath.Join(dir, rel))
			return nil
		})
		if err != nil {
			return result.Versions{}, fmt.Errorf("suite version: %w", err)
		}
	}
	// A port's facts decide verdicts as the fixtures do (runners/<port>/facts.json), and the
	// areas' protocol fragments are the protocol as the envelope in schema/ is.
	facts, err := filepath.Glob(filepath.Join(root, "runners", "*", "facts.json"))
	if err == nil {
		var frags []string
		frags, err = filepath.Glob(filepath.Join(root, "steps", "*", "protocol.json"))
		facts = append(facts, frags...)
	}
	if err != nil {
		return result.Versions{}, fmt.Errorf("suite version: %w", err)
	}
	for _, p := range facts {
		rel, _ := filepath.Rel(root, p)
		files = append(files, rel)
	}
	suite, err := hashFiles(root, files)
	if err != nil {
		return result.Versions{}, err
	}
	return result.Versions{Catalogue: cat, Suite: suite}, nil
}

// hashFiles is a short sha256 over each file's slash path and content, in sorted order.
func hashFiles(root string, rel []string) (string, error) {
	rel = append([]string(nil), rel...)
	sort.Strings(rel)
	h := sha256.New()
	for _, r := range rel {
		b, err := os.ReadFile(filepath.Join(root, r))
		if err != nil {
			return "", fmt.Errorf("suite version: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(r), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
