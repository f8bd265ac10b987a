// Package verify re-derives every rule of pool planning (bundle-ir.md §3) from the
// checked graph and compares a plan against it, so that the planner's
// claims are checked by code that is not the planner.
//
// Nothing here calls into package planner or package alloc except to read
// the plan's fields: usage, reasons, live ranges, the candidate order, the
// lower bound and (for first-fit) the placement itself are recomputed from
// the spec text with plain, deliberately simple methods. What is checked:
//
//   - the plan describes this graph (one entry per group and bundle) with
//     the requested budget and mode;
//   - the graph's own invariants that planning relies on: groups are
//     named by their smallest member, every size a whole number of
//     128-byte sticks, buffer/group links consistent;
//   - per group, the reason of bundle-ir.md §3.1 (first applicable in table order),
//     and for a candidate its bundle (the single writer) and its live range
//     of bundle-ir.md §3.2 including loop back-edges;
//   - per bundle, the candidate set and its (start, end, name) order, the
//     pool-size table entry exactly for bundles with candidates, the pool
//     size equal to the highest placed end and at most the budget, every
//     offset non-negative (and a multiple of 128 when every candidate's
//     size is), no two pooled candidates with
//     intersecting ranges overlapping in bytes, over-budget only where even
//     a bump past the final pool end would pass the budget (true of any
//     allocator that keeps rules 2.3.3–4), and the lower bound;
//   - the alias declarations (v2 views): every name's view offset and
//     root re-derived from its `alias NAME = BASE + OFF` chain, each
//     group's size as the largest view offset + size of its names;
//   - cores and splits (bundle-ir.md §2) and the bounds rule of every access,
//     with core offsets re-derived from the op's cores and the access's
//     split; and every start address of a pooled access (pool offset +
//     view offset + core offset + tile) inside its group's bytes;
//   - when the plan names "first-fit", a replay of the spec's first-fit
//     algorithm (O(n log n), at every size) must give exactly the same
//     offsets and pool size.
//
// JSON checks the serialized plan (bundle-ir.md §5) against the plan: key values,
// buffer order, alias members sharing their group's decision.
package verify

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// stick is the HBM allocation granule of bundle-ir.md §2.
const stick = 128

// Options are the settings the plan was requested with.
type Options struct {
	// Disabled is true when planning was turned off.
	Disabled bool
	// Budget is MAX_POOL_SIZE_BYTES.
	Budget int64
}

// maxReported is how many violations an Error spells out.
const maxReported = 20

// Error lists the violations found, in the order checked.
type Error struct {
	// Violations holds the first messages (at most maxReported).
	Violations []string
	// Total counts every violation found.
	Total int
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d violation(s)", e.Total)
	for _, v := range e.Violations {
		b.WriteString("\n  ")
		b.WriteString(v)
	}
	if e.Total > len(e.Violations) {
		fmt.Fprintf(&b, "\n  ... and %d more", e.Total-len(e.Violations))
	}
	return b.String()
}

type checker struct {
	g   *ir.Graph
	p   *planner.Result
	opt Options
	err Error
	// candStart and candList index the candidate groups by bundle
	// (see candOf); expected fills them in.
	candStart, candList []int
	// candPos[gi] is the position of candidate gi in candOf(its bundle).
	candPos []int
	// views is set for the JSON check: the view offsets it expects.
	views *viewInfo
}

func (c *checker) fail(format string, args ...any) {
	c.err.Total++
	if len(c.err.Violations) < maxReported {
		c.err.Violations = append(c.err.Violations, fmt.Sprintf(format, args...))
	}
}

func (c *checker) result() error {
	if c.err.Total == 0 {
		return nil
	}
	e := c.err
	return &e
}

// usage is who touches one group, derived from the graph alone.
type usage struct {
	readBundles, writeBundles []int // distinct bundle indices, ascending
	cpuRead, cpuWritten       bool
}

// addDistinct appends bi unless it is already there. Bundles are visited
// in ascending order, so only the last entry can equal bi.
func addDistinct(list []int, bi int) []int {
	if n := len(list); n > 0 && list[n-1] == bi {
		return list
	}
	return append(list, bi)
}

