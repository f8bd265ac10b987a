package planner

import (
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/ir"
)

// Alternative is what another allocator would need: its pool size for
// every bundle (index as in ir.Graph.Bundles; meaningful where the bundle
// has a pool entry, which does not depend on the allocator), and the
// graph's footprint peak with that allocator's plan (its pools, and its
// over-budget groups standalone).
type Alternative struct {
	Allocator string
	PoolSizes []int64
	PeakBytes int64
}

// Compare plans g once per allocator, with every other option as in opt,
// and records each bundle's pool size. Candidates and live ranges are the
// same for every allocator; only placement, and so the pool size and the
// over-budget set, differ.
func Compare(g *ir.Graph, opt Options, allocs []alloc.Placer) []Alternative {
	out := make([]Alternative, 0, len(allocs))
	for _, a := range allocs {
		o := opt
		o.Allocator = a
		r := Plan(g, o)
		sizes := make([]int64, len(r.Bundles))
		for bi, b := range r.Bundles {
			sizes[bi] = b.PoolSize
		}
		out = append(out, Alternative{Allocator: a.Name, PoolSizes: sizes, PeakBytes: r.Footprint().Peak})
	}
	return out
}
