package suite

import (
	"os"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// forkServer starts the port's fork server when its prepare named one and the run allows it,
// so its adapters (the fill, and every replacement after a discard) are forks of a warm
// parent instead of runtime starts. nil: every adapter starts plainly. The pool closes it.
func forkServer(o Options, name string, argv, env []string) *adapter.ForkServer {
	if len(argv) == 0 || o.NoForkServer || os.Getenv("CONFORMANCE_NO_FORK_SERVER") != "" {
		return nil
	}
	say := func(line string) {
		if o.Progress == nil {
			o.Progress = os.Stderr // visible whatever the command: the run got slower
		}
		progress(o, "%-9s %s", name, line)
	}
	fs, err := adapter.StartForkServer(name, argv, env, "", say)
	if err != nil {
		say("fork server off: " + safetext.Line(err.Error()) + "; adapters start plainly")
		return nil
	}
	return fs
}
