// Command sdscgen plans the per-bundle HBM pools of a bundle-IR graph and
// emits one MLIR function per bundle. It is a thin user of package
// github.com/sdscgen/sdscgen (sdscgen.Compile and the Result's writers):
// this package only translates the command line, the environment and
// files into those calls and their errors into exit statuses; see
// README.md for the flags.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/sdscgen/sdscgen"
)

// version is reported by --version, with the build's module version and
// VCS commit.
const version = "0.1.0"

// Exit statuses.
const (
	exitOK       = 0
	exitBadInput = 1
	exitUsage    = 2
	exitInternal = 3
)

func main() { mainProcess().main() }

// mainProcess is the command's own process: it tunes the collector.
func mainProcess() *process {
	gc := newGCTuner(os.Getenv)
	return &process{setGC: gc.input, setGCGraph: gc.graph}
}

// process is what a run needs of its process beyond its arguments and
// standard streams. main's tunes the collector; the zero value (the
// in-process tests') leaves the collector alone. Every other field is
// for tests, to observe or provoke what a run cannot otherwise be made
// to show, and its zero value is the real thing.
type process struct {
	// setGC, when set, tunes the garbage collector for an input of the
	// given size (gcTuner.input); setGCGraph, when set, sizes the
	// collector's memory limit once the graph is checked (gcTuner.graph).
	setGC      func(inputBytes int, unfused bool)
	setGCGraph func(inputBytes, bundles int, unfused bool)
	// compile, when set, replaces sdscgen.CompileReader (a test sees how
	// the command reports a verifier failure).
	compile func(name string, r io.Reader, opt sdscgen.Options) (*sdscgen.Result, error)
	// inputLimit, when positive, replaces maxInput.
	inputLimit int64
	// hook, when set, is called at the named points of the signal
	// handler and of the commit (see at), so that a test can deliver a
	// signal at an exact point of a run.
	hook func(point, path string)
	// removeTree, when set, replaces os.RemoveAll for the staging
	// folders and old trees a run removes (a test sees how one that
	// cannot be removed is reported).
	removeTree func(path string) error
}

// main is the command's process: it exits with the run's status.
func (p *process) main() {
	p.cleanupOnSignal()
	defer func() {
		// A panic is a bug: exit 3 like any internal error (Go's own
		// exit status for a panic, 2, means bad usage here), after
		// removing the temporaries.
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "sdscgen: internal error: %v\n%s", r, debug.Stack())
			p.removeTemps()
			os.Exit(exitInternal)
		}
	}()
	os.Exit(p.run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// at calls the test hook, if any, at the named point.
func (p *process) at(point, path string) {
	if p.hook != nil {
		p.hook(point, path)
	}
}

// removeAll is os.RemoveAll, or the test's removeTree.
func (p *process) removeAll(path string) error {
	if p.removeTree != nil {
		return p.removeTree(path)
	}
	return os.RemoveAll(path)
}

// limit is the largest input read: maxInput, or the test's inputLimit.
func (p *process) limit() int64 {
	if p.inputLimit > 0 {
		return p.inputLimit
	}
	return maxInput
}

// compileReader is sdscgen.CompileReader, or the test's compile.
func (p *process) compileReader(name string, r io.Reader, opt sdscgen.Options) (*sdscgen.Result, error) {
	if p.compile != nil {
		return p.compile(name, r, opt)
	}
	return sdscgen.CompileReader(name, r, opt)
}

// run is the whole command: its subcommands, or the compiler.
func (p *process) run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "pack":
			return p.runPack(args[1:], stdin, stdout, stderr)
		case "explain":
			return p.runExplain(args[1:], stdin, stdout, stderr)
		case "synth":
			return p.runSynth(args[1:], stdout, stderr)
		case "help":
			return runHelp(args[1:], stdout, stderr)
		case "version":
			return runVersion(args[1:], stdout, stderr)
		}
		if cmd := misspeltCommand(args[0]); cmd != "" {
			c, _ := mainCommand()
			return c.usageError(stderr, fmt.Sprintf("unknown command %q (did you mean %s?)", args[0], cmd))
		}
	}
	cfg, code, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	return p.generate(cfg, stdin, stdout, stderr)
}

