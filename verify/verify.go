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
// buffer order, alias members sharing their group's decision. It reads the
// document as a stream (JSONReader), so the text is never held whole;
// PlanAndJSON runs both checks side by side. A buffers element laid out
// as planner.WriteJSON lays out a correct one is recognised by comparing
// it, as it streams by, with the text the verifier expects (matchBuffer);
// any other is decoded and checked field by field.
//
// Everything that needs only the graph and the options (the graph's own
// invariants, views, reasons, live ranges, the candidates' order, cores,
// splits and bounds) can run before the plan exists: Prepare, beside
// planner.Plan, then Prepared.PlanAndJSON. Plan and PlanAndJSON are the
// two in a row; the violations reported are the same either way.
//
// Cost: every check is linear or O(n log n) in the graph and runs at every
// size. The per-bundle checks run on Options.Workers goroutines; the
// violations reported are the same for every number of workers. Memory:
// about 16 bytes per group (the expected decisions and the candidates
// by bundle), a bit per buffer and 16 bytes per alias, and per worker
// the scratch of its largest bundle (see scratch), released before the
// per-group checks (BenchmarkVerifyLive: 56 MiB at a million ops in one
// bundle, 18 MiB over a thousand bundles).
package verify

import (
	"fmt"
	"io"
	"strings"

	"github.com/sdscgen/sdscgen/internal/par"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// stick is the HBM allocation granule of bundle-ir.md §2.
const stick = 128

// Options are the options the plan was requested with: the planner's
// own, so that a caller states them once for both. The verifier reads
// Disabled and Budget (the plan must record them, and its decisions
// follow from them) and Workers, how many goroutines check bundles side
// by side (<= 1: one, the caller's; the error reported is the same for
// every value). It ignores Allocator: any placement that keeps the rules
// is accepted, whichever allocator made it.
type Options = planner.Options

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
	// ws is the expected decision of every group (see expected).
	ws []want
	// candStart and candList index the candidate groups by bundle
	// (see candOf); expected fills them in.
	candStart, candList []int32
	// views is what the alias declarations give (deriveViews).
	views *viewInfo
	// scratch holds one per worker (see forChunks).
	scratch []*scratch
	// boundsNeedPlan is checkBounds' without a plan (see Prepared).
	boundsNeedPlan bool
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

// merge appends the violations of o after c's.
func (c *checker) merge(o *checker) {
	c.err.Total += o.err.Total
	for _, v := range o.err.Violations {
		if len(c.err.Violations) < maxReported {
			c.err.Violations = append(c.err.Violations, v)
		}
	}
}

// want is the expected decision for one group, before placement: a
// candidate of bundle (>= 0) live over steps [start, end], or, when
// bundle < 0, not a candidate for reasons[-bundle-1]. (int32 keeps the
// table small: a million groups are 12 MB. Indices of a graph held in
// memory fit.)
type want struct {
	bundle     int32
	start, end int32
}

// reasons are the non-candidate reasons in the order of bundle-ir.md §3.1
// (the verifier's own table: it shares none with the planner).
var reasons = [...]planner.Reason{
	planner.Disabled, planner.GraphInput, planner.GraphOutput, planner.LX, planner.CPURead,
	planner.Unused, planner.NotWritten, planner.NotRead, planner.MultiWriter, planner.CrossBundle,
	planner.ZeroSize,
}

// Codes of reasons in want.bundle.
const (
	wDisabled = -1 - iota
	wGraphInput
	wGraphOutput
	wLX
	wCPURead
	wUnused
	wNotWritten
	wNotRead
	wMultiWriter
	wCrossBundle
	wZeroSize
)

func (w want) reason() planner.Reason { return reasons[-w.bundle-1] }

// Plan checks p against the rules of bundle-ir.md §3 re-derived from g. It returns
// nil or an *Error naming every violation found.
func Plan(g *ir.Graph, p *planner.Result, opt Options) error {
	planErr, _ := Prepare(g, opt).check(p, nil)
	return planErr
}

// PlanAndJSON is Plan and JSONReader on the document read from r, run
// side by side and sharing what both derive from the graph (the alias
// chains' view offsets). planErr is Plan's result; jsonErr is
// JSONReader's, or nil without reading r when the plan does not even
// index the graph consistently (planErr says so).
func PlanAndJSON(g *ir.Graph, p *planner.Result, opt Options, r io.Reader) (planErr, jsonErr error) {
	return Prepare(g, opt).PlanAndJSON(p, r)
}

// Prepared is what the verifier derives from the graph and the options
// alone, before there is a plan: the graph's own checks, the alias
// chains' views, every group's expected reason, bundle and live range,
// each bundle's candidates in (start, end, name) order, the checks of
// cores, splits and bounds, with their violations held back. Its
// PlanAndJSON (or Plan) then makes the checks that read the plan and
// reports every violation in the order Plan reports them: the result is
// Plan's and PlanAndJSON's exactly, for every graph and plan.
type Prepared struct {
	// c holds the graph checks' violations and what they derive (c.p
	// is nil).
	c  *checker
	ok bool // checkGraph's verdict: the rest ran
	// views is checkViews' list; walked the per-bundle lists (cores,
	// live ranges, bounds); cpu checkCoresCPU's.
	views, cpu Error
	walked     []chunk
	// boundsNeedPlan: an access's start may lie outside its group's
	// bytes, which is a violation only when the plan pools the group,
	// so checkBounds runs again with the plan.
	boundsNeedPlan bool
	used           bool
	// atPeak, when not nil, is called where the most is live (for
	// BenchmarkVerifyLive).
	atPeak func()
	// released, when not nil, is called once the plan's checks have let
	// go of their largest records (see OnReleased).
	released func()
}

// OnReleased makes the plan's checks (PlanAndJSON, Plan) call f once
// they have let go of their largest records: the per-group live ranges
// (12 bytes a group), the candidates by bundle and the workers' scratch,
// which the per-bundle and per-group checks need and the rest does not.
// The verifier holds the most just before (a graph of 2.7 million
// groups: some 55 MB), so a caller running beside it (the MLIR printer)
// can wait for f before it takes its own per-group memory. f is called
// at most once, from the goroutine of the checks; it is not called when
// the checks stop before that point (a plan or graph that fails its
// first checks), whose verdict then comes soon.
func (pre *Prepared) OnReleased(f func()) { pre.released = f }

// Prepare makes the checks and derivations that need only the graph (see
// Prepared). It only reads g, so it may run while planner.Plan plans g
// on another goroutine; opt must be the options the plan is requested
// with. A Prepared serves one PlanAndJSON or Plan call.
func Prepare(g *ir.Graph, opt Options) *Prepared {
	c := &checker{g: g, opt: opt}
	pre := &Prepared{c: c}
	if pre.ok = c.checkGraph(); !pre.ok {
		return pre
	}
	c.views = deriveViews(g)
	vc := &checker{g: g, opt: opt}
	vc.checkViews(c.views)
	pre.views = vc.err
	c.reasons()
	// Per bundle, while its ops are at hand: its cores and splits, its
	// loops and the live ranges of its candidates (then their order) and
	// the bounds of its accesses.
	bundleWork := func(i int) int { return 1 + len(g.Bundles[i].Ops) }
	pre.walked = c.forChunks(len(g.Bundles), bundleWork, 3, func(s *scratch, out []checker, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			b := &g.Bundles[bi]
			for oi := range b.Ops { // (one pass over the ops for both)
				out[0].checkOpCores(&b.Ops[oi])
				out[2].checkOpBounds(bi, b, &b.Ops[oi])
			}
			out[1].liveRanges(s, bi)
			out[1].sortCandidates(s, bi)
		}
	})
	for k := range pre.walked {
		pre.boundsNeedPlan = pre.boundsNeedPlan || pre.walked[k].out[2].boundsNeedPlan
	}
	cc := &checker{g: g, opt: opt}
	cc.checkCoresCPU()
	pre.cpu = cc.err
	return pre
}

