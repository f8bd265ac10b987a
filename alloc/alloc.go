// Package alloc owns offset assignment for one bundle's pool: given the
// live ranges and sizes of the bundle's candidates and a budget, it decides
// where each one goes or that it falls back (over budget).
//
// Every allocator keeps the rules of bundle-ir.md §3.3 except the placement policy:
// two buffers whose ranges intersect never overlap in bytes, and the pool end
// never exceeds the budget. Allocators are pure and deterministic.
package alloc

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
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

// Allocator is one entry of the allocator table.
type Allocator struct {
	// Name is how the allocator is chosen (--allocator NAME) and recorded
	// in the plan.
	Name string
	// New builds the allocator with opt; allocators without knobs ignore
	// it. Each call returns an independent Func.
	New func(opt Options) Func
	// Doc is a one-line description.
	Doc string
	// Ordered is the allocator's ordered form (see Ordered), or nil: a
	// caller that keeps its intervals itself may call it instead of the
	// Func, with the same placements and pool size.
	Ordered Ordered
}

// table lists every allocator, default first. Its order is the order of
// --help, of --compare and of the plan's "compare" entries. It is read
// through Table and Names, which hand out copies, so that no importer
// can change it.
var table = [...]Allocator{
	{"first-fit", func(Options) Func { return FirstFit }, "the spec's policy (bundle-ir.md §3.3): start order, lowest free offset", FirstFitOrdered},
	{"best-fit", func(Options) Func { return BestFit }, "start order, smallest free block that fits, coalescing frees", nil},
	{"size-best-fit", func(Options) Func { return SizeBestFit }, "largest buffer first, into the smallest gap that fits (TFLite/XLA)", nil},
	{"best", BestWith, "a portfolio of the others plus a bounded complete search; the smallest pool found", nil},
}

// Table returns every allocator, default first (a copy: changing it
// changes nothing here).
func Table() []Allocator { return slices.Clone(table[:]) }

// Names returns the allocators' names in table order, default first.
func Names() []string {
	n := make([]string, len(table))
	for i, a := range table {
		n[i] = a.Name
	}
	return n
}

// Placer is one allocator made ready to place: a table entry's name and
// ordered form, with its Func built for the caller's Options. Lookup (or
// Allocator.With) makes one, once; a planner receives it whole, so the
// name it records, the Func it calls and the ordered form it may call
// instead always belong to the same entry.
type Placer struct {
	// Name is the entry's name, recorded in the plan.
	Name string
	// Func is the entry's New with the Options.
	Func Func
	// Ordered is the entry's ordered form, or nil.
	Ordered Ordered
}

// With builds a's Placer with opt.
func (a Allocator) With(opt Options) Placer {
	return Placer{Name: a.Name, Func: a.New(opt), Ordered: a.Ordered}
}

// Default is the default allocator (the table's first, first-fit) with
// the default Options.
func Default() Placer { return table[0].With(Options{}) }

// Lookup builds the allocator called name with opt: the one lookup by
// name. Each call builds an independent Func, so different callers can
// use different options concurrently without shared mutable state.
func Lookup(name string, opt Options) (Placer, error) {
	for _, a := range table {
		if a.Name == name {
			return a.With(opt), nil
		}
	}
	return Placer{}, fmt.Errorf("unknown allocator %q (have %v)", name, Names())
}

// StartOrder returns the indices of items sorted by (start, end, name):
// the processing order of bundle-ir.md §3.3 step 1. Ties on all three keep input
// order.
func StartOrder(items []Interval) []int {
	idx, _ := appendStartOrder[int](nil, nil, items)
	return idx
}

// AppendStartOrder appends StartOrder(items) to dst, as int32 indices
// (len(items) must fit in an int32): the planner appends them to its
// candidate list, which holds int32.
func AppendStartOrder(dst []int32, items []Interval) []int32 {
	dst, _ = appendStartOrder(dst, nil, items)
	return dst
}

// index is the type of the indices appendStartOrder appends: int for
// StartOrder and FirstFit, int32 for AppendStartOrder.
type index interface{ int | int32 }

// appendStartOrder appends StartOrder(items) to dst, with pos as scratch
// for the counting sort; it returns dst and pos, grown as needed.
func appendStartOrder[I index](dst []I, pos []int, items []Interval) ([]I, []int) {
	if lo, span, ok := denseSpan(items); ok {
		return startOrderDense(dst, pos, items, lo, span)
	}
	dst = slices.Grow(dst, len(items))
	for _, i := range startOrderSorted(items) {
		dst = append(dst, I(i))
	}
	return dst, pos
}

// byEndName orders intervals that start at the same step.
func byEndName(a, b *Interval) int {
	if c := cmp.Compare(a.End, b.End); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

func startOrderSorted(items []Interval) []int {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		a, b := &items[x], &items[y]
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return byEndName(a, b)
	})
	return idx
}

