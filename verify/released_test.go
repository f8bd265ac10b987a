package verify

import (
	"bytes"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// TestOnReleased: the plan's checks call the OnReleased function once,
// after the point where the most is live (atPeak, past the per-bundle
// checks) and before the verdict; a Prepared used a second time (which
// prepares again) keeps it.
func TestOnReleased(t *testing.T) {
	p, js := specPlan(t)
	opt := Options{Budget: planner.DefaultBudget}
	pre := Prepare(p.Graph, opt)
	calls, peaked := 0, false
	pre.atPeak = func() { peaked = true }
	pre.OnReleased(func() {
		calls++
		if !peaked {
			t.Errorf("released before the per-bundle checks' peak")
		}
	})
	planErr, jsonErr := pre.PlanAndJSON(p, bytes.NewReader(js))
	if planErr != nil || jsonErr != nil {
		t.Fatalf("the spec example's plan: %v, %v", planErr, jsonErr)
	}
	if calls != 1 {
		t.Fatalf("PlanAndJSON called the released function %d times, want 1", calls)
	}
	if err := pre.Plan(p); err != nil { // used: prepares again
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("a Prepared used again called the released function %d times in all, want 2", calls)
	}
}
