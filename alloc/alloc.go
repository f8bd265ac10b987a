// Package alloc owns offset assignment for one bundle's pool: given the
// live ranges and sizes of the bundle's candidates and a budget, it decides
// where each one goes or that it falls back (over budget).
//
// Every allocator keeps the rules of spec §2.3 except the placement policy:
// two buffers whose ranges intersect never overlap in bytes, and the pool end
// never exceeds the budget. Allocators are pure and deterministic.
package alloc

import (
	"fmt"
	"sort"
)

// Interval is one buffer to place. Start and End are inclusive steps.
type Interval struct {
	Name       string
	Size       int64
	Start, End int
}

// Conflicts reports whether two intervals are live at a common step.
func (a Interval) Conflicts(b Interval) bool {
	return a.Start <= b.End && b.Start <= a.End
}

// Result is an allocator's answer for one bundle.
type Result struct {
	// Offsets has one entry per input interval, in input order: the byte
	// offset in the pool, or -1 when the interval fell back over budget.
	Offsets []int64
	// PoolEnd is the final pool end (the bundle's pool size).
	PoolEnd int64
}

// Func places intervals under a budget. It must not modify its input.
type Func func(items []Interval, budget int64) Result

// Names lists the allocators offered behind --allocator, default first.
var Names = []string{"first-fit"}

var registry = map[string]Func{
	"first-fit": FirstFit,
}

// Lookup returns the allocator called name.
func Lookup(name string) (Func, error) {
	if f, ok := registry[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown allocator %q (have %v)", name, Names)
}

// register adds an allocator; called from init functions of the files that
// define one, so that Names keeps the default first and the rest in order.
func register(name string, f Func) {
	registry[name] = f
	Names = append(Names, name)
}

// StartOrder returns the indices of items sorted by (start, end, name):
// the processing order of spec §2.3 step 1.
func StartOrder(items []Interval) []int {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := items[idx[x]], items[idx[y]]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.End != b.End {
			return a.End < b.End
		}
		return a.Name < b.Name
	})
	return idx
}

// LowerBound is the most bytes live at any one step: no placement can use
// a smaller pool.
func LowerBound(items []Interval) int64 {
	type ev struct {
		at    int
		delta int64
	}
	evs := make([]ev, 0, 2*len(items))
	for _, it := range items {
		evs = append(evs, ev{it.Start, it.Size}, ev{it.End + 1, -it.Size})
	}
	// Frees at a step happen before allocations at the same step: an
	// interval ending at s-1 is not live at s.
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].at != evs[j].at {
			return evs[i].at < evs[j].at
		}
		return evs[i].delta < evs[j].delta
	})
	var cur, best int64
	for _, e := range evs {
		cur += e.delta
		if cur > best {
			best = cur
		}
	}
	return best
}

// Check verifies that a result is a legal placement of items under budget:
// offsets in range, no overlap between conflicting intervals, pool end equal
// to the highest placed end. It returns the first violation found.
func Check(items []Interval, budget int64, r Result) error {
	if len(r.Offsets) != len(items) {
		return fmt.Errorf("%d offsets for %d intervals", len(r.Offsets), len(items))
	}
	var top int64
	placed := make([]int, 0, len(items))
	for i, off := range r.Offsets {
		if off == -1 {
			continue
		}
		if off < 0 {
			return fmt.Errorf("%s: negative offset %d", items[i].Name, off)
		}
		end := off + items[i].Size
		if end > budget {
			return fmt.Errorf("%s: [%d, %d) exceeds budget %d", items[i].Name, off, end, budget)
		}
		if end > top {
			top = end
		}
		placed = append(placed, i)
	}
	if top != r.PoolEnd {
		return fmt.Errorf("pool end %d, highest placed byte %d", r.PoolEnd, top)
	}
	// Sweep by start so each interval is compared only with those live
	// with it.
	sort.Slice(placed, func(a, b int) bool { return items[placed[a]].Start < items[placed[b]].Start })
	var active []int
	for _, i := range placed {
		it := items[i]
		keep := active[:0]
		for _, j := range active {
			if items[j].End >= it.Start {
				keep = append(keep, j)
			}
		}
		active = keep
		for _, j := range active {
			if it.Size == 0 || items[j].Size == 0 {
				continue
			}
			a0, a1 := r.Offsets[i], r.Offsets[i]+it.Size
			b0, b1 := r.Offsets[j], r.Offsets[j]+items[j].Size
			if a0 < b1 && b0 < a1 {
				return fmt.Errorf("%s [%d,%d) steps %d..%d overlaps %s [%d,%d) steps %d..%d",
					it.Name, a0, a1, it.Start, it.End, items[j].Name, b0, b1, items[j].Start, items[j].End)
			}
		}
		active = append(active, i)
	}
	return nil
}
