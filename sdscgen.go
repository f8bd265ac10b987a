// Package sdscgen compiles bundle IR (.bir text) for IBM Spyre: it checks
// the graph, plans each bundle's HBM pool and writes one MLIR module per
// bundle, the plan JSON and human reports. It is what the sdscgen command
// runs; docs/bundle-ir.md is the language and behaviour reference and
// docs/library.md shows a complete program.
//
// One call does the whole pipeline, in its fixed order (parse and check,
// unfuse when asked, plan, compare allocators when asked, verify the plan
// independently); the Result then writes any output:
//
//	res, err := sdscgen.Compile("model.bir", src, sdscgen.Options{})
//	if err != nil { ... } // a frontend.ErrorList for bad input
//	err = res.WriteMLIR(os.Stdout, sdscgen.EmitOptions{})
//
// The zero Options are the command line's defaults: the contract's budget
// (planner.DefaultBudget), the first-fit allocator, fusion on, planning
// on, and the verifier on. Invalid options are errors, never silently
// replaced. The stage packages (frontend, ir, planner, alloc, mlirgen,
// report, verify, dsa) stay available for finer use.
package sdscgen

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/deadline"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
	"github.com/sdscgen/sdscgen/verify"
)

// DefaultBudget is the pool budget of the zero Options, in bytes:
// MAX_POOL_SIZE_BYTES, the 16 GiB segment less its 2 GiB reserve.
const DefaultBudget = planner.DefaultBudget

// Options selects how a source is compiled. The zero value is the
// default of every field.
type Options struct {
	// Budget is each bundle pool's limit in bytes (MAX_POOL_SIZE_BYTES);
	// 0 means DefaultBudget. Negative is an error. A budget of zero
	// bytes is asked for with ZeroBudget.
	Budget int64
	// ZeroBudget plans with a budget of 0 bytes: only zero-byte
	// candidates fit. Combined with a non-zero Budget it is an error.
	ZeroBudget bool
	// NoPool turns pool planning off (HBM_POOL_PLANNING=0): every
	// buffer keeps its own allocation, with reason "disabled".
	NoPool bool
	// Unfused makes every leaf op its own bundle
	// (BUNDLE_SYMBOLIC_ARGS=0).
	Unfused bool
	// Allocator names the pool allocator, one of alloc.Names(); "" means
	// "first-fit". An unknown name is an error.
	Allocator string
	// SearchNodes bounds the search of the "best" allocator per bundle;
	// 0 means alloc.DefaultMaxNodes. Negative is an error.
	SearchNodes int64
	// SearchTime, when positive, also bounds best's search by the clock
	// (the plan may then vary from run to run); 0 means no clock.
	// Negative is an error.
	SearchTime time.Duration
	// Compare records in the plan, per bundle, the pool size every
	// allocator of alloc.Table() would need.
	Compare bool
	// NoVerify skips the independent re-check of the plan (package
	// verify), which is otherwise run and whose failure is a
	// *VerifyError.
	NoVerify bool
	// CheckOnly stops after checking (and unfusing): the Result has no
	// plan, and only its Graph and WriteDump("check") are usable.
	CheckOnly bool
	// VerifyAsync makes Compile return as soon as the plan is made, the
	// verifier still running; Result.Verified waits for its verdict.
	// Nothing unverified leaves the Result: every writer waits for the
	// verdict before the first byte reaches its io.Writer, and returns
	// the *VerifyError, having written nothing, when the plan is
	// rejected. WriteMLIR and WriteBundleMLIR meanwhile print ahead into
	// a buffer of at most HoldBytes, so emission overlaps verification,
	// from the moment the verifier has let go of its largest records
	// (see Result.held). Without it (the default) Compile itself returns
	// the *VerifyError.
	VerifyAsync bool
	// NoSDSCCache turns torch-spyre's sdsc_cache off: every op's execute
	// names its own sdsc_STEP.json and prints its own ids. By default (as
	// upstream's SPYRE_INDUCTOR_SDSC_CACHE) an op whose SDSC equals an
	// earlier op's of its bundle names that op's file and ids
	// (docs/bundle-ir.md 4.5.1). It decides the MLIR, the plan JSON's
	// "sdsc_file" of each op, the stats' file counts and the explanation
	// of an op.
	NoSDSCCache bool
	// Checked, when not nil, is called with the checked graph (unfused
	// when Unfused) before it is planned: the sdscgen command sizes its
	// collector's memory limit by the graph's bundle count there.
	Checked func(g *ir.Graph)

	// test holds what this package's tests change; the zero value is
	// the real thing.
	test testKnobs
}