// want is the expected decision for one group, before placement.
type want struct {
	reason     planner.Reason // "" for a candidate
	bundle     int
	start, end int
}

// Plan checks p against the rules of bundle-ir.md §3 re-derived from g. It returns
// nil or an *Error naming every violation found.
func Plan(g *ir.Graph, p *planner.Result, opt Options) error {
	c := &checker{g: g, p: p, opt: opt}
	if p == nil {
		c.fail("no plan")
		return c.result()
	}
	if p.Graph != g {
		c.fail("the plan is for another graph")
	}
	if len(p.Groups) != len(g.Groups) || len(p.Bundles) != len(g.Bundles) {
		c.fail("the plan has %d groups and %d bundles, the graph %d and %d",
			len(p.Groups), len(p.Bundles), len(g.Groups), len(g.Bundles))
		return c.result()
	}
	if p.Budget != opt.Budget {
		c.fail("the plan records budget %d, requested %d", p.Budget, opt.Budget)
	}
	if p.Disabled != opt.Disabled {
		c.fail("the plan records disabled=%v, requested %v", p.Disabled, opt.Disabled)
	}
	if p.Allocator == "" {
		c.fail("the plan names no allocator")
	}
	if !c.checkGraph() {
		return c.result()
	}
	views := deriveViews(g)
	c.checkViews(views)
	c.checkCores()
	wants := c.expected()
	c.checkGroups(wants)
	for bi := range g.Bundles {
		c.checkBundle(bi, wants)
	}
	c.checkBounds(views)
	return c.result()
}

// checkGraph verifies the model invariants the rules rely on. It returns
// false when indices are inconsistent enough that going on could panic.
func (c *checker) checkGraph() bool {
	g := c.g
	ok := true
	// listed[bi]: buffer bi appears among the members of its own group.
	listed := make([]bool, len(g.Buffers))
	for gi, gr := range g.Groups {
		for _, m := range gr.Members {
			if m >= 0 && m < len(g.Buffers) && g.Buffers[m].Group == gi {
				listed[m] = true
			}
		}
	}
	for bi, b := range g.Buffers {
		if b.Group < 0 || b.Group >= len(g.Groups) {
			c.fail("buffer %q: group index %d out of range", b.Name, b.Group)
			ok = false
			continue
		}
		if b.Size < 0 || b.Size%stick != 0 {
			c.fail("buffer %q: size %d is not a whole number of %d-byte sticks", b.Name, b.Size, stick)
		}
		if !listed[bi] {
			c.fail("buffer %q: not a member of its group %q", b.Name, g.Groups[b.Group].Name)
		}
	}
	for gi, gr := range g.Groups {
		if len(gr.Members) == 0 {
			c.fail("group %d (%q) has no members", gi, gr.Name)
			continue
		}
		name := ""
		for k, m := range gr.Members {
			if m < 0 || m >= len(g.Buffers) {
				c.fail("group %q: member index %d out of range", gr.Name, m)
				ok = false
				continue
			}
			b := g.Buffers[m]
			if b.Group != gi {
				c.fail("group %q: member %q belongs to group %d", gr.Name, b.Name, b.Group)
			}
			if k == 0 || b.Name < name {
				name = b.Name
			}
		}
		if gr.Name != name {
			c.fail("group %q: its smallest member name is %q", gr.Name, name)
		}
		if gr.Root < 0 || gr.Root >= len(g.Buffers) || g.Buffers[gr.Root].Group != gi {
			c.fail("group %q: root index %d is not one of its members", gr.Name, gr.Root)
			ok = false
		}
	}
	check := func(where string, a ir.Access) {
		if a.Buffer < 0 || a.Buffer >= len(g.Buffers) {
			c.fail("%s: buffer index %d out of range", where, a.Buffer)
			ok = false
			return
		}
		if a.Group != g.Buffers[a.Buffer].Group {
			c.fail("%s: access of %q records group %d, the buffer's is %d",
				where, g.Buffers[a.Buffer].Name, a.Group, g.Buffers[a.Buffer].Group)
			ok = false
		}
	}
	for _, b := range g.Bundles {
		for s, op := range b.Ops {
			if op.Step != s {
				c.fail("bundle %q: op %q at index %d records step %d", b.Name, op.Name, s, op.Step)
			}
			for _, a := range op.Reads {
				check("op "+op.Name, a)
			}
			for _, a := range op.Writes {
				check("op "+op.Name, a)
			}
		}
	}
	for _, n := range g.CPU {
		for _, a := range n.Reads {
			check("cpu "+n.Name, a)
		}
		for _, a := range n.Writes {
			check("cpu "+n.Name, a)
		}
	}
	return ok
}

