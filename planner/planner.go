// Package planner owns pool planning (bundle-ir.md §3): for every storage group it
// decides the reason it cannot be pooled, or its bundle, live range and pool
// offset; for every bundle its pool size and lower bound.
//
// Plan is a pure function of the checked graph and Options. Offset
// placement is delegated to an alloc.Func, so every allocator shares the
// candidate rules and live ranges computed here.
package planner

import (
	"slices"
	"strconv"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/internal/par"
	"github.com/sdscgen/sdscgen/ir"
)

// DefaultBudget is MAX_POOL_SIZE_BYTES: SEGMENT_SIZE (16 GiB) less the
// 2 GiB reserve.
const DefaultBudget int64 = 17179869184 - 2147483648

// Reason says why a group is not pooled. The zero value means it is.
// It is a small code: its name (the plan JSON's "reason") is
// ReasonTable's Name, which String returns. (It is not a uint8 so that
// vet rejects string(r), which would yield a rune, not the name.)
type Reason uint16

// The reasons of bundle-ir.md §3.1, in precedence order: Reason(i+1) is
// ReasonTable[i] (a test holds the two in step).
const (
	Pooled Reason = iota
	Disabled
	GraphInput
	GraphOutput
	LX
	CPURead
	Unused
	NotWritten
	NotRead
	MultiWriter
	CrossBundle
	ZeroSize
	OverBudget
)

// ReasonInfo describes one reason a group is not pooled.
type ReasonInfo struct {
	Reason Reason
	// Name is the reason's public name: the plan JSON's "reason", and
	// what reports print.
	Name string
	// Meaning completes "the group…": when the reason applies.
	Meaning string
	// Evidence is the one-line justification reports print when they
	// have nothing more specific (positions, bundle names) to say.
	Evidence string

	// applies is the rule: whether the reason holds for a group, given
	// its claims (ir.Graph.GroupClaims) and that no earlier reason of the
	// table does. nil for over-budget, which the allocator decides.
	applies func(gr *ir.Group, claims ir.ClaimSet, u *touches, disabled bool) bool
}

// reasonTable is the one table of the reasons of bundle-ir.md §3.1, in
// precedence order: the first that applies is reported. reasonFor applies
// its rules in this order; report and docs/bundle-ir.md read it (a test
// holds the doc equal to it), through ReasonTable and Reason.Info, which
// hand out copies, so that no importer can change it.
var reasonTable = [...]ReasonInfo{
	{Reason: Disabled, Name: "disabled", Meaning: "— planning is off (`HBM_POOL_PLANNING=0`/`false`/`no`, or `--no-pool`)",
		Evidence: "pool planning is off (HBM_POOL_PLANNING=0 or --no-pool)",
		applies:  func(_ *ir.Group, _ ir.ClaimSet, _ *touches, disabled bool) bool { return disabled }},
	{Reason: GraphInput, Name: "graph-input", Meaning: "holds a graph input",
		Evidence: "its storage holds a graph input, allocated outside any bundle",
		applies:  func(_ *ir.Group, c ir.ClaimSet, _ *touches, _ bool) bool { return c.Has(ir.ClaimInput) }},
	{Reason: GraphOutput, Name: "graph-output", Meaning: "holds a graph output",
		Evidence: "its storage holds a graph output, which must outlive the bundle",
		applies:  func(_ *ir.Group, c ir.ClaimSet, _ *touches, _ bool) bool { return c.Has(ir.ClaimOutput) }},
	{Reason: LX, Name: "lx", Meaning: "holds an LX-claimed name",
		Evidence: "its storage is claimed by LX scratchpad planning",
		applies:  func(_ *ir.Group, c ir.ClaimSet, _ *touches, _ bool) bool { return c.Has(ir.ClaimLX) }},
	{Reason: CPURead, Name: "cpu-read", Meaning: "is read by a CPU fallback node",
		Evidence: "a CPU node reads it",
		applies:  func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool { return u.cpuRead }},
	{Reason: Unused, Name: "unused", Meaning: "is read or written by no node at all",
		Evidence: "no node reads or writes it",
		applies: func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool {
			return u.readers == 0 && u.writers == 0 && !u.cpuWritten
		}},
	{Reason: NotWritten, Name: "not-written", Meaning: "is written by no bundle (only read, or written only by CPU nodes)",
		Evidence: "no bundle writes it",
		applies:  func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool { return u.writers == 0 }},
	{Reason: NotRead, Name: "not-read", Meaning: "is read by no node",
		Evidence: "no node reads it",
		applies:  func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool { return u.readers == 0 }},
	{Reason: MultiWriter, Name: "multi-writer", Meaning: "is written by two or more bundles",
		Evidence: "two or more bundles write it",
		applies:  func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool { return u.writers > 1 }},
	{Reason: CrossBundle, Name: "cross-bundle", Meaning: "is read by a bundle other than its single writer",
		Evidence: "a bundle other than its writer reads it",
		applies: func(_ *ir.Group, _ ir.ClaimSet, u *touches, _ bool) bool {
			return u.readers > 1 || u.reader != u.writer
		}},
	{Reason: ZeroSize, Name: "zero-size", Meaning: "has size 0",
		Evidence: "its size is 0 bytes",
		applies:  func(gr *ir.Group, _ ir.ClaimSet, _ *touches, _ bool) bool { return gr.Size == 0 }},
	{Reason: OverBudget, Name: "over-budget", Meaning: "could not be placed under the budget (3.3)",
		Evidence: "the allocator could not place it under the budget"},
}

