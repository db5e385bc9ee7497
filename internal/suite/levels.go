package suite

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// Source is one cited rule of fixtures/sources.txt.
type Source struct {
	Key   string       `json:"key"`
	Level result.Level `json:"level"`
	Text  string       `json:"text"`
}

// SourcesPath is where the cited rules live.
func SourcesPath(root string) string { return filepath.Join(root, "fixtures", "sources.txt") }

// LoadSources reads fixtures/sources.txt: "<key> <level> <citation>" a line, # comments.
func LoadSources(root string) (map[string]Source, error) {
	path := SourcesPath(root)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	defer f.Close()
	out := map[string]Source{}
	var errs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 3)
		if len(parts) < 3 || (result.Level(parts[1]) != result.Required && result.Level(parts[1]) != result.Recommended) {
			errs = append(errs, fmt.Sprintf("%s:%d: want \"<key> required|recommended <citation>\"", shortPath(path), n))
			continue
		}
		if _, dup := out[parts[0]]; dup {
			errs = append(errs, fmt.Sprintf("%s:%d: source %q is given twice", shortPath(path), n, parts[0]))
		}
		out[parts[0]] = Source{Key: parts[0], Level: result.Level(parts[1]), Text: strings.ReplaceAll(parts[2], `\"`, `"`)}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", shortPath(path), err)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return out, nil
}

var stableID = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)

// declare reads a scenario's declared id, level and sources from its tags (@id:<id>,
// @required or @recommended, @src:<key>…) and checks them against the cited rules: one id,
// one level, at least one known source, and a source of that level among them.
func declare(s *Scenario, sources map[string]Source) error {
	var levels []result.Level
	for _, t := range s.Tags {
		switch {
		case strings.HasPrefix(t, "id:"):
			if s.Key.ID != "" {
				return fmt.Errorf("two @id: tags (%s, %s)", s.Key.ID, t[3:])
			}
			s.Key.ID = t[3:]
		case t == string(result.Required) || t == string(result.Recommended):
			levels = append(levels, result.Level(t))
		case strings.HasPrefix(t, "src:"):
			src, ok := sources[t[4:]]
			if !ok {
				return fmt.Errorf("@%s cites no rule of fixtures/sources.txt", t)
			}
			s.Sources = append(s.Sources, src)
		}
	}
	switch {
	case !stableID.MatchString(s.Key.ID):
		return fmt.Errorf("no stable @id:<lower-case-id> tag (got %q)", s.Key.ID)
	case len(levels) != 1:
		return fmt.Errorf("wants exactly one of @required, @recommended (got %d)", len(levels))
	case len(s.Sources) == 0:
		return fmt.Errorf("cites no @src:<key>")
	}
	s.Level = levels[0]
	for _, src := range s.Sources {
		if src.Level == s.Level {
			return nil
		}
	}
	return fmt.Errorf("is @%s but cites no %s source", s.Level, s.Level)
}

// SourceText is the scenario's sources on one line, for reports.
func (s Scenario) SourceText() string {
	var parts []string
	for _, src := range s.Sources {
		parts = append(parts, src.Text)
	}
	return strings.Join(parts, "; ")
}

// declareTiming checks a scenario's timing tags (internal/timing: @within:N, @within-limit:N,
// @within-timeout:N, @quick) and, for @quick, that its steps have the shape a quick first
// attempt needs. Whether each bound is the one its step asserts is checked when that step runs.
func declareTiming(tags []string, steps []*messages.PickleStep) error {
	d, err := timing.Parse(tags)
	if err != nil || !d.Quick {
		return err
	}
	kinds := make([]timing.StepKind, len(steps))
	for i, st := range steps {
		kinds[i] = timing.StepKind(st.Type)
	}
	return timing.CheckQuick(kinds)
}