// groupOf resolves an access to its storage through the buffer table.
func (c *checker) groupOf(a ir.Access) int { return c.g.Buffers[a.Buffer].Group }

// expected derives the reason (bundle-ir.md §3.1) and, for candidates, the bundle
// and live range (bundle-ir.md §3.2) of every group.
func (c *checker) expected() []want {
	g := c.g
	us := make([]usage, len(g.Groups))
	for bi, b := range g.Bundles {
		for _, op := range b.Ops {
			for _, a := range op.Reads {
				u := &us[c.groupOf(a)]
				u.readBundles = addDistinct(u.readBundles, bi)
			}
			for _, a := range op.Writes {
				u := &us[c.groupOf(a)]
				u.writeBundles = addDistinct(u.writeBundles, bi)
			}
		}
	}
	for _, n := range g.CPU {
		for _, a := range n.Reads {
			us[c.groupOf(a)].cpuRead = true
		}
		for _, a := range n.Writes {
			us[c.groupOf(a)].cpuWritten = true
		}
	}
	ws := make([]want, len(g.Groups))
	for gi, gr := range g.Groups {
		u := us[gi]
		w := &ws[gi]
		w.bundle = -1
		switch {
		case c.opt.Disabled:
			w.reason = planner.Disabled
		case gr.Input:
			w.reason = planner.GraphInput
		case gr.Output:
			w.reason = planner.GraphOutput
		case gr.LX:
			w.reason = planner.LX
		case u.cpuRead:
			w.reason = planner.CPURead
		case len(u.readBundles) == 0 && len(u.writeBundles) == 0 && !u.cpuWritten:
			w.reason = planner.Unused
		case len(u.writeBundles) == 0:
			w.reason = planner.NotWritten
		case len(u.readBundles) == 0:
			w.reason = planner.NotRead
		case len(u.writeBundles) > 1:
			w.reason = planner.MultiWriter
		case len(u.readBundles) > 1 || u.readBundles[0] != u.writeBundles[0]:
			w.reason = planner.CrossBundle
		case gr.Size == 0:
			w.reason = planner.ZeroSize
		default:
			w.bundle = u.writeBundles[0]
		}
	}
	// Index the candidates by bundle once, ascending group order within
	// each bundle: candOf(bi) = candList[candStart[bi]:candStart[bi+1]].
	c.candStart = make([]int, len(g.Bundles)+1)
	for _, w := range ws {
		if w.bundle >= 0 {
			c.candStart[w.bundle+1]++
		}
	}
	for bi := range g.Bundles {
		c.candStart[bi+1] += c.candStart[bi]
	}
	c.candList = make([]int, c.candStart[len(g.Bundles)])
	c.candPos = make([]int, len(g.Groups))
	fill := slices.Clone(c.candStart[:len(g.Bundles)])
	for gi, w := range ws {
		if w.bundle >= 0 {
			c.candList[fill[w.bundle]] = gi
			c.candPos[gi] = fill[w.bundle] - c.candStart[w.bundle]
			fill[w.bundle]++
		}
	}
	for bi := range g.Bundles {
		c.liveRanges(bi, ws)
	}
	return ws
}

// candOf lists the candidate groups of bundle bi, ascending.
func (c *checker) candOf(bi int) []int {
	return c.candList[c.candStart[bi]:c.candStart[bi+1]]
}

// span is the inclusive step range of a loop; first > last when empty.
type span struct{ first, last int }