// testKnobs are the settings only this package's tests change, passed
// in with the Options rather than kept in package variables.
type testKnobs struct {
	// planned, when not nil, sees (and may corrupt) the plan between
	// planning and verification.
	planned func(*planner.Result)
	// hold and holdBlock replace HoldBytes and holdBlock when positive.
	hold, holdBlock int
}

// holding is how many bytes a Result compiled with VerifyAsync holds,
// and the size of the blocks it holds them in.
func (k testKnobs) holding() (hold, block int) {
	hold, block = HoldBytes, holdBlock
	if k.hold > 0 {
		hold = k.hold
	}
	if k.holdBlock > 0 {
		block = k.holdBlock
	}
	return hold, block
}

// HoldBytes bounds how much MLIR a Result compiled with VerifyAsync
// prints ahead while its verifier runs; past it, printing waits for
// the verdict.
const HoldBytes = 8 << 20

// budget is the effective budget of valid options.
func (o Options) budget() int64 {
	if o.Budget == 0 && !o.ZeroBudget {
		return DefaultBudget
	}
	return o.Budget
}

// Validate reports the first invalid option, without compiling anything.
func (o Options) Validate() error {
	_, err := o.resolve()
	return err
}

// spec is valid Options resolved, once, into what planning reads.
type spec struct {
	// plan are the planner's options, with the allocator built with the
	// search knobs; the verifier checks the plan against the same value.
	// Bundles are planned (and checked) on GOMAXPROCS goroutines; the
	// plan is the same for any number.
	plan planner.Options
	// compare, with Compare, is every allocator of alloc.Table() built
	// with the same knobs: --compare's columns, and the allocators
	// WriteHTML draws beside the plan's.
	compare []alloc.Placer
}

// resolve checks o and resolves it into its spec: the one place Validate,
// compile and WriteHTML's extra plans get the allocators from.
func (o Options) resolve() (spec, error) {
	switch {
	case o.Budget < 0:
		return spec{}, fmt.Errorf("budget %d is negative", o.Budget)
	case o.ZeroBudget && o.Budget != 0:
		return spec{}, fmt.Errorf("ZeroBudget with a budget of %d bytes", o.Budget)
	case o.SearchNodes < 0:
		return spec{}, fmt.Errorf("search nodes %d is negative", o.SearchNodes)
	case o.SearchTime < 0:
		return spec{}, fmt.Errorf("search time %v is negative", o.SearchTime)
	}
	knobs := alloc.Options{Stop: deadline.PerBundle(o.SearchTime), MaxNodes: o.SearchNodes}
	name := o.Allocator
	if name == "" {
		name = alloc.Default().Name
	}
	place, err := alloc.Lookup(name, knobs)
	if err != nil {
		return spec{}, err
	}
	s := spec{plan: planner.Options{Disabled: o.NoPool, Budget: o.budget(), Allocator: place, Workers: runtime.GOMAXPROCS(0)}}
	if o.Compare {
		for _, a := range alloc.Table() {
			s.compare = append(s.compare, a.With(knobs))
		}
	}
	return s, nil
}

// VerifyError is Compile's answer when the independent verifier rejects
// the plan: a bug in the planner, never in the input.
type VerifyError struct{ Err error }

func (e *VerifyError) Error() string { return "plan verification failed: " + e.Err.Error() }
func (e *VerifyError) Unwrap() error { return e.Err }

// Result is a compiled source: the checked graph and its plan, and the
// writers of every output. It is read-only; its methods may be called in
// any order, and concurrently.
type Result struct {
	// Graph is the checked graph (unfused when Options.Unfused).
	Graph *ir.Graph
	// Plan is the pool plan; nil with Options.CheckOnly.
	Plan *planner.Result

	// verdict, when not nil, is closed once the verifier started by
	// Options.VerifyAsync has finished, with its answer in verr.
	verdict chan struct{}
	verr    error
	// released is closed (with VerifyAsync) once the verifier has let go
	// of its largest records (verify.Prepared.OnReleased): held starts
	// printing then, or at the verdict.
	released chan struct{}
	// hold is how many bytes held may hold (HoldBytes), in blocks of
	// holdBlock bytes (testKnobs.holding).
	hold, holdBlock int
	// opt are the options compiled with, and spec what they resolved
	// into (WriteHTML replans with it).
	opt  Options
	spec spec
}

