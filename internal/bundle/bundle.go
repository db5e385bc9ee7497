// Package bundle moves the harness tree in and out of the binary: Nested archives the
// nested modules (runners/go, reference) that go:embed cannot hold, Unpack writes the whole
// tree into the cache when the CLI runs outside a clone.
package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// NestedDirs are the folders with their own go.mod that travel in nested.tar.gz.
var NestedDirs = []string{"runners/go", "reference"}

// NestedName is the archive's file name at the module root.
const NestedName = "nested.tar.gz"

// Nested writes a reproducible tar (sorted names, no times or owners) of NestedDirs under root,
// leaving out tests, testdata, hidden files and build outputs (a compiled program left by a
// `go build` in the folder): what running needs, not what testing needs, and the same bytes
// from every clean clone.
func Nested(root string, w io.Writer) error {
	var names []string
	for _, dir := range NestedDirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if name == "testdata" || (strings.HasPrefix(name, ".") && p != filepath.Join(root, dir)) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "_test.go") || !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			names = append(names, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	sort.Strings(names)
	tw := tar.NewWriter(w)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			return err
		}
		if bytes.HasPrefix(b, []byte("\x7fELF")) || bytes.HasPrefix(b, []byte("MZ")) {
			continue // a build output, not a source
		}
		mode := int64(0o644)
		if path.Base(n) == "prepare" {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: mode, Size: int64(len(b)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	return tw.Close()
}

// NestedGz is Nested, gzipped with no name or time in the header.
func NestedGz(root string, w io.Writer) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err := Nested(root, zw); err != nil {
		return err
	}
	return zw.Close()
}

// Unpack writes the embedded tree into base/harness-<hash>/ once (the hash of its content, so
// a new binary gets a new tree and a half-written one is never used) and returns that root.
func Unpack(files fs.FS, base string) (string, error) {
	h := sha256.New()
	var paths []string
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(b))
		h.Write(b)
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	root := filepath.Join(base, "harness-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(root, ".unpacked")); err == nil {
		return root, nil
	}
	tmp, err := os.MkdirTemp(base, ".harness-")
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, p := range paths {
		b, _ := fs.ReadFile(files, p)
		if p == NestedName {
			if err := untar(b, tmp); err != nil {
				return "", err
			}
			continue
		}
		if err := write(filepath.Join(tmp, filepath.FromSlash(p)), b, modeOf(p)); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".unpacked"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, root); err != nil {
		if _, serr := os.Stat(filepath.Join(root, ".unpacked")); serr == nil {
			return root, nil // another process unpacked it first
		}
		return "", fmt.Errorf("bundle: %w", err)
	}
	return root, nil
}

func modeOf(p string) os.FileMode {
	if path.Base(p) == "prepare" || strings.HasSuffix(p, ".sh") {
		return 0o755
	}
	return 0o644
}

func untar(gz []byte, dst string) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("bundle: %s: %w", NestedName, err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("bundle: %s: %w", NestedName, err)
		}
		name := path.Clean(hdr.Name)
		if strings.HasPrefix(name, "..") || path.IsAbs(name) {
			return fmt.Errorf("bundle: %s: bad entry %q", NestedName, hdr.Name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := write(filepath.Join(dst, filepath.FromSlash(name)), b, os.FileMode(hdr.Mode)&0o755); err != nil {
			return err
		}
	}
}

func write(p string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, mode)
}
