package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// explainTop is how many of the largest groups live at a bundle's
// position ExplainBundle lists.
const explainTop = 10

// explainBundle writes the HBM story of bundle bi: where it is on the
// graph's timeline, the HBM live there (standalone groups and its pool),
// the largest groups live there with the reason each is not pooled, and
// what pooling could still take from the bundle.
func explainBundle(w io.Writer, p *planner.Result, bi int) error {
	g := p.Graph
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	f := p.Footprint()
	t := f.Position(bi)
	bw := bufio.NewWriter(w)

	fmt.Fprintf(bw, "bundle %s: %s, %s, declared at %s; position %d of %d in the graph\n",
		b.Name, b.Kind, count(len(b.Ops), "step"), g.Position(b.Pos), t, len(f.Nodes))
	hbm := f.HBM(t)
	fmt.Fprintf(bw, "HBM at its position: %s = %s standalone + %s pool\n", sizeBytes(hbm), sizeBytes(f.Standalone[t]), sizeBytes(f.Pool(t)))
	if t == f.PeakPosition {
		fmt.Fprintf(bw, "  this is the graph's peak\n")
	} else {
		fmt.Fprintf(bw, "  the graph's peak is %s at %s (position %d)\n", sizeBytes(f.Peak), planner.NodeName(g, f.Nodes[f.PeakPosition]), f.PeakPosition)
	}

	// The bundle's own groups: pooled ones and its candidates.
	var pooledBytes int64
	pooled, over := 0, 0
	var overBytes int64
	for _, gi := range p.Candidates(bi) {
		if p.Groups[gi].Offset >= 0 {
			pooled++
			pooledBytes = addSat(pooledBytes, g.Groups[gi].Size)
		} else {
			over++
			overBytes = addSat(overBytes, g.Groups[gi].Size)
		}
	}
	if pb.HasPool() {
		fmt.Fprintf(bw, "pool: %s for %s of %s; lower bound %s\n", sizeBytes(pb.PoolSize), count(pooled, "pooled group"), sizeBytes(pooledBytes), sizeBytes(pb.LowerBound))
	} else {
		fmt.Fprintf(bw, "pool: none (no candidate)\n")
	}

	// The standalone groups live here, largest first, ties by name.
	var live []int
	var liveBytes int64
	touchedHere := make(map[int]bool)
	for oi := range b.Ops {
		for _, a := range g.OpAccesses(&b.Ops[oi]) {
			touchedHere[int(g.GroupOf(&a))] = true
		}
	}
	for gi := range g.Groups {
		if f.Live(gi, t) {
			live = append(live, gi)
			liveBytes = addSat(liveBytes, g.Groups[gi].Size)
		}
	}
	sort.Slice(live, func(i, j int) bool {
		a, b := g.Groups[live[i]].Size, g.Groups[live[j]].Size
		if a != b {
			return a > b
		}
		return groupName(g, live[i]) < groupName(g, live[j])
	})
	shown := live[:min(len(live), explainTop)]
	ix := p.Index()
	fmt.Fprintf(bw, "standalone groups live here: %s, %s\n", count(len(live), "group"), sizeBytes(liveBytes))
	args := map[int32]int{}
	for n, ka := range p.KernelArgs(bi) {
		args[ka.Group] = n
	}
	for _, gi := range shown {
		where := "not touched by this bundle, live from its first to its last touch"
		if n, ok := args[int32(gi)]; ok {
			where = fmt.Sprintf("kernel argument %%arg_%d", n)
		} else if c := g.GroupClaims[gi]; c.Has(ir.ClaimInput) || c.Has(ir.ClaimOutput) {
			where = "not touched by this bundle, live to the end as a graph input or output"
		}
		fmt.Fprintf(bw, "  %s: %s [%s]: %s; %s\n", groupName(g, gi), sizeBytes(g.Groups[gi].Size),
			p.Groups[gi].Reason, evidence(p, ix, gi), where)
	}
	if rest := len(live) - len(shown); rest > 0 {
		var restBytes int64
		for _, gi := range live[len(shown):] {
			restBytes = addSat(restBytes, g.Groups[gi].Size)
		}
		fmt.Fprintf(bw, "  and %d more: %s\n", rest, sizeBytes(restBytes))
	}

	// What pooling could still take.
	fmt.Fprintf(bw, "what pooling could still take here:\n")
	slack := int64(0)
	if pb.HasPool() && !saturated(pb.LowerBound) {
		slack = max(pb.PoolSize-pb.LowerBound, 0)
	}
	fmt.Fprintf(bw, "  a tighter placement: %s (pool size less the lower bound: at most what a better placement saves; try --allocator best)\n", sizeBytes(slack))
	fmt.Fprintf(bw, "  a larger budget: %s, %s (the over-budget candidates, standalone now)\n", count(over, "group"), sizeBytes(overBytes))
	if p.Disabled {
		fmt.Fprintf(bw, "  planning is off (--no-pool or HBM_POOL_PLANNING=0): every group is standalone\n")
	}
	// The rest of the standalone bytes live here, by reason: what the
	// per-bundle pool rules keep out of any pool.
	byReason := make([]int64, planner.NumReasons)
	for _, gi := range live {
		if r := p.Groups[gi].Reason; r != planner.OverBudget || int(p.Groups[gi].Bundle) != bi {
			if k := r.Index(); k >= 0 {
				byReason[k] = addSat(byReason[k], g.Groups[gi].Size)
			}
		}
	}
	var parts []string
	for k, n := range byReason {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", planner.Reasons()[k], n))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(bw, "  out of reach of a per-bundle pool (bytes live here by reason): %s\n", strings.Join(parts, ", "))
	}
	return bw.Flush()
}

// bundleIndex is the index of the bundle called name, or -1.
func bundleIndex(p *planner.Result, name string) int {
	for bi := range p.Graph.Bundles {
		if p.Graph.Bundles[bi].Name == name {
			return bi
		}
	}
	return -1
}
