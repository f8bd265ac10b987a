// Command sdscgen plans the per-bundle HBM pools of a bundle-IR graph and
// emits one MLIR function per bundle. It is a thin user of package
// github.com/sdscgen/sdscgen (sdscgen.Compile and the Result's writers):
// this package only translates the command line, the environment and
// files into those calls and their errors into exit statuses; see
// README.md for the flags.
package main

import (
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
			if len(args) > 1 {
				fmt.Fprintf(stderr, "sdscgen version: unexpected argument %q\n", args[1])
				return exitUsage
			}
			fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
			return exitOK
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
		fmt.Fprintln(stderr, "sdscgen help: want at most one command (pack, synth or explain)")
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
	default:
		fmt.Fprintf(stderr, "sdscgen help: unknown command %q (have pack, synth, explain)\n", topic)
		return exitUsage
	}
	c.help(stdout)
	return exitOK
}

// versionText is the --version text: this version, then the module
// version and the VCS commit the binary was built from, as the Go
// toolchain recorded them.
func versionText(bi *debug.BuildInfo, ok bool) string {
	s := "sdscgen " + version + "\n"
	if !ok {
		return s + "no build information\n"
	}
	mod := bi.Main.Path
	if mod == "" {
		mod = "github.com/sdscgen/sdscgen"
	}
	mv := bi.Main.Version
	if mv == "" {
		mv = "(unknown)"
	}
	s += fmt.Sprintf("module %s %s\n", mod, mv)
	var rev, at string
	modified := false
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.time":
			at = kv.Value
		case "vcs.modified":
			modified = kv.Value == "true"
		}
	}
	switch {
	case rev == "":
		s += "commit unknown (built without VCS information)\n"
	default:
		s += "commit " + rev
		if at != "" {
			s += " (" + at + ")"
		}
		if modified {
			s += " with uncommitted changes"
		}
		s += "\n"
	}
	if bi.GoVersion != "" {
		s += "built with " + bi.GoVersion + "\n"
	}
	return s
}
