// Command sdscgen plans the per-bundle HBM pools of a bundle-IR graph and
// emits one MLIR function per bundle. This package only translates the
// command line, the environment and files into calls of the pure stages
// (frontend.Parse, frontend.Check, planner.Plan, mlirgen.Emit); see
// README.md for the flags.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

func main() {
	cleanupOnSignal()
	defer func() {
		// A panic is a bug: exit 3 like any internal error (Go's own
		// exit status for a panic, 2, means bad usage here), after
		// removing the temporaries.
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "sdscgen: internal error: %v\n%s", r, debug.Stack())
			removeTemps()
			os.Exit(exitInternal)
		}
	}()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
