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
// rendering, before anything is written.
func verifyPlan(cfg *config, plan *planner.Result) error {
	if planHook != nil {
		planHook(plan)
	}
	opt := verify.Options{Disabled: cfg.disabled, Budget: cfg.budget}
	if err := verify.Plan(plan.Graph, plan, opt); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, plan); err != nil {
		return err
	}
	return verify.JSON(plan.Graph, plan, buf.Bytes())
}