// Plan is the package's Plan with the graph's share done.
func (pre *Prepared) Plan(p *planner.Result) error {
	planErr, _ := pre.check(p, nil)
	return planErr
}

// PlanAndJSON is the package's PlanAndJSON with the graph's share done.
func (pre *Prepared) PlanAndJSON(p *planner.Result, r io.Reader) (planErr, jsonErr error) {
	g := pre.c.g // (check replaces pre.c while the JSON is read)
	return pre.check(p, func(views *viewInfo) error {
		return checkJSON(g, p, newStreamReader(r), views, false)
	})
}

// check makes the checks that read p and merges every list in the order
// of the package comment; json, when not nil, runs beside them once the
// plan is known to index the graph.
func (pre *Prepared) check(p *planner.Result, json func(*viewInfo) error) (planErr, jsonErr error) {
	if pre.used {
		released := pre.released
		pre = Prepare(pre.c.g, pre.c.opt)
		pre.released = released
	}
	pre.used = true
	g := pre.c.g
	c := &checker{g: g, p: p, opt: pre.c.opt}
	if !c.header() {
		return c.result(), nil
	}
	c.merge(pre.c)
	if !pre.ok {
		return c.result(), nil
	}
	c.ws, c.candStart, c.candList, c.views, c.scratch = pre.c.ws, pre.c.candStart, pre.c.candList, pre.c.views, pre.c.scratch
	var done chan error
	var failed par.Panicked
	if json != nil {
		done = make(chan error, 1)
		go func() {
			defer close(done)
			defer failed.Catch()
			done <- json(c.views)
		}()
	}
	c.err.Total += pre.views.Total
	for _, v := range pre.views.Violations {
		if len(c.err.Violations) < maxReported {
			c.err.Violations = append(c.err.Violations, v)
		}
	}
	// Per bundle: its pool (which reads only its own candidates' live
	// ranges), and when the bounds need it, the bounds again.
	bundleWork := func(i int) int { return 1 + len(g.Bundles[i].Ops) }
	planned := c.forChunks(len(g.Bundles), bundleWork, 2, func(s *scratch, out []checker, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			out[0].checkBundle(s, bi)
			if pre.boundsNeedPlan {
				out[1].checkBounds(bi)
			}
		}
	})
	if pre.atPeak != nil {
		pre.atPeak()
	}
	// What only the per-bundle checks use (the workers' scratch and the
	// candidates by bundle) goes, so that the collector can take it while
	// the rest runs.
	c.scratch, c.candStart, c.candList = nil, nil, nil
	pre.c = &checker{g: g, opt: pre.c.opt}
	for _, chunks := range [][]chunk{pre.walked, planned} {
		for k := range chunks {
			for l := range chunks[k].out {
				chunks[k].out[l] = checker{err: chunks[k].out[l].err}
			}
		}
	}
	c.mergeList(pre.walked, 0)
	c.merge(&checker{err: pre.cpu})
	c.mergeList(pre.walked, 1)
	groups := c.forChunks(len(g.Groups), nil, 1, func(_ *scratch, out []checker, lo, hi int) {
		out[0].checkGroups(lo, hi)
	})
	c.mergeList(groups, 0)
	// Nor does anything after the groups read their live ranges (12
	// bytes a group): they go before the JSON's footprint is derived.
	c.ws = nil
	if pre.released != nil {
		pre.released()
	}
	c.mergeList(planned, 0)
	if pre.boundsNeedPlan {
		c.mergeList(planned, 1)
	} else {
		c.mergeList(pre.walked, 2)
	}
	if done != nil {
		jsonErr = <-done
		failed.Rethrow()
	}
	return c.result(), jsonErr
}