// loopsOf walks the bundle's tree and returns, per step, the enclosing
// loops (outermost first) and, per loop, its span of steps. A bare loop
// bundle gets one more loop, over all its steps, as bundle-ir.md §3.2 says.
func (c *checker) loopsOf(b *ir.Bundle) ([][]int, []span) {
	enclosing := make([][]int, len(b.Ops))
	spans := make([]span, len(b.Loops))
	for i := range spans {
		spans[i] = span{len(b.Ops), -1}
	}
	seen := make([]bool, len(b.Ops))
	var stack []int
	var walk func(items []ir.Item)
	walk = func(items []ir.Item) {
		for _, it := range items {
			switch {
			case it.Op >= 0 && it.Op < len(b.Ops):
				if seen[it.Op] {
					c.fail("bundle %q: op %q appears twice in the tree", b.Name, b.Ops[it.Op].Name)
					continue
				}
				seen[it.Op] = true
				enclosing[it.Op] = append([]int(nil), stack...)
				for _, l := range stack {
					spans[l].first = min(spans[l].first, it.Op)
					spans[l].last = max(spans[l].last, it.Op)
				}
			case it.Loop >= 0 && it.Loop < len(b.Loops):
				stack = append(stack, it.Loop)
				walk(b.Loops[it.Loop].Body)
				stack = stack[:len(stack)-1]
			default:
				c.fail("bundle %q: tree item %+v indexes nothing", b.Name, it)
			}
		}
	}
	walk(b.Body)
	for s, op := range b.Ops {
		if !seen[s] {
			c.fail("bundle %q: op %q is not in the tree", b.Name, op.Name)
			continue
		}
		if !slices.Equal(op.Loops, enclosing[s]) {
			c.fail("bundle %q: op %q records loops %v, the tree says %v", b.Name, op.Name, op.Loops, enclosing[s])
		}
		for _, accs := range [][]ir.Access{op.Reads, op.Writes} {
			for _, a := range accs {
				if a.Strides != nil && len(a.Strides) != len(enclosing[s]) {
					c.fail("bundle %q: op %q: %d strides under %d loops", b.Name, op.Name, len(a.Strides), len(enclosing[s]))
				}
			}
		}
	}
	if b.Kind == ir.KindLoop && len(b.Ops) > 0 {
		spans = append(spans, span{0, len(b.Ops) - 1})
		for s := range enclosing {
			enclosing[s] = append([]int{len(spans) - 1}, enclosing[s]...)
		}
	}
	return enclosing, spans
}

