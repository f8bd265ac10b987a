package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// command is one command's flags and usage texts. Flags may come before
// or after the positional arguments ("--" ends the flags); -h, -help and
// --help print the whole usage on standard output and exit 0; a bad flag
// prints one error line, with a did-you-mean for a misspelt flag, and the
// short usage, on standard error (exit 2).
type command struct {
	fs    *flag.FlagSet
	name  string // "sdscgen", "sdscgen pack", ...
	long  string // printed before the flags by help
	short string // the usage lines, printed after a usage error
}

func newCommand(name, long, short string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &command{fs: fs, name: name, long: long, short: short}
}

// help prints the whole usage: the text, then every flag.
func (c *command) help(w io.Writer) {
	fmt.Fprint(w, c.long)
	printFlags(w, c.fs)
}

// printFlags lists the flags of fs in name order as README.md writes
// them: "-o DIR" for a one-letter flag, "--name VALUE" for the others
// (VALUE is the back-quoted word of the usage; a boolean has none),
// then the usage on an indented line, with the default when it is not
// the zero value.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		value, usage := flag.UnquoteUsage(f)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			value = ""
		}
		line := "  " + dash + f.Name
		if value != "" {
			line += " " + value
		}
		switch f.DefValue {
		case "", "0", "0s", "false":
		default:
			usage += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%s\n        %s\n", line, usage)
	})
}

// usageError prints msg and the short usage on stderr; it returns the
// exit status of bad usage.
func (c *command) usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "%s: %s\n%sRun '%s -h' for details.\n", c.name, msg, c.short, c.name)
	return exitUsage
}

// parse parses args; it returns the positional arguments, or ok false
// with the exit status once help or a usage error has been printed.
func (c *command) parse(args []string, stdout, stderr io.Writer) (positional []string, code int, ok bool) {
	for {
		err := c.fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.help(stdout)
			return nil, exitOK, false
		}
		if err != nil {
			return nil, c.usageError(stderr, c.flagMessage(err)), false
		}
		rest := c.fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			// flag consumed a "--": everything after it is positional.
			return append(positional, rest...), 0, true
		}
		if len(rest) == 0 {
			return positional, 0, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// flagMessage rewords the flag package's error for an unknown flag
// with the closest defined flag.
func (c *command) flagMessage(err error) string {
	name, unknown := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !unknown {
		// The flag package names a flag with one dash; the help and
		// the documentation write a long one with two.
		msg := err.Error()
		c.fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) > 1 {
				for _, form := range []string{"flag -" + f.Name + ":", "flag: -" + f.Name, "argument: -" + f.Name} {
					if i := strings.Index(msg, form); i >= 0 && (i+len(form) == len(msg) || form[len(form)-1] == ':') {
						msg = msg[:i] + strings.Replace(form, "-", "--", 1) + msg[i+len(form):]
					}
				}
			}
		})
		return msg
	}
	var names []string
	c.fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := "unknown flag --" + name
	if s := report.Suggest(name, names, 1); len(s) > 0 {
		msg += " (did you mean --" + s[0] + "?"
		if note := report.LookAlikeNote(name); note != "" {
			msg += " " + note
		}
		msg += ")"
	}
	return msg
}