// header makes the checks of the plan as a whole. It returns false when
// the plan does not even index the graph consistently.
func (c *checker) header() bool {
	g, p, opt := c.g, c.p, c.opt
	if p == nil {
		c.fail("no plan")
		return false
	}
	if p.Graph != g {
		c.fail("the plan is for another graph")
	}
	if len(p.Groups) != len(g.Groups) || len(p.Bundles) != len(g.Bundles) {
		c.fail("the plan has %d groups and %d bundles, the graph %d and %d",
			len(p.Groups), len(p.Bundles), len(g.Groups), len(g.Bundles))
		return false
	}
	// A group's bundle indexes the graph's bundles (or is -1): the
	// checks that follow, and the JSON's, read that bundle.
	for gi := range p.Groups {
		if b := p.Groups[gi].Bundle; b < -1 || int(b) >= len(g.Bundles) {
			c.fail("the plan gives group %d bundle %d; the graph has %d", gi, b, len(g.Bundles))
			return false
		}
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
	return true
}

// begin makes the checks that everything else relies on (the plan's
// header, then the graph's). It returns false when the rest cannot run.
func (c *checker) begin() bool {
	return c.header() && c.checkGraph()
}

// groupName is group gi's name for messages: the smallest name among
// its members that index a buffer (the graph may be broken here).
func (c *checker) groupName(gi int) string {
	g := c.g
	name := ""
	seen := false
	for _, m := range g.Members(&g.Groups[gi]) {
		if m < 0 || int(m) >= g.Buffers.Len() {
			continue
		}
		if n := g.Str(g.Buffers.At(int(m)).Name); !seen || n < name {
			name, seen = n, true
		}
	}
	return name
}

// checkLists verifies that every list reference of the compact graph
// lies inside its graph-wide array (ir.Span in Accesses, MemberLists and
// Items; Op.Loops in LoopLists; ir.IntsRef in Ints, with a length word
// that fits), every buffer's and op's ir.Name inside the graph's name
// store (its bytes among those stored in its block) and the operands'
// positions where they say (checkPositions), before anything
// reads a list or a name through the ir.Graph methods, which trust them
// (and, slicing up to an array's capacity, could even read past its
// length without a panic). It returns false when one does not: nothing
// else can be checked safely then.
func (c *checker) checkLists() bool {
	g := c.g
	ok := true
	span := func(s ir.Span, n int) bool { return s.Off >= 0 && s.Len >= 0 && int64(s.Off)+int64(s.Len) <= int64(n) }
	// An op's or cpu node's accesses are read as one slice: they must
	// be in one chunk of Graph.Accesses (see ir.Chunked).
	accSpan := func(s ir.Span) bool {
		return span(s, g.Accesses.Len()) && (s.Len == 0 || g.Accesses.InOne(s.Off, s.Off+s.Len))
	}
	// counted: a list at r whose length is the word before it.
	counted := func(r int64, n int, length func(i int64) int64) bool {
		if r <= 0 {
			return r == 0
		}
		if r > int64(n) {
			return false
		}
		l := length(r - 1)
		return l >= 0 && r+l <= int64(n)
	}
	intLen := func(i int64) int64 { return g.Ints[i] }
	loopLen := func(i int64) int64 { return int64(g.LoopLists[i]) }
	// A name outside the store (see ir.NameStore.Holds: what Graph.Str
	// needs to read it) is reported, and never read: such a buffer is
	// called by its index, such an op by its step.
	nameBad := func(what string, n ir.Name) {
		c.fail("%s: name [%d, +%d) outside the graph's names", what, n.Off, n.Len)
		ok = false
	}
	for bi, b := range g.Buffers.All() {
		if !g.Names.Holds(b.Name) {
			nameBad(fmt.Sprintf("buffer %d", bi), b.Name)
		}
	}
	// The names of messages are spelled only when one is reported.
	opName := func(b *ir.Bundle, step int) string {
		if op := &b.Ops[step]; g.Names.Holds(op.Name) {
			return fmt.Sprintf("bundle %q: op %q", b.Name, g.Str(op.Name))
		}
		return fmt.Sprintf("bundle %q: op at step %d", b.Name, step)
	}
	cpuName := func(n *ir.CPUNode) string { return fmt.Sprintf("cpu %q", n.Name) }
	intsBad := func(name, list string, r ir.IntsRef) {
		c.fail("%s: %s list at %d outside the graph's %d ints", name, list, r, len(g.Ints))
		ok = false
	}
	// addressingOK reports whether an access's addressing is one of
	// Graph.Addressings (or 0, none).
	addressingOK := func(a *ir.Access) bool {
		return a.Addressing == 0 || a.Addressing > 0 && int64(a.Addressing) < int64(len(g.Addressings))
	}
	// accessesOK reports whether every access's addressing is in
	// Addressings and its lists inside Ints; when one is not, the
	// caller reports each (accessesBad).
	accessesOK := func(accs []ir.Access) bool {
		for ai := range accs {
			a := &accs[ai]
			if !addressingOK(a) {
				return false
			}
			if d := g.AddressingOf(a); !counted(int64(d.Strides), len(g.Ints), intLen) || !counted(int64(d.Split), len(g.Ints), intLen) {
				return false
			}
		}
		return true
	}
	accessesBad := func(name string, accs []ir.Access) {
		for ai := range accs {
			if !addressingOK(&accs[ai]) {
				c.fail("%s: operand addressing %d outside the graph's %d", name, accs[ai].Addressing, len(g.Addressings))
				ok = false
			} else {
				d := g.AddressingOf(&accs[ai])
				if r := d.Strides; !counted(int64(r), len(g.Ints), intLen) {
					intsBad(name, "strides", r)
				}
				if r := d.Split; !counted(int64(r), len(g.Ints), intLen) {
					intsBad(name, "split", r)
				}
			}
		}
	}
	if !c.checkPositions() {
		ok = false
	}
	for gi := range g.Groups {
		if m := g.Groups[gi].Members; !span(m, len(g.MemberLists)) {
			c.fail("group %d: members [%d, +%d) outside the graph's %d member entries", gi, m.Off, m.Len, len(g.MemberLists))
			ok = false
		}
	}
	for bi := range g.Bundles {
		b := &g.Bundles[bi]
		if s := b.Body; !span(s, len(g.Items)) {
			c.fail("bundle %q: body [%d, +%d) outside the graph's %d items", b.Name, s.Off, s.Len, len(g.Items))
			ok = false
		}
		for li := range b.Loops {
			if s := b.Loops[li].Body; !span(s, len(g.Items)) {
				c.fail("bundle %q: loop %q: body [%d, +%d) outside the graph's %d items", b.Name, b.Loops[li].Name, s.Off, s.Len, len(g.Items))
				ok = false
			}
		}
		for oi := range b.Ops {
			op := &b.Ops[oi]
			if !g.Names.Holds(op.Name) {
				nameBad(opName(b, oi), op.Name)
			}
			if !counted(int64(op.Loops), len(g.LoopLists), loopLen) {
				c.fail("%s: loop list at %d outside the graph's %d loop-list entries", opName(b, oi), op.Loops, len(g.LoopLists))
				ok = false
			}
			if !counted(int64(op.Cores), len(g.Ints), intLen) {
				intsBad(opName(b, oi), "cores", op.Cores)
			}
			if s := op.Accesses; !accSpan(s) {
				c.fail("%s: accesses [%d, +%d) outside the graph's %d or across two of its chunks", opName(b, oi), s.Off, s.Len, g.Accesses.Len())
				ok = false
				continue
			}
			if op.NReads < 0 || op.NReads > op.Accesses.Len {
				c.fail("%s: %d reads among %d accesses", opName(b, oi), op.NReads, op.Accesses.Len)
				ok = false
				continue
			}
			if accs := g.OpAccesses(op); !accessesOK(accs) {
				accessesBad(opName(b, oi), accs)
			}
		}
	}
	for ni := range g.CPU {
		n := &g.CPU[ni]
		if s := n.Accesses; !accSpan(s) {
			c.fail("%s: accesses [%d, +%d) outside the graph's %d or across two of its chunks", cpuName(n), s.Off, s.Len, g.Accesses.Len())
			ok = false
			continue
		}
		if n.NReads < 0 || n.NReads > n.Accesses.Len {
			c.fail("%s: %d reads among %d accesses", cpuName(n), n.NReads, n.Accesses.Len)
			ok = false
			continue
		}
		if accs := g.CPUAccesses(n); !accessesOK(accs) {
			accessesBad(cpuName(n), accs)
		}
	}
	return ok
}

// checkPositions verifies where the graph says its operands are written
// (see ir.Graph.AccessCols): Graph.AccessCols is empty or has an entry
// per access, and Graph.AccessPositions, sorted by access, names only
// accesses whose entry is 0, each once. It returns false when one does
// not.
func (c *checker) checkPositions() bool {
	g := c.g
	ok := true
	cols := g.AccessCols.Len()
	if cols != 0 && cols != g.Accesses.Len() {
		c.fail("%d operand columns for the graph's %d accesses", cols, g.Accesses.Len())
		ok = false
	}
	prev := int32(-1)
	for k, e := range g.AccessPositions {
		switch {
		case e.Access < 0 || int(e.Access) >= cols:
			c.fail("operand position %d kept aside names access %d, outside the graph's %d operand columns", k, e.Access, cols)
		case e.Access <= prev:
			c.fail("operand position %d kept aside names access %d, not after access %d", k, e.Access, prev)
		case *g.AccessCols.At(int(e.Access)) != 0:
			c.fail("operand position %d kept aside names access %d, whose column entry is %d, not 0", k, e.Access, *g.AccessCols.At(int(e.Access)))
		default:
			prev = e.Access
			continue
		}
		ok = false
	}
	return ok
}

// checkGraph verifies the model invariants the rules rely on. It returns
// false when indices are inconsistent enough that going on could panic.
func (c *checker) checkGraph() bool {
	g := c.g
	if !c.checkLists() {
		return false
	}
	ok := true
	// The groups first, each member looked up once, into gc (their
	// violations come after the buffers'): listed[bi] is whether buffer
	// bi appears among the members of its own group.
	listed := make([]bool, g.Buffers.Len())
	gc := &checker{g: g, p: c.p, opt: c.opt}
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		if gr.Members.Len == 0 {
			// Nor a root (its first member) to call it by.
			gc.fail("group %d (%q) has no members", gi, c.groupName(gi))
			ok = false
			continue
		}
		for _, m := range g.Members(gr) {
			if m < 0 || int(m) >= g.Buffers.Len() {
				gc.fail("group %q: member index %d out of range", c.groupName(gi), m)
				ok = false
				continue
			}
			b := g.Buffers.At(int(m))
			if int(b.Group) != gi {
				gc.fail("group %q: member %q belongs to group %d", c.groupName(gi), g.Str(b.Name), b.Group)
			} else {
				listed[m] = true
			}
		}
	}
	for bi, b := range g.Buffers.All() {
		if b.Group < 0 || int(b.Group) >= len(g.Groups) {
			c.fail("buffer %q: group index %d out of range", g.Str(b.Name), b.Group)
			ok = false
			continue
		}
		if b.Size < 0 || b.Size%stick != 0 {
			c.fail("buffer %q: size %d is not a whole number of %d-byte sticks", g.Str(b.Name), b.Size, stick)
		}
		if !listed[bi] {
			c.fail("buffer %q: not a member of its group %q", g.Str(b.Name), c.groupName(int(b.Group)))
		}
	}
	c.merge(gc)
	if ok && !c.checkClaims() {
		ok = false
	}
	// While the accesses are at hand, gather who touches each group
	// (for reasons), as long as everything so far indexes correctly (ok:
	// an access then records its buffer's group, which is in range): in
	// ws, start holds the bundle that reads the group (noBundle: none;
	// manyBundles: more than one), end the bundle that writes it, bundle
	// the CPU flags.
	ws := make([]want, len(g.Groups))
	for gi := range ws {
		ws[gi] = want{bundle: 0, start: noBundle, end: noBundle}
	}
	for bi := range g.Bundles {
		b := &g.Bundles[bi]
		b32 := int32(bi)
		for s := range b.Ops {
			op := &b.Ops[s]
			if !c.checkAccesses("op", g.Str(op.Name), c.g.Reads(op)) {
				ok = false
			} else if ok {
				for ai := range c.g.Reads(op) {
					touch(&ws[c.groupOf(&c.g.Reads(op)[ai])].start, b32)
				}
			}
			if !c.checkAccesses("op", g.Str(op.Name), c.g.Writes(op)) {
				ok = false
			} else if ok {
				for ai := range c.g.Writes(op) {
					touch(&ws[c.groupOf(&c.g.Writes(op)[ai])].end, b32)
				}
			}
		}
	}
	for ni := range g.CPU {
		n := &g.CPU[ni]
		reads, writes := g.CPUReads(n), g.CPUWrites(n)
		if !c.checkAccesses("cpu", n.Name, reads) {
			ok = false
		} else if ok {
			for ai := range reads {
				ws[c.groupOf(&reads[ai])].bundle |= cpuRead
			}
		}
		if !c.checkAccesses("cpu", n.Name, writes) {
			ok = false
		} else if ok {
			for ai := range writes {
				ws[c.groupOf(&writes[ai])].bundle |= cpuWritten
			}
		}
	}
	c.ws = ws
	return ok
}