// liveRanges fills in start and end for the candidates of bundle bi.
func (c *checker) liveRanges(bi int, ws []want) {
	b := &c.g.Bundles[bi]
	cands := c.candOf(bi)
	enclosing, spans := c.loopsOf(b)
	if len(cands) == 0 {
		return
	}
	// The steps at which each candidate is read, and written: per
	// candidate (by its position k in cands), ascending, as CSR lists
	// reads[rAt[k]:rAt[k+1]] and writes[wAt[k]:wAt[k+1]].
	rAt, wAt := make([]int, len(cands)+1), make([]int, len(cands)+1)
	for _, op := range b.Ops {
		for _, a := range op.Reads {
			if gi := c.groupOf(a); ws[gi].bundle == bi {
				rAt[c.candPos[gi]+1]++
			}
		}
		for _, a := range op.Writes {
			if gi := c.groupOf(a); ws[gi].bundle == bi {
				wAt[c.candPos[gi]+1]++
			}
		}
	}
	for k := range cands {
		rAt[k+1] += rAt[k]
		wAt[k+1] += wAt[k]
	}
	reads, writes := make([]int, rAt[len(cands)]), make([]int, wAt[len(cands)])
	rNext, wNext := slices.Clone(rAt[:len(cands)]), slices.Clone(wAt[:len(cands)])
	for s, op := range b.Ops {
		for _, a := range op.Reads {
			if gi := c.groupOf(a); ws[gi].bundle == bi {
				k := c.candPos[gi]
				reads[rNext[k]] = s
				rNext[k]++
			}
		}
		for _, a := range op.Writes {
			if gi := c.groupOf(a); ws[gi].bundle == bi {
				k := c.candPos[gi]
				writes[wNext[k]] = s
				wNext[k]++
			}
		}
	}

	// firstIn is the first of the ascending steps inside sp, or -1.
	firstIn := func(steps []int, sp span) int {
		k, _ := slices.BinarySearch(steps, sp.first)
		if k < len(steps) && steps[k] <= sp.last {
			return steps[k]
		}
		return -1
	}
	seenLoop := make([]int, len(spans)) // the last candidate (k+1) that saw loop l
	var loops []int
	for k, gi := range cands {
		rs, wr := reads[rAt[k]:rAt[k+1]], writes[wAt[k]:wAt[k+1]]
		if len(rs) == 0 && len(wr) == 0 {
			c.fail("group %q: candidate of bundle %q but never touched there", c.g.Groups[gi].Name, b.Name)
			continue
		}
		w := &ws[gi]
		w.start, w.end = math.MaxInt, math.MinInt
		loops = loops[:0]
		for _, steps := range [][]int{rs, wr} {
			if len(steps) > 0 {
				w.start = min(w.start, steps[0])
				w.end = max(w.end, steps[len(steps)-1])
			}
			for _, st := range steps {
				for _, l := range enclosing[st] {
					if seenLoop[l] != k+1 {
						seenLoop[l] = k + 1
						loops = append(loops, l)
					}
				}
			}
		}
		// Loop by loop: its first read and first write inside it.
		for _, l := range loops {
			firstRead, firstWrite := firstIn(rs, spans[l]), firstIn(wr, spans[l])
			if firstRead < 0 || (firstWrite >= 0 && firstRead > firstWrite) {
				continue // not read in L, or written before read: no carry
			}
			if firstWrite >= 0 {
				w.start = min(w.start, spans[l].first)
			}
			w.end = max(w.end, spans[l].last)
		}
	}
}

func (c *checker) checkGroups(ws []want) {
	for gi, w := range ws {
		pg := c.p.Groups[gi]
		name := c.g.Groups[gi].Name
		if w.bundle < 0 {
			if pg.Reason != w.reason {
				c.fail("buffer %q: reason %s, the rules give %s", name, reasonText(pg.Reason), reasonText(w.reason))
			}
			if pg.Bundle != -1 || pg.Offset != -1 {
				c.fail("buffer %q: not a candidate (%s) but has bundle %d, offset %d", name, w.reason, pg.Bundle, pg.Offset)
			}
			continue
		}
		bname := c.g.Bundles[w.bundle].Name
		switch pg.Reason {
		case planner.Pooled:
			if pg.Offset < 0 {
				c.fail("buffer %q: pooled in %q without an offset", name, bname)
			}
		case planner.OverBudget:
			if pg.Offset != -1 {
				c.fail("buffer %q: over-budget but has offset %d", name, pg.Offset)
			}
		default:
			c.fail("buffer %q: reason %s, the rules make it a candidate of bundle %q", name, reasonText(pg.Reason), bname)
		}
		if int(pg.Bundle) != w.bundle {
			c.fail("buffer %q: bundle %d, its single writer is %q (%d)", name, pg.Bundle, bname, w.bundle)
		}
		if int(pg.Start) != w.start || int(pg.End) != w.end {
			c.fail("buffer %q in %q: live range [%d, %d], the rules give [%d, %d]", name, bname, pg.Start, pg.End, w.start, w.end)
		}
	}
}

func reasonText(r planner.Reason) string {
	if r == planner.Pooled {
		return "none (pooled)"
	}
	return r.String()
}

// item is one candidate of a bundle as the verifier sees it.
type item struct {
	group      int
	name       string
	size       int64
	start, end int
	offset     int64 // -1 when over budget
}

