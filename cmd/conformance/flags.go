package main

import (
	"flag"
	"os"
)

// parseFlags reads a command's flags. -h / --help prints that command's flags on stdout and
// ends it with exit 0; a bad flag is reported on stderr by the flag package, exit 2. ok is
// false when the command must end with code.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(os.Stdout)
			fs.Usage()
			return 0, false
		}
	}
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		return 2, false
	}
	return 0, true
}