// checkClaims verifies the groups' claim sets (Graph.GroupClaims): one
// per group, each holding exactly the kinds of the claims (Graph.Claims)
// on the group's members. It runs once every buffer's group index is
// known to be in range, and returns false when there is not one set per
// group (the reasons read them).
func (c *checker) checkClaims() bool {
	g := c.g
	if len(g.GroupClaims) != len(g.Groups) {
		c.fail("%d group claim sets for %d groups", len(g.GroupClaims), len(g.Groups))
		return false
	}
	var want []ir.ClaimSet // allocated with the first claim
	for k, cl := range g.Claims {
		if cl.Buffer < 0 || cl.Buffer >= g.Buffers.Len() {
			c.fail("claim %d (%s): buffer index %d out of range", k, cl.Kind, cl.Buffer)
			continue
		}
		if cl.Kind > ir.ClaimLX {
			c.fail("claim %d of %q: unknown kind %d", k, g.Str(g.Buffers.At(cl.Buffer).Name), cl.Kind)
			continue
		}
		if want == nil {
			want = make([]ir.ClaimSet, len(g.Groups))
		}
		gi := g.Buffers.At(cl.Buffer).Group
		want[gi] = want[gi].With(cl.Kind)
	}
	for gi, got := range g.GroupClaims {
		var w ir.ClaimSet
		if want != nil {
			w = want[gi]
		}
		if got != w {
			c.fail("group %q: claims %s, its members' are %s", c.groupName(gi), got, w)
		}
	}
	return true
}

