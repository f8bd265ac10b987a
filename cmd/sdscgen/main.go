// Command sdscgen plans the per-bundle HBM pools of a bundle-IR graph and
// emits one MLIR function per bundle. This package only translates the
// command line, the environment and files into calls of the pure stages
// (frontend.Parse, frontend.Check, planner.Plan, mlirgen.Emit); see
// README.md for the flags.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
