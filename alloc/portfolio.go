package alloc

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// BestWith returns the portfolio allocator configured by opt.
//
// It runs a portfolio of constructive placements, keeps for each static
// partition of the instance (groups of buffers no live range crosses
// between) the lowest packing any of them found, and then, while the
// pool end is above the goal, runs the complete search of search.go on
// the partitions that set the pool end. It stops as soon as the pool end
// reaches the goal (the lower bound, or Options.Goal when larger), when
// the search proves the current pool end optimal, or at the time limit.
//
// The portfolio, in order (each member is deterministic):
//
//	first-fit                      the seed's policy (always completes)
//	skyline A                      skylineDive, larger area first
//	best-fit                       start order, best fit, coalescing
//	skyline TAW, ZA, WA            skylineDive under three more preorders
//	size-best-fit                  greedy by size, best gap
//
// first-fit and best-fit (O(n log n), cheap) always run. The others cost
// several times best-fit on large bundles, so they run only within a
// work budget given by the search effort (memberCharge): skyline A, the
// strongest, when its charge is at most Options.MaxNodes; the last four
// only when their charge is at most MaxNodes/16. At the default effort
// (1<<18) that is skyline A up to 65,535 buffers and the last four
// up to 6,204; a larger --search-effort buys them on larger
// bundles. The rule depends only on the number of buffers and MaxNodes.
//
// They run on two goroutines (runMembers); results are merged in this
// order whatever order they finish in.
//
// Every member that runs runs to completion and the search is bounded by
// a node count (Options.MaxNodes, charged the same way whatever the
// parallel runs did), so the result depends only on the input and the
// options, never on machine speed, load or core count; and since every
// member's packing is merged, best's pool end never exceeds that of any
// member it ran when they place everything.
//
// Options.Stop, when set, adds a caller's limit (a wall-clock cap): first-fit always
// runs to completion (so there is always an answer), and any later
// member or search run still going at the limit is abandoned and
// contributes nothing; the result may then vary from run to run.
//
// Over budget: members place under the budget with their own fallback
// rules, and the search only looks for complete packings under the
// budget. A partition with a complete packing under the budget uses the
// best one; a partition with none takes the member placing the most bytes
// of it (then fewer fallbacks, then the lower pool end, then portfolio
// order), so the buffers falling back are that member's.
func BestWith(opt Options) Func {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	return func(items []Interval, budget int64) Result {
		return runBest(items, budget, opt)
	}
}

// Limits on the complete search: beyond them a partition keeps the best
// constructive packing (the search's adjacency would cost too much memory
// and each node too much time to be worth it).
const (
	searchMaxBuffers = 5000
	searchMaxPairs   = 4 << 20
	// searchRounds is searchPartitions' number of rounds; round r gives a
	// partition of m buffers 2·m·4^r nodes per decision.
	searchRounds = 24
)

// The largest node budget of a round, 2·searchMaxBuffers << 2·(rounds-1),
// fits an int64: this constant does not compile otherwise.
const _ int64 = 2 * searchMaxBuffers << (2 * (searchRounds - 1))

// bestState keeps, per static partition, the best packing found so far.
type bestState struct {
	items  []Interval
	budget int64
	parts  [][]int // item indices per partition
	// Per partition: whether the kept packing is complete, its top, its
	// offsets (by position in the partition's item list), and for an
	// incomplete one the bytes it places and the buffers falling back.
	ok     []bool
	top    []int64
	offs   [][]int64
	placed []int64
	falls  []int
}

func runBest(items []Interval, budget int64, opt Options) Result {
	stop := func() bool { return false }
	if opt.Stop != nil {
		stop = opt.Stop()
	}
	n := len(items)
	if n == 0 {
		return Result{Offsets: []int64{}}
	}
	tl := newTimeline(items)
	lb := tl.lowerBound()
	goal := max(lb, opt.Goal)
	bs := newBestState(items, tl, budget)

	// Portfolio.
	consider := func(r Result) bool {
		bs.merge(r)
		return bs.reached(goal)
	}
	ff, results := runMembers(func() Result { return FirstFit(items, budget) }, portfolio(items, tl, budget, opt.MaxNodes), goal, stop)
	if consider(ff) {
		return bs.result()
	}
	for _, r := range results {
		if r != nil && consider(*r) {
			return bs.result()
		}
	}
	if stop() {
		return bs.result()
	}
	searchPartitions(bs, tl, opt.Goal, opt.MaxNodes, stop)
	return bs.result()
}