// ReasonTable returns the table of the reasons a group is not pooled
// for, in precedence order (a copy).
func ReasonTable() []ReasonInfo { return slices.Clone(reasonTable[:]) }

// Reasons returns every non-pooled reason in precedence order (the
// reasons of ReasonTable).
func Reasons() []Reason {
	r := make([]Reason, len(reasonTable))
	for i, x := range reasonTable {
		r[i] = x.Reason
	}
	return r
}

// NumReasons is how many non-pooled reasons there are: Reason.Index is
// below it.
const NumReasons = len(reasonTable)

// Info returns r's entry of ReasonTable (the zero ReasonInfo for Pooled
// or an unknown reason).
func (r Reason) Info() ReasonInfo {
	if i := r.Index(); i >= 0 {
		return reasonTable[i]
	}
	return ReasonInfo{}
}

// Index returns r's position in ReasonTable (its precedence), or -1 for
// Pooled or an unknown reason.
func (r Reason) Index() int {
	if r == Pooled || int(r) > len(reasonTable) {
		return -1
	}
	return int(r) - 1
}

// String is r's name (ReasonTable's Name); "" for Pooled, as the plan
// JSON has no reason for a pooled group.
func (r Reason) String() string {
	if i := r.Index(); i >= 0 {
		return reasonTable[i].Name
	}
	if r == Pooled {
		return ""
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Options selects how a graph is planned.
type Options struct {
	// Disabled turns planning off: every group reports Disabled.
	Disabled bool
	// Budget is MAX_POOL_SIZE_BYTES for every bundle's pool.
	Budget int64
	// Allocator places each bundle's candidates, and its Name is
	// recorded in the plan; the zero Placer is alloc.Default()
	// (first-fit). With Workers > 1 it is called from several
	// goroutines at once, one bundle each: every allocator of
	// alloc.Table is safe for that. When it has an ordered form, Plan
	// calls that instead, and it reads the candidates from the plan
	// itself, with no []alloc.Interval copy of them; without one, its
	// Func is handed such a copy per bundle.
	Allocator alloc.Placer
	// Workers is how many goroutines plan bundles; 0 or 1 plans them on
	// the caller's goroutine. The result is the same for every value:
	// bundles are planned independently, each into its own entries.
	Workers int
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
	// CandidateGroups holds every bundle's candidates, bundle after
	// bundle: each Bundle.Candidates locates its own (read them with
	// Candidates). An entry is an ir.Graph.Groups index, int32 (4 bytes)
	// as the graph's own group indices are: a plan holds one per
	// candidate.
	CandidateGroups []int32
	// Compare, when set (--compare), lists the pool sizes other
	// allocators would need; the plan JSON shows them per bundle.
	Compare []Alternative

	// index is Index's answer, built on first use.
	index *indexOnce
}

// Group is the decision for one storage group. It is kept small (24
// bytes): a plan holds one per storage group.
type Group struct {
	// Offset is the pool offset, or -1 when the group is not pooled.
	Offset int64
	// Bundle is the candidate's bundle (its single writer), or -1 when
	// the group is not a candidate. Over-budget groups are candidates.
	Bundle int32
	// Start and End are the inclusive live range in Bundle's steps.
	Start, End int32
	Reason     Reason
}

// Usage records who touches a group; bundle lists are distinct bundle
// indices in ascending order, CPU lists indices into ir.Graph.CPU. It is
// the evidence a group's reason was derived from.
type Usage struct {
	ReadBy, WrittenBy       []int
	CPUReadBy, CPUWrittenBy []int
}

// Bundle is the pool of one bundle. It is kept small (24 bytes): without
// fusion a plan holds one per op, most of them with no candidate.
type Bundle struct {
	// Candidates locates in Result.CandidateGroups the group indices
	// planned in this bundle, in the allocator's processing order
	// (start, end, name): read them with Result.Candidates.
	Candidates ir.Span
	// PoolSize is the final pool end; meaningful only with candidates.
	PoolSize int64
	// LowerBound is the most candidate bytes live at any one step,
	// saturated at math.MaxInt64 (see LowerBound).
	LowerBound int64
}

// HasPool reports whether the bundle has an entry in the pool-size table.
func (b Bundle) HasPool() bool { return b.Candidates.Len > 0 }

// Candidates returns bundle bi's candidates (see Bundle.Candidates),
// capacity capped.
func (p *Result) Candidates(bi int) []int32 {
	s := p.Bundles[bi].Candidates
	return p.CandidateGroups[s.Off : s.Off+s.Len : s.Off+s.Len]
}

// Pooled reports whether group gi is placed in bundle bi's pool.
func (p *Result) Pooled(gi, bi int) bool {
	g := &p.Groups[gi]
	return g.Offset >= 0 && int(g.Bundle) == bi
}

// Plan applies bundle-ir.md §3 to g.
func Plan(g *ir.Graph, opt Options) *Result {
	a := opt.Allocator
	if a.Func == nil {
		a = alloc.Default()
	}
	p := &Result{Graph: g, Allocator: a.Name, Budget: opt.Budget, Disabled: opt.Disabled,
		Groups: make([]Group, len(g.Groups)), Bundles: make([]Bundle, len(g.Bundles)), index: &indexOnce{}}
	place, ordered := a.Func, a.Ordered
	ts := collectTouches(g)
	// Each group's reason depends on its own touches only.
	par.ForChunks(opt.Workers, len(g.Groups), 1<<14, func(_, lo, hi int) {
		// known[k] is 1 + the reason of the groups of key k (see
		// reasonKey), 0 until one of them is met: the rules run once a
		// key, not once a group.
		var known [1 << reasonKeyBits]Reason
		for gi := lo; gi < hi; gi++ {
			t, gr := &ts[gi], &g.Groups[gi]
			claims := g.GroupClaims[gi]
			k := reasonKey(gr, claims, t)
			r := known[k] - 1
			if known[k] == 0 {
				r = reasonFor(gr, claims, t, opt.Disabled)
				known[k] = r + 1
			}
			p.Groups[gi] = Group{Offset: -1, Bundle: -1, Reason: r}
			if r == Pooled {
				p.Groups[gi].Bundle = t.writer
			}
		}
	})
	planBundles(g, p, opt, place, ordered)
	return p
}

// touches summarises who touches a group, as much as the rules of
// ReasonTable read: the first bundle to read and to write it, how many
// distinct bundles do (counted up to 2), and whether CPU nodes do. It is
// Usage condensed (TestTouchesMatchUsage holds the two equal).
type touches struct {
	reader, writer   int32 // the first, -1 when none
	readers, writers uint8 // distinct bundles, saturated at 2
	cpuRead          bool
	cpuWritten       bool
}

// reasonKey condenses what the rules of ReasonTable read of a group and
// its touches into reasonKeyBits bits: the counts and CPU flags, whether
// the first reader and writer differ, the group's input, output and LX
// claims and whether its size is 0. Every rule is a function of the key
// (and of the call's Disabled), so groups of one key have one reason
// (TestReasonKey holds this on every key). A rule that reads more must
// add it here.
func reasonKey(gr *ir.Group, claims ir.ClaimSet, t *touches) int {
	k := int(t.readers) | int(t.writers)<<2
	bits := [...]bool{t.cpuRead, t.cpuWritten, t.reader != t.writer,
		claims.Has(ir.ClaimInput), claims.Has(ir.ClaimOutput), claims.Has(ir.ClaimLX), gr.Size == 0}
	for i, b := range bits {
		if b {
			k |= 1 << (4 + i)
		}
	}
	return k
}

// reasonKeyBits is how many bits reasonKey uses.
const reasonKeyBits = 11

// noteTouch records in t that bundle bi reads (or writes) the group.
func noteTouch(t *touches, bi int32, read bool) {
	first, n := &t.writer, &t.writers
	if read {
		first, n = &t.reader, &t.readers
	}
	switch {
	case *n == 0:
		*first, *n = bi, 1
	case *n == 1 && *first != bi:
		// Bundles are visited in ascending order: a second distinct
		// one differs from the first.
		*n = 2
	}
}

// collectTouches summarises every group's accesses in one pass: the
// touches of group gi are its entry gi. It lives while Plan decides the
// reasons (12 bytes a group).
func collectTouches(g *ir.Graph) []touches {
	ts := make([]touches, len(g.Groups))
	for i := range ts {
		ts[i] = touches{reader: -1, writer: -1}
	}
	for bi := range g.Bundles {
		b := int32(bi)
		for oi := range g.Bundles[bi].Ops {
			op := &g.Bundles[bi].Ops[oi]
			reads, writes := g.Reads(op), g.Writes(op)
			for i := range reads {
				noteTouch(&ts[g.GroupOf(&reads[i])], b, true)
			}
			for i := range writes {
				noteTouch(&ts[g.GroupOf(&writes[i])], b, false)
			}
		}
	}
	for ci := range g.CPU {
		for _, a := range g.CPUReads(&g.CPU[ci]) {
			ts[g.GroupOf(&a)].cpuRead = true
		}
		for _, a := range g.CPUWrites(&g.CPU[ci]) {
			ts[g.GroupOf(&a)].cpuWritten = true
		}
	}
	return ts
}

// reasonFor applies the rules of ReasonTable in order up to zero-size;
// over-budget is decided by the allocator.
func reasonFor(gr *ir.Group, claims ir.ClaimSet, u *touches, disabled bool) Reason {
	for i := range reasonTable {
		if r := &reasonTable[i]; r.applies != nil && r.applies(gr, claims, u, disabled) {
			return r.Reason
		}
	}
	return Pooled
}
