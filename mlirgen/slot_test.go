package mlirgen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// slotGraphs are graphs of several bundles that share groups (a
// bundle's outputs are a later one's inputs), fused and fusion off.
func slotGraphs(t *testing.T) []*planner.Result {
	t.Helper()
	graphs := randomGraphs(t, 17, 6, 8)
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 700, Bundles: 5, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	graphs = append(graphs, checked(t, src.Bytes()))
	var ps []*planner.Result
	for _, g := range graphs {
		ps = append(ps, planner.Plan(g, planner.Options{Budget: planner.DefaultBudget}))
	}
	return ps
}

// bundleGroups is the set of groups bundle bi touches.
func bundleGroups(g *ir.Graph, bi int) map[int32]bool {
	set := map[int32]bool{}
	b := &g.Bundles[bi]
	for k := range b.Ops {
		for _, a := range g.OpAccesses(&b.Ops[k]) {
			set[g.GroupOf(&a)] = true
		}
	}
	return set
}

// firstSet reports the first slot of sc's per-group array that is set, or
// -1.
func firstSet(sc *layoutScratch) int {
	for k, s := range sc.grp {
		if s != (groupSlot{}) {
			return k
		}
	}
	return -1
}

// TestLayoutSlotsCleared: a bundle laid out on scratch another bundle
// used before (one that shares groups with it) prints what it prints on
// new scratch, in every form, with the per-group array and with group
// tables, its slot values held or not (inlineLimit); and the scratch is
// all zero whenever it is back in its list, whether clearSlots walked
// the bundle's accesses or cleared the array's range.
func TestLayoutSlotsCleared(t *testing.T) {
	shared := 0         // bundles laid out right after one they share a group with
	walk, whole := 0, 0 // bundles whose slots are cleared each way
	for gi, p := range slotGraphs(t) {
		g := p.Graph
		n := len(g.Bundles)
		for bi := range g.Bundles {
			accs := 0
			for _, op := range g.Bundles[bi].Ops {
				accs += int(op.Accesses.Len)
			}
			if 4*accs >= len(g.Groups) {
				whole++
			} else {
				walk++
			}
		}
		// Forward, then backward: every bundle but the first follows
		// one, on its scratch.
		var order []int
		for bi := range n {
			order = append(order, bi)
		}
		for bi := n - 2; bi >= 0; bi-- {
			order = append(order, bi)
		}
		for k := 1; k < len(order); k++ {
			prev := bundleGroups(g, order[k-1])
			for gr := range bundleGroups(g, order[k]) {
				if prev[gr] {
					shared++
					break
				}
			}
		}
		for _, tune := range []*tuning{
			{noGroupTables: true},
			{noGroupTables: true, inlineLimit: 2},
			{},
		} {
			for _, opt := range allForms {
				opt.tune = tune
				home := new(scratchList)
				for _, bi := range order {
					var got, want bytes.Buffer
					pr := newPrinter(&got)
					emitAny(pr, p, bi, opt, inline{home})
					pr.flush()
					pr = newPrinter(&want)
					emitAny(pr, p, bi, opt, inline{&scratchList{free: []*layoutScratch{new(layoutScratch)}}})
					pr.flush()
					label := fmt.Sprintf("graph %d, tables %v, limit %d, %+v, bundle %d", gi, !tune.noGroupTables, tune.inlineLimit, opt, bi)
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("%s: on used scratch, output differs\n%s", label, firstDiff(want.String(), got.String()))
					}
					if len(home.free) != 1 {
						t.Fatalf("%s: %d scratches in the list, want 1", label, len(home.free))
					}
					if k := firstSet(home.free[0]); k >= 0 {
						t.Fatalf("%s: group %d's slot %+v is set after release", label, k, home.free[0].grp[k])
					}
				}
			}
		}
	}
	if shared < 50 {
		t.Errorf("only %d bundles follow one they share a group with", shared)
	}
	if walk < 50 || whole < 20 {
		t.Errorf("%d bundles' slots are cleared by a walk, %d whole: want 50 and 20", walk, whole)
	}
}

// TestLayoutReleaseLast: a layout held by printers keeps its slots until
// the last releases it, which zeroes them and hands the scratch back.
func TestLayoutReleaseLast(t *testing.T) {
	for gi, p := range slotGraphs(t) {
		g := p.Graph
		home := new(scratchList)
		for bi := range g.Bundles {
			lay := newLayout(p, bi, 2, home, true, &tuning{noGroupTables: true})
			sc := lay.sc
			set := firstSet(sc)
			if len(bundleGroups(g, bi)) > 0 && set < 0 {
				t.Fatalf("graph %d bundle %d: no slot set by the layout", gi, bi)
			}
			lay.hold(3)
			for k := range 3 {
				lay.release()
				if len(home.free) != 0 || firstSet(sc) != set {
					t.Fatalf("graph %d bundle %d: after %d of 4 releases, %d scratches back, first slot set %d (want %d)", gi, bi, k+1, len(home.free), firstSet(sc), set)
				}
			}
			lay.release()
			if len(home.free) != 1 || home.free[0] != sc {
				t.Fatalf("graph %d bundle %d: the last release handed back %d scratches", gi, bi, len(home.free))
			}
			if k := firstSet(sc); k >= 0 {
				t.Fatalf("graph %d bundle %d: group %d's slot %+v is set after release", gi, bi, k, sc.grp[k])
			}
		}
	}
}

