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
// from per-position changes (a group adds its size where it becomes live
// and takes it back after its last position), in 64 bits when the
// standalone groups' sizes add up to less than 2^63 and in 128 otherwise
// (modulo 2^128), then saturated. The changes are kept per position, not
// per group, so that a graph of a million groups and a thousand nodes
// costs the verifier an array of a thousand sums (a list of events, two
// per group, held 48 MB there). What it keeps is 12 bytes a position
// (without fusion a million ops are a million positions): the node and
// the standalone bytes there; a node's name, kind and pool bytes are read
// from the graph and the plan.
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
	order := make([]int32, 0, len(g.Bundles)+len(g.CPU))
	for i := range g.Bundles {
		order = append(order, int32(i))
	}
	for i := range g.CPU {
		order = append(order, ^int32(i))
	}
	// Text order; on equal positions (hand-built graphs) bundles first,
	// each list keeping its own order. The nodes are sorted as they are
	// kept, 4 bytes each, their positions read from the graph.
	pos := func(i int32) ir.Pos {
		if i < 0 {
			return g.CPU[^i].Pos
		}
		return g.Bundles[i].Pos
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		pa, pb := pos(a), pos(b)
		if pa.Line != pb.Line {
			return int(pa.Line) - int(pb.Line)
		}
		if pa.Col != pb.Col {
			return int(pa.Col) - int(pb.Col)
		}
		switch ac, bc := a < 0, b < 0; {
		case ac == bc:
			return 0
		case ac:
			return 1
		}
		return -1
	})
	T := len(order)
	f := &footprint{g: g, p: p, nodes: order, standalone: make([]int64, T), peakAt: -1}
	first := make([]int32, len(g.Groups))
	last := make([]int32, len(g.Groups))
	for i := range first {
		first[i], last[i] = -1, -1
	}
	var poolTotal u128
	touch := func(accs []ir.Access, t int32) {
		for i := range accs {
			gi := groupOf(g, &accs[i])
			if first[gi] == -1 {
				first[gi] = t
			}
			if t > last[gi] {
				last[gi] = t
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
	// Each group live on its own: its inclusive range of positions, or
	// ok false. pooledIn[b]: for the no-pooling baseline, the bytes of
	// the groups pooled in bundle b, live at b's position only
	// (saturated at MaxInt64, which the baseline's sum saturates at
	// anyway).
	pooledIn := make([]uint64, len(g.Bundles))
	pooled := func(gi int) bool {
		pg := &p.Groups[gi]
		return !g.GroupClaims[gi].Has(ir.ClaimLX) && pg.Offset >= 0 && pg.Bundle >= 0
	}
	standaloneRange := func(gi int) (lo, hi int, ok bool) {
		claims := g.GroupClaims[gi]
		switch {
		case claims.Has(ir.ClaimLX) || T == 0 || pooled(gi):
			return 0, 0, false
		case claims.Has(ir.ClaimInput):
			return 0, T - 1, true
		case claims.Has(ir.ClaimOutput):
			return max(int(first[gi]), 0), T - 1, true
		case first[gi] >= 0:
			return int(first[gi]), int(last[gi]), true
		}
		return 0, 0, false
	}
	var total u128
	for gi := range g.Groups {
		size := uint64(g.Groups[gi].Size)
		if pooled(gi) {
			b := p.Groups[gi].Bundle
			pooledIn[b] = min(pooledIn[b]+size, math.MaxInt64)
		} else if _, _, ok := standaloneRange(gi); ok {
			total = total.plus(size)
		}
	}
	// The standalone bytes per position, saturated, from per-position
	// changes (a group adds its size where it becomes live and takes it
	// back after its last position). When all the standalone groups
	// together are under 2^63 bytes, as in every real graph, no sum
	// overflows and the changes are summed in place in f.standalone (8
	// bytes a position, where 128-bit changes took 16 more, 16 MB of
	// the fusion-off million-op run's peak); otherwise in 128 bits.
	if total.hi == 0 && total.lo <= math.MaxInt64 {
		d := f.standalone
		for gi := range g.Groups {
			if lo, hi, ok := standaloneRange(gi); ok {
				d[lo] += g.Groups[gi].Size
				if hi+1 < T {
					d[hi+1] -= g.Groups[gi].Size
				}
			}
		}
		for t := 1; t < T; t++ {
			d[t] += d[t-1]
		}
	} else {
		live := make([]u128, T+1)
		for gi := range g.Groups {
			if lo, hi, ok := standaloneRange(gi); ok {
				live[lo] = live[lo].plus(uint64(g.Groups[gi].Size))
				live[hi+1] = live[hi+1].minus(uint64(g.Groups[gi].Size))
			}
		}
		var sum u128
		for t := range T {
			sum = sum.add(live[t])
			f.standalone[t] = sum.sat()
		}
	}
	// Adding to a saturated standalone sum saturates as adding to the
	// exact one would.
	for t := range T {
		standalone := u128{0, uint64(f.standalone[t])}
		var baseline uint64 // the pooled bytes at t, standalone without pooling
		if i := order[t]; i >= 0 {
			baseline = pooledIn[i]
		}
		all := standalone.plus(uint64(f.pool(t))).sat()
		if f.peakAt < 0 || all > f.peak {
			f.peak, f.peakAt = all, t
		}
		f.noPool = max(f.noPool, standalone.plus(baseline).sat())
		f.resident = max(f.resident, standalone.add(poolTotal).sat())
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
				gi := groupOf(g, &a)
				pg := &p.Groups[gi]
				if g.GroupClaims[gi].Has(ir.ClaimLX) || (pg.Offset >= 0 && int(pg.Bundle) == bi) {
					continue
				}
				k, ok := index[gi]
				if !ok {
					k = len(out)
					index[gi] = k
					out = append(out, kernelArg{group: gi})
				}
				if name := g.Str(g.Buffers.At(int(a.Buffer)).Name); !seen[name] {
					seen[name] = true
					out[k].names = append(out[k].names, name)
				}
			}
		}
	}
	return out
}
