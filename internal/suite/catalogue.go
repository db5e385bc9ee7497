package suite

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// CatalogueIDs reads fixtures/catalogue.txt: "<ID> <what it checks>" per line.
func CatalogueIDs(root string) ([]string, error) {
	entries, err := Catalogue(root)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		ids = append(ids, e[0])
	}
	return ids, nil
}

// Catalogue returns [ID, title] pairs in file order.
func Catalogue(root string) ([][2]string, error) {
	path := filepath.Join(root, "fixtures", "catalogue.txt")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, title, _ := strings.Cut(line, " ")
		out = append(out, [2]string{id, strings.TrimSpace(title)})
	}
	return out, sc.Err()
}

var tagRe = regexp.MustCompile(`@([A-Z][0-9]*\.[0-9]+)\b`)

// FeatureTags maps each catalogue-style tag found in features/<area>/*.feature to the files
// using it.
func FeatureTags(root string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(root, "features", "*", "*.feature"))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range tagRe.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = append(out[m[1]], filepath.Base(f))
		}
	}
	return out, nil
}

// Uncovered lists catalogue IDs that no scenario is tagged with.
func Uncovered(root string) ([]string, error) {
	ids, err := CatalogueIDs(root)
	if err != nil {
		return nil, err
	}
	tags, err := FeatureTags(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		if len(tags[id]) == 0 {
			out = append(out, id)
		}
	}
	return out, nil
}
