// Package report turns a checked graph and its pool plan into the answers
// users look for: a per-bundle summary (Stats), the story of one buffer
// (Explain), compiler-style remarks at buffer declarations (Remarks), a
// memory map per bundle (SVG) and stable text dumps of the checked graph
// and of the plan (DumpCheck, DumpPlan).
//
// Every function is pure: it reads an *ir.Graph or a *planner.Result and
// writes to an io.Writer; nothing here touches files, flags or the
// environment. Output is deterministic: slices are walked in model order,
// and wherever something must be sorted, ties break by name.
package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// HumanSize formats a byte count with binary units and one decimal:
// "256 B", "4.0 KiB", "14.0 GiB". Exact bytes are in the plan JSON.
func HumanSize(n int64) string {
	if n > -1024 && n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f := float64(n) / 1024
	i := 0
	for math.Abs(f) >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	// Rounding may reach the next unit (1023.96 KiB prints as 1.0 MiB).
	if math.Abs(f) >= 1023.95 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

// reasonName is the reason code as users read it ("pooled" for the zero
// value).
func reasonName(r planner.Reason) string {
	if r == planner.Pooled {
		return "pooled"
	}
	return r.String()
}

// touchPos is the source position of bundle touch t.
func touchPos(g *ir.Graph, t planner.Touch) ir.Position {
	op := &g.Bundles[t.Bundle].Ops[t.Step]
	return g.Position(g.AccessPos(op.Pos, t.Access))
}

// cpuPos is the source position of CPU touch c.
func cpuPos(g *ir.Graph, c planner.CPUTouch) ir.Position {
	return g.Position(g.AccessPos(g.CPU[c.Node].Pos, c.Index(g)))
}

// groupName is what reports call storage group gi: its root, the one name
// that is not a view of another (bundle-ir.md §2). Sorting still uses
// ir.Graph.GroupKey, the smallest member name, as planning does.
func groupName(g *ir.Graph, gi int) string {
	return g.Str(g.Buffers.At(int(g.Root(&g.Groups[gi]))).Name)
}

// viewPhrase describes buffer bi's place in its storage: "" for the root,
// else "a view of t0's storage" or "a view 2048 bytes into t0's storage".
func viewPhrase(g *ir.Graph, bi int) string {
	b := g.Buffers.At(bi)
	r := g.Root(&g.Groups[b.Group])
	if int(r) == bi {
		return ""
	}
	root := g.Str(g.Buffers.At(int(r)).Name)
	v := g.ViewOf(b).ViewOffset
	if v == 0 {
		return fmt.Sprintf("a view of %s's storage", root)
	}
	return fmt.Sprintf("a view %d bytes into %s's storage", v, root)
}

// coresPhrase describes how an access of op is spread over its cores:
// "" on a one-core op without a cores clause, else "on 4 cores [2, 2],
// split [1024, 2048]" or "on 4 cores, broadcast".
func coresPhrase(g *ir.Graph, op *ir.Op, split []int64) string {
	if g.Cores(op) == nil {
		return ""
	}
	s := fmt.Sprintf("on %d cores", g.NumCores(op))
	if len(g.Cores(op)) > 1 {
		s += " " + int64List(g.Cores(op))
	}
	if split == nil {
		return s + ", broadcast"
	}
	return s + ", split " + int64List(split)
}

// int64List renders [1, 2, 3].
func int64List(a []int64) string {
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// fallbacksOf returns the groups bundle bi touches that are not pooled in
// it, by reason in precedence order; each list is in group (name) order.
func fallbacksOf(p *planner.Result, touched []int32, bi int) [][]int {
	byReason := make([][]int, planner.NumReasons)
	for _, gi := range touched {
		if p.Pooled(int(gi), bi) {
			continue
		}
		r := p.Groups[gi].Reason.Index()
		if r < 0 {
			continue // pooled in another bundle: impossible, a pooled group has one bundle
		}
		byReason[r] = append(byReason[r], int(gi))
	}
	return byReason
}

// opAt names the op at step s of bundle bi.
func opAt(g *ir.Graph, bi, s int) string { return g.Str(g.Bundles[bi].Ops[s].Name) }

// evidence is the one-line justification of group gi's reason, with
// source positions; used by remarks and explain. ix is p.Index().
func evidence(p *planner.Result, ix *planner.Index, gi int) string {
	g := p.Graph
	pg := &p.Groups[gi]
	switch pg.Reason {
	case planner.Pooled:
		return fmt.Sprintf("pooled in bundle %s at offset %d (%s), live at steps %d..%d",
			g.Bundles[pg.Bundle].Name, pg.Offset, HumanSize(g.Groups[gi].Size), pg.Start, pg.End)
	case planner.CPURead:
		for _, c := range ix.CPU(gi) {
			if c.Read {
				return fmt.Sprintf("CPU node %s reads it at %s", g.CPU[c.Node].Name, cpuPos(g, c))
			}
		}
	case planner.NotWritten:
		for _, c := range ix.CPU(gi) {
			if !c.Read {
				return fmt.Sprintf("no bundle writes it (only CPU node %s, at %s)", g.CPU[c.Node].Name, cpuPos(g, c))
			}
		}
		if ts := ix.Touches(gi); len(ts) > 0 {
			t := ts[0]
			return fmt.Sprintf("no bundle writes it; bundle %s only reads it (op %s at %s)",
				g.Bundles[t.Bundle].Name, opAt(g, int(t.Bundle), int(t.Step)), touchPos(g, t))
		}
	case planner.NotRead:
		for _, t := range ix.Touches(gi) {
			if !t.Read {
				return fmt.Sprintf("no node reads it; bundle %s writes it (op %s at %s)",
					g.Bundles[t.Bundle].Name, opAt(g, int(t.Bundle), int(t.Step)), touchPos(g, t))
			}
		}
	case planner.MultiWriter:
		var parts []string
		for _, bi := range ix.Usage(gi).WrittenBy {
			t, _ := ix.First(gi, bi, false)
			parts = append(parts, fmt.Sprintf("%s (op %s at %s)", g.Bundles[bi].Name, opAt(g, bi, int(t.Step)), touchPos(g, t)))
		}
		return fmt.Sprintf("written by %d bundles: %s", len(parts), strings.Join(parts, ", "))
	case planner.CrossBundle:
		u := ix.Usage(gi)
		w := u.WrittenBy[0]
		wt, _ := ix.First(gi, w, false)
		for _, r := range u.ReadBy {
			if r == w {
				continue
			}
			rt, _ := ix.First(gi, r, true)
			return fmt.Sprintf("written by bundle %s (op %s at %s) but read by bundle %s (op %s at %s)",
				g.Bundles[w].Name, opAt(g, w, int(wt.Step)), touchPos(g, wt), g.Bundles[r].Name, opAt(g, r, int(rt.Step)), touchPos(g, rt))
		}
		return fmt.Sprintf("written by bundle %s and read by another bundle", g.Bundles[w].Name)
	case planner.OverBudget:
		pb := &p.Bundles[pg.Bundle]
		return fmt.Sprintf("in bundle %s (steps %d..%d) the allocator could not place %s under the budget of %s (pool size %s, lower bound %s)",
			g.Bundles[pg.Bundle].Name, pg.Start, pg.End, HumanSize(g.Groups[gi].Size), HumanSize(p.Budget),
			HumanSize(pb.PoolSize), lowerHuman(pb.LowerBound))
	}
	// The reasons whose evidence is the same for every group, and the
	// fallbacks of the others, are the table's.
	if pg.Reason.Index() >= 0 {
		return pg.Reason.Info().Evidence
	}
	return pg.Reason.String()
}

// memberList names the members of group gi in their order, root first,
// then the views in declaration order, each view with its offset:
// "t0,t0_hi@2048,v@0" (joined by sep).
func memberList(g *ir.Graph, gi int, sep string) string {
	members := g.Members(&g.Groups[gi])
	parts := []string{g.Str(g.Buffers.At(int(members[0])).Name)}
	for _, m := range members[1:] {
		b := g.Buffers.At(int(m))
		parts = append(parts, fmt.Sprintf("%s@%d", g.Str(b.Name), g.ViewOf(b).ViewOffset))
	}
	return strings.Join(parts, sep)
}

// viewsNote is the SVG tooltip's list of a group's views: "" for a group
// of one name, else "; views hi@2048, w@3072".
func viewsNote(g *ir.Graph, gi int) string {
	if g.Groups[gi].Members.Len < 2 {
		return ""
	}
	list := memberList(g, gi, ", ")
	return "; views " + list[strings.Index(list, ", ")+2:]
}

// addSat is a+b for non-negative byte counts, saturated at MaxInt64.
func addSat(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// saturated says whether a sum of bytes (a lower bound, a total) reached
// MaxInt64: the true value is at least that, and may be more.
func saturated(n int64) bool { return n == math.MaxInt64 }

// lowerBytes is a lower bound in exact bytes, "≥9223372036854775807" when
// it saturated.
func lowerBytes(n int64) string {
	if saturated(n) {
		return "≥" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// lowerHuman is a lower bound in human units, "≥8.0 EiB" when it
// saturated.
func lowerHuman(n int64) string {
	if saturated(n) {
		return "≥" + HumanSize(n)
	}
	return HumanSize(n)
}
