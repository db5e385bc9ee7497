package suite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// featureTimes is, per feature file (base name), the longest one of its scenarios took in
// an earlier run, on any implementation. godog starts a file's scenarios in the order the
// files are given, so a file whose scenario once took 15 s (java cut at the call deadline in
// C1) goes first: started last, that one scenario was the run's last 9 s on its own. It
// only orders the run, never judges it; without a file the declared waits order it.
type featureTimes map[string]time.Duration

const featureTimesFile = "feature-times.json"

// readFeatureTimes is the cache's record; empty when there is none or it does not parse
// (the order is then the declared one, which is only slower).
func readFeatureTimes(cache string) featureTimes {
	ft := featureTimes{}
	if cache == "" {
		return ft
	}
	b, err := os.ReadFile(filepath.Join(cache, featureTimesFile))
	if err != nil {
		return ft
	}
	var ms map[string]int64
	if json.Unmarshal(b, &ms) != nil {
		return ft
	}
	for k, v := range ms {
		if v > 0 {
			ft[k] = time.Duration(v) * time.Millisecond
		}
	}
	return ft
}

// record keeps, for every feature a finished run ran, its longest scenario now; the others
// keep their earlier times. A stopped run records nothing.
func (ft featureTimes) record(cache string, results []*result.PortResult) error {
	if cache == "" {
		return nil
	}
	now := map[string]time.Duration{}
	for _, r := range results {
		if r == nil || r.Interrupted != "" {
			return nil
		}
		for _, o := range r.Scenarios {
			k := filepath.Base(o.URI)
			now[k] = max(now[k], o.Elapsed)
		}
	}
	if len(now) == 0 {
		return nil
	}
	ms := map[string]int64{}
	for k, v := range ft {
		ms[k] = v.Milliseconds()
	}
	for k, v := range now {
		ms[k] = v.Milliseconds()
	}
	b, err := json.MarshalIndent(ms, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(cache, featureTimesFile), append(b, '\n'))
}