func (c *checker) checkBundle(bi int, ws []want) {
	g, p := c.g, c.p
	b := &g.Bundles[bi]
	pb := p.Bundles[bi]
	// Sort the candidates by (start, end, name): by start with a counting
	// sort over the bundle's steps, then each run of one start by the
	// rest. (Group names are unique; the index only makes ties total.)
	cands := c.candOf(bi)
	at := make([]int, len(b.Ops)+1)
	for _, gi := range cands {
		at[ws[gi].start+1]++
	}
	for s := range b.Ops {
		at[s+1] += at[s]
	}
	items := make([]item, len(cands))
	for _, gi := range cands {
		w := ws[gi]
		items[at[w.start]] = item{group: gi, name: g.Groups[gi].Name, size: g.Groups[gi].Size,
			start: w.start, end: w.end, offset: p.Groups[gi].Offset}
		at[w.start]++
	}
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && items[hi].start == items[lo].start {
			hi++
		}
		slices.SortFunc(items[lo:hi], func(a, b item) int {
			return cmp.Or(cmp.Compare(a.end, b.end), strings.Compare(a.name, b.name), cmp.Compare(a.group, b.group))
		})
		lo = hi
	}

	// The pool-size table and the candidate order.
	if pb.HasPool() != (len(items) > 0) {
		c.fail("bundle %q: pool-size table entry %v, but it has %d candidate(s)", b.Name, pb.HasPool(), len(items))
	}
	if len(pb.Candidates) != len(items) {
		c.fail("bundle %q: %d candidates listed, the rules give %d", b.Name, len(pb.Candidates), len(items))
	} else {
		for k, it := range items {
			if pb.Candidates[k] != it.group {
				c.fail("bundle %q: candidate %d is group %d, (start, end, name) order gives %q", b.Name, k, pb.Candidates[k], it.name)
				break
			}
		}
	}
	if len(items) == 0 {
		return
	}

	// Pool size, budget, sticks. Offsets and the pool size are whole
	// sticks when every candidate's size is: an allocator only adds sizes.
	// A view at an offset that is not a whole number of sticks can make
	// its group's size, and so offsets after it, uneven.
	aligned := true
	for _, it := range items {
		aligned = aligned && it.size%stick == 0
	}
	var top int64
	for _, it := range items {
		if it.offset < 0 {
			continue
		}
		if aligned && it.offset%stick != 0 {
			c.fail("bundle %q: buffer %q at offset %d, not on a %d-byte stick", b.Name, it.name, it.offset, stick)
		}
		if it.offset > c.opt.Budget || it.size > c.opt.Budget-it.offset {
			c.fail("bundle %q: buffer %q at [%d, +%d) passes the budget %d", b.Name, it.name, it.offset, it.size, c.opt.Budget)
			continue
		}
		top = max(top, it.offset+it.size)
	}
	if pb.PoolSize != top {
		c.fail("bundle %q: pool size %d, the highest placed end is %d", b.Name, pb.PoolSize, top)
	}
	if pb.PoolSize > c.opt.Budget {
		c.fail("bundle %q: pool size %d exceeds the budget %d", b.Name, pb.PoolSize, c.opt.Budget)
	}
	if aligned && pb.PoolSize%stick != 0 {
		c.fail("bundle %q: pool size %d is not a whole number of sticks", b.Name, pb.PoolSize)
	}
	for _, it := range items {
		if it.offset < 0 && it.size <= c.opt.Budget-pb.PoolSize {
			c.fail("bundle %q: buffer %q (%d bytes) fell back over budget, yet a bump at the pool end %d fits the budget %d",
				b.Name, it.name, it.size, pb.PoolSize, c.opt.Budget)
		}
	}
	c.checkOverlap(b, items)

	// Lower bound: most candidate bytes live at one step, saturated at
	// MaxInt64.
	if lb := peakLive(b, items); pb.LowerBound != lb {
		c.fail("bundle %q: lower bound %d, the live bytes peak at %d", b.Name, pb.LowerBound, lb)
	}

	if p.Allocator == "first-fit" {
		c.replayFirstFit(b, items, pb.PoolSize)
	}
}

