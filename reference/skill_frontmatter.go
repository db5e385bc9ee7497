package toolnexus

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A SKILL.md is `---` YAML frontmatter `---` then the body (§3). The frontmatter is read with a
// standard YAML parser (the Go port's gopkg.in/yaml.v3), never a key: value split, so folded,
// literal and quoted scalars resolve as YAML says.

// Why a SKILL.md was not loaded (§3 S3).
const (
	SkipMissingName   SkillSkipReason = "missing-name"
	SkipMalformed     SkillSkipReason = "malformed-frontmatter"
	SkipDuplicateName SkillSkipReason = "duplicate-name"
	SkipUnreadable    SkillSkipReason = "unreadable"
)

var errNoFrontmatter = errors.New("no frontmatter")

// parseSkillFile splits a SKILL.md into its frontmatter fields and body. A file that is not
// UTF-8 is unreadable (C6.9's pin); a file that does not start with a `---` line (a BOM
// before it included, as C6.9 pins) has no frontmatter, so no name.
func parseSkillFile(b []byte) (name, description, body string, skip SkillSkipReason) {
	if !utf8.Valid(b) {
		return "", "", "", SkipUnreadable
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	front, body, err := splitFrontmatter(text)
	if errors.Is(err, errNoFrontmatter) {
		return "", "", text, SkipMissingName
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		return "", "", body, SkipMalformed
	}
	fields := map[string]string{}
	if len(doc.Content) == 1 {
		m := doc.Content[0]
		if m.Kind != yaml.MappingNode {
			return "", "", body, SkipMalformed
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if v, ok := yamlScalarText(m.Content[i+1]); ok {
				fields[m.Content[i].Value] = strings.TrimSpace(v)
			}
		}
	}
	if fields["name"] == "" {
		return "", "", body, SkipMissingName
	}
	return fields["name"], fields["description"], body, ""
}

// splitFrontmatter cuts "---\n<yaml>\n---\n<body>"; the closing fence may end the file.
func splitFrontmatter(text string) (front, body string, err error) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", text, errNoFrontmatter
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return "", strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n"), nil
	}
	i := strings.Index(rest, "\n---\n")
	if i < 0 {
		if strings.HasSuffix(rest, "\n---") {
			return rest[:len(rest)-4], "", nil
		}
		return "", text, errNoFrontmatter
	}
	return rest[:i], rest[i+5:], nil
}

// yamlScalarText coerces a scalar to the string a JavaScript port's String(value) gives
// under the YAML 1.2 core schema (C6.7, C6.8's pin): 123 is "123", 1.0 is "1", 007 is "7",
// yes and 2024-01-01 stay as written (1.2 has neither yes-booleans nor timestamps), null is
// absent. Anything but a scalar is absent too.
func yamlScalarText(n *yaml.Node) (string, bool) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.ShortTag() {
	case "!!null":
		return "", false
	case "!!bool":
		return strconv.FormatBool(strings.EqualFold(n.Value, "true")), true
	case "!!int":
		if i, err := parseYAMLInt(n.Value); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil {
			return jsNumberString(f), true
		}
	case "!!float":
		switch strings.ToLower(strings.TrimLeft(n.Value, "+")) {
		case ".inf":
			return "Infinity", true
		case "-.inf":
			return "-Infinity", true
		case ".nan":
			return "NaN", true
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsInf(f, 0) {
			return jsNumberString(f), true
		}
	}
	return n.Value, true
}

// parseYAMLInt reads a 1.2 core int: decimal (leading zeros allowed, so 007 is 7), 0o octal
// or 0x hex.
func parseYAMLInt(v string) (int64, error) {
	s, neg := v, false
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		s, neg = rest, true
	} else {
		s = strings.TrimPrefix(s, "+")
	}
	var i int64
	var err error
	switch {
	case strings.HasPrefix(s, "0x"):
		i, err = strconv.ParseInt(s[2:], 16, 64)
	case strings.HasPrefix(s, "0o"):
		i, err = strconv.ParseInt(s[2:], 8, 64)
	default:
		i, err = strconv.ParseInt(s, 10, 64)
	}
	if neg {
		i = -i
	}
	return i, err
}

// trimBody is the body as the skill tool shows it: trimmed of surrounding white space.
func trimBody(body string) string { return strings.TrimSpace(body) }
