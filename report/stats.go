package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdscgen/sdscgen/planner"
)

// dash marks a value that does not exist (no pool, no lower bound).
const dash = "—"

// Stats writes the per-bundle summary table:
//
//	bundle    steps  candidates  pooled  pool size  lower bound  ratio  budget  fallbacks
//	mm_block      3           1       1      256 B        256 B   1.00   <0.1%  graph-input 1, ...
//
// One row per bundle in graph order, then a total row. Counts are storage
// groups (a buffer with its aliases). "fallbacks" lists, by reason in
// precedence order, the groups the bundle touches that are not pooled in
// it (so a graph input read by three bundles counts in each of their
// rows); the total row counts every non-pooled group of the graph once,
// including the ones no bundle touches. ratio is pool size / lower bound
// (— when the lower bound is 0); budget is the pool's share of the
// per-bundle budget. The total row sums steps, counts and sizes; its
// budget share is the largest of the bundles'. Byte sums never wrap: a
// lower bound or total that reached MaxInt64 prints as "≥8.0 EiB" and its
// ratio as a limit (see ratio).
func Stats(w io.Writer, p *planner.Result) error {
	g := p.Graph
	bw := bufio.NewWriter(w)
	state := "allocator " + p.Allocator
	if p.Disabled {
		state = "pool planning off"
	}
	fmt.Fprintf(bw, "graph %s: %s in %s, %s; %s, budget %s (%d bytes) per bundle\n",
		g.Name, count(len(g.Buffers), "buffer"), count(len(g.Groups), "storage group"), count(len(g.Bundles), "bundle"),
		state, HumanSize(p.Budget), p.Budget)

	header := []string{"bundle", "steps", "candidates", "pooled", "pool size", "lower bound", "ratio", "budget", "fallbacks"}
	rightAligned := []bool{false, true, true, true, true, true, true, true, false}
	rows := [][]string{header}

	touched := touchedGroups(g)
	var tSteps, tCands, tPooled int
	var tPool, tLower int64
	maxShare := -1.0
	for bi, b := range g.Bundles {
		pb := &p.Bundles[bi]
		pooled := 0
		for _, gi := range pb.Candidates {
			if p.Groups[gi].Offset >= 0 {
				pooled++
			}
		}
		pool, share := dash, dash
		if pb.HasPool() {
			pool = HumanSize(pb.PoolSize)
			tPool = addSat(tPool, pb.PoolSize)
			if p.Budget > 0 {
				s := float64(pb.PoolSize) / float64(p.Budget) * 100
				share = percent(s)
				maxShare = max(maxShare, s)
			}
		}
		rows = append(rows, []string{b.Name, strconv.Itoa(len(b.Ops)), strconv.Itoa(len(pb.Candidates)),
			strconv.Itoa(pooled), pool, lowerHuman(pb.LowerBound), ratio(pb.PoolSize, pb.LowerBound), share,
			reasonCounts(fallbacksOf(p, touched[bi], bi))})
		tSteps += len(b.Ops)
		tCands += len(pb.Candidates)
		tPooled += pooled
		tLower = addSat(tLower, pb.LowerBound)
	}
	all := make([][]int, len(planner.Reasons))
	for gi := range p.Groups {
		if r := p.Groups[gi].Reason.Index(); r >= 0 {
			all[r] = append(all[r], gi)
		}
	}
	tShare := dash
	if maxShare >= 0 {
		tShare = percent(maxShare)
	}
	rows = append(rows, []string{"total", strconv.Itoa(tSteps), strconv.Itoa(tCands), strconv.Itoa(tPooled),
		lowerHuman(tPool), lowerHuman(tLower), ratio(tPool, tLower), tShare, reasonCounts(all)})

	writeTable(bw, rows, rightAligned, len(rows)-1)
	return bw.Flush()
}

// reasonCounts renders "cross-bundle 2, graph-input 1" in precedence
// order, or "-" when there is nothing.
func reasonCounts(byReason [][]int) string {
	var parts []string
	for r, list := range byReason {
		if len(list) > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", planner.Reasons[r], len(list)))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// ratio is pool/lower with two decimals; — when lower is 0. Sums that
// saturated at MaxInt64 are only known to be at least that: a saturated
// lower bound makes the ratio an upper limit ("≤0.50"), a saturated pool
// total a lower limit, and both saturated leave nothing known (—).
func ratio(pool, lower int64) string {
	switch {
	case lower == 0 || saturated(pool) && saturated(lower):
		return dash
	case saturated(lower):
		return "≤" + fmt.Sprintf("%.2f", float64(pool)/float64(lower))
	case saturated(pool):
		return "≥" + fmt.Sprintf("%.2f", float64(pool)/float64(lower))
	}
	return fmt.Sprintf("%.2f", float64(pool)/float64(lower))
}

func percent(s float64) string {
	if s > 0 && s < 0.05 {
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", s)
}

// writeTable writes rows with columns padded to their widest cell (in
// runes), two spaces apart; a rule goes above row ruleBefore (the total).
// The last column is not padded.
func writeTable(w *bufio.Writer, rows [][]string, right []bool, ruleBefore int) {
	n := len(rows[0])
	width := make([]int, n)
	for _, r := range rows {
		for c, cell := range r {
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	// The rule spans every column but the ragged last one, and that
	// column's header.
	total := utf8.RuneCountInString(rows[0][n-1])
	for c := 0; c < n-1; c++ {
		total += width[c] + 2
	}
	for i, r := range rows {
		if i == ruleBefore {
			w.WriteString(strings.Repeat("-", total))
			w.WriteByte('\n')
		}
		var line strings.Builder
		for c, cell := range r {
			if c > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			switch {
			case right[c]:
				line.WriteString(pad + cell)
			case c == n-1:
				line.WriteString(cell)
			default:
				line.WriteString(cell + pad)
			}
		}
		w.WriteString(strings.TrimRight(line.String(), " "))
		w.WriteByte('\n')
	}
}

// count renders "1 bundle", "3 bundles".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
