package planner

import (
	"sync"

	"github.com/sdscgen/sdscgen/ir"
)

// Index says who touches what: for every group, its accesses by bundle
// ops and by CPU nodes, and for every bundle, the groups its ops touch.
// It is gathered from the graph once per Result (Result.Index), on the
// first call, and read by every report (explain, remarks, stats, the
// HTML view, the SVG) and by Usage. Planning itself reads only a summary
// of it, kept in place while Plan runs (touches, held equal to Usage by
// TestTouchesMatchUsage), so that compiling a million groups builds no
// index at all; the verifier derives its own on purpose.
type Index struct {
	// Group gi's touches are touches[start[gi]:start[gi+1]] and
	// cpu[cpuStart[gi]:cpuStart[gi+1]]; bundle bi's groups are
	// groups[groupStart[bi]:groupStart[bi+1]].
	start, cpuStart, groupStart []int32
	touches                     []Touch
	cpu                         []CPUTouch
	groups                      []int32
}

// Touch is one access of a group by a bundle op. A group's touches are
// in bundle order, then step order, each op's reads before its writes
// (in the order the op lists them).
type Touch struct {
	Bundle, Step int32
	Read         bool
	// Access indexes Graph.Accesses: the name accessed, its position,
	// steps and split.
	Access int32
}

// CPUTouch is one access of a group by a CPU node: the K-th of
// Graph.CPUReads(&Graph.CPU[Node]) when Read, else of its CPUWrites. A group's CPU touches are in node order,
// each node's reads before its writes.
type CPUTouch struct {
	Node, K int32
	Read    bool
}

// Index returns the index in Graph.Accesses of the access t stands
// for.
func (t CPUTouch) Index(g *ir.Graph) int32 {
	n := &g.CPU[t.Node]
	if t.Read {
		return n.Accesses.Off + t.K
	}
	return n.Accesses.Off + n.NReads + t.K
}

// Access returns the access t stands for.
func (t CPUTouch) Access(g *ir.Graph) *ir.Access {
	if t.Read {
		return &g.CPUReads(&g.CPU[t.Node])[t.K]
	}
	return &g.CPUWrites(&g.CPU[t.Node])[t.K]
}

// Touches returns group gi's bundle touches (shared: not to be modified).
func (ix *Index) Touches(gi int) []Touch { return ix.touches[ix.start[gi]:ix.start[gi+1]] }

// CPU returns group gi's CPU touches (shared: not to be modified).
func (ix *Index) CPU(gi int) []CPUTouch { return ix.cpu[ix.cpuStart[gi]:ix.cpuStart[gi+1]] }

// Groups returns the groups bundle bi's ops touch, each once, in
// ascending group index (group order is name order); shared: not to be
// modified.
func (ix *Index) Groups(bi int) []int32 { return ix.groups[ix.groupStart[bi]:ix.groupStart[bi+1]] }

// First returns group gi's first touch in bundle bi that reads (or
// writes) it, and whether there is one.
func (ix *Index) First(gi, bi int, read bool) (Touch, bool) {
	for _, t := range ix.Touches(gi) {
		if int(t.Bundle) == bi && t.Read == read {
			return t, true
		}
	}
	return Touch{}, false
}

// Usage returns who touches group gi, derived from its touches.
func (ix *Index) Usage(gi int) Usage {
	var u Usage
	for _, t := range ix.Touches(gi) {
		l := &u.WrittenBy
		if t.Read {
			l = &u.ReadBy
		}
		if n := len(*l); n == 0 || (*l)[n-1] != int(t.Bundle) {
			*l = append(*l, int(t.Bundle)) // bundles come in ascending order
		}
	}
	for _, t := range ix.CPU(gi) {
		l := &u.CPUWrittenBy
		if t.Read {
			l = &u.CPUReadBy
		}
		if n := len(*l); n == 0 || (*l)[n-1] != int(t.Node) {
			*l = append(*l, int(t.Node))
		}
	}
	return u
}

