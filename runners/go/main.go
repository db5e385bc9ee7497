// Command adapter relays the Go port to the conformance runner (SPEC.md §3): requests and
// responses as JSON lines, host functions called back (host.go); the runner judges. The kit
// (main.go, kit.go, handles.go, timing.go, host.go, errors.go, warnings.go) is written once;
// each area_*.go registers its own ops, slots and constructor options.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	out := &lockedWriter{w: os.Stdout}
	k := newKit(newHost(out))
	err := serve(k, os.Stdin, out)
	k.handles.closeAll(2 * time.Second)
	if err != nil {
		fmt.Fprintf(os.Stderr, "adapter: %v\n", err)
		os.Exit(1)
	}
}

// serve answers lines until stdin ends or shutdown was answered. The runner validates every
// request against the schema, so a line is decoded as it is.
func serve(k *kit, in io.Reader, out *lockedWriter) error {
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		var req request
		if len(line) > 1 && json.Unmarshal(line, &req) == nil && req.ID > 0 {
			if werr := out.writeLine(k.handle(req)); werr != nil {
				return werr
			}
			if req.Op == "shutdown" {
				return nil
			}
		} else if len(line) > 1 {
			fmt.Fprintf(os.Stderr, "adapter: skipping a line that is not a request: %.200s\n", line)
		}
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}
