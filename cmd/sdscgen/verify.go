package main

import (
	"bytes"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/verify"
)

// planHook, when set (by tests only), sees the plan between planning and
// verification; tests use it to corrupt a plan and watch --verify stop
// the run.
var planHook func(*planner.Result)

// verifyPlan runs the independent verifier on the plan and on its JSON
// rendering, before anything is written. The two checks only read the
// plan, so they run side by side; their errors are reported in a fixed
// order (plan first) whatever finishes first.
func verifyPlan(cfg *config, plan *planner.Result) error {
	if planHook != nil {
		planHook(plan)
	}
	opt := verify.Options{Disabled: cfg.disabled, Budget: cfg.budget}
	jsonErr := make(chan error, 1)
	go func() {
		var buf bytes.Buffer
		if err := planner.WriteJSON(&buf, plan); err != nil {
			jsonErr <- err
			return
		}
		jsonErr <- verify.JSON(plan.Graph, plan, buf.Bytes())
	}()
	planErr := verify.Plan(plan.Graph, plan, opt)
	if err := <-jsonErr; planErr == nil {
		return err
	}
	return planErr
}
