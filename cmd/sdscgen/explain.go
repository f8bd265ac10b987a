package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// reportConfig holds the reporting flags (docs/reporting.md). None of them
// changes the -o output, the plan JSON or the MLIR: --stats and --remarks
// add text on standard error, --svg adds files, and --explain and
// --dump-after replace standard output and stop before any output file is
// written.
type reportConfig struct {
	stats     bool
	explain   string
	remarks   string
	svgDir    string
	dumpAfter string

	remarkMode report.RemarkMode
}

// register adds the reporting flags to fs.
func (rc *reportConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&rc.stats, "stats", false, "print a per-bundle pool summary table to standard error")
	fs.StringVar(&rc.explain, "explain", "", "explain why buffer `NAME` is (not) pooled, on standard output, instead of the MLIR")
	fs.StringVar(&rc.remarks, "remarks", "", "print `MODE` remarks (missed, passed or all) at buffer declarations to standard error")
	fs.StringVar(&rc.svgDir, "svg", "", "write a memory map `DIR`/<bundle>/memory.svg per bundle (DIR may be the -o DIR)")
	fs.StringVar(&rc.dumpAfter, "dump-after", "", "print a text dump after `STAGE` (check or plan) on standard output and stop")
}

// validate checks the reporting flags once all flags are parsed.
func (rc *reportConfig) validate() error {
	if rc.remarks != "" {
		m, err := report.ParseRemarkMode(rc.remarks)
		if err != nil {
			return usageError{"--remarks: " + err.Error()}
		}
		rc.remarkMode = m
	}
	switch rc.dumpAfter {
	case "", "check", "plan":
	default:
		return usageError{fmt.Sprintf("--dump-after=%s: want check or plan", rc.dumpAfter)}
	}
	if rc.explain != "" && rc.dumpAfter != "" {
		return usageError{"--explain cannot be combined with --dump-after"}
	}
	return nil
}

// afterCheck runs --dump-after=check. done reports that the run ends here
// with the given exit code.
func (rc *reportConfig) afterCheck(g *ir.Graph, stdout, stderr io.Writer) (code int, done bool) {
	if rc.dumpAfter != "check" {
		return 0, false
	}
	if err := report.DumpCheck(stdout, g); err != nil {
		fmt.Fprintf(stderr, "sdscgen: writing dump: %v\n", err)
		return exitBadInput, true
	}
	return exitOK, true
}

// afterPlan prints --remarks and --stats on standard error, then runs
// --dump-after=plan or --explain, which end the run (done).
func (rc *reportConfig) afterPlan(plan *planner.Result, src *report.Source, stdout, stderr io.Writer) (code int, done bool) {
	if rc.remarkMode != 0 {
		report.Remarks(stderr, plan, rc.remarkMode)
	}
	if rc.stats {
		report.Stats(stderr, plan)
	}
	if rc.dumpAfter == "plan" {
		if err := report.DumpPlan(stdout, plan); err != nil {
			fmt.Fprintf(stderr, "sdscgen: writing dump: %v\n", err)
			return exitBadInput, true
		}
		return exitOK, true
	}
	if rc.explain != "" {
		err := report.Explain(stdout, plan, rc.explain, src)
		var unk *report.UnknownNameError
		if errors.As(err, &unk) {
			fmt.Fprintf(stderr, "sdscgen: explain: %v\n", err)
			return exitUsage, true
		}
		if err != nil {
			fmt.Fprintf(stderr, "sdscgen: explain: %v\n", err)
			return exitBadInput, true
		}
		return exitOK, true
	}
	return 0, false
}

// svgFile is the memory map's path relative to the SVG directory.
func svgFile(bundle string) string { return filepath.Join(bundle, "memory.svg") }

// loadWithSource reads, parses and checks the input ("-": stdin), printing
// every diagnostic; besides the checked graph it returns the source facts
// the checked model drops (the rename declarations), for --explain.
func loadWithSource(path string, stdin io.Reader, stderr io.Writer) (*ir.Graph, *report.Source, bool) {
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	src, err := readInput(path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "sdscgen: %v\n", err)
		return nil, nil, false
	}
	f, errs := frontend.Parse(name, src)
	if len(errs) == 0 {
		var g *ir.Graph
		g, errs = frontend.Check(f)
		if len(errs) == 0 {
			return g, sourceOf(f), true
		}
	}
	w := bufio.NewWriter(stderr)
	for _, e := range errs {
		fmt.Fprintln(w, e.Error())
	}
	w.Flush()
	return nil, nil, false
}

// renameSteps counts sourceOf's chain steps, for a test of its bound.
var renameSteps int

// sourceOf collects the rename declarations of a checked file, each with
// its chain resolved to the declared buffer it ends at. Check has already
// rejected broken chains and cycles. Each name is resolved once (the end
// of a chain is remembered for every name on it), so long chains cost
// linear time.
func sourceOf(f *frontend.File) *report.Source {
	next := map[string]string{}
	for _, d := range f.Graph.Decls {
		if d.Rename != nil {
			next[d.Rename.From.Value] = d.Rename.To.Value
		}
	}
	end := make(map[string]string, len(next))
	var path []string
	resolve := func(n string) string {
		path = path[:0]
		for len(path) <= len(next) {
			if e, ok := end[n]; ok {
				n = e
				break
			}
			to, ok := next[n]
			if !ok {
				break
			}
			path = append(path, n)
			n = to
			renameSteps++
		}
		for _, p := range path {
			end[p] = n
		}
		return n
	}
	src := &report.Source{}
	for _, d := range f.Graph.Decls {
		r := d.Rename
		if r == nil {
			continue
		}
		// As in Check, a rename wins over a declaration of the same name.
		to := resolve(r.To.Value)
		p := r.From.Pos
		src.Renames = append(src.Renames, report.Rename{From: r.From.Value, To: to,
			Pos: ir.Pos{File: p.Filename, Line: p.Line, Col: p.Column}})
	}
	return src
}

const explainUsage = `usage: sdscgen explain [flags] FILE.bir NAME

Explains how buffer NAME of FILE.bir is planned: its storage group, the
bundles, ops and CPU nodes that write and read it, its live range, the
reason it is not pooled with the evidence, or its pool offset and the
buffers that reuse its bytes. NAME comes last; the flags are those of
sdscgen (e.g. --budget, --no-pool, --bundle-symbolic-args=false).
`

// runExplain implements `sdscgen explain [flags] FILE NAME` as
// `sdscgen --explain NAME [flags] FILE`.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	n := len(args)
	if n == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stderr, explainUsage)
		return exitOK
	}
	if n < 2 || (strings.HasPrefix(args[n-1], "-") && args[n-1] != "-") {
		fmt.Fprint(stderr, explainUsage)
		fmt.Fprintln(stderr, "sdscgen: explain: want FILE.bir NAME")
		return exitUsage
	}
	if args[n-1] == "" {
		fmt.Fprintln(stderr, "sdscgen: explain: the buffer name is empty")
		return exitUsage
	}
	return run(append([]string{"--explain", args[n-1]}, args[:n-1]...), stdin, stdout, stderr)
}
