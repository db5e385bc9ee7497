// Command chaos is the chaos adapter (see package chaos); CHAOS_MODE picks the fault.
package main

import "github.com/muthuishere/toolnexus-conformance/internal/chaos"

func main() { chaos.Main() }
