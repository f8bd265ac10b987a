package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

// version is reported by --version.
const version = "0.1.0"

// Exit statuses.
const (
	exitOK       = 0
	exitBadInput = 1
	exitUsage    = 2
	exitInternal = 3
)

const usageText = `usage: sdscgen [flags] FILE.bir     (FILE "-" reads standard input)
       sdscgen pack [flags] FILE.csv
       sdscgen synth [--ops N] [--bundles B] [--seed S] [-o FILE]
       sdscgen explain [flags] FILE.bir NAME

Plans the per-bundle HBM pools of a bundle-IR graph and emits one MLIR
module per bundle: to standard output separated by "// -----" lines, or as
DIR/<bundle>/bundle.mlir plus DIR/plan.json with -o.

Environment: HBM_POOL_PLANNING=0|false|no turns planning off (1|true|yes on);
BUNDLE_SYMBOLIC_ARGS=0|false|no turns fusion off. Flags win over the
environment.

Exit status: 0 ok, 1 bad input, 2 bad usage, 3 internal error.

Flags:
`

// config is the command line after flags and environment are resolved.
type config struct {
	input        string
	outDir       string
	planPath     string
	generic      bool
	budget       int64
	allocator    string
	searchTime   time.Duration // opt-in clock bound for --allocator best (0: none)
	searchEffort int64         // node bound for --allocator best
	force        bool          // --force: replace an -o DIR holding foreign files
	compare      bool          // --compare: every allocator's pool sizes in the plan
	disabled     bool
	symbolicArgs bool
	verify       bool         // re-check the plan with package verify (verify.go)
	emit         emitConfig   // --emit, --frontend-pool-allocation: emitflags.go
	rep          reportConfig // reporting flags: explain.go
}

// usageError is a bad command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "pack":
			return runPack(args[1:], stdin, stdout, stderr)
		case "explain":
			return runExplain(args[1:], stdin, stdout, stderr)
		case "synth":
			return runSynth(args[1:], stdout, stderr)
		}
	}
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		if err.Error() != "" {
			fmt.Fprintf(stderr, "sdscgen: %v\n", err)
		}
		return exitUsage
	}
	if cfg == nil { // --version
		fmt.Fprintf(stdout, "sdscgen %s\n", version)
		return exitOK
	}
	return generate(cfg, stdin, stdout, stderr)
}

