// Package planner owns pool planning (bundle-ir.md §3): for every storage group it
// decides the reason it cannot be pooled, or its bundle, live range and pool
// offset; for every bundle its pool size and lower bound.
//
// Plan is a pure function of the checked graph and Options. Offset
// placement is delegated to an alloc.Func, so every allocator shares the
// candidate rules and live ranges computed here.
package planner

import (
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/ir"
)

// DefaultBudget is MAX_POOL_SIZE_BYTES: SEGMENT_SIZE (16 GiB) less the
// 2 GiB reserve.
const DefaultBudget int64 = 17179869184 - 2147483648

// Reason says why a group is not pooled. The zero value means it is.
type Reason string

// The reasons of bundle-ir.md §3.1, in precedence order.
const (
	Pooled      Reason = ""
	Disabled    Reason = "disabled"
	GraphInput  Reason = "graph-input"
	GraphOutput Reason = "graph-output"
	LX          Reason = "lx"
	CPURead     Reason = "cpu-read"
	Unused      Reason = "unused"
	NotWritten  Reason = "not-written"
	NotRead     Reason = "not-read"
	MultiWriter Reason = "multi-writer"
	CrossBundle Reason = "cross-bundle"
	ZeroSize    Reason = "zero-size"
	OverBudget  Reason = "over-budget"
)

// ReasonInfo describes one reason a group is not pooled.
type ReasonInfo struct {
	Reason Reason
	// Meaning completes "the group…": when the reason applies.
	Meaning string
	// Evidence is the one-line justification reports print when they
	// have nothing more specific (positions, bundle names) to say.
	Evidence string
	// FromAccesses says the reason is decided by who reads and writes
	// the group (its Usage), so evidence can name those accesses.
	FromAccesses bool

	// applies is the rule: whether the reason holds for a group, given
	// that no earlier reason of the table does. nil for over-budget,
	// which the allocator decides.
	applies func(gr *ir.Group, u *Usage, disabled bool) bool
}

