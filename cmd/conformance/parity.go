package main

import (
	"fmt"
	"os"

	"github.com/muthuishere/toolnexus-conformance/internal/parity"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// x4Parity records the reference's returned values (golden) or compares each port's with
// them (X.4 over every contract scenario; shown, never a verdict). A whole recording (every
// contract scenario ran) keeps no value of a scenario that is gone.
func x4Parity(root string, results []*result.PortResult, golden, whole bool) error {
	if golden {
		record := parity.Record
		if whole {
			record = parity.Rerecord
		}
		for _, r := range results {
			if r.Port == result.Reference && r.Present {
				n, err := record(root, r)
				if err != nil {
					return fmt.Errorf("recording %s: %w", parity.File, err)
				}
				fmt.Fprintf(os.Stderr, "X.4: the returned values of %d contract scenarios recorded in %s\n", n, parity.File)
			}
		}
		return nil
	}
	want, err := parity.Load(root)
	if err != nil {
		return err
	}
	for _, r := range results {
		parity.Compare(want, r)
	}
	return nil
}
