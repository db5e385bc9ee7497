// Package errkind judges a port's errors: adapters relay what the library raised (its type,
// what it is an instance of, its message, what it wraps), and the runner gives it a protocol
// kind from the port's own table, runners/<port>/errors.json (SPEC.md §3 "The runner judges
// errors"). One table per port keeps the judgement in one language and out of the adapters.
package errkind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
)

// Kinds a table may give; an error no rule matches is Failed.
const (
	Cancelled = "cancelled"
	Deadline  = "deadline"
	Invalid   = "invalid"
	Failed    = "failed"
)

// Entry is one error of a relayed chain: the error itself first, then what it wraps.
type Entry struct {
	Type    string   `json:"type"`
	Is      []string `json:"is,omitempty"`
	Message string   `json:"message"`
}

// Rule gives Kind to an error when one chain entry meets every condition it states.
type Rule struct {
	Kind    string   `json:"kind"`
	Is      []string `json:"is,omitempty"`
	Message string   `json:"message,omitempty"`
	Ops     []string `json:"ops,omitempty"`
	Why     string   `json:"why,omitempty"`
	re      *regexp.Regexp
}

// Table is one port's rules, in order: the first that matches wins.
type Table struct {
	Rules []Rule `json:"rules"`
	file  string
}

// Load reads and checks a table; every error names the file.
func Load(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("error table: %w", err)
	}
	return Parse(path, b)
}

// Parse checks a table's bytes; name is used in errors.
func Parse(name string, b []byte) (*Table, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for i := range t.Rules {
		r := &t.Rules[i]
		switch r.Kind {
		case Cancelled, Deadline, Invalid, Failed:
		default:
			return nil, fmt.Errorf("%s: rule %d: kind %q is not cancelled, deadline, invalid or failed", name, i+1, r.Kind)
		}
		if len(r.Is) == 0 && r.Message == "" {
			return nil, fmt.Errorf("%s: rule %d (%s): needs \"is\" or \"message\", else it matches every error", name, i+1, r.Kind)
		}
		if r.Message != "" {
			re, err := regexp.Compile(r.Message)
			if err != nil {
				return nil, fmt.Errorf("%s: rule %d: message: %v", name, i+1, err)
			}
			r.re = re
		}
	}
	t.file = name
	return &t, nil
}

// Kind judges one error of op. An empty chain stands for the error alone (type and message).
func (t *Table) Kind(op, typ, message string, chain []Entry) string {
	if t == nil {
		return Failed
	}
	if len(chain) == 0 {
		chain = []Entry{{Type: typ, Message: message}}
	}
	for _, r := range t.Rules {
		if len(r.Ops) > 0 && !slices.Contains(r.Ops, op) {
			continue
		}
		for _, e := range chain {
			if r.matches(e) {
				return r.Kind
			}
		}
	}
	return Failed
}

func (r *Rule) matches(e Entry) bool {
	if len(r.Is) > 0 && !slices.Contains(r.Is, e.Type) && !slices.ContainsFunc(e.Is, func(n string) bool { return slices.Contains(r.Is, n) }) {
		return false
	}
	return r.re == nil || r.re.MatchString(e.Message)
}
