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
type footprint struct {
	names      []string
	cpu        []bool
	standalone []int64
	pool       []int64
	peak       int64
	peakAt     int // -1: no nodes
	noPool     int64
	resident   int64
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
	type node struct {
		pos ir.Pos
		cpu bool
		i   int
	}
	nodes := make([]node, 0, len(g.Bundles)+len(g.CPU))
	for i := range g.Bundles {
		nodes = append(nodes, node{g.Bundles[i].Pos, false, i})
	}
	for i := range g.CPU {
		nodes = append(nodes, node{g.CPU[i].Pos, true, i})
	}
	// Text order; on equal positions (hand-built graphs) bundles first,
	// each list keeping its own order.
	slices.SortStableFunc(nodes, func(a, b node) int {
		if a.pos.Line != b.pos.Line {
			return int(a.pos.Line) - int(b.pos.Line)
		}
		if a.pos.Col != b.pos.Col {
			return int(a.pos.Col) - int(b.pos.Col)
		}
		switch {
		case a.cpu == b.cpu:
			return 0
		case a.cpu:
			return 1
		}
		return -1
	})
	T := len(nodes)
	f := &footprint{names: make([]string, T), cpu: make([]bool, T), standalone: make([]int64, T), pool: make([]int64, T), peakAt: -1}
	first := make([]int32, len(g.Groups))
	last := make([]int32, len(g.Groups))
	for i := range first {
		first[i], last[i] = -1, -1
	}
	bundleAt := make([]int, len(g.Bundles))
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
	for t, n := range nodes {
		if n.cpu {
			c := &g.CPU[n.i]
			f.names[t], f.cpu[t] = c.Name, true
			touch(g.CPUAccesses(c), int32(t))
			continue
		}
		b := &g.Bundles[n.i]
		f.names[t] = b.Name
		bundleAt[n.i] = t
		for oi := range b.Ops {
			touch(g.Reads(&b.Ops[oi]), int32(t))
			touch(g.Writes(&b.Ops[oi]), int32(t))
		}
		if pb := &p.Bundles[n.i]; len(pb.Candidates) > 0 {
			f.pool[t] = pb.PoolSize
			poolTotal = poolTotal.plus(uint64(pb.PoolSize))
		}
	}
	// live[t] and pooled[t]: what changes at position t, for the
	// standalone groups and (for the no-pooling baseline) the pooled
	// ones.
	live := make([]u128, T+1)
	pooled := make([]u128, T+1)
	span := func(d []u128, lo, hi int, size uint64) {
		d[lo] = d[lo].plus(size)
		d[hi+1] = d[hi+1].minus(size)
	}
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		if gr.LX || T == 0 {
			continue
		}
		size := uint64(gr.Size)
		if pg := &p.Groups[gi]; pg.Offset >= 0 && pg.Bundle >= 0 {
			t := bundleAt[pg.Bundle]
			span(pooled, t, t, size)
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
		span(live, lo, hi, size)
	}
	var liveSum, pooledSum u128
	for t := 0; t < T; t++ {
		liveSum = liveSum.add(live[t])
		pooledSum = pooledSum.add(pooled[t])
		f.standalone[t] = liveSum.sat()
		all := liveSum.plus(uint64(f.pool[t])).sat()
		if f.peakAt < 0 || all > f.peak {
			f.peak, f.peakAt = all, t
		}
		f.noPool = max(f.noPool, liveSum.add(pooledSum).sat())
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
