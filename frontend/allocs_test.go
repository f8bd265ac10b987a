package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseCheckAllocsPerOp: ParseCheck allocates in chunks and slabs,
// never once per op. A graph of 4,000 ops in one bundle may allocate a
// little more than one of 1,000 (larger chunks, a larger table), but not
// 3,000 times more: the difference stays under 1,000 allocations. (An
// ir.Op built in a local and handed to a function value by address
// escaped to the heap, one allocation per op.)
func TestParseCheckAllocsPerOp(t *testing.T) {
	src := func(ops int) []byte {
		var b strings.Builder
		b.WriteString("graph g {\n  buffer t0 : 128\n  input t0\n")
		for i := 1; i <= ops; i++ {
			fmt.Fprintf(&b, "  buffer t%d : 128\n", i)
		}
		fmt.Fprintf(&b, "  output t%d\n  fused f {\n", ops)
		for i := 1; i <= ops; i++ {
			fmt.Fprintf(&b, "    op o%d kind add cores 2 reads t%d writes t%d\n", i, i-1, i)
		}
		b.WriteString("  }\n}\n")
		return []byte(b.String())
	}
	allocs := func(s []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, errs := ParseCheck("a.bir", s); errs != nil {
				t.Fatal(errs)
			}
		})
	}
	small, large := allocs(src(1000)), allocs(src(4000))
	if large-small >= 1000 {
		t.Errorf("ParseCheck: %.0f allocations at 1,000 ops, %.0f at 4,000: about one per op", small, large)
	}
}
