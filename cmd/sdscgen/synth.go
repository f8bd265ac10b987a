package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sdscgen/sdscgen/synth"
)

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
	fs.IntVar(&cfg.Ops, "ops", 10000, "leaf ops in total")
	fs.IntVar(&cfg.Bundles, "bundles", 1, "top-level bundles the ops are spread over")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
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
	if cfg.Ops < 1 || cfg.Bundles < 1 || cfg.Bundles > cfg.Ops {
		fmt.Fprintf(stderr, "sdscgen synth: want --ops >= 1 and 1 <= --bundles <= --ops (got %d, %d)\n", cfg.Ops, cfg.Bundles)
		return exitUsage
	}
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
		fmt.Fprintf(stderr, "sdscgen synth: %v\n", err)
		return exitInternal
	}
	return exitOK
}
