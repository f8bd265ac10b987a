package planner

import (
	"math"
	"slices"

	"github.com/sdscgen/sdscgen/ir"
)

// Node is one position of the graph's timeline: a bundle or a top-level
// CPU node.
type Node struct {
	// CPU says Index indexes ir.Graph.CPU rather than ir.Graph.Bundles.
	CPU   bool
	Index int32
}

// Nodes returns the graph's top-level nodes in text order, bundles and
// CPU nodes interleaved: the positions t = 0..T-1 of the footprint
// timeline. ir.Graph keeps bundles and CPU nodes in two lists, each in
// text order, so the two are merged by source position (line, then
// column). In an unfused graph every bundle is a leaf op at the op's own
// position, so the bundles of one fused block stay together in step
// order, and a CPU node written after the block comes after all of them.
// On equal positions (graphs built by hand, which may leave them zero)
// bundles come first.
func Nodes(g *ir.Graph) []Node {
	out := make([]Node, 0, len(g.Bundles)+len(g.CPU))
	bi, ci := 0, 0
	for bi < len(g.Bundles) || ci < len(g.CPU) {
		if ci == len(g.CPU) || bi < len(g.Bundles) && !posBefore(g.CPU[ci].Pos, g.Bundles[bi].Pos) {
			out = append(out, Node{Index: int32(bi)})
			bi++
		} else {
			out = append(out, Node{CPU: true, Index: int32(ci)})
			ci++
		}
	}
	return out
}

