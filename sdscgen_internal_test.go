package sdscgen

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// TestRenameChainLinear: resolving a chain of n renames takes O(n) steps
// (it took O(n²)), and explain follows the whole chain.
func TestRenameChainLinear(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("graph g {\n  buffer b0 : 64\n  output b0\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  rename b%d -> b%d\n", i, i-1)
	}
	b.WriteString("  op w writes b0\n}\n")
	renameSteps = 0
	res, err := Compile("chain.bir", []byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := res.Explain(&out, fmt.Sprintf("b%d", n)); err != nil || !strings.Contains(out.String(), "b0") {
		t.Fatalf("explain: %v\n%s", err, out.String())
	}
	if renameSteps > 3*n {
		t.Errorf("%d steps for %d renames", renameSteps, n)
	}
}

// verifyInput has one pooled buffer t in bundle k (and u, pooled too).
const verifyInput = `graph g {
  buffer x : 128
  buffer t : 256
  buffer u : 256
  buffer y : 128
  input x
  output y
  fused k {
    op a reads x writes t
    op b reads t writes u
    op c reads u writes y
  }
}
`

// TestVerifyCatches: the verifier runs by default and a plan that breaks
// a rule is a *VerifyError (no Result); NoVerify lets the same plan
// through.
func TestVerifyCatches(t *testing.T) {
	if _, err := Compile("v.bir", []byte(verifyInput), Options{}); err != nil {
		t.Fatalf("clean plan: %v", err)
	}
	corruptions := map[string]func(p *planner.Result){
		// t [0,1] and u [1,2] are live together at step 1.
		"overlap": func(p *planner.Result) {
			for gi := range p.Groups {
				if p.Groups[gi].Offset > 0 {
					p.Groups[gi].Offset = 0
				}
			}
		},
		"reason": func(p *planner.Result) {
			for gi := range p.Groups {
				if p.Groups[gi].Reason == planner.GraphInput {
					p.Groups[gi].Reason = planner.NotWritten
				}
			}
		},
		"pool size": func(p *planner.Result) { p.Bundles[0].PoolSize += 128 },
	}
	defer func() { planHook = nil }()
	for _, name := range []string{"overlap", "reason", "pool size"} {
		planHook = corruptions[name]
		res, err := Compile("v.bir", []byte(verifyInput), Options{})
		var verr *VerifyError
		if !errors.As(err, &verr) || res != nil || !strings.HasPrefix(err.Error(), "plan verification failed: ") {
			t.Errorf("%s: result %v, error %v", name, res, err)
		}
		if _, err := Compile("v.bir", []byte(verifyInput), Options{NoVerify: true}); err != nil {
			t.Errorf("%s with NoVerify: %v", name, err)
		}
	}
}