// peakLive is the most bytes of items (in start order) live at one step
// of b, or MaxInt64 when that passes MaxInt64. The live sum is kept in
// 128 bits (hi, lo), so it never wraps on the way.
func peakLive(b *ir.Bundle, items []item) int64 {
	at := make([]int, len(b.Ops)+1)
	for _, it := range items {
		at[it.end+1]++
	}
	for s := range b.Ops {
		at[s+1] += at[s]
	}
	byEnd := make([]int, len(items))
	for i, it := range items {
		byEnd[at[it.end]] = i
		at[it.end]++
	}
	var hi, lo, best uint64
	next := 0
	for _, it := range items {
		for next < len(byEnd) && items[byEnd[next]].end < it.start {
			var borrow uint64
			lo, borrow = bits.Sub64(lo, uint64(items[byEnd[next]].size), 0)
			hi -= borrow
			next++
		}
		var carry uint64
		lo, carry = bits.Add64(lo, uint64(it.size), 0)
		hi += carry
		if hi > 0 || lo > math.MaxInt64 {
			return math.MaxInt64
		}
		best = max(best, lo)
	}
	return int64(best)
}

// checkOverlap reports pooled candidates that are live at a common step
// and share a byte. It sweeps the steps, keeping the blocks live at the
// current step ordered by offset in a Fenwick tree over the distinct
// offsets. While the live blocks are pairwise disjoint, a new block
// [a, b) overlaps one of them exactly when the live block with the
// greatest offset below b ends after a, so one lookup per block suffices.
func (c *checker) checkOverlap(b *ir.Bundle, items []item) {
	var placed []item
	for _, it := range items {
		if it.offset >= 0 && it.size > 0 {
			placed = append(placed, it)
		}
	}
	if len(placed) < 2 {
		return
	}
	offs := make([]int64, 0, len(placed))
	for _, it := range placed {
		offs = append(offs, it.offset)
	}
	slices.Sort(offs)
	uniq := slices.Compact(offs)
	// slotOf is the index of the first distinct offset >= off.
	slotOf := func(off int64) int { k, _ := slices.BinarySearch(uniq, off); return k }

	// placed is in start order already; byEnd orders removals.
	// (A counting sort over the steps: ends are steps of the bundle.)
	at := make([]int, len(b.Ops)+1)
	for _, it := range placed {
		at[it.end+1]++
	}
	for s := range b.Ops {
		at[s+1] += at[s]
	}
	byEnd := make([]int, len(placed))
	for i, it := range placed {
		byEnd[at[it.end]] = i
		at[it.end]++
	}
	fw := newFenwick(len(uniq))
	occupant := make([]int, len(uniq))
	inserted := make([]bool, len(placed))
	next := 0
	for i, it := range placed {
		for next < len(byEnd) && placed[byEnd[next]].end < it.start {
			if j := byEnd[next]; inserted[j] {
				fw.add(slotOf(placed[j].offset), -1)
				inserted[j] = false
			}
			next++
		}
		// Live blocks with offset < it.offset+size: slots [0, k).
		k := slotOf(it.offset + it.size)
		if n := fw.prefix(k); n > 0 {
			j := occupant[fw.find(n)]
			o := placed[j]
			if o.offset+o.size > it.offset {
				c.fail("bundle %q: buffer %q [%d, %d) steps %d..%d overlaps buffer %q [%d, %d) steps %d..%d",
					b.Name, it.name, it.offset, it.offset+it.size, it.start, it.end,
					o.name, o.offset, o.offset+o.size, o.start, o.end)
				continue // keep the live set disjoint
			}
		}
		s := slotOf(it.offset)
		fw.add(s, 1)
		occupant[s] = i
		inserted[i] = true
	}
}

// fenwick counts occupied slots.
type fenwick struct{ t []int }

func newFenwick(n int) *fenwick { return &fenwick{t: make([]int, n+1)} }

func (f *fenwick) add(i, d int) {
	for i++; i < len(f.t); i += i & -i {
		f.t[i] += d
	}
}

// prefix counts occupied slots in [0, k).
func (f *fenwick) prefix(k int) int {
	n := 0
	for ; k > 0; k -= k & -k {
		n += f.t[k]
	}
	return n
}

// find returns the slot of the n-th occupied slot (1-based n).
func (f *fenwick) find(n int) int {
	pos := 0
	step := 1
	for step*2 < len(f.t) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if pos+step < len(f.t) && f.t[pos+step] < n {
			pos += step
			n -= f.t[pos]
		}
	}
	return pos // 0-based slot = (1-based pos+1) - 1
}

