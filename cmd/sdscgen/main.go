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

func main() {
	setGC = func(n int, unfused bool) { tuneGC(os.Getenv, n, unfused) }
	setGCGraph = func(n, bundles int, unfused bool) { tuneGraph(os.Getenv, n, bundles, unfused) }
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

// run is the whole command: its subcommands, or the compiler.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "pack":
			return runPack(args[1:], stdin, stdout, stderr)
		case "explain":
			return runExplain(args[1:], stdin, stdout, stderr)
		case "synth":
			return runSynth(args[1:], stdout, stderr)
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
	return generate(cfg, stdin, stdout, stderr)
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