// What checkGraph gathers in ws for reasons.
const (
	noBundle    = -1
	manyBundles = -2
	cpuRead     = 1
	cpuWritten  = 2
)

// touch records that bundle bi reads (or writes) a group: who is its
// reader (or writer) field in ws.
func touch(who *int32, bi int32) {
	switch *who {
	case noBundle:
		*who = bi
	case bi, manyBundles:
	default:
		*who = manyBundles
	}
}

// checkAccesses checks the indices of the accesses of one op or CPU node
// (kind "op" or "cpu"); false when one is out of range or inconsistent.
func (c *checker) checkAccesses(kind, name string, accs []ir.Access) bool {
	g := c.g
	ok := true
	for ai := range accs {
		a := &accs[ai]
		if a.Buffer < 0 || int(a.Buffer) >= g.Buffers.Len() {
			c.fail("%s %s: buffer index %d out of range", kind, name, a.Buffer)
			ok = false
		}
	}
	return ok
}

// groupOf resolves an access to its storage: its buffer's group. Every
// check after begin may read it: checkGraph has checked every access's
// buffer index and every buffer's group index (or nothing after it
// runs).
func (c *checker) groupOf(a *ir.Access) int { return int(groupOf(c.g, a)) }

// groupOf is checker.groupOf for the derivations that take the graph.
func groupOf(g *ir.Graph, a *ir.Access) int32 { return g.Buffers.At(int(a.Buffer)).Group }