// Index returns the Result's index of who touches what, gathering it
// on the first call (concurrent callers wait for that one).
func (p *Result) Index() *Index {
	if p.index == nil {
		return newIndex(p.Graph) // a Result built by hand
	}
	p.index.once.Do(func() { p.index.ix = newIndex(p.Graph) })
	return p.index.ix
}

// Usage returns who touches group gi (Index's Usage).
func (p *Result) Usage(gi int) Usage { return p.Index().Usage(gi) }

// indexOnce builds a Result's index once, whoever asks first.
type indexOnce struct {
	once sync.Once
	ix   *Index
}

// newIndex gathers g's index: each list is counted in a first pass and
// filled in a second, into one array per kind of list, instead of
// millions of small allocations.
func newIndex(g *ir.Graph) *Index {
	n := len(g.Groups)
	ix := &Index{start: make([]int32, n+1), cpuStart: make([]int32, n+1), groupStart: make([]int32, len(g.Bundles)+1)}
	// Count, at start[gi+1] and cpuStart[gi+1], then turn the counts
	// into starts; next is each list's next free slot.
	forAccesses(g, func(gi int32, _ Touch) { ix.start[gi+1]++ }, func(gi int32, _ CPUTouch) { ix.cpuStart[gi+1]++ })
	for gi := range n {
		ix.start[gi+1] += ix.start[gi]
		ix.cpuStart[gi+1] += ix.cpuStart[gi]
	}
	ix.touches = make([]Touch, ix.start[n])
	ix.cpu = make([]CPUTouch, ix.cpuStart[n])
	next := make([]int32, n)
	copy(next, ix.start[:n])
	cnext := make([]int32, n)
	copy(cnext, ix.cpuStart[:n])
	forAccesses(g, func(gi int32, t Touch) {
		ix.touches[next[gi]] = t
		next[gi]++
	}, func(gi int32, t CPUTouch) {
		ix.cpu[cnext[gi]] = t
		cnext[gi]++
	})
	// Each bundle's groups: walking the groups in ascending order lists
	// them in ascending order; last[bi] is 1 + the group last added.
	last := make([]int32, len(g.Bundles))
	bnext := make([]int32, len(g.Bundles))
	for pass := range 2 {
		if pass == 1 {
			for bi := range g.Bundles {
				ix.groupStart[bi+1] += ix.groupStart[bi]
			}
			ix.groups = make([]int32, ix.groupStart[len(g.Bundles)])
			copy(bnext, ix.groupStart[:len(g.Bundles)])
			clear(last)
		}
		for gi := range n {
			for _, t := range ix.Touches(gi) {
				if last[t.Bundle] == int32(gi+1) {
					continue
				}
				last[t.Bundle] = int32(gi + 1)
				if pass == 0 {
					ix.groupStart[t.Bundle+1]++
				} else {
					ix.groups[bnext[t.Bundle]] = int32(gi)
					bnext[t.Bundle]++
				}
			}
		}
	}
	return ix
}

// forAccesses calls bundle for every access of a bundle op, in bundle,
// step and access order, and cpu for every access of a CPU node, in node
// order, reads before writes, each with the accessed group.
func forAccesses(g *ir.Graph, bundle func(gi int32, t Touch), cpu func(gi int32, t CPUTouch)) {
	for bi := range g.Bundles {
		for oi := range g.Bundles[bi].Ops {
			op := &g.Bundles[bi].Ops[oi]
			for k, a := range g.OpAccesses(op) {
				bundle(g.GroupOf(&a), Touch{Bundle: int32(bi), Step: int32(oi), Read: int32(k) < op.NReads, Access: op.Accesses.Off + int32(k)})
			}
		}
	}
	for ci := range g.CPU {
		for k, a := range g.CPUReads(&g.CPU[ci]) {
			cpu(g.GroupOf(&a), CPUTouch{Node: int32(ci), K: int32(k), Read: true})
		}
		for k, a := range g.CPUWrites(&g.CPU[ci]) {
			cpu(g.GroupOf(&a), CPUTouch{Node: int32(ci), K: int32(k)})
		}
	}
}