// startOrderDense is a counting sort by start over the span [lo, lo+span),
// then a stable sort of each run of equal starts by (end, name): O(n + span)
// for the usual handful of buffers starting at one step of a bundle.
func startOrderDense[I index](dst []I, pos []int, items []Interval, lo, span int) ([]I, []int) {
	if cap(pos) < span+1 {
		pos = make([]int, span+1)
	}
	pos = pos[:span+1]
	clear(pos)
	for i := range items {
		pos[items[i].Start-lo+1]++
	}
	for s := 1; s <= span; s++ {
		pos[s] += pos[s-1]
	}
	base := len(dst)
	dst = slices.Grow(dst, len(items))[:base+len(items)]
	idx := dst[base:]
	next := pos[:span] // next[s]: the next slot for start lo+s
	for i := range items {
		s := items[i].Start - lo
		idx[next[s]] = I(i)
		next[s]++
	}
	// next[s] is now the end of run s, which is where run s+1 starts.
	start := 0
	for s := 0; s < span; s++ {
		if run := idx[start:next[s]]; len(run) > 1 {
			slices.SortStableFunc(run, func(x, y I) int { return byEndName(&items[x], &items[y]) })
		}
		start = next[s]
	}
	return dst, pos
}

// denseSpan returns the steps items cover, [lo, lo+span), and whether that
// span is small enough next to their number (as in a bundle, where every
// interval lies within the bundle's steps) to count over steps instead of
// sorting. Traces with sparse time stamps take the sorting paths.
func denseSpan(items []Interval) (lo, span int, ok bool) {
	if len(items) == 0 {
		return 0, 0, false
	}
	lo, hi := items[0].Start, items[0].End
	for i := range items {
		lo, hi = min(lo, items[i].Start), max(hi, items[i].End)
	}
	if hi-lo >= 4*len(items)+64 {
		return 0, 0, false
	}
	return lo, hi - lo + 1, true
}

// LowerBound is the most bytes live at any one step: no placement can use
// a smaller pool.
func LowerBound(items []Interval) int64 {
	if lo, span, ok := denseSpan(items); ok {
		return lowerBoundDense(items, lo, span)
	}
	return lowerBoundSorted(items)
}

// lowerBoundDense sums a difference array over the span.
func lowerBoundDense(items []Interval, lo, span int) int64 {
	delta := make([]int64, span+1)
	for _, it := range items {
		delta[it.Start-lo] += it.Size
		delta[it.End-lo+1] -= it.Size
	}
	var cur, best int64
	for _, d := range delta {
		cur += d
		best = max(best, cur)
	}
	return best
}

func lowerBoundSorted(items []Interval) int64 {
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
	slices.SortFunc(evs, func(a, b ev) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	var cur, best int64
	for _, e := range evs {
		cur += e.delta
		best = max(best, cur)
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
	// Sweep by start, keeping the byte ranges of the intervals live at
	// the current step in an ordered set: while no overlap was found they
	// are disjoint, so a new range overlaps one of them exactly when it
	// overlaps its neighbour below or above. O(n log n) whatever the
	// shape (comparing with every live interval was quadratic when all
	// are live at once).
	slices.SortStableFunc(placed, func(a, b int) int { return cmp.Compare(items[a].Start, items[b].Start) })
	byEnd := slices.Clone(placed)
	slices.SortStableFunc(byEnd, func(a, b int) int { return cmp.Compare(items[a].End, items[b].End) })
	live := newPairSet()
	e := 0
	overlap := func(i, j int) error {
		a, b := items[i], items[j]
		a0, b0 := r.Offsets[i], r.Offsets[j]
		return fmt.Errorf("%s [%d,%d) steps %d..%d overlaps %s [%d,%d) steps %d..%d",
			a.Name, a0, a0+a.Size, a.Start, a.End, b.Name, b0, b0+b.Size, b.Start, b.End)
	}
	for _, i := range placed {
		it := items[i]
		for ; e < len(byEnd) && items[byEnd[e]].End < it.Start; e++ {
			j := byEnd[e]
			live.Delete(pair{r.Offsets[j], int64(j)})
		}
		if it.Size == 0 {
			continue
		}
		a0, a1 := r.Offsets[i], r.Offsets[i]+it.Size
		if p, ok := live.Floor(pair{a0, math.MaxInt64}); ok && p.a+items[p.b].Size > a0 {
			return overlap(i, int(p.b))
		}
		if p, ok := live.Ceil(pair{a0, math.MinInt64}); ok && p.a < a1 {
			return overlap(i, int(p.b))
		}
		live.Insert(pair{a0, int64(i)})
	}
	return nil
}