// Verified waits for the verifier of a Result compiled with
// Options.VerifyAsync and returns its verdict: nil, or the
// *VerifyError. It returns nil at once for every other Result.
func (r *Result) Verified() error {
	if r.verdict == nil {
		return nil
	}
	<-r.verdict
	return r.verr
}

// Compile parses and checks src (name is the file name diagnostics
// carry), then plans it with opt. Bad input returns a
// frontend.ErrorList, one positioned diagnostic per line; invalid
// options an error from Options.Validate; a plan the verifier rejects a
// *VerifyError.
func Compile(name string, src []byte, opt Options) (*Result, error) {
	return compile(opt, func() (*ir.Graph, frontend.ErrorList, error) {
		g, errs := frontend.ParseCheck(name, src)
		return g, errs, nil
	})
}

// compile is Compile with the parse (ParseCheck or ParseCheckReader) to
// run once the options are valid.
func compile(opt Options, parse func() (*ir.Graph, frontend.ErrorList, error)) (*Result, error) {
	sp, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	// No AST: the graph is built as the source is parsed.
	g, errs, err := parse()
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if opt.Unfused {
		g = g.Unfused()
	}
	if opt.Checked != nil {
		opt.Checked(g)
	}
	res := &Result{Graph: g, opt: opt, spec: sp}
	if opt.CheckOnly {
		return res, nil
	}
	// The verifier's share that reads only the graph runs beside the
	// planner (both only read g), with the options the plan is made
	// with.
	var prepared chan *verify.Prepared
	if !opt.NoVerify {
		prepared = make(chan *verify.Prepared, 1)
		go func() { prepared <- verify.Prepare(g, sp.plan) }()
	}
	plan := planner.Plan(g, sp.plan)
	if opt.Compare {
		plan.Compare = planner.Compare(g, sp.plan, sp.compare)
	}
	if opt.test.planned != nil {
		opt.test.planned(plan)
	}
	res.Plan = plan
	if opt.NoVerify {
		return res, nil
	}
	if opt.VerifyAsync {
		res.verdict, res.released = make(chan struct{}), make(chan struct{})
		res.hold, res.holdBlock = opt.test.holding()
		go func() {
			pre := <-prepared
			pre.OnReleased(func() { close(res.released) })
			if err := verifyPlan(pre, plan); err != nil {
				res.verr = &VerifyError{err}
			}
			close(res.verdict)
		}()
		return res, nil
	}
	if err := verifyPlan(<-prepared, plan); err != nil {
		return nil, &VerifyError{err}
	}
	return res, nil
}

// CompileReader is Compile reading the source from r, to its end. It
// never holds the whole source (frontend.ParseCheckReader reads it
// through a window), so it is the leaner way to compile a file. A read
// error is returned as it is. When r tells its size (a Len method, as
// bytes.Reader's, or a Stat method, as a regular *os.File's), that sizes
// the graph's first arrays.
func CompileReader(name string, r io.Reader, opt Options) (*Result, error) {
	return compile(opt, func() (*ir.Graph, frontend.ErrorList, error) {
		return frontend.ParseCheckReader(name, r, inputSize(r))
	})
}

// inputSize is how many bytes r says it holds, or 0.
func inputSize(r io.Reader) int {
	switch r := r.(type) {
	case interface{ Len() int }:
		return max(r.Len(), 0)
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return int(min(max(fi.Size(), 0), math.MaxInt32))
		}
	}
	return 0
}