// ReasonTable is the one table of the reasons of bundle-ir.md §3.1, in precedence
// order: the first that applies is reported. reasonFor applies its rules
// in this order; report and docs/bundle-ir.md read it (a test holds the
// doc equal to it).
var ReasonTable = []ReasonInfo{
	{Reason: Disabled, Meaning: "— planning is off (`HBM_POOL_PLANNING=0`/`false`/`no`, or `--no-pool`)",
		Evidence: "pool planning is off (HBM_POOL_PLANNING=0 or --no-pool)",
		applies:  func(_ *ir.Group, _ *Usage, disabled bool) bool { return disabled }},
	{Reason: GraphInput, Meaning: "holds a graph input",
		Evidence: "its storage holds a graph input, allocated outside any bundle",
		applies:  func(gr *ir.Group, _ *Usage, _ bool) bool { return gr.Input }},
	{Reason: GraphOutput, Meaning: "holds a graph output",
		Evidence: "its storage holds a graph output, which must outlive the bundle",
		applies:  func(gr *ir.Group, _ *Usage, _ bool) bool { return gr.Output }},
	{Reason: LX, Meaning: "holds an LX-claimed name",
		Evidence: "its storage is claimed by LX scratchpad planning",
		applies:  func(gr *ir.Group, _ *Usage, _ bool) bool { return gr.LX }},
	{Reason: CPURead, Meaning: "is read by a CPU fallback node",
		Evidence: "a CPU node reads it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool { return len(u.CPUReadBy) > 0 }},
	{Reason: Unused, Meaning: "is read or written by no node at all",
		Evidence: "no node reads or writes it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool {
			return len(u.ReadBy) == 0 && len(u.WrittenBy) == 0 && len(u.CPUWrittenBy) == 0
		}},
	{Reason: NotWritten, Meaning: "is written by no bundle (only read, or written only by CPU nodes)",
		Evidence: "no bundle writes it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool { return len(u.WrittenBy) == 0 }},
	{Reason: NotRead, Meaning: "is read by no node",
		Evidence: "no node reads it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool { return len(u.ReadBy) == 0 }},
	{Reason: MultiWriter, Meaning: "is written by two or more bundles",
		Evidence: "two or more bundles write it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool { return len(u.WrittenBy) > 1 }},
	{Reason: CrossBundle, Meaning: "is read by a bundle other than its single writer",
		Evidence: "a bundle other than its writer reads it", FromAccesses: true,
		applies: func(_ *ir.Group, u *Usage, _ bool) bool { return len(u.ReadBy) > 1 || u.ReadBy[0] != u.WrittenBy[0] }},
	{Reason: ZeroSize, Meaning: "has size 0",
		Evidence: "its size is 0 bytes",
		applies:  func(gr *ir.Group, _ *Usage, _ bool) bool { return gr.Size == 0 }},
	{Reason: OverBudget, Meaning: "could not be placed under the budget (3.3)",
		Evidence: "the allocator could not place it under the budget"},
}

// Reasons lists every non-pooled reason in precedence order (the
// reasons of ReasonTable).
var Reasons = func() []Reason {
	r := make([]Reason, len(ReasonTable))
	for i, x := range ReasonTable {
		r[i] = x.Reason
	}
	return r
}()

// Index returns r's position in ReasonTable (its precedence), or -1 for
// Pooled or an unknown reason.
func (r Reason) Index() int {
	for i, x := range ReasonTable {
		if x.Reason == r {
			return i
		}
	}
	return -1
}

// Options selects how a graph is planned.
type Options struct {
	// Disabled turns planning off: every group reports Disabled.
	Disabled bool
	// Budget is MAX_POOL_SIZE_BYTES for every bundle's pool.
	Budget int64
	// AllocatorName is recorded in the plan; Allocator does the placing
	// (alloc.FirstFit when nil).
	AllocatorName string
	Allocator     alloc.Func
}

// Result is the planning result for one graph.
type Result struct {
	Graph     *ir.Graph
	Allocator string
	Budget    int64
	Disabled  bool
	// Groups has one entry per ir.Graph.Groups element, same index.
	Groups []Group
	// Bundles has one entry per ir.Graph.Bundles element, same index.
	Bundles []Bundle
	// Compare, when set (--compare), lists the pool sizes other
	// allocators would need; the plan JSON shows them per bundle.
	Compare []Alternative
}

// Group is the decision for one storage group.
type Group struct {
	Reason Reason
	// Bundle is the candidate's bundle (its single writer), or -1 when
	// the group is not a candidate. Over-budget groups are candidates.
	Bundle int
	// Start and End are the inclusive live range in Bundle's steps.
	Start, End int
	// Offset is the pool offset, or -1 when the group is not pooled.
	Offset int64
	// Usage is the evidence the reason was derived from.
	Usage Usage
}

// Usage records who touches a group; bundle lists are distinct bundle
// indices in ascending order, CPU lists indices into ir.Graph.CPU.
type Usage struct {
	ReadBy, WrittenBy       []int
	CPUReadBy, CPUWrittenBy []int
}

// Bundle is the pool of one bundle.
type Bundle struct {
	// Candidates are the group indices planned in this bundle, in the
	// allocator's processing order (start, end, name).
	Candidates []int
	// PoolSize is the final pool end; meaningful only with candidates.
	PoolSize int64
	// LowerBound is the most candidate bytes live at any one step,
	// saturated at math.MaxInt64 (see LowerBound).
	LowerBound int64
}

// HasPool reports whether the bundle has an entry in the pool-size table.
func (b Bundle) HasPool() bool { return len(b.Candidates) > 0 }

// Pooled reports whether group gi is placed in bundle bi's pool.
func (p *Result) Pooled(gi, bi int) bool {
	g := &p.Groups[gi]
	return g.Offset >= 0 && g.Bundle == bi
}

// Plan applies bundle-ir.md §3 to g.
func Plan(g *ir.Graph, opt Options) *Result {
	p := &Result{Graph: g, Allocator: opt.AllocatorName, Budget: opt.Budget, Disabled: opt.Disabled,
		Groups: make([]Group, len(g.Groups)), Bundles: make([]Bundle, len(g.Bundles))}
	if p.Allocator == "" {
		p.Allocator = "first-fit"
	}
	place := opt.Allocator
	if place == nil {
		place = alloc.FirstFit
	}
	collectUsage(g, p.Groups)
	for gi := range p.Groups {
		pg := &p.Groups[gi]
		pg.Bundle, pg.Offset = -1, -1
		pg.Reason = reasonFor(&g.Groups[gi], &pg.Usage, opt.Disabled)
		if pg.Reason == Pooled {
			pg.Bundle = pg.Usage.WrittenBy[0]
		}
	}
	// bundleOf is Group.Bundle, compact: planBundle looks it up for every
	// access, and a 4-byte array stays in cache where Groups does not.
	bundleOf := make([]int32, len(g.Groups))
	for gi := range p.Groups {
		bundleOf[gi] = int32(p.Groups[gi].Bundle)
	}
	count := make([]int32, len(g.Groups))
	for bi := range g.Bundles {
		planBundle(g, p, bi, opt.Budget, place, bundleOf, count)
	}
	return p
}

// collectUsage fills every group's Usage. The lists are sub-slices of one
// shared array (capacity-limited, so an append by a caller copies): two
// passes over the accesses, the first counting, instead of millions of
// small allocations.
func collectUsage(g *ir.Graph, groups []Group) {
	n := len(groups)
	// Per list l (ReadBy, WrittenBy, CPUReadBy, CPUWrittenBy) and group gi,
	// at l*n+gi: last is 1 + the index last added (bundles and CPU nodes
	// are visited in ascending order, so an index is new for a list
	// exactly when it differs from the last one added), count the length
	// in the first pass and the next free arena slot in the second.
	last := make([]int32, 4*n)
	count := make([]int32, 4*n)
	var arena []int
	for pass := 0; pass < 2; pass++ {
		note := func(k, i int) {
			if last[k] == int32(i+1) {
				return
			}
			last[k] = int32(i + 1)
			if pass == 0 {
				count[k]++
			} else {
				arena[count[k]] = i
				count[k]++
			}
		}
		for bi := range g.Bundles {
			for oi := range g.Bundles[bi].Ops {
				op := &g.Bundles[bi].Ops[oi]
				for _, a := range op.Reads {
					note(a.Group, bi)
				}
				for _, a := range op.Writes {
					note(n+a.Group, bi)
				}
			}
		}
		for ci := range g.CPU {
			for _, a := range g.CPU[ci].Reads {
				note(2*n+a.Group, ci)
			}
			for _, a := range g.CPU[ci].Writes {
				note(3*n+a.Group, ci)
			}
		}
		if pass == 1 {
			break
		}
		// Lay the lists out group by group and point Usage at them;
		// count becomes each list's start for the second pass.
		total := 0
		for _, c := range count {
			total += int(c)
		}
		arena = make([]int, total)
		off := int32(0)
		for gi := range groups {
			u := &groups[gi].Usage
			for l, list := range [4]*[]int{&u.ReadBy, &u.WrittenBy, &u.CPUReadBy, &u.CPUWrittenBy} {
				k := l*n + gi
				if c := count[k]; c > 0 {
					*list = arena[off : off+c : off+c]
					count[k] = off
					off += c
				}
			}
		}
		clear(last)
	}
}

// reasonFor applies the rules of ReasonTable in order up to zero-size;
// over-budget is decided by the allocator.
func reasonFor(gr *ir.Group, u *Usage, disabled bool) Reason {
	for i := range ReasonTable {
		if r := &ReasonTable[i]; r.applies != nil && r.applies(gr, u, disabled) {
			return r.Reason
		}
	}
	return Pooled
}