// replayFirstFit runs bundle-ir.md §3.3 as worded, on items in (start, end, name)
// order, and compares with the plan.
//
// The free list is kept in list order as an append-only array of blocks
// (a block taken from it leaves a hole, a remainder or a freed block is
// appended), under a tree of maxima over block sizes, so "the first
// block in list order with size >= needed" is one descent from the root:
// O(log n). Blocks to free are bucketed by their end step; before each
// item, the buckets of the steps now past are emptied, and their blocks
// sorted by allocation number, which is the order rule 2 frees them in.
// The whole replay is O(n log n) in the bundle's candidates, so it runs
// at every size.
func (c *checker) replayFirstFit(b *ir.Bundle, items []item, poolSize int64) {
	type block struct {
		off, size int64
		seq       int // allocation order
	}
	// Every item adds at most two blocks to the free list over the run:
	// itself when freed, and the remainder of the block it takes.
	free := newMaxTree(2 * len(items))
	var freeOff []int64
	ending := make([][]block, len(b.Ops)) // live blocks by end step
	nextEnd := 0                          // steps below it are emptied
	var batch []block
	var poolEnd int64
	seq := 0
	for _, it := range items {
		// Rule 2: move every allocated block whose end < start to the
		// free list, in allocation order.
		batch = batch[:0]
		for ; nextEnd < it.start && nextEnd < len(ending); nextEnd++ {
			batch = append(batch, ending[nextEnd]...)
			ending[nextEnd] = nil
		}
		slices.SortFunc(batch, func(x, y block) int { return cmp.Compare(x.seq, y.seq) })
		for _, bl := range batch {
			free.set(len(freeOff), bl.size)
			freeOff = append(freeOff, bl.off)
		}
		// Rule 3: the first free block that is big enough; the remainder
		// goes to the end of the list. Else bump, if the budget allows
		// (rule 4).
		off := int64(-1)
		if k := free.first(it.size, len(freeOff)); k >= 0 {
			size := free.get(k)
			off = freeOff[k]
			free.set(k, -1)
			if size > it.size {
				free.set(len(freeOff), size-it.size)
				freeOff = append(freeOff, off+it.size)
			}
		} else if it.size <= c.opt.Budget-poolEnd {
			off = poolEnd
			poolEnd += it.size
		}
		if off >= 0 && it.end >= 0 && it.end < len(ending) {
			ending[it.end] = append(ending[it.end], block{off: off, size: it.size, seq: seq})
			seq++
		}
		if off != it.offset {
			c.fail("bundle %q: buffer %q at offset %s, first-fit places it at %s",
				b.Name, it.name, offsetText(it.offset), offsetText(off))
		}
	}
	if poolEnd != poolSize {
		c.fail("bundle %q: pool size %d, first-fit ends at %d", b.Name, poolSize, poolEnd)
	}
}

// maxTree holds a value per slot (-1 for none) under a complete binary
// tree of maxima, for "the first slot whose value is >= n".
type maxTree struct {
	leaves int
	t      []int64
}

func newMaxTree(n int) *maxTree {
	leaves := 1
	for leaves < n {
		leaves *= 2
	}
	t := make([]int64, 2*leaves)
	for i := range t {
		t[i] = -1
	}
	return &maxTree{leaves: leaves, t: t}
}

func (m *maxTree) get(i int) int64 { return m.t[m.leaves+i] }

func (m *maxTree) set(i int, v int64) {
	i += m.leaves
	m.t[i] = v
	for i /= 2; i >= 1; i /= 2 {
		m.t[i] = max(m.t[2*i], m.t[2*i+1])
	}
}

// first is the first slot below used whose value is >= n, or -1.
func (m *maxTree) first(n int64, used int) int {
	if used == 0 || m.t[1] < n {
		return -1
	}
	i := 1
	for i < m.leaves {
		if m.t[2*i] >= n {
			i = 2 * i
		} else {
			i = 2*i + 1
		}
	}
	if k := i - m.leaves; k < used {
		return k
	}
	return -1
}

func offsetText(off int64) string {
	if off < 0 {
		return "none (over budget)"
	}
	return fmt.Sprint(off)
}