// TestInlineLimit: with the values a slot holds bounded by a small
// inlineLimit, kernel argument numbers at or above it and pool offsets
// of inlineLimit sticks or more are held elsewhere (layout.farArgs, the
// plan), and the text is the default's, in every form, sequential and
// parallel.
func TestInlineLimit(t *testing.T) {
	far, near := 0, 0
	for gi, p := range slotGraphs(t) {
		g := p.Graph
		for _, limit := range []int64{1, 2, 3, 5} {
			tune := sizes(12, 5, 2, 3)
			tune.inlineLimit = limit
			for bi := range g.Bundles {
				lay := newLayout(p, bi, 0, nil, true, tune)
				for gr := range bundleGroups(g, bi) {
					sl := lay.slot(gr)
					want := int64(-1) // the value held, or -1
					switch sl.kind() {
					case argBase:
						want = lay.argNum(sl, gr)
					case poolBase:
						if off := p.Groups[gr].Offset; off%ir.StickBytes == 0 {
							want = off / ir.StickBytes
						}
					}
					if held := sl.info&valInline != 0; held != (want >= 0 && want < limit) {
						t.Fatalf("graph %d bundle %d limit %d: group %d (kind %d, value %d) held %v", gi, bi, limit, gr, sl.kind(), want, held)
					}
					if sl.info&valInline != 0 {
						near++
					} else if want >= limit {
						far++
					}
				}
				lay.release()
			}
			for _, opt := range allForms {
				var def bytes.Buffer
				if err := EmitAll(&def, p, opt); err != nil {
					t.Fatal(err)
				}
				for _, w := range []int{1, 2} {
					o := opt
					o.Workers, o.tune = w, tune
					var got bytes.Buffer
					if err := EmitAll(&got, p, o); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Bytes(), def.Bytes()) {
						t.Fatalf("graph %d limit %d %+v: output differs\n%s", gi, limit, o, firstDiff(def.String(), got.String()))
					}
				}
			}
		}
	}
	if far < 100 || near < 100 {
		t.Errorf("%d slots held their value, %d did not: want 100 of each", near, far)
	}
}

// TestSlotLargestValues: the largest value a slot holds (maxInline-1)
// comes back whole, for a kernel argument and a pool offset, and a pool
// offset of maxInline sticks or more (or not a multiple of a stick) is
// read from the plan: the text names each offset.
func TestSlotLargestValues(t *testing.T) {
	top := uint32(maxInline - 1)
	lay := &layout{farArgs: map[int32]int64{7: maxInline}}
	sl := groupSlot{classified | uint32(argBase) | valInline | top<<argShift}
	if n := lay.argNum(&sl, 3); sl.kind() != argBase || n != maxInline-1 {
		t.Errorf("kind %d, N %d; want %d, %d", sl.kind(), n, argBase, maxInline-1)
	}
	sl = groupSlot{classified | uint32(argBase) | hasViews}
	if n := lay.argNum(&sl, 7); n != maxInline {
		t.Errorf("N %d; want %d", n, maxInline)
	}
	for _, off := range []int64{(maxInline - 1) * ir.StickBytes, maxInline * ir.StickBytes, maxInline*ir.StickBytes + 64, 1 << 40} {
		p := build(t, poolSrc, poolEdit)
		tg := p.Graph.Buffers.At((&editor{t, p.Graph}).buffer("t")).Group
		if !p.Pooled(int(tg), 0) {
			t.Fatal("t is not pooled")
		}
		p.Groups[tg].Offset = off
		lay := newLayout(p, 0, 0, nil, false, nil)
		sl := lay.slot(tg)
		if held := sl.info&valInline != 0; held != (off%ir.StickBytes == 0 && off/ir.StickBytes < maxInline) {
			t.Errorf("offset %d: held %v", off, held)
		}
		if got := lay.poolOffset(sl, int(tg)); got != off {
			t.Errorf("offset %d: poolOffset %d", off, got)
		}
		lay.release()
		text := emitText(t, p, 0, Options{})
		if name := fmt.Sprintf("%%pool_addr_%d ", off); !strings.Contains(text, name) {
			t.Errorf("offset %d: no %s in\n%s", off, name, text)
		}
	}
}
