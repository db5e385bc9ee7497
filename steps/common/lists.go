package common

import (
	"sort"
	"strings"
)

// Helpers on lists and names written in step text.

func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), `"`)
		if p != "" && p != "none" {
			out = append(out, p)
		}
	}
	return out
}

func ClipString(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// QuotedList returns the "quoted" items of a step argument, in order.
func QuotedList(s string) []string {
	var vals []string
	for i, p := range strings.Split(s, `"`) {
		if i%2 == 1 {
			vals = append(vals, p)
		}
	}
	return vals
}

func SortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Dedup is list with each entry once, in first-seen order.
func Dedup(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
