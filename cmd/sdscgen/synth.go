package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/synth"
)

// maxSynthOps bounds --ops: a graph beyond it would not fit the 2 GiB
// input limit anyway.
const maxSynthOps = 1 << 26

const synthShort = "usage: sdscgen synth [--ops N] [--bundles B] [--seed S] [--family F] [--kinds K] [--name NAME] [-o FILE]\n"

const synthLong = synthShort + `
Writes a deterministic synthetic bundle-IR graph (see package synth for its
shape and its families): N leaf ops spread over B bundles, to FILE or
standard output. --family selects the shape family: default, wide, kargs,
loops, views or unfused (the default graph, for timing with fusion off).

Flags:
`

// synthFlags are the flags of sdscgen synth.
type synthFlags struct {
	ops, bundles, seed, kinds int64
	name, out, family         string
}

func synthCommand(f *synthFlags) *command {
	c := newCommand("sdscgen synth", synthLong, synthShort)
	fs := c.fs
	decimalVar(fs, &f.ops, "ops", 10000, "`N` leaf ops in total")
	decimalVar(fs, &f.bundles, "bundles", 1, "`B` top-level bundles the ops are spread over")
	decimalVar(fs, &f.seed, "seed", 1, "random seed `S`")
	decimalVar(fs, &f.kinds, "kinds", 0, "`K` distinct op kinds (0: ops have no kind)")
	fs.StringVar(&f.family, "family", "default", "shape family `F`: "+strings.Join(synth.Families, ", "))
	fs.StringVar(&f.name, "name", "synth", "graph `NAME` (a name of the language, not a keyword)")
	fs.StringVar(&f.out, "o", "", "write to `FILE` instead of standard output")
	return c
}

// runSynth implements `sdscgen synth`.
func (p *process) runSynth(args []string, stdout, stderr io.Writer) int {
	sf := &synthFlags{}
	c := synthCommand(sf)
	rest, code, ok := c.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) != 0 {
		return c.usageError(stderr, fmt.Sprintf("unexpected argument %q", rest[0]))
	}
	if err := frontend.CheckName(sf.name); err != nil {
		// The graph written would not parse.
		return c.usageError(stderr, "--name: "+err.Error())
	}
	if !slices.Contains(synth.Families, sf.family) {
		return c.usageError(stderr, fmt.Sprintf("--family: unknown family %q (want one of %s)", sf.family, strings.Join(synth.Families, ", ")))
	}
	ops, bundles, seed, out := &sf.ops, &sf.bundles, &sf.seed, &sf.out
	cfg := synth.Config{Name: sf.name, Family: sf.family}
	if *ops < 1 || *ops > maxSynthOps || *bundles < 1 || *bundles > *ops {
		fmt.Fprintf(stderr, "sdscgen synth: want 1 <= --ops <= %d and 1 <= --bundles <= --ops (got %d, %d)\n", maxSynthOps, *ops, *bundles)
		return exitUsage
	}
	if sf.kinds < 0 || sf.kinds > maxSynthOps {
		fmt.Fprintf(stderr, "sdscgen synth: want 0 <= --kinds <= %d (got %d)\n", maxSynthOps, sf.kinds)
		return exitUsage
	}
	cfg.Ops, cfg.Bundles, cfg.Seed, cfg.Kinds = int(*ops), int(*bundles), uint64(*seed), int(sf.kinds)
	var err error
	if *out == "" {
		w := bufio.NewWriterSize(stdout, 256<<10)
		if err = synth.Generate(w, cfg); err == nil {
			err = w.Flush()
		}
	} else {
		err = p.writeFileAtomic(*out, func(f *os.File) error { return synth.Generate(f, cfg) })
	}
	if err != nil {
		// Generate only fails writing: a full disk or a closed pipe is
		// the environment's doing, not an internal error.
		fmt.Fprintf(stderr, "sdscgen synth: writing %s: %v\n", outName(*out), err)
		return exitBadInput
	}
	return exitOK
}
