package verify_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
	"github.com/sdscgen/sdscgen/verify"
)

// benchCases are the verifier benchmarks: synthetic graphs (package synth)
// planned with the default first-fit allocator and budget.
var benchCases = []struct {
	name         string
	ops, bundles int
	unfused      bool // --bundle-symbolic-args=false: every op its own bundle
}{
	{"100kx100", 100_000, 100, false},
	{"100k-unfused", 100_000, 1, true},
}

// benchPlan builds and plans one case and renders its plan JSON.
func benchPlan(b *testing.B, ops, bundles int, unfused bool) (*planner.Result, []byte) {
	b.Helper()
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: ops, Bundles: bundles, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	f, errs := frontend.Parse("synth.bir", src.Bytes())
	if errs != nil {
		b.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if errs != nil {
		b.Fatal(errs)
	}
	if unfused {
		g = g.Unfused()
	}
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		b.Fatal(err)
	}
	return p, js.Bytes()
}

// BenchmarkVerify times verify.Plan (every check, the first-fit replay
// included, as the CLI runs it) and verify.JSON separately.
func BenchmarkVerify(b *testing.B) {
	for _, bc := range benchCases {
		var (
			p  *planner.Result
			js []byte
		)
		setup := func(b *testing.B) {
			if p == nil {
				p, js = benchPlan(b, bc.ops, bc.bundles, bc.unfused)
			}
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
		}
		b.Run(bc.name+"/Plan", func(b *testing.B) {
			setup(b)
			for b.Loop() {
				if err := verify.Plan(p.Graph, p, verify.Options{Budget: planner.DefaultBudget}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/PlanAndJSON", func(b *testing.B) {
			// What the CLI runs: both checks side by side, the JSON
			// streamed from planner.WriteJSON, on every core.
			setup(b)
			opt := verify.Options{Budget: planner.DefaultBudget, Workers: runtime.GOMAXPROCS(0)}
			for b.Loop() {
				pr, pw := io.Pipe()
				go func() { pw.CloseWithError(planner.WriteJSON(pw, p)) }()
				perr, jerr := verify.PlanAndJSON(p.Graph, p, opt, pr)
				pr.Close()
				if perr != nil || jerr != nil {
					b.Fatal(perr, jerr)
				}
			}
		})
		b.Run(bc.name+"/JSON", func(b *testing.B) {
			setup(b)
			b.SetBytes(int64(len(js)))
			for b.Loop() {
				if err := verify.JSON(p.Graph, p, js); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