// verifyPlan finishes the independent verifier's work begun by
// verify.Prepare (the graph's share) on the plan and on its JSON
// rendering, streamed from planner.WriteJSON in chunks (chunkPipe) so
// that the text is never held whole and writing overlaps checking. The
// checks only read the plan and run side by side (the plan's per-bundle
// checks on the workers Prepare was given); their errors are reported in
// a fixed order (plan, then writing, then JSON) whatever finishes first.
func verifyPlan(pre *verify.Prepared, plan *planner.Result) error {
	// About 150 bytes per buffer, 100 per bundle.
	pipe := newChunkPipe(150*plan.Graph.Buffers.Len() + 100*len(plan.Graph.Bundles))
	wrote := make(chan error, 1)
	go func() {
		err := planner.WriteJSON(pipe, plan)
		pipe.closeWrite(err)
		wrote <- err
	}()
	planErr, jsonErr := func() (error, error) {
		defer pipe.stop() // the writer stops if the check did not read to the end
		return pre.PlanAndJSON(plan, pipe)
	}()
	writeErr := <-wrote
	if planErr != nil {
		return planErr
	}
	if writeErr != nil && !errors.Is(writeErr, errCheckStopped) {
		return writeErr
	}
	return jsonErr
}

// errNoPlan is the answer of the plan's writers after CheckOnly.
var errNoPlan = errors.New("sdscgen: no plan (compiled with CheckOnly)")

// EmitOptions selects the form of the MLIR.
type EmitOptions struct {
	// Generic prints the sdscbundle ops in MLIR's generic form, which
	// stock mlir-opt parses with --allow-unregistered-dialect (and
	// --split-input-file for WriteMLIR's stream).
	Generic bool
	// Addresses writes each bundle's address function (builtin dialects
	// only) instead of the bundle.
	Addresses bool
	// FrontendPoolAllocation takes each bundle's pool as a
	// %pool_base_addr argument instead of allocating it (torch-spyre's
	// FRONTEND_POOL_ALLOCATION).
	FrontendPoolAllocation bool
	// Workers is how many goroutines print bundles (0: GOMAXPROCS). The
	// output is the same bytes for every value.
	Workers int
}

// mlirgen is the emitter's options for o on r's plan.
func (r *Result) mlirgen(o EmitOptions) mlirgen.Options {
	w := o.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return mlirgen.Options{Generic: o.Generic, Addresses: o.Addresses, FrontendPoolAllocation: o.FrontendPoolAllocation, SDSCCache: r.sdscCache(), Workers: w}
}

// sdscCache is the run's SDSC cache setting.
func (r *Result) sdscCache() bool { return !r.opt.NoSDSCCache }

// opFiles is, per bundle, the sdsc file number of each op under r's
// sdsc_cache setting.
func (r *Result) opFiles(bi int) []int32 {
	uses := mlirgen.SDSCFiles(r.Plan, bi, r.sdscCache())
	files := make([]int32, len(uses))
	for k, u := range uses {
		files[k] = u.File
	}
	return files
}

// WriteMLIR writes every bundle's module, in graph order, separated by
// "// -----" lines.
func (r *Result) WriteMLIR(w io.Writer, opt EmitOptions) error {
	return r.Write(w, "mlir", Args{Emit: opt})
}

// WriteBundleMLIR writes the module of bundle bi (an index of
// Graph.Bundles).
func (r *Result) WriteBundleMLIR(w io.Writer, bi int, opt EmitOptions) error {
	return r.Write(w, "bundle", Args{Bundle: bi, Emit: opt})
}

// held runs print, which writes to the writer it is given, so that
// nothing reaches w before the verifier has accepted the plan: until
// then the bytes are held in memory, up to r.hold of them, after which
// print waits for the verdict. A rejected plan writes nothing and
// returns the *VerifyError.
//
// print starts once the verifier has let go of its largest records
// (r.released: after its per-bundle and per-group checks) or has given
// its verdict: the printer's own per-group memory (a layout slot per
// group of the graph, the held bytes) then never adds to the
// verifier's at its peak. On wide-1M (2.7 million groups) that took the
// largest live heap from 483 to 467 MiB; the printer waited 0.6 s there,
// of the 3 s the verdict took, and past the held bytes printing waits
// for the verdict anyway. The 10k-op graph's end-to-end median did not
// move (62.1 ms with the wait, 63.8 without, 21 alternating runs each
// of a build that could switch it: BENCHMARKS.md, the fourteenth run).
func (r *Result) held(w io.Writer, print func(io.Writer) error) error {
	if r.verdict == nil {
		return print(w)
	}
	select {
	case <-r.released:
	case <-r.verdict:
	}
	h := &holdWriter{r: r, w: w}
	if err := print(h); err != nil {
		return err
	}
	return h.release()
}