// posBefore reports whether a comes strictly before b in the text.
func posBefore(a, b ir.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// Footprint is the graph's HBM footprint over its timeline
// (docs/bundle-ir.md, "The graph's HBM footprint"): at every position,
// the bytes of the standalone storage groups live there and the bytes of
// the pool of the bundle there. It counts live bytes, what a perfect
// allocator needs, not a caching allocator's fragmentation. Byte counts
// saturate at math.MaxInt64.
type Footprint struct {
	// Nodes are the positions, as Nodes returns them.
	Nodes []Node
	// Standalone is, per position, the standalone bytes live there (the
	// pool bytes there are Pool's).
	Standalone []int64
	// Peak is the largest Standalone+Pool, PeakPosition its first
	// position (-1, with Peak 0, for a graph with no nodes).
	Peak         int64
	PeakPosition int
	// NoPoolingPeak is the peak with every pooled group standalone, live
	// at its bundle's position only; ResidentPoolsPeak the peak with
	// every bundle's pool live at every position.
	NoPoolingPeak, ResidentPoolsPeak int64
	// First and Last are, per storage group, the inclusive positions over
	// which it is live as a standalone group, or -1 when it is not in HBM
	// on its own (LX, pooled, or untouched and neither input nor output).
	First, Last []int32
	// p is the plan the footprint is of: the pool bytes are its (kept
	// once, not per position: without fusion every op is a position).
	p *Result
}

// Pool is the pool bytes of the bundle at position t: 0 for a CPU node
// or a bundle without a pool.
func (f *Footprint) Pool(t int) int64 {
	if n := f.Nodes[t]; !n.CPU {
		if pb := &f.p.Bundles[n.Index]; pb.HasPool() {
			return pb.PoolSize
		}
	}
	return 0
}

// Position is bundle bi's position (a search: for one bundle's report).
func (f *Footprint) Position(bi int) int {
	for t, n := range f.Nodes {
		if !n.CPU && int(n.Index) == bi {
			return t
		}
	}
	return -1
}

// HBM is the bytes live at position t.
func (f *Footprint) HBM(t int) int64 { return satAdd(f.Standalone[t], f.Pool(t)) }

// Live reports whether group gi is live as a standalone group at t.
func (f *Footprint) Live(gi, t int) bool {
	return f.First[gi] >= 0 && int(f.First[gi]) <= t && t <= int(f.Last[gi])
}

// NodeName is the name of the node at position t.
func NodeName(g *ir.Graph, n Node) string {
	if n.CPU {
		return g.CPU[n.Index].Name
	}
	return g.Bundles[n.Index].Name
}

// Footprint computes p's footprint in time linear in the groups, the
// nodes and the accesses.
func (p *Result) Footprint() *Footprint { return p.footprint(true) }

// footprint is Footprint; without ranges, First and Last are nil (the
// plan JSON's writer reads neither: they are 8 bytes a group, and the
// writer's footprint is alive while the verifier derives its own).
func (p *Result) footprint(ranges bool) *Footprint {
	g := p.Graph
	nodes := Nodes(g)
	T := len(nodes)
	f := &Footprint{Nodes: nodes, Standalone: make([]int64, T), PeakPosition: -1,
		First: make([]int32, len(g.Groups)), Last: make([]int32, len(g.Groups)), p: p}
	bundleAt := make([]int32, len(g.Bundles))
	first, last := f.First, f.Last
	for i := range first {
		first[i], last[i] = -1, -1
	}
	touch := func(gi int32, t int32) {
		if first[gi] < 0 {
			first[gi] = t
		}
		last[gi] = t
	}
	for t, n := range nodes {
		t32 := int32(t)
		if n.CPU {
			for _, a := range g.CPUAccesses(&g.CPU[n.Index]) {
				touch(g.GroupOf(&a), t32)
			}
			continue
		}
		bundleAt[n.Index] = t32
		b := &g.Bundles[n.Index]
		for oi := range b.Ops {
			as := g.OpAccesses(&b.Ops[oi])
			for i := range as {
				touch(g.GroupOf(&as[i]), t32)
			}
		}
	}
	// Standalone bytes: a difference array, each size split into its
	// high and low 32 bits so that no sum overflows (sizes are below
	// 2^63 and there are fewer than 2^31 groups). The pooled groups'
	// bytes without pooling are at one position each: added there.
	var standalone wide
	standalone.init(T)
	extra := make([]int64, T)
	for gi := range g.Groups {
		gr, claims := &g.Groups[gi], g.GroupClaims[gi]
		pg := &p.Groups[gi]
		lo, hi := first[gi], last[gi]
		switch {
		case claims.Has(ir.ClaimLX) || T == 0:
			lo, hi = -1, -1
		case pg.Offset >= 0:
			// Pooled: in its bundle's pool; without pooling, standalone
			// at the bundle's position only.
			t := bundleAt[pg.Bundle]
			extra[t] = satAdd(extra[t], gr.Size)
			lo, hi = -1, -1
		case claims.Has(ir.ClaimInput):
			lo, hi = 0, int32(T-1)
		case claims.Has(ir.ClaimOutput):
			lo, hi = max(lo, 0), int32(T-1)
		}
		first[gi], last[gi] = lo, hi
		if lo >= 0 {
			standalone.add(int(lo), int(hi), gr.Size)
		}
	}
	var resident int64
	for bi := range p.Bundles {
		if pb := &p.Bundles[bi]; pb.HasPool() {
			resident = satAdd(resident, pb.PoolSize)
		}
	}
	standalone.sums(f.Standalone)
	for t := 0; t < T; t++ {
		if h := f.HBM(t); h > f.Peak || f.PeakPosition < 0 {
			f.Peak, f.PeakPosition = h, t
		}
		f.NoPoolingPeak = max(f.NoPoolingPeak, satAdd(f.Standalone[t], extra[t]))
		f.ResidentPoolsPeak = max(f.ResidentPoolsPeak, satAdd(f.Standalone[t], resident))
	}
	if !ranges {
		f.First, f.Last = nil, nil
	}
	return f
}

// StandaloneByReason splits f, p's footprint, by why each standalone
// group is not pooled: reasons are the reasons (ReasonTable order) of
// the groups standalone at some position, each once, and rows[k] is, per
// position, the bytes of the standalone groups live there (f.Live) whose
// reason is reasons[k] (over-budget candidates included). Per position,
// the saturating sum over k of rows[k] is f.Standalone. Only the HTML
// view's chart needs the split, so Footprint does not make it: a row per
// reason costs 8 bytes a position, and without fusion every op is a
// position.
func (p *Result) StandaloneByReason(f *Footprint) (reasons []Reason, rows [][]int64) {
	T := len(f.Nodes)
	// The groups by reason (a counting sort), then one difference array
	// at a time, reused.
	count := make([]int32, len(reasonTable)+2)
	for gi := range f.First {
		if f.First[gi] >= 0 {
			count[p.Groups[gi].Reason+1]++
		}
	}
	for r := 1; r < len(count); r++ {
		count[r] += count[r-1]
	}
	order := make([]int32, count[len(count)-1])
	next := slices.Clone(count)
	for gi := range f.First {
		if f.First[gi] >= 0 {
			r := p.Groups[gi].Reason
			order[next[r]] = int32(gi)
			next[r]++
		}
	}
	var w wide
	for r := 0; r+1 < len(count); r++ {
		groups := order[count[r]:count[r+1]]
		if len(groups) == 0 {
			continue
		}
		if w.hi == nil {
			w.init(T)
		} else {
			clear(w.hi)
			clear(w.lo)
		}
		for _, gi := range groups {
			w.add(int(f.First[gi]), int(f.Last[gi]), p.Graph.Groups[gi].Size)
		}
		row := make([]int64, T)
		w.sums(row)
		reasons = append(reasons, Reason(r))
		rows = append(rows, row)
	}
	return reasons, rows
}

// wide is a difference array of byte counts held as two int64 arrays,
// the high and the low 32 bits of each size, so that sums of many sizes
// near 2^63 do not overflow; sums saturates the totals at MaxInt64.
type wide struct{ hi, lo []int64 }

func (w *wide) init(n int) { w.hi, w.lo = make([]int64, n+1), make([]int64, n+1) }

// add adds size to every position of [a, b].
func (w *wide) add(a, b int, size int64) {
	h, l := size>>32, size&(1<<32-1)
	w.hi[a] += h
	w.hi[b+1] -= h
	w.lo[a] += l
	w.lo[b+1] -= l
}

// sums writes the running totals into out.
func (w *wide) sums(out []int64) {
	var h, l int64
	for t := range out {
		h += w.hi[t]
		l += w.lo[t]
		if h >= 1<<31 {
			out[t] = math.MaxInt64
		} else {
			out[t] = satAdd(h<<32, l)
		}
	}
}

// satAdd is a+b for non-negative a and b, saturated at MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
