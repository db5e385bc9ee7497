package suite

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func TestAFeatureThatTookLongestRunsFirstNextTime(t *testing.T) {
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	before, err := loadFeatures(root, readFeatureTimes(cache), nil)
	if err != nil {
		t.Fatal(err)
	}
	last := before.order.run[len(before.order.run)-1]
	// A run in which the last file's scenario was cut at a 15 s deadline.
	r := &result.PortResult{Port: "java", Scenarios: []result.Outcome{
		{URI: last, Elapsed: 15 * time.Second}, {URI: before.order.run[0], Elapsed: 2 * time.Second}}}
	if err := readFeatureTimes(cache).record(cache, []*result.PortResult{r}); err != nil {
		t.Fatal(err)
	}
	after, err := loadFeatures(root, readFeatureTimes(cache), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.order.run[0]; got != last {
		t.Errorf("first file %s; want %s, whose scenario took 15 s", filepath.Base(got), filepath.Base(last))
	}
	if len(after.Scenarios) != len(before.Scenarios) {
		t.Errorf("%d scenarios after reordering, %d before", len(after.Scenarios), len(before.Scenarios))
	}
	// A stopped run keeps the record as it was; a file that does not parse orders nothing.
	stopped := &result.PortResult{Port: "go", Interrupted: "SIGINT", Scenarios: []result.Outcome{{URI: before.order.run[0], Elapsed: time.Minute}}}
	if err := readFeatureTimes(cache).record(cache, []*result.PortResult{stopped}); err != nil {
		t.Fatal(err)
	}
	if ft := readFeatureTimes(cache); ft[filepath.Base(last)] != 15*time.Second || ft[filepath.Base(before.order.run[0])] != 2*time.Second {
		t.Errorf("after a stopped run: %v", ft)
	}
	if err := os.WriteFile(filepath.Join(cache, featureTimesFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ft := readFeatureTimes(cache); len(ft) != 0 {
		t.Errorf("a broken file gave %v", ft)
	}
}
