package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// ExpectationsPath is the file of an implementation whose version has no release number (a
// build the library cannot name a release for): expectations/<name>.txt.
func ExpectationsPath(root, implementation string) string {
	return filepath.Join(root, "expectations", implementation+".txt")
}

// versionedPath is the file written for one release of a family: expectations/<family>@<v>.txt.
func versionedPath(root, family, version string) string {
	return filepath.Join(root, "expectations", family+"@"+version+".txt")
}

// expectFiles is every expectations file one column may be judged by, read before the run so
// a bad one is bad input before anything runs; the column's version (known at hello) picks.
type expectFiles struct {
	root, name, family string
	release            string                          // the column's release (python@0.21.0), "" for a build
	plain              *result.Expectations            // <name>.txt (maybe empty, never nil)
	byVersion          map[string]*result.Expectations // <family>@<v>.txt, keyed by versionKey
}

// loadExpectFiles reads <name>.txt and every <family>@<version>.txt. A versioned file whose
// version: line names another release is bad input (file:line).
func loadExpectFiles(root string, im ports.Implementation, f *Features) (*expectFiles, error) {
	family := strings.TrimSuffix(im.Name, "@"+im.Release)
	x := &expectFiles{root: root, name: im.Name, family: family, release: im.Release, byVersion: map[string]*result.Expectations{}}
	var err error
	if im.Release == "" {
		if x.plain, err = LoadExpectations(ExpectationsPath(root, im.Name), f); err != nil {
			return nil, err
		}
	}
	paths, err := filepath.Glob(filepath.Join(root, "expectations", family+"@*.txt"))
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, p := range paths {
		named := versionKey(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), family+"@"), ".txt"))
		ex, err := LoadExpectations(p, f)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if got := versionKey(ex.Version); got != named {
			errs = append(errs, fmt.Sprintf("%s:%d: version: %q is not the release the file is named for (%s)", p, versionLine(p), ex.Version, named))
			continue
		}
		x.byVersion[named] = ex
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return x, nil
}

// ExpectationsOf is the file a column that never said hello (not present, broken) is shown with.
func ExpectationsOf(root string, im ports.Implementation, f *Features) (*result.Expectations, error) {
	x, err := loadExpectFiles(root, im, f)
	if err != nil {
		return nil, err
	}
	return x.before(), nil
}

// before is the file a column is judged by until hello says its version: a release column's
// own file (none: an empty set at that path, every failure red); for any other column, <name>.txt.
func (x *expectFiles) before() *result.Expectations {
	if x.release == "" {
		return x.plain
	}
	if ex := x.byVersion[versionKey(x.release)]; ex != nil {
		return ex
	}
	return &result.Expectations{Path: versionedPath(x.root, x.family, versionKey(x.release))}
}

// choose is the file a column whose library reports version is judged by, and a warning when
// that file was written for another version:
//   - a release column: its own file, as before;
//   - a build whose version has a release number: <family>@<that>.txt; else the newest file
//     written for an earlier release (a checkout past its last tag is judged by that tag's
//     entries, with a warning, and --update-expected records the new release's own file);
//     else <name>.txt; else no entries, at the new release's path;
//   - a build without a release number: <name>.txt.
func (x *expectFiles) choose(version string) (*result.Expectations, string) {
	ex := x.before()
	key := versionKey(version)
	if x.release == "" && key != "" {
		if own := x.byVersion[key]; own != nil {
			return own, ""
		}
		next := &result.Expectations{Path: versionedPath(x.root, x.family, key)}
		if prev := x.newestBefore(key); prev != nil {
			next.Entries, next.Version = prev.Entries, prev.Version
			return next, fmt.Sprintf("no %s yet: judged by %s, written for %q; this run is %q: re-check its entries (--update-expected writes %s)",
				shortPath(next.Path), shortPath(prev.Path), prev.Version, version, shortPath(next.Path))
		}
		if len(ex.Entries) == 0 {
			return next, ""
		}
	}
	if len(ex.Entries) > 0 && ex.Version != "" && versionKey(ex.Version) != key {
		return ex, fmt.Sprintf("%s was written against version %q; this run is %q: re-check its entries", shortPath(ex.Path), ex.Version, version)
	}
	// A build that names no release, of a port whose releases have files, and no file of its
	// own: every failure turns red, and the reader must be told why (issue 39: 44 rows went red).
	if x.release == "" && key == "" && len(x.byVersion) > 0 && !fileExists(ex.Path) {
		return ex, fmt.Sprintf("version %q names no release and there is no %s, so every failure is red: give the checkout a tag, a VERSION file or a CHANGELOG.md heading (the files here are for %s), or write %s with --update-expected",
			version, shortPath(ex.Path), strings.Join(x.releases(), ", "), shortPath(ex.Path))
	}
	return ex, ""
}

// releases are the releases this family has files for, oldest first.
func (x *expectFiles) releases() []string {
	var keys []string
	for k := range x.byVersion {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return compareVersions(keys[a], keys[b]) < 0 })
	return keys
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// newestBefore is the file of the newest release below key, nil when there is none.
func (x *expectFiles) newestBefore(key string) *result.Expectations {
	var keys []string
	for k := range x.byVersion {
		if compareVersions(k, key) < 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Slice(keys, func(a, b int) bool { return compareVersions(keys[a], keys[b]) < 0 })
	return x.byVersion[keys[len(keys)-1]]
}

// versionKey is the release number in a hello version or a file's version: line, "" when it
// has none: "0.16.0 (/cache/…/toolnexus-0.16.0.jar)", "golang/v0.16.0" and "v0.16.0" are
// all "0.16.0"; "v0.0.0 (replaced by …)" (a Go build with no tag) and "reference (…)" have none.
func versionKey(v string) string {
	v = releaseOf(v)
	if i := strings.LastIndex(v, "/"); i >= 0 {
		v = v[i+1:]
	}
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' || v == "0.0.0" {
		return ""
	}
	return v
}

// compareVersions orders release numbers by their dotted numeric parts; a suffix after the
// numbers (0.16.0-3-gabc, a build past the tag) sorts after the plain release.
func compareVersions(a, b string) int {
	pa, sa := numericParts(a)
	pb, sb := numericParts(b)
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(sa, sb)
}

func numericParts(v string) ([]int, string) {
	var out []int
	for v != "" {
		end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
		if end == 0 {
			break
		}
		if end < 0 {
			end = len(v)
		}
		n, _ := strconv.Atoi(v[:end])
		out = append(out, n)
		v = v[end:]
		if !strings.HasPrefix(v, ".") || len(v) < 2 || v[1] < '0' || v[1] > '9' {
			break
		}
		v = v[1:]
	}
	return out, v
}

// versionLine is the line of path's version: field, for messages (1 when it has none).
func versionLine(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 1
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "version:") {
			return i + 1
		}
	}
	return 1
}
