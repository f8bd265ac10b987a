package main

import "io"

// runPack is replaced by the pack implementation.
func runPack(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return exitUsage }