// member is one constructive placement of the portfolio; ok is false when
// stop cut it short.
type member func(stop func() bool) (Result, bool)

// runMembers runs first (first-fit, which always completes) and the
// members, and returns their results, members by index (nil for one cut
// short or not run). first runs alongside member 0, the strongest
// heuristic, which gets a core of its own until it is done; then the
// other members run two at a time in index order. When one of them
// alone reaches the goal, the members after it are cancelled, but those
// before it still finish, so merging first and then the members in index
// order, stopping at the first that reaches the goal, gives what running
// them one by one would.
func runMembers(first func() Result, members []member, goal int64, stop func() bool) (Result, []*Result) {
	results := make([]*Result, len(members))
	var next atomic.Int64
	var cutoff atomic.Int64 // index of the first member that reached the goal
	cutoff.Store(math.MaxInt64)
	lower := func(i int64) {
		for {
			c := cutoff.Load()
			if i >= c || cutoff.CompareAndSwap(c, i) {
				return
			}
		}
	}
	headDone := make(chan struct{})
	work := func(head bool) {
		for {
			i := next.Add(1) - 1
			if i >= int64(len(members)) || i > cutoff.Load() || stop() {
				if head {
					close(headDone)
				}
				return
			}
			mstop := func() bool { return i > cutoff.Load() || stop() }
			r, ok := members[i](mstop)
			if head {
				close(headDone)
				head = false
			}
			if !ok {
				continue
			}
			results[i] = &r
			if reaches(r, goal) {
				lower(i)
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); work(true) }()
	ff := first()
	if reaches(ff, goal) {
		lower(-1)
	}
	go func() { defer wg.Done(); <-headDone; work(false) }()
	wg.Wait()
	return ff, results
}

// reaches reports whether r places everything with a pool end at most goal.
func reaches(r Result, goal int64) bool {
	if r.PoolEnd > goal {
		return false
	}
	for _, o := range r.Offsets {
		if o < 0 {
			return false
		}
	}
	return true
}

// memberCharge is what an expensive member (a skyline dive, or
// size-best-fit) on n buffers is charged against the search effort, in
// search nodes: n·L²/64 with L the bit length of n, the shape of a
// skyline dive's cost (about 3n steps of O(log² n) each). The divisor
// sets the exchange rate so that at the default effort skyline A still
// runs on 62,185 buffers (the largest DSA benchmark trace, iopddl Y_1,
// which it packs at the lower bound) but not on 100,000 (issue 12: best
// within 3x best-fit's time there).
func memberCharge(n int) int64 {
	l := int64(bits.Len(uint(n)))
	return int64(n) * l * l / 64
}

// portfolio lists the members after first-fit, in the order they run:
// the cheap ones always, the expensive ones as the effort allows (see
// BestWith).
func portfolio(items []Interval, tl *timeline, budget, effort int64) []member {
	n := len(items)
	if effort <= 0 {
		effort = DefaultMaxNodes
	}
	charge := memberCharge(n)
	primary, others := charge <= effort, charge <= effort/16
	total := tl.maxLoad()
	width := make([]int64, n)
	area := make([]int64, n)
	for i, it := range items {
		width[i] = int64(tl.times[tl.hi[i]] - tl.times[tl.lo[i]])
		area[i] = mulSat(it.Size, width[i])
	}
	key := func(c byte, i int) int64 {
		switch c {
		case 'A':
			return area[i]
		case 'T':
			return total[i]
		case 'W':
			return width[i]
		}
		return items[i].Size
	}
	// rank orders items by the keys (larger first), then name, then
	// input position, so ranks do not depend on sort stability details.
	rank := func(keys string) []int32 {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			for k := 0; k < len(keys); k++ {
				if c := cmp.Compare(key(keys[k], b), key(keys[k], a)); c != 0 {
					return c
				}
			}
			if c := strings.Compare(items[a].Name, items[b].Name); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		r := make([]int32, n)
		for k, i := range idx {
			r[i] = int32(k)
		}
		return r
	}
	sky := func(keys string) member {
		return func(stop func() bool) (Result, bool) {
			return skylineDive(items, tl, rank(keys), budget, stop)
		}
	}
	var ms []member
	if primary {
		ms = append(ms, sky("A"))
	}
	ms = append(ms, func(stop func() bool) (Result, bool) { return bestFit(items, budget, StartOrder(items), stop) })
	if others {
		ms = append(ms, sky("TAW"), sky("ZA"), sky("WA"),
			func(stop func() bool) (Result, bool) { return gapFit(items, budget, SizeOrder(items), stop) })
	}
	return ms
}

func newBestState(items []Interval, tl *timeline, budget int64) *bestState {
	bs := &bestState{items: items, budget: budget}
	bs.parts, _ = tl.partitions()
	np := len(bs.parts)
	bs.ok = make([]bool, np)
	bs.top = make([]int64, np)
	bs.offs = make([][]int64, np)
	bs.placed = make([]int64, np)
	bs.falls = make([]int, np)
	return bs
}

// merge takes, partition by partition, the parts of r that beat what is
// kept: a complete packing with a lower top beats any other; between
// incomplete ones, more bytes placed, then fewer fallbacks, then a lower
// top. Ties keep the earlier one.
func (bs *bestState) merge(r Result) {
	for k, part := range bs.parts {
		var top, placed int64
		falls := 0
		for _, i := range part {
			o := r.Offsets[i]
			if o < 0 {
				falls++
				continue
			}
			top = max(top, o+bs.items[i].Size)
			placed += bs.items[i].Size
		}
		ok := falls == 0
		better := false
		switch {
		case bs.offs[k] == nil:
			better = true
		case ok != bs.ok[k]:
			better = ok
		case ok:
			better = top < bs.top[k]
		case placed != bs.placed[k]:
			better = placed > bs.placed[k]
		case falls != bs.falls[k]:
			better = falls < bs.falls[k]
		default:
			better = top < bs.top[k]
		}
		if !better {
			continue
		}
		offs := make([]int64, len(part))
		for j, i := range part {
			offs[j] = r.Offsets[i]
		}
		bs.offs[k], bs.ok[k], bs.top[k], bs.placed[k], bs.falls[k] = offs, ok, top, placed, falls
	}
}

// setPart records a complete packing of partition k found by the search.
func (bs *bestState) setPart(k int, offs []int64) {
	var top int64
	for j, i := range bs.parts[k] {
		top = max(top, offs[j]+bs.items[i].Size)
	}
	bs.offs[k], bs.ok[k], bs.top[k], bs.falls[k] = offs, true, top, 0
}

func (bs *bestState) allComplete() bool {
	for _, ok := range bs.ok {
		if !ok {
			return false
		}
	}
	return true
}

func (bs *bestState) poolEnd() int64 {
	var pe int64
	for _, t := range bs.top {
		pe = max(pe, t)
	}
	return pe
}

// reached reports whether the kept packing is complete and at the goal.
func (bs *bestState) reached(goal int64) bool { return bs.allComplete() && bs.poolEnd() <= goal }

func (bs *bestState) result() Result {
	r := Result{Offsets: make([]int64, len(bs.items)), PoolEnd: bs.poolEnd()}
	for k, part := range bs.parts {
		for j, i := range part {
			r.Offsets[i] = bs.offs[k][j]
		}
	}
	return r
}

// searchPartitions runs the complete search on the partitions that set
// the pool end, with a fixed schedule: rounds with a node budget per
// preordering of 2·m nodes in round 0, growing fourfold per round. Each
// round tries the goal, the lower bound when below it, then cuts of the
// best pool end UB by half, a quarter and a sixteenth of its gap to the
// goal and by one byte (these with a quarter of the budget: improving is
// easy when possible, and most effort goes to the lowest capacities).
// Each capacity is decided under the preorderings WAT, TAW and TWA at
// once (decideAll). A capacity whose search is exhausted is infeasible
// for that partition and raises its proven lower bound; the search ends
// when the pool end meets the bounds, reaches the goal, or at stop.
//
// Partitions are independent, which matters over budget: one that cannot
// fit under the budget (its lower bound is above it) is left as the
// portfolio packed it, and the others are still completed under the
// budget if the search can.
func searchPartitions(bs *bestState, tl *timeline, optGoal, maxNodes int64, stop func() bool) {
	np := len(bs.parts)
	probs := make([]*searchProblem, np)
	built := make([]bool, np)
	problem := func(k int) *searchProblem {
		if !built[k] {
			built[k] = true
			if len(bs.parts[k]) <= searchMaxBuffers {
				probs[k] = newSearchProblem(bs.items, tl, bs.parts[k], searchMaxPairs)
			}
		}
		return probs[k]
	}
	// ub is a partition's best top, or past the budget when it has no
	// complete packing.
	ub := func(k int) int64 {
		if bs.ok[k] {
			return bs.top[k]
		}
		return bs.budget + 1
	}
	// plb is each partition's proven lower bound: its most bytes live at
	// once, raised by every capacity found infeasible.
	plb := make([]int64, np)
	for k, part := range bs.parts {
		// A partition is a run of positions of its own.
		lo, hi := tl.lo[part[0]], tl.hi[part[0]]
		for _, i := range part {
			lo, hi = min(lo, tl.lo[i]), max(hi, tl.hi[i])
		}
		for p := lo; p < hi; p++ {
			plb[k] = max(plb[k], tl.load[p])
		}
	}
	active := func(k int) bool { return bs.ok[k] || plb[k] <= bs.budget }
	heuristics := []string{"WAT", "TAW", "TWA"}
	// used charges each decision its budget (or the winner's nodes) for
	// every preordering, whatever the parallel runs actually did, so the
	// MaxNodes cut falls at the same point on every machine.
	var used int64
	for round := 0; round < searchRounds; round++ {
		tried := map[int64]bool{}
		for pick := 0; pick < 6; pick++ {
			// Over the partitions that can still fit: the upper bound,
			// the lower bound, and the floor set by those the search
			// cannot take.
			var UB, lo, floor int64
			for k := range bs.parts {
				if active(k) {
					UB, lo = max(UB, ub(k)), max(lo, plb[k])
				}
			}
			goal := max(optGoal, lo)
			for k := range bs.parts {
				if active(k) && ub(k) > goal && problem(k) == nil {
					floor = max(floor, ub(k))
				}
			}
			base := max(goal, floor)
			if UB <= base || stop() {
				return
			}
			// The goal, then the lower bound even when the goal is above
			// it (tight capacities prune hardest and are often found
			// fastest), then improvements.
			gap := UB - 1 - base
			C := [6]int64{base, max(lo, floor), base + gap/2, UB - 1 - gap/4, UB - 1 - gap/16, UB - 1}[pick]
			C = min(C, bs.budget)
			if tried[C] || C >= UB {
				continue
			}
			tried[C] = true
			for k := range bs.parts {
				p := problem(k)
				if !active(k) || ub(k) <= C || plb[k] > C || p == nil {
					continue
				}
				limit := int64(2*p.m) << (2 * round)
				if pick > 1 {
					limit /= 4
				}
				if maxNodes > 0 {
					if used >= maxNodes {
						return
					}
					limit = min(limit, max((maxNodes-used)/int64(len(heuristics)), 1))
				}
				offs, st, nodes := p.decideAll(C, heuristics, limit, stop)
				if st == searchFound {
					bs.setPart(k, offs)
					used += nodes * int64(len(heuristics))
				} else {
					used += limit * int64(len(heuristics))
				}
				if st == searchNotFound {
					plb[k] = C + 1
					// The pool end cannot reach C now; go on only to
					// complete other partitions under the budget.
					if C < bs.budget {
						break
					}
				}
				if stop() {
					return
				}
			}
			if bs.reached(max(optGoal, tl.lowerBound())) {
				return
			}
		}
	}
}