// runHelp is `sdscgen help [COMMAND]`: the usage on standard output.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "sdscgen help: want at most one command (pack, synth, explain or version)")
		return exitUsage
	}
	topic := ""
	if len(args) == 1 {
		topic = args[0]
	}
	var c *command
	switch topic {
	case "":
		c, _ = mainCommand()
	case "explain":
		c, _ = explainCommand()
	case "pack":
		c = packCommand(new(packFlags))
	case "synth":
		c = synthCommand(new(synthFlags))
	case "version":
		c, _ = versionCommand()
	default:
		fmt.Fprintf(stderr, "sdscgen help: unknown command %q (have pack, synth, explain, version)\n", topic)
		return exitUsage
	}
	c.help(stdout)
	return exitOK
}

const versionShort = "usage: sdscgen version [--json]\n"

const versionLong = versionShort + `
Prints this version of sdscgen, the module version and the VCS commit the
binary was built from (as the Go toolchain recorded them) and the Go
version; --json prints the same fields as a JSON object.

Flags:
`

func versionCommand() (c *command, asJSON *bool) {
	c = newCommand("sdscgen version", versionLong, versionShort)
	return c, c.fs.Bool("json", false, "print the fields as a JSON object")
}

// runVersion is `sdscgen version [--json]`.
func runVersion(args []string, stdout, stderr io.Writer) int {
	c, asJSON := versionCommand()
	rest, code, ok := c.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) != 0 {
		return c.usageError(stderr, fmt.Sprintf("unexpected argument %q", rest[0]))
	}
	bi, ok := debug.ReadBuildInfo()
	if !*asJSON {
		fmt.Fprint(stdout, versionText(bi, ok))
		return exitOK
	}
	b, err := json.MarshalIndent(versionOf(bi, ok), "", "  ")
	if err != nil {
		return internalError(stderr, err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return exitOK
}

// versionInfo is what --version tells: this version, then the module
// version and the VCS commit the binary was built from, as the Go
// toolchain recorded them ("" where it recorded nothing).
type versionInfo struct {
	Version       string `json:"version"`
	Module        string `json:"module,omitempty"`
	ModuleVersion string `json:"moduleVersion,omitempty"`
	Commit        string `json:"commit,omitempty"`
	CommitTime    string `json:"commitTime,omitempty"`
	Modified      bool   `json:"modified,omitempty"`
	Go            string `json:"go,omitempty"`
	noBuildInfo   bool
}

func versionOf(bi *debug.BuildInfo, ok bool) versionInfo {
	v := versionInfo{Version: version}
	if !ok {
		v.noBuildInfo = true
		return v
	}
	v.Module, v.ModuleVersion, v.Go = bi.Main.Path, bi.Main.Version, bi.GoVersion
	if v.Module == "" {
		v.Module = "github.com/sdscgen/sdscgen"
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			v.Commit = kv.Value
		case "vcs.time":
			v.CommitTime = kv.Value
		case "vcs.modified":
			v.Modified = kv.Value == "true"
		}
	}
	return v
}

// versionText is the --version text of versionOf.
func versionText(bi *debug.BuildInfo, ok bool) string {
	v := versionOf(bi, ok)
	s := "sdscgen " + v.Version + "\n"
	if v.noBuildInfo {
		return s + "no build information\n"
	}
	mv := v.ModuleVersion
	if mv == "" {
		mv = "(unknown)"
	}
	s += fmt.Sprintf("module %s %s\n", v.Module, mv)
	switch {
	case v.Commit == "":
		s += "commit unknown (built without VCS information)\n"
	default:
		s += "commit " + v.Commit
		if v.CommitTime != "" {
			s += " (" + v.CommitTime + ")"
		}
		if v.Modified {
			s += " with uncommitted changes"
		}
		s += "\n"
	}
	if v.Go != "" {
		s += "built with " + v.Go + "\n"
	}
	return s
}