// reasons derives the reason (bundle-ir.md §3.1) of every group from who
// touches it (gathered in c.ws by checkGraph), and for candidates their
// bundle; it indexes the candidates by bundle. The live ranges are
// liveRanges'.
func (c *checker) reasons() {
	g := c.g
	ws := c.ws
	c.candStart = make([]int32, len(g.Bundles)+1)
	for gi := range g.Groups {
		gr, claims := &g.Groups[gi], g.GroupClaims[gi]
		w := &ws[gi]
		read, written, cpu := w.start, w.end, w.bundle
		var r int32
		switch {
		case c.opt.Disabled:
			r = wDisabled
		case claims.Has(ir.ClaimInput):
			r = wGraphInput
		case claims.Has(ir.ClaimOutput):
			r = wGraphOutput
		case claims.Has(ir.ClaimLX):
			r = wLX
		case cpu&cpuRead != 0:
			r = wCPURead
		case read == noBundle && written == noBundle && cpu&cpuWritten == 0:
			r = wUnused
		case written == noBundle:
			r = wNotWritten
		case read == noBundle:
			r = wNotRead
		case written == manyBundles:
			r = wMultiWriter
		case read != written:
			r = wCrossBundle
		case gr.Size == 0:
			r = wZeroSize
		default:
			r = written
			c.candStart[r+1]++
		}
		*w = want{bundle: r}
	}
	// Index the candidates by bundle, ascending group order within each
	// bundle: candOf(bi) = candList[candStart[bi]:candStart[bi+1]]. Until
	// liveRanges sets it, a candidate's end holds its position in candOf.
	for bi := range g.Bundles {
		c.candStart[bi+1] += c.candStart[bi]
	}
	c.candList = make([]int32, c.candStart[len(g.Bundles)])
	fill := make([]int32, len(g.Bundles))
	for gi := range ws {
		if bi := ws[gi].bundle; bi >= 0 {
			k := fill[bi]
			c.candList[c.candStart[bi]+k] = int32(gi)
			ws[gi].end = k
			fill[bi]++
		}
	}
}

