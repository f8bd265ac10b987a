package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/report"
)

// generate is a compiler run: read the input, sdscgen.Compile it, print
// the reports the flags ask for, then write the outputs.
func (p *process) generate(cfg *config, stdin io.Reader, stdout, stderr io.Writer) int {
	if cfg.opt.SearchTime > 0 && (cfg.opt.Allocator == "best" || cfg.opt.Compare) {
		fmt.Fprintf(stderr, "sdscgen: note: --search-time %v bounds best's search by the clock: the plan may differ from run to run and machine to machine\n", cfg.opt.SearchTime)
	}
	name := cfg.input
	if name == "-" {
		name = "<stdin>"
	}
	in, err := openInput(cfg.input, stdin, p.limit())
	if err != nil {
		inputFailed(cfg, name, err, stderr)
		return exitBadInput
	}
	size := in.size
	if p.setGC != nil {
		p.setGC(size, cfg.opt.Unfused)
		if in.size == 0 {
			// A stream: the settings follow what it has given so far.
			in.file.grew = func(n int) {
				size = n
				p.setGC(n, cfg.opt.Unfused)
			}
		}
	}
	// The verifier runs while the outputs are printed; the Result's
	// writers hold every byte back until it has accepted the plan.
	opt := cfg.opt
	opt.VerifyAsync = true
	if p.setGCGraph != nil {
		opt.Checked = func(g *ir.Graph) { p.setGCGraph(size, len(g.Bundles), cfg.opt.Unfused) }
	}
	res, err := p.compileReader(name, in.file, opt)
	in.close()
	var diags frontend.ErrorList
	var ierr inputError
	switch {
	case errors.As(err, &diags):
		opt := frontend.PrintOptions{Limit: cfg.errorLimit, JSON: cfg.diagJSON}
		if showCaret(cfg.caret, stderr) {
			opt.Source = sourceLines(cfg.input, stdin)
		}
		diags.Print(stderr, opt)
		return exitBadInput
	case errors.As(err, &ierr):
		// Reading the file failed, or it grew past the limit.
		inputFailed(cfg, name, err, stderr)
		return exitBadInput
	case err != nil:
		// A *sdscgen.VerifyError, or options parseFlags should have
		// refused: a bug either way.
		return internalError(stderr, err)
	}
	if cfg.rep.any() {
		// The reports read the plan: they wait for its verdict.
		if err := res.Verified(); err != nil {
			return internalError(stderr, err)
		}
	}
	if code, done := reports(cfg, res, stdout, stderr); done {
		return code
	}
	if err := p.writeOutputs(cfg, res, stdout, stderr); err != nil {
		var verr *sdscgen.VerifyError
		if errors.As(err, &verr) {
			return internalError(stderr, err)
		}
		if d, ok := err.(diagError); ok {
			fmt.Fprintln(stderr, d)
		} else {
			fmt.Fprintf(stderr, "sdscgen: %v\n", err)
		}
		return exitBadInput
	}
	return exitOK
}

// internalError reports a bug (a plan the verifier rejected, or
// options parseFlags let through): exit status 3.
func internalError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "sdscgen: internal error: %v\n", err)
	return exitInternal
}

// reports prints --remarks and --stats on standard error, then runs
// --dump-after or --explain, which end the run (done).
func reports(cfg *config, res *sdscgen.Result, stdout, stderr io.Writer) (code int, done bool) {
	rc := &cfg.rep
	if rc.dumpAfter == "check" {
		if err := res.WriteDump(stdout, "check"); err != nil {
			fmt.Fprintf(stderr, "sdscgen: writing dump: %v\n", err)
			return exitBadInput, true
		}
		return exitOK, true
	}
	if rc.remarks != "" {
		if cfg.diagJSON {
			w := &remarksJSON{w: stderr, file: res.Graph.File}
			res.WriteRemarks(w, rc.remarks)
			w.flush()
		} else {
			res.WriteRemarks(stderr, rc.remarks)
		}
	}
	if rc.stats {
		res.WriteStats(stderr)
	}
	if rc.dumpAfter == "plan" {
		if err := res.WriteDump(stdout, "plan"); err != nil {
			fmt.Fprintf(stderr, "sdscgen: writing dump: %v\n", err)
			return exitBadInput, true
		}
		return exitOK, true
	}
	if rc.explain != "" {
		err := res.Explain(stdout, rc.explain)
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
