package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// WriteFiles writes report.md, results.json, junit-<port>.xml and report.html into dir;
// verbose gives known failures their evidence in report.md too. The optional versions go into
// results.json (see NewResults).
func WriteFiles(dir string, cat [][2]string, results []*result.PortResult, verbose bool, v ...result.Versions) ([]string, error) {
	// It writes all it can and returns the paths written with the errors met.
	type file struct {
		name  string
		write func(io.Writer) error
	}
	files := []file{
		{"report.md", func(w io.Writer) error { return Markdown(w, cat, results, verbose, v...) }},
		{"results.json", func(w io.Writer) error { return JSON(w, cat, results, v...) }},
	}
	for _, r := range results {
		files = append(files, file{"junit-" + r.Port + ".xml", func(w io.Writer) error { return JUnit(w, r) }})
	}
	files = append(files, file{"report.html", func(w io.Writer) error { return HTML(w, cat, results, v...) }})

	var paths []string
	var errs []error
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := writeFile(path, f.write); err != nil {
			errs = append(errs, fmt.Errorf("report %s: %w", path, err))
			continue
		}
		paths = append(paths, path)
	}
	return paths, errors.Join(errs...)
}

// AppendFile appends the file at src to dst (e.g. report.md to $GITHUB_STEP_SUMMARY).
func AppendFile(dst, src string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// writeFile creates path and fills it with write, closing it either way.
// writeFile writes path atomically: a run killed mid-write, or a full disk, leaves the
// previous file (or none), never a truncated one.
func writeFile(path string, write func(io.Writer) error) error { return atomicfile.Write(path, write) }