// candOf lists the candidate groups of bundle bi, ascending.
func (c *checker) candOf(bi int) []int32 {
	return c.candList[c.candStart[bi]:c.candStart[bi+1]]
}

func (c *checker) checkGroups(lo, hi int) {
	for gi := lo; gi < hi; gi++ {
		w := c.ws[gi]
		pg := &c.p.Groups[gi]
		if w.bundle < 0 {
			if pg.Reason != w.reason() {
				c.fail("buffer %q: reason %s, the rules give %s", c.groupName(gi), reasonText(pg.Reason), reasonText(w.reason()))
			}
			if pg.Bundle != -1 || pg.Offset != -1 {
				c.fail("buffer %q: not a candidate (%s) but has bundle %d, offset %d", c.groupName(gi), w.reason(), pg.Bundle, pg.Offset)
			}
			continue
		}
		bname := c.g.Bundles[w.bundle].Name
		switch pg.Reason {
		case planner.Pooled:
			if pg.Offset < 0 {
				c.fail("buffer %q: pooled in %q without an offset", c.groupName(gi), bname)
			}
		case planner.OverBudget:
			if pg.Offset != -1 {
				c.fail("buffer %q: over-budget but has offset %d", c.groupName(gi), pg.Offset)
			}
		default:
			c.fail("buffer %q: reason %s, the rules make it a candidate of bundle %q", c.groupName(gi), reasonText(pg.Reason), bname)
		}
		if pg.Bundle != w.bundle {
			c.fail("buffer %q: bundle %d, its single writer is %q (%d)", c.groupName(gi), pg.Bundle, bname, w.bundle)
		}
		if pg.Start != w.start || pg.End != w.end {
			c.fail("buffer %q in %q: live range [%d, %d], the rules give [%d, %d]", c.groupName(gi), bname, pg.Start, pg.End, w.start, w.end)
		}
	}
}

func reasonText(r planner.Reason) string {
	if r == planner.Pooled {
		return "none (pooled)"
	}
	return r.String()
}

func offsetText(off int64) string {
	if off < 0 {
		return "none (over budget)"
	}
	return fmt.Sprint(off)
}
