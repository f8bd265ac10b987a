package sdscgen

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

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