// holdWriter is held's writer. It holds bytes in blocks of
// Result.holdBlock bytes, so holding never copies what it already holds.
type holdWriter struct {
	r      *Result
	w      io.Writer
	blocks [][]byte
	n      int  // bytes held
	open   bool // the plan is verified and the blocks were written out
}

// holdBlock is the size of holdWriter's blocks (but in this package's
// tests: testKnobs).
const holdBlock = 1 << 20

func (h *holdWriter) Write(p []byte) (int, error) {
	if !h.open {
		select {
		case <-h.r.verdict:
		default:
			if h.n+len(p) <= h.r.hold {
				h.hold(p)
				return len(p), nil
			}
		}
		if err := h.release(); err != nil {
			return 0, err
		}
	}
	return h.w.Write(p)
}

// hold copies p into the blocks.
func (h *holdWriter) hold(p []byte) {
	h.n += len(p)
	for len(p) > 0 {
		k := len(h.blocks) - 1
		if k < 0 || len(h.blocks[k]) == cap(h.blocks[k]) {
			h.blocks = append(h.blocks, make([]byte, 0, h.r.holdBlock))
			k++
		}
		b := h.blocks[k]
		c := min(len(p), cap(b)-len(b))
		h.blocks[k] = append(b, p[:c]...)
		p = p[c:]
	}
}

// release waits for the verdict, then writes out what is held.
func (h *holdWriter) release() error {
	if h.open {
		return nil
	}
	blocks := h.blocks
	h.blocks, h.n = nil, 0
	if err := h.r.Verified(); err != nil {
		return err
	}
	h.open = true
	for _, b := range blocks {
		if _, err := h.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// WritePlanJSON writes the plan JSON (docs/bundle-ir.md describes it).
func (r *Result) WritePlanJSON(w io.Writer) error { return r.Write(w, "plan", Args{}) }

// WriteStats writes the per-bundle pool summary table.
func (r *Result) WriteStats(w io.Writer) error { return r.Write(w, "stats", Args{}) }

// WriteRemarks writes one remark per buffer at its declaration: mode is
// "missed" (not pooled, with the reason), "passed" (pooled) or "all".
func (r *Result) WriteRemarks(w io.Writer, mode string) error {
	return r.Write(w, "remarks", Args{Arg: mode})
}

// Explain writes how buffer name (or a rename of it) is planned: its
// storage group, who writes and reads it, its live range, the decision
// with its evidence, and its pool bytes. An unknown name is a
// *report.UnknownNameError with did-you-mean suggestions, and nothing is
// written.
func (r *Result) Explain(w io.Writer, name string) error {
	return r.Write(w, "explain", Args{Arg: name})
}

// WriteSVG writes the memory map of bundle bi as an SVG drawing.
func (r *Result) WriteSVG(w io.Writer, bi int) error { return r.Write(w, "svg", Args{Bundle: bi}) }

// htmlAllocators are the allocators --compare draws side by side in the
// HTML view: the plan's own, then these where they differ from it.
var htmlAllocators = []string{"first-fit", "best"}

// WriteHTML writes the interactive memory view of the plan: one
// self-contained HTML page (report.HTML). Compiled with Options.Compare,
// it also plans with first-fit and best (those of them that are not the
// plan's own allocator) and draws their pools beside the plan's, on one
// scale.
func (r *Result) WriteHTML(w io.Writer) error { return r.Write(w, "html", Args{}) }

// writeHTML is WriteHTML's work, on a verified plan.
func (r *Result) writeHTML(w io.Writer) error {
	opt := report.HTMLOptions{SDSCCache: r.sdscCache()}
	for _, name := range htmlAllocators {
		// r.spec.compare holds every allocator with Compare, none without.
		k := slices.IndexFunc(r.spec.compare, func(a alloc.Placer) bool { return a.Name == name })
		if k < 0 || name == r.Plan.Allocator {
			continue
		}
		o := r.spec.plan
		o.Allocator = r.spec.compare[k]
		opt.Alternatives = append(opt.Alternatives, planner.Plan(r.Graph, o))
	}
	return report.HTML(w, r.Plan, opt)
}

// WriteDump writes the text dump after stage "check" (the checked graph)
// or "plan" (the plan).
func (r *Result) WriteDump(w io.Writer, stage string) error {
	switch stage {
	case "check", "plan":
		return r.Write(w, "dump-"+stage, Args{})
	}
	return fmt.Errorf("dump stage %q: want check or plan", stage)
}
