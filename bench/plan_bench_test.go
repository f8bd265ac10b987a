package bench

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// BenchmarkPlanWorkers times Plan on one goroutine and on as many as the
// CLI uses (GOMAXPROCS).
func BenchmarkPlanWorkers(b *testing.B) {
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			each(b, 2, func(b *testing.B, in *input) {
				for b.Loop() {
					planner.Plan(in.g, planner.Options{Budget: planner.DefaultBudget, Workers: workers})
				}
			})
		})
	}
}

// BenchmarkWriteJSON times the plan JSON (the CLI's --plan, and what the
// verifier reads back).
func BenchmarkWriteJSON(b *testing.B) {
	each(b, 3, func(b *testing.B, in *input) {
		var cw countWriter
		if err := planner.WriteJSON(&cw, in.plan); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(cw.n)
		b.ResetTimer()
		for b.Loop() {
			if err := planner.WriteJSON(io.Discard, in.plan); err != nil {
				b.Fatal(err)
			}
		}
	})
}