// parseFlags resolves the command line and environment into a config. It
// returns (nil, nil) for --version.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("sdscgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	cfg := &config{}
	fs.StringVar(&cfg.outDir, "o", "", "write DIR/<bundle>/bundle.mlir for every bundle and DIR/plan.json")
	fs.StringVar(&cfg.planPath, "plan", "", "write the plan JSON to `FILE` (\"-\": standard output, instead of the MLIR)")
	fs.BoolVar(&cfg.generic, "generic", false, "print sdscbundle ops in MLIR generic form (for stock mlir-opt --allow-unregistered-dialect)")
	budget := decimalFlag(fs, "budget", planner.DefaultBudget, "pool budget per bundle in `BYTES` (MAX_POOL_SIZE_BYTES)")
	segment := decimalFlag(fs, "segment-size", 17179869184, "HBM segment size in `BYTES`; budget = segment-size - reserve")
	reserve := decimalFlag(fs, "reserve", 2147483648, "`BYTES` of the segment kept out of the pool")
	fs.StringVar(&cfg.allocator, "allocator", "first-fit", "pool allocator: "+strings.Join(alloc.Names, ", "))
	decimalVar(fs, &cfg.searchEffort, "search-effort", alloc.DefaultMaxNodes, "search nodes per bundle of --allocator best (the result depends only on the input and this)")
	fs.DurationVar(&cfg.searchTime, "search-time", 0, "also stop --allocator best's search after this `duration` per bundle (opt-in: the result then varies with machine load)")
	fs.BoolVar(&cfg.force, "force", false, "let -o replace an existing DIR even when it holds files sdscgen did not write (they are deleted)")
	fs.BoolVar(&cfg.compare, "compare", false, "add to the plan JSON, per bundle, the pool size every allocator would need")
	noPool := fs.Bool("no-pool", false, "turn pool planning off (as HBM_POOL_PLANNING=0)")
	fs.BoolVar(&cfg.symbolicArgs, "bundle-symbolic-args", true, "fuse ops into bundles; false makes every leaf op its own bundle")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.BoolVar(&cfg.verify, "verify", true, "check the plan against the spec's rules with an independent verifier; a failure is an internal error (exit 3)")
	cfg.rep.register(fs)
	cfg.emit.register(fs)

	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			positional = append(positional, rest[1:]...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if *showVersion {
		return nil, nil
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if len(positional) != 1 {
		fs.Usage()
		return nil, usageError{fmt.Sprintf("want exactly one input file, got %d", len(positional))}
	}
	cfg.input = positional[0]

	switch {
	case set["budget"] && (set["segment-size"] || set["reserve"]):
		return nil, usageError{"--budget cannot be combined with --segment-size or --reserve"}
	case set["budget"]:
		cfg.budget = *budget
	case *reserve > *segment:
		return nil, usageError{fmt.Sprintf("--reserve %d is larger than --segment-size %d", *reserve, *segment)}
	default:
		cfg.budget = *segment - *reserve
	}
	if set["explain"] && cfg.rep.explain == "" {
		return nil, usageError{"--explain needs a buffer name"}
	}
	if err := cfg.rep.validate(); err != nil {
		return nil, err
	}
	if err := cfg.emit.validate(); err != nil {
		return nil, err
	}
	if _, err := alloc.Lookup(cfg.allocator); err != nil {
		return nil, usageError{err.Error()}
	}
	if set["search-time"] && cfg.searchTime <= 0 {
		return nil, usageError{fmt.Sprintf("--search-time must be positive (got %v)", cfg.searchTime)}
	}
	if cfg.searchEffort <= 0 {
		return nil, usageError{"--search-effort must be positive"}
	}

	cfg.disabled = *noPool
	if !set["no-pool"] {
		on, err := envBool("HBM_POOL_PLANNING", true)
		if err != nil {
			return nil, err
		}
		cfg.disabled = !on
	}
	if !set["bundle-symbolic-args"] {
		on, err := envBool("BUNDLE_SYMBOLIC_ARGS", true)
		if err != nil {
			return nil, err
		}
		cfg.symbolicArgs = on
	}
	return cfg, nil
}

// envBool reads a boolean switch from the environment the way torch-spyre
// does: 0/false/no and 1/true/yes in any case; unset or empty means def.
func envBool(name string, def bool) (bool, error) {
	v := strings.TrimSpace(os.Getenv(name))
	switch strings.ToLower(v) {
	case "":
		return def, nil
	case "0", "false", "no":
		return false, nil
	case "1", "true", "yes":
		return true, nil
	}
	return false, usageError{fmt.Sprintf("%s=%s: want 0/false/no or 1/true/yes", name, strconv.Quote(v))}
}

func generate(cfg *config, stdin io.Reader, stdout, stderr io.Writer) int {
	if cfg.searchTime > 0 && (cfg.allocator == "best" || cfg.compare) {
		fmt.Fprintf(stderr, "sdscgen: note: --search-time %v bounds best's search by the clock: the plan may differ from run to run and machine to machine\n", cfg.searchTime)
	}
	g, src, ok := loadWithSource(cfg.input, stdin, stderr)
	if !ok {
		return exitBadInput
	}
	if !cfg.symbolicArgs {
		g = g.Unfused()
	}
	if code, done := cfg.rep.afterCheck(g, stdout, stderr); done {
		return code
	}
	popt := planner.Options{Disabled: cfg.disabled, Budget: cfg.budget,
		AllocatorName: cfg.allocator, Allocator: cfg.allocFunc(cfg.allocator)}
	plan := planner.Plan(g, popt)
	if cfg.compare {
		var all []planner.NamedAllocator
		for _, name := range alloc.Names {
			all = append(all, planner.NamedAllocator{Name: name, Func: cfg.allocFunc(name)})
		}
		plan.Compare = planner.Compare(g, popt, all)
	}
	if cfg.verify {
		if err := verifyPlan(cfg, plan); err != nil {
			fmt.Fprintf(stderr, "sdscgen: internal error: plan verification failed: %v\n", err)
			return exitInternal
		}
	}
	if code, done := cfg.rep.afterPlan(plan, src, stdout, stderr); done {
		return code
	}
	mopt := mlirgen.Options{Generic: cfg.generic}
	cfg.emit.apply(&mopt)
	if err := writeOutputs(cfg, plan, mopt, stdout); err != nil {
		if d, ok := err.(diagError); ok {
			fmt.Fprintln(stderr, d)
		} else {
			fmt.Fprintf(stderr, "sdscgen: %v\n", err)
		}
		return exitBadInput
	}
	return exitOK
}

// allocFunc returns the allocator called name (already validated) with the
// command line's options.
func (cfg *config) allocFunc(name string) alloc.Func {
	f, err := alloc.LookupWith(name, alloc.Options{SearchTime: cfg.searchTime, MaxNodes: cfg.searchEffort})
	if err != nil {
		panic(err) // names come from alloc.Names or were validated
	}
	return f
}
