package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sdscgen/sdscgen/synth"
)

// maxSynthOps bounds --ops: a graph beyond it would not fit the 2 GiB
// input limit anyway.
const maxSynthOps = 1 << 26

const synthUsage = `usage: sdscgen synth [--ops N] [--bundles B] [--seed S] [--name NAME] [-o FILE]

Writes a deterministic synthetic bundle-IR graph (see package synth for its
shape): N leaf ops spread over B bundles, to FILE or standard output.

Flags:
`

// runSynth implements `sdscgen synth`.
func runSynth(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sdscgen synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, synthUsage)
		fs.PrintDefaults()
	}
	var cfg synth.Config
	ops := decimalFlag(fs, "ops", 10000, "leaf ops in total")
	bundles := decimalFlag(fs, "bundles", 1, "top-level bundles the ops are spread over")
	seed := decimalFlag(fs, "seed", 1, "random seed")
	fs.StringVar(&cfg.Name, "name", "synth", "graph name")
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		fmt.Fprintf(stderr, "sdscgen synth: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *ops < 1 || *ops > maxSynthOps || *bundles < 1 || *bundles > *ops {
		fmt.Fprintf(stderr, "sdscgen synth: want 1 <= --ops <= %d and 1 <= --bundles <= --ops (got %d, %d)\n", maxSynthOps, *ops, *bundles)
		return exitUsage
	}
	cfg.Ops, cfg.Bundles, cfg.Seed = int(*ops), int(*bundles), uint64(*seed)
	var err error
	if *out == "" {
		w := bufio.NewWriterSize(stdout, 256<<10)
		if err = synth.Generate(w, cfg); err == nil {
			err = w.Flush()
		}
	} else {
		err = writeFileAtomic(*out, func(f *os.File) error { return synth.Generate(f, cfg) })
	}
	if err != nil {
		// Generate only fails writing: a full disk or a closed pipe is
		// the environment's doing, not an internal error.
		fmt.Fprintf(stderr, "sdscgen synth: writing %s: %v\n", outName(*out), err)
		return exitBadInput
	}
	return exitOK
}
