package sdscgen

import (
	"fmt"
	"io"
	"slices"

	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// Output is one output a Result writes, as the table Outputs lists them.
// The table is the one home of what an output is: Result.Write (and the
// WriteX methods, which call it) reads its writer and whether it needs a
// verified plan; the sdscgen command reads Flag, Value and Usage for its
// flags, and File for its -o DIR layout (which files it writes there and
// which a DIR of an earlier run may hold). docs/contributing.md walks
// through adding one.
type Output struct {
	// Name is the output's name for Result.Write.
	Name string
	// Title names it in messages ("writing plan: ...").
	Title string
	// Flag is the command line's flag that writes it to a file (--Flag
	// Value; Usage is the flag's help): a FILE ("-": standard output,
	// instead of the MLIR) for a whole output, a DIR holding
	// DIR/<bundle>/File for a PerBundle one. "" when the command asks for
	// it otherwise (the MLIR is its default output; the text reports
	// have flags of their own).
	Flag, Value, Usage string
	// File is its file name in the command line's -o DIR: in each
	// bundle's folder when PerBundle, in DIR itself otherwise. "" when -o
	// does not write it.
	File string
	// PerBundle outputs are one per bundle, Args.Bundle's.
	PerBundle bool
	// Graph outputs read only the checked graph: they need no plan and
	// nothing to verify. The others need a plan (not CheckOnly) and reach
	// their io.Writer only once the verifier has accepted it.
	Graph bool
	// Held outputs print ahead, into at most HoldBytes, while the
	// verifier runs (the MLIR); the others wait for its verdict first.
	Held bool

	write func(r *Result, w io.Writer, a Args) error
}

// Args are what an output's writer may read beside the Result.
type Args struct {
	// Bundle is the bundle of a PerBundle output (an index of
	// Graph.Bundles).
	Bundle int
	// Emit is the form of the MLIR outputs.
	Emit EmitOptions
	// Arg is the remarks' mode ("missed", "passed" or "all") or the name
	// explain explains.
	Arg string
}

// outputs is the table, in the order the command writes its files.
var outputs = []Output{
	{Name: "mlir", Title: "MLIR", Held: true,
		write: func(r *Result, w io.Writer, a Args) error {
			return mlirgen.EmitAll(w, r.Plan, r.mlirgen(a.Emit))
		}},
	{Name: "bundle", Title: "MLIR", File: "bundle.mlir", PerBundle: true, Held: true,
		write: func(r *Result, w io.Writer, a Args) error {
			return mlirgen.Emit(w, r.Plan, a.Bundle, r.mlirgen(a.Emit))
		}},
	{Name: "addresses", Title: "MLIR", File: "addresses.mlir", PerBundle: true, Held: true,
		write: func(r *Result, w io.Writer, a Args) error {
			a.Emit.Addresses = true
			return mlirgen.Emit(w, r.Plan, a.Bundle, r.mlirgen(a.Emit))
		}},
	{Name: "plan", Title: "plan", File: "plan.json",
		Flag: "plan", Value: "FILE", Usage: "write the plan JSON to `FILE` (\"-\": standard output, instead of the MLIR)",
		write: func(r *Result, w io.Writer, a Args) error {
			return planner.WriteJSONFiles(w, r.Plan, r.opFiles)
		}},
	{Name: "html", Title: "HTML view",
		Flag: "html", Value: "FILE", Usage: "write an interactive memory view of the plan to `FILE`: one self-contained HTML page (\"-\": standard output, instead of the MLIR)",
		write: func(r *Result, w io.Writer, a Args) error { return r.writeHTML(w) }},
	{Name: "svg", Title: "memory map", File: "memory.svg", PerBundle: true,
		Flag: "svg", Value: "DIR", Usage: "write a memory map `DIR`/<bundle>/memory.svg per bundle (DIR may be the -o DIR)",
		write: func(r *Result, w io.Writer, a Args) error { return report.SVG(w, r.Plan, a.Bundle) }},
	{Name: "stats", Title: "stats",
		write: func(r *Result, w io.Writer, a Args) error { return report.Stats(w, r.Plan, r.sdscCache()) }},
	{Name: "remarks", Title: "remarks",
		write: func(r *Result, w io.Writer, a Args) error {
			m, err := report.ParseRemarkMode(a.Arg)
			if err != nil {
				return err
			}
			return report.Remarks(w, r.Plan, m)
		}},
	{Name: "explain", Title: "explanation",
		write: func(r *Result, w io.Writer, a Args) error { return report.Explain(w, r.Plan, a.Arg, r.sdscCache()) }},
	{Name: "dump-check", Title: "dump", Graph: true,
		write: func(r *Result, w io.Writer, a Args) error { return report.DumpCheck(w, r.Graph) }},
	{Name: "dump-plan", Title: "dump",
		write: func(r *Result, w io.Writer, a Args) error { return report.DumpPlan(w, r.Plan) }},
}

// Outputs returns the table of outputs, in order (a copy: the table is
// read-only).
func Outputs() []Output { return slices.Clone(outputs) }

// LookupOutput returns the output called name.
func LookupOutput(name string) (Output, bool) {
	for _, o := range outputs {
		if o.Name == name {
			return o, true
		}
	}
	return Output{}, false
}

// Write writes the output called name (one of Outputs) with a. An output
// of the plan on a Result compiled with CheckOnly is an error; one
// compiled with Options.VerifyAsync writes nothing before the verifier
// has accepted the plan (a Held output prints ahead into memory
// meanwhile) and returns the *VerifyError, having written nothing, when
// it rejects it.
func (r *Result) Write(w io.Writer, name string, a Args) error {
	o, ok := LookupOutput(name)
	if !ok {
		return fmt.Errorf("sdscgen: no output %q", name)
	}
	if o.Graph {
		return o.write(r, w, a)
	}
	if r.Plan == nil {
		return errNoPlan
	}
	if o.Held {
		return r.held(w, func(w io.Writer) error { return o.write(r, w, a) })
	}
	if err := r.Verified(); err != nil {
		return err
	}
	return o.write(r, w, a)
}
