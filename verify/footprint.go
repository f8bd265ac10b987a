package verify

import (
	"math"
	"math/bits"
	"slices"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// footprint is the graph's HBM footprint re-derived from the graph and the
// plan's decisions, on purpose without the planner's code: the nodes are
// sorted (not merged) by source position, and the live bytes are summed
// in 128 bits from per-position changes (modulo 2^128: a group adds its
// size where it becomes live and takes it back after its last position).
// The changes are kept per position, not per group, so that a graph of a
// million groups and a thousand nodes costs the verifier two arrays of a
// thousand sums (a list of events, two per group, held 48 MB there).
// What it keeps is 12 bytes a position (without fusion a million ops are
// a million positions): the node and the standalone bytes there; a
// node's name, kind and pool bytes are read from the graph and the plan.
type footprint struct {
	g          *ir.Graph
	p          *planner.Result
	nodes      []int32 // in text order: bundle i, or CPU node ^i
	standalone []int64
	peak       int64
	peakAt     int // -1: no nodes
	noPool     int64
	resident   int64
}

// fpNode is a top-level node at pos, as it is sorted: bundle i, or CPU
// node ^i when i is negative.
type fpNode struct {
	pos ir.Pos
	i   int32 // bundle i, or CPU node ^i
}

// len is the number of positions.
func (w *footprint) len() int { return len(w.nodes) }

// cpu reports whether position t is a CPU node.
func (w *footprint) cpu(t int) bool { return w.nodes[t] < 0 }

// name is the name of the node at position t.
func (w *footprint) name(t int) string {
	i := w.nodes[t]
	if i < 0 {
		return w.g.CPU[^i].Name
	}
	return w.g.Bundles[i].Name
}

// pool is the pool bytes at position t: its bundle's pool size when the
// bundle has candidates, else 0.
func (w *footprint) pool(t int) int64 {
	if i := w.nodes[t]; i >= 0 {
		if pb := &w.p.Bundles[i]; pb.Candidates.Len > 0 {
			return pb.PoolSize
		}
	}
	return 0
}

// u128 is an unsigned 128-bit sum.
type u128 struct{ hi, lo uint64 }

func (a u128) plus(v uint64) u128 {
	lo, c := bits.Add64(a.lo, v, 0)
	return u128{a.hi + c, lo}
}

func (a u128) minus(v uint64) u128 {
	lo, b := bits.Sub64(a.lo, v, 0)
	return u128{a.hi - b, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return u128{a.hi + b.hi + c, lo}
}

func (a u128) sat() int64 {
	if a.hi != 0 || a.lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(a.lo)
}

// deriveFootprint applies the footprint rule of docs/bundle-ir.md.
func deriveFootprint(g *ir.Graph, p *planner.Result) *footprint {
	nodes := make([]fpNode, 0, len(g.Bundles)+len(g.CPU))
	for i := range g.Bundles {
		nodes = append(nodes, fpNode{g.Bundles[i].Pos, int32(i)})
	}
	for i := range g.CPU {
		nodes = append(nodes, fpNode{g.CPU[i].Pos, ^int32(i)})
	}
	// Text order; on equal positions (hand-built graphs) bundles first,
	// each list keeping its own order.
	slices.SortStableFunc(nodes, func(a, b fpNode) int {
		if a.pos.Line != b.pos.Line {
			return int(a.pos.Line) - int(b.pos.Line)
		}
		if a.pos.Col != b.pos.Col {
			return int(a.pos.Col) - int(b.pos.Col)
		}
		switch ac, bc := a.i < 0, b.i < 0; {
		case ac == bc:
			return 0
		case ac:
			return 1
		}
		return -1
	})
	// The positions are kept without theirs: 4 bytes a node, not 12.
	T := len(nodes)
	order := make([]int32, T)
	for t, n := range nodes {
		order[t] = n.i
	}
	nodes = nil
	f := &footprint{g: g, p: p, nodes: order, standalone: make([]int64, T), peakAt: -1}
	first := make([]int32, len(g.Groups))
	last := make([]int32, len(g.Groups))
	for i := range first {
		first[i], last[i] = -1, -1
	}
	var poolTotal u128
	touch := func(accs []ir.Access, t int32) {
		for _, a := range accs {
			if first[a.Group] == -1 {
				first[a.Group] = t
			}
			if t > last[a.Group] {
				last[a.Group] = t
			}
		}
	}
	for t, i := range order {
		if i < 0 {
			touch(g.CPUAccesses(&g.CPU[^i]), int32(t))
			continue
		}
		b := &g.Bundles[i]
		for oi := range b.Ops {
			touch(g.Reads(&b.Ops[oi]), int32(t))
			touch(g.Writes(&b.Ops[oi]), int32(t))
		}
		poolTotal = poolTotal.plus(uint64(f.pool(t)))
	}
	// live[t]: what changes at position t, for the standalone groups;
	// pooledIn[b]: for the no-pooling baseline, the bytes of the groups
	// pooled in bundle b, live at b's position only (saturated at
	// MaxInt64, which the baseline's sum saturates at anyway).
	live := make([]u128, T+1)
	pooledIn := make([]uint64, len(g.Bundles))
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		if gr.LX || T == 0 {
			continue
		}
		size := uint64(gr.Size)
		if pg := &p.Groups[gi]; pg.Offset >= 0 && pg.Bundle >= 0 {
			pooledIn[pg.Bundle] = min(pooledIn[pg.Bundle]+size, math.MaxInt64)
			continue
		}
		var lo, hi int
		switch {
		case gr.Input:
			lo, hi = 0, T-1
		case gr.Output:
			lo, hi = max(int(first[gi]), 0), T-1
		case first[gi] >= 0:
			lo, hi = int(first[gi]), int(last[gi])
		default:
			continue
		}
		live[lo] = live[lo].plus(size)
		live[hi+1] = live[hi+1].minus(size)
	}
	var liveSum u128
	for t := 0; t < T; t++ {
		liveSum = liveSum.add(live[t])
		var pooled uint64
		if i := order[t]; i >= 0 {
			pooled = pooledIn[i]
		}
		f.standalone[t] = liveSum.sat()
		all := liveSum.plus(uint64(f.pool(t))).sat()
		if f.peakAt < 0 || all > f.peak {
			f.peak, f.peakAt = all, t
		}
		f.noPool = max(f.noPool, liveSum.plus(pooled).sat())
		f.resident = max(f.resident, liveSum.add(poolTotal).sat())
	}
	return f
}

// kernelArg is one kernel argument as the verifier derives it: the group
// and the names the bundle reaches it through, in order of first access.
type kernelArg struct {
	group int32
	names []string
}

// deriveKernelArgs numbers bundle bi's kernel arguments by the rule of
// docs/bundle-ir.md: every group the bundle touches that is neither
// pooled in it nor LX, from 0 in order of first access (ops in step
// order, reads before writes).
func deriveKernelArgs(g *ir.Graph, p *planner.Result, bi int) []kernelArg {
	var out []kernelArg
	index := map[int32]int{}
	seen := map[string]bool{}
	b := &g.Bundles[bi]
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for _, list := range [][]ir.Access{g.Reads(op), g.Writes(op)} {
			for _, a := range list {
				pg := &p.Groups[a.Group]
				if g.Groups[a.Group].LX || (pg.Offset >= 0 && int(pg.Bundle) == bi) {
					continue
				}
				k, ok := index[a.Group]
				if !ok {
					k = len(out)
					index[a.Group] = k
					out = append(out, kernelArg{group: a.Group})
				}
				if name := g.Buffers.At(int(a.Buffer)).Name; !seen[name] {
					seen[name] = true
					out[k].names = append(out[k].names, name)
				}
			}
		}
	}
	return out
}