// set reports which flags the command line set.
func (c *command) set() map[string]bool {
	set := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

const mainShort = `usage: sdscgen [flags] FILE.bir     (FILE "-" reads standard input)
       sdscgen pack [flags] FILE.csv
       sdscgen synth [flags]
       sdscgen explain [flags] FILE.bir NAME
       sdscgen help [pack|synth|explain|version]
       sdscgen version [--json]
`

var mainLong = mainShort + `
Plans the per-bundle HBM pools of a bundle-IR graph and emits one MLIR
module per bundle: to standard output separated by "// -----" lines, or as
DIR/<bundle>/bundle.mlir plus DIR/plan.json with -o.

Environment: HBM_POOL_PLANNING=0|false|no turns planning off (1|true|yes on);
BUNDLE_SYMBOLIC_ARGS=0|false|no turns fusion off;
SPYRE_INDUCTOR_SDSC_CACHE=0|false|no turns the sdsc_cache off. Flags win
over the environment.

Exit status: 0 ok, 1 bad input, 2 bad usage, 3 internal error.

Allocators (--allocator):
` + allocatorList() + `
Flags:
`

// allocatorList is alloc.Table() as help text, in table order.
func allocatorList() string {
	var b strings.Builder
	for _, a := range alloc.Table() {
		fmt.Fprintf(&b, "  %-14s %s\n", a.Name, a.Doc)
	}
	return b.String()
}

// config is the command line after flags and environment are resolved.
type config struct {
	input  string
	outDir string
	// dest are the values of the flagged outputs' flags (--plan FILE,
	// --html FILE, --svg DIR), in the order of flagged.
	dest  []string
	force bool // --force: replace an -o DIR holding foreign files
	// errorLimit is --error-limit: at most this many diagnostics are
	// printed (0: all).
	errorLimit int
	// caret is --caret: auto, always or never show the source line and
	// a caret under each diagnostic (auto: when stderr is a terminal).
	caret string
	// diagJSON is --diagnostics-format=json: diagnostics and remarks
	// as JSON lines (frontend.Diagnostic).
	diagJSON   bool
	diagFormat string
	opt        sdscgen.Options
	emit       sdscgen.EmitOptions
	rep        reportConfig
}

// reportConfig holds the reporting flags (docs/reporting.md). None of them
// changes the -o output, the plan JSON or the MLIR: --stats and --remarks
// add text on standard error, --svg and --html add files (--html -
// replaces standard output), and --explain and
// --dump-after replace standard output and stop before any output file is
// written.
type reportConfig struct {
	stats     bool
	explain   string
	remarks   string
	dumpAfter string
}

// any reports whether a report other than --svg or --html (which are
// output files) is asked for.
func (rc *reportConfig) any() bool {
	return rc.stats || rc.explain != "" || rc.remarks != "" || rc.dumpAfter != ""
}

// mainFlags are the flags of sdscgen (and of sdscgen explain) as parsed,
// before they are resolved into a config.
type mainFlags struct {
	cfg                      config
	budget, segment, reserve int64
	emit                     string
	noPool, fused, verify    bool
	sdscCache                bool
}

func mainCommand() (*command, *mainFlags) {
	c := newCommand("sdscgen", mainLong, mainShort)
	m := &mainFlags{}
	fs, cfg := c.fs, &m.cfg
	fs.StringVar(&cfg.outDir, "o", "", "write `DIR`/<bundle>/bundle.mlir for every bundle and DIR/plan.json")
	cfg.dest = make([]string, len(flagged))
	for i, o := range flagged {
		fs.StringVar(&cfg.dest[i], o.Flag, "", o.Usage)
	}
	fs.BoolVar(&cfg.emit.Generic, "generic", false, "print sdscbundle ops in MLIR generic form (for stock mlir-opt --allow-unregistered-dialect)")
	decimalVar(fs, &m.budget, "budget", planner.DefaultBudget, "pool budget per bundle in `BYTES` (MAX_POOL_SIZE_BYTES)")
	decimalVar(fs, &m.segment, "segment-size", 17179869184, "HBM segment size in `BYTES`; budget = segment-size - reserve")
	decimalVar(fs, &m.reserve, "reserve", 2147483648, "`BYTES` of the segment kept out of the pool")
	fs.StringVar(&cfg.opt.Allocator, "allocator", alloc.Names()[0], "pool allocator `NAME`: "+strings.Join(alloc.Names(), ", "))
	decimalVar(fs, &cfg.opt.SearchNodes, "search-effort", alloc.DefaultMaxNodes, "`N` search nodes per bundle of --allocator best (the result depends only on the input and this)")
	durationVar(fs, &cfg.opt.SearchTime, "search-time", 0, "also stop --allocator best's search after `D` (a duration: 500ms, 5s, 1m) per bundle (opt-in: the result then varies with machine load)")
	fs.IntVar(&cfg.errorLimit, "error-limit", frontend.DefaultErrorLimit, "print at most `N` errors of the input, then one line saying how many more there are (0: print them all)")
	fs.StringVar(&cfg.caret, "caret", "auto", "show the source line and a caret under each error of the input: `WHEN` auto (when standard error is a terminal), always or never")
	fs.StringVar(&cfg.diagFormat, "diagnostics-format", "text", "write the errors of the input and --remarks as `FORMAT` text or json (one JSON object per line)")
	fs.BoolVar(&cfg.force, "force", false, "let -o replace an existing DIR even when it holds files sdscgen did not write (they are deleted)")
	fs.BoolVar(&cfg.opt.Compare, "compare", false, "add to the plan JSON, per bundle, the pool size every allocator would need")
	fs.BoolVar(&m.noPool, "no-pool", false, "turn pool planning off (as HBM_POOL_PLANNING=0)")
	fs.BoolVar(&m.fused, "bundle-symbolic-args", true, "fuse ops into bundles; false makes every leaf op its own bundle")
	fs.Bool("version", false, "print the version and exit")
	fs.BoolVar(&m.verify, "verify", true, "check the plan against the spec's rules with an independent verifier; a failure is an internal error (exit 3)")
	rc := &cfg.rep
	fs.BoolVar(&rc.stats, "stats", false, "print a per-bundle pool summary table to standard error")
	fs.StringVar(&rc.explain, "explain", "", "explain why buffer `NAME` is (not) pooled, or what holds HBM while bundle NAME runs, on standard output, instead of the MLIR")
	fs.StringVar(&rc.remarks, "remarks", "", "print `MODE` remarks (missed, passed or all) at buffer declarations to standard error")
	fs.StringVar(&rc.dumpAfter, "dump-after", "", "print a text dump after `STAGE` (check or plan) on standard output and stop")
	fs.StringVar(&m.emit, "emit", "mlir", "what to emit per bundle, `FORM` mlir (the bundle) or addresses (a func/arith/affine function returning every sdsc_execute operand address; -o writes DIR/<bundle>/addresses.mlir)")
	fs.BoolVar(&m.sdscCache, "sdsc-cache", true, "let an op whose SDSC equals an earlier op's of its bundle reuse that op's sdsc_K.json, as torch-spyre's sdsc_cache (SPYRE_INDUCTOR_SDSC_CACHE) does by default")
	fs.BoolVar(&cfg.emit.FrontendPoolAllocation, "frontend-pool-allocation", false, "take each bundle's pool as a first %pool_base_addr argument instead of allocating it (torch-spyre FRONTEND_POOL_ALLOCATION)")
	return c, m
}

// parseFlags resolves the command line and environment into a config; ok
// is false, with the exit status, when the run ends here (help, version,
// a usage error, all printed).
func parseFlags(args []string, stdout, stderr io.Writer) (cfg *config, code int, ok bool) {
	c, m := mainCommand()
	positional, code, ok := c.parse(args, stdout, stderr)
	if !ok {
		return nil, code, false
	}
	if c.set()["version"] {
		if len(positional) > 0 {
			return nil, c.usageError(stderr, fmt.Sprintf("--version takes no arguments (got %q)", positional[0])), false
		}
		fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
		return nil, exitOK, false
	}
	// The flags' values first: a value flag given no value takes the
	// file's name (--remarks model.bir), and its message says so better
	// than a count of files.
	cfg, code, ok = m.resolve(c, "", stderr)
	if !ok {
		return nil, code, false
	}
	if len(positional) != 1 {
		return nil, c.usageError(stderr, fmt.Sprintf("want exactly one input file, got %d", len(positional))), false
	}
	cfg.input = positional[0]
	return cfg, 0, true
}

// commands are the subcommands, for the did-you-mean of a misspelt one.
var commands = []string{"pack", "explain", "synth", "help", "version"}

// misspeltCommand returns the command arg (the first argument, not a
// flag) is most likely a misspelling of, or "" when it is none or names
// an existing file (the input).
func misspeltCommand(arg string) string {
	if arg == "" || arg[0] == '-' {
		return ""
	}
	s := report.Suggest(arg, commands, 1)
	if len(s) == 0 {
		return ""
	}
	if _, err := os.Lstat(arg); err == nil {
		return ""
	}
	return s[0]
}

// checkAllocator says, when name is no allocator, which are.
func checkAllocator(name string) error {
	for _, n := range alloc.Names() {
		if n == name {
			return nil
		}
	}
	msg := fmt.Sprintf("--allocator %s: unknown allocator; want %s", name, orList(alloc.Names()))
	if s := report.Suggest(name, alloc.Names(), 1); len(s) > 0 {
		msg += " (did you mean " + s[0] + "?)"
	}
	return errors.New(msg)
}

// suggestion is " (did you mean X?)" for the name of names closest to
// value, or "".
func suggestion(value string, names []string) string {
	if s := report.Suggest(value, names, 1); len(s) > 0 {
		return " (did you mean " + s[0] + "?)"
	}
	return ""
}

// orList writes names as "a, b, c or d".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// explainConflict refuses the output flags with explain (--explain or
// the explain command), which prints on standard output instead.
func explainConflict(set map[string]bool) error {
	for _, f := range append([]string{"o"}, flagNames()...) {
		if set[f] {
			dash := "--"
			if len(f) == 1 {
				dash = "-"
			}
			return fmt.Errorf("%s%s does not apply to explain: it prints on standard output and writes no files", dash, f)
		}
	}
	return nil
}

// flagNames are the flagged outputs' flags.
func flagNames() []string {
	var names []string
	for _, o := range flagged {
		names = append(names, o.Flag)
	}
	return names
}

// oneStdout refuses two flagged outputs to standard output ("-").
func oneStdout(dest []string) error {
	first := ""
	for i, o := range flagged {
		if dest[i] == "-" && !o.PerBundle {
			if first != "" {
				return fmt.Errorf("--%s - and --%s - cannot both write standard output", first, o.Flag)
			}
			first = o.Flag
		}
	}
	return nil
}

// resolve checks the parsed flags against each other and the
// environment. Errors here are printed as one line (exit 2).
func (m *mainFlags) resolve(c *command, input string, stderr io.Writer) (*config, int, bool) {
	cfg, err := m.config(c, input)
	if err != nil {
		fmt.Fprintf(stderr, "sdscgen: %v\n", err)
		return nil, exitUsage, false
	}
	return cfg, 0, true
}

func (m *mainFlags) config(c *command, input string) (*config, error) {
	cfg := &m.cfg
	set := c.set()
	cfg.input = input
	var budget int64
	switch {
	case set["budget"] && (set["segment-size"] || set["reserve"]):
		return nil, errors.New("--budget cannot be combined with --segment-size or --reserve")
	case set["budget"]:
		budget = m.budget
	case m.reserve > m.segment:
		return nil, fmt.Errorf("--reserve %d is larger than --segment-size %d", m.reserve, m.segment)
	default:
		budget = m.segment - m.reserve
	}
	cfg.opt.Budget, cfg.opt.ZeroBudget = budget, budget == 0
	if cfg.errorLimit < 0 {
		return nil, fmt.Errorf("--error-limit %d: want 0 (no limit) or more", cfg.errorLimit)
	}
	switch cfg.caret {
	case "auto", "always", "never":
	default:
		return nil, fmt.Errorf("--caret=%s: want auto, always or never%s", cfg.caret, suggestion(cfg.caret, []string{"auto", "always", "never"}))
	}
	switch cfg.diagFormat {
	case "text":
		cfg.diagJSON = false
	case "json":
		cfg.diagJSON = true
	default:
		return nil, fmt.Errorf("--diagnostics-format=%s: want text or json%s", cfg.diagFormat, suggestion(cfg.diagFormat, []string{"text", "json"}))
	}
	rc := &cfg.rep
	if set["explain"] && rc.explain == "" {
		return nil, errors.New("--explain needs a buffer name")
	}
	if rc.explain != "" {
		if err := explainConflict(set); err != nil {
			return nil, err
		}
	}
	if err := checkAllocator(cfg.opt.Allocator); err != nil {
		return nil, err
	}
	if rc.remarks != "" {
		if _, err := report.ParseRemarkMode(rc.remarks); err != nil {
			return nil, errors.New("--remarks: " + err.Error())
		}
	}
	switch rc.dumpAfter {
	case "", "check", "plan":
	default:
		return nil, fmt.Errorf("--dump-after=%s: want check or plan", rc.dumpAfter)
	}
	if err := oneStdout(cfg.dest); err != nil {
		return nil, err
	}
	if rc.explain != "" && rc.dumpAfter != "" {
		return nil, errors.New("--explain cannot be combined with --dump-after")
	}
	if rc.dumpAfter == "check" && (rc.stats || rc.remarks != "") {
		// Both report on the plan, which --dump-after=check stops
		// before: say so rather than drop them.
		return nil, errors.New("--stats and --remarks report on the plan: combine them with --dump-after=plan, not check")
	}
	switch m.emit {
	case "mlir":
	case "addresses":
		cfg.emit.Addresses = true
	default:
		return nil, fmt.Errorf("--emit=%s: want mlir or addresses", m.emit)
	}
	if set["search-time"] && cfg.opt.SearchTime <= 0 {
		return nil, fmt.Errorf("--search-time must be positive (got %v)", cfg.opt.SearchTime)
	}
	if cfg.opt.SearchNodes <= 0 {
		return nil, errors.New("--search-effort must be positive")
	}
	cfg.opt.NoVerify = !m.verify
	cfg.opt.NoPool = m.noPool
	if !set["no-pool"] {
		on, err := envBool("HBM_POOL_PLANNING", true)
		if err != nil {
			return nil, err
		}
		cfg.opt.NoPool = !on
	}
	fused := m.fused
	if !set["bundle-symbolic-args"] {
		on, err := envBool("BUNDLE_SYMBOLIC_ARGS", true)
		if err != nil {
			return nil, err
		}
		fused = on
	}
	cfg.opt.Unfused = !fused
	cache := m.sdscCache
	if !set["sdsc-cache"] {
		on, err := envBool("SPYRE_INDUCTOR_SDSC_CACHE", true)
		if err != nil {
			return nil, err
		}
		cache = on
	}
	cfg.opt.NoSDSCCache = !cache
	cfg.opt.CheckOnly = rc.dumpAfter == "check"
	// The library's own check, after the command line's: an unknown
	// allocator, for one.
	if err := cfg.opt.Validate(); err != nil {
		return nil, err
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
	return false, fmt.Errorf("%s=%s: want 0/false/no or 1/true/yes", name, strconv.Quote(v))
}
