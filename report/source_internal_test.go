package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
)

// TestRenameChainLinear: resolving a chain of n renames takes O(n) steps
// (it took O(n²)), and every name of the chain ends at the buffer.
func TestRenameChainLinear(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("graph g {\n  buffer b0 : 64\n  output b0\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  rename b%d -> b%d\n", i, i-1)
	}
	b.WriteString("  op w writes b0\n}\n")
	f, errs := frontend.Parse("chain.bir", []byte(b.String()))
	if len(errs) == 0 {
		_, errs = frontend.Check(f)
	}
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	renameSteps = 0
	src := SourceOf(f)
	if renameSteps > 3*n {
		t.Errorf("%d steps for %d renames", renameSteps, n)
	}
	if len(src.Renames) != n {
		t.Fatalf("%d renames", len(src.Renames))
	}
	for i, r := range src.Renames {
		if r.From != fmt.Sprintf("b%d", i+1) || r.To != "b0" || r.Pos.Line != 4+i {
			t.Fatalf("rename %d: %+v", i, r)
		}
	}
}
