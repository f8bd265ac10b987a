package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

// dash marks a value that does not exist (no pool, no lower bound).
const dash = "—"

// Stats writes the graph's summary, its footprint and two per-bundle
// tables:
//
//	graph small: ...
//	footprint: peak 256.5 KiB (262656 bytes) at bundle mlp (position 0 of 3)
//	  no pooling ...: pooling saves ...; resident pools ...: per-bundle pools save ...
//	bundle    steps  candidates  pooled  pool size  lower bound  ratio  budget  fallbacks
//	mm_block      3           1       1      256 B        256 B   1.00   <0.1%  graph-input 1, ...
//
//	bytes outside the pools  graph-input  ...  outside pool  pooled groups  pool size
//	mm_block                        8704  ...         12800            256        256
//
// The footprint line is planner.Footprint's: the peak HBM over the
// graph's nodes and where it is, the two baselines (no pooling, every
// pool resident), and what per-bundle pooling saves against each.
//
// The first table has one row per bundle in graph order, then, when
// there are any, a row "(no bundle)" for the non-pooled groups no bundle
// touches, then a total row. Counts are storage groups (a buffer with its
// aliases). "fallbacks" lists, by reason in precedence order, the groups
// the row's bundle touches that are not pooled in it (so a graph input
// read by three bundles counts in each of their rows). Every column of
// the total row is the sum of the rows above it (so a group counts once
// per bundle that touches it). ratio is pool size / lower bound (— when
// the lower bound is 0); budget is the pool's share of the per-bundle
// budget, and the total's is the largest of the bundles'. Byte sums never
// wrap: a lower bound or total that reached MaxInt64 prints as "≥8.0 EiB"
// and its ratio as a limit (see ratio).
//
// The second table gives the same groups in exact bytes (a group's size
// once per row it is in): one column per reason that occurs, "outside
// pool" their sum, then the bytes of the groups pooled in the bundle and
// its pool size. Its total row is the sum of the rows too.
//
// "sdsc files" is how many SDSC files the bundle's ops name (each op its
// own with the cache off, sdscCache false), "reusing" how many ops name
// an earlier op's file (docs/bundle-ir.md 4.5.1; mlirgen.SDSCFiles
// decides).
func Stats(w io.Writer, p *planner.Result, sdscCache bool) error {
	g := p.Graph
	bw := bufio.NewWriter(w)
	state := "allocator " + p.Allocator
	if p.Disabled {
		state = "pool planning off"
	}
	fmt.Fprintf(bw, "graph %s: %s in %s, %s; %s, budget %s (%d bytes) per bundle\n",
		g.Name, count(g.Buffers.Len(), "buffer"), count(len(g.Groups), "storage group"), count(len(g.Bundles), "bundle"),
		state, HumanSize(p.Budget), p.Budget)
	bw.WriteString(footprintLine(p, p.Footprint()))

	header := []string{"bundle", "steps", "sdsc files", "reusing", "candidates", "pooled", "pool size", "lower bound", "ratio", "budget", "fallbacks"}
	rightAligned := []bool{false, true, true, true, true, true, true, true, true, true, false}
	rows := [][]string{header}

	ix := p.Index()
	var tSteps, tFiles, tCands, tPooled int
	var tPool, tLower int64
	maxShare := -1.0
	// byRow[k] is row k's non-pooled groups by reason (bundles, then
	// the groups no bundle touches); pooledBytes[k] the bytes of the
	// groups pooled in bundle k.
	var byRow [][][]int
	pooledBytes := make([]int64, len(g.Bundles))
	for bi, b := range g.Bundles {
		pb := &p.Bundles[bi]
		pooled := 0
		for _, gi := range p.Candidates(bi) {
			if p.Groups[gi].Offset >= 0 {
				pooled++
				pooledBytes[bi] = addSat(pooledBytes[bi], g.Groups[gi].Size)
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
		fb := fallbacksOf(p, ix.Groups(bi), bi)
		byRow = append(byRow, fb)
		files := sdscFileCount(p, bi, sdscCache)
		tFiles += files
		rows = append(rows, []string{b.Name, strconv.Itoa(len(b.Ops)), strconv.Itoa(files), strconv.Itoa(len(b.Ops) - files), strconv.Itoa(int(pb.Candidates.Len)),
			strconv.Itoa(pooled), pool, lowerHuman(pb.LowerBound), ratio(pb.PoolSize, pb.LowerBound), share,
			reasonCounts(fb)})
		tSteps += len(b.Ops)
		tCands += int(pb.Candidates.Len)
		tPooled += pooled
		tLower = addSat(tLower, pb.LowerBound)
	}
	untouched := untouchedFallbacks(p, ix)
	names := make([]string, 0, len(g.Bundles)+1)
	for _, b := range g.Bundles {
		names = append(names, b.Name)
	}
	if untouched != nil {
		byRow = append(byRow, untouched)
		names = append(names, noBundle)
		rows = append(rows, []string{noBundle, "", "", "", "", "", "", "", "", "", reasonCounts(untouched)})
	}
	all := make([][]int, planner.NumReasons)
	for _, fb := range byRow {
		for r, list := range fb {
			all[r] = append(all[r], list...)
		}
	}
	tShare := dash
	if maxShare >= 0 {
		tShare = percent(maxShare)
	}
	rows = append(rows, []string{"total", strconv.Itoa(tSteps), strconv.Itoa(tFiles), strconv.Itoa(tSteps - tFiles), strconv.Itoa(tCands), strconv.Itoa(tPooled),
		lowerHuman(tPool), lowerHuman(tLower), ratio(tPool, tLower), tShare, reasonCounts(all)})
	writeTable(bw, rows, rightAligned, len(rows)-1)

	bw.WriteByte('\n')
	writeTable(bw, byteRows(p, names, byRow, pooledBytes), nil, len(byRow)+1)
	return bw.Flush()
}

// sdscFileCount is how many SDSC files bundle bi's ops name.
func sdscFileCount(p *planner.Result, bi int, cache bool) int {
	n := 0
	for k, u := range mlirgen.SDSCFiles(p, bi, cache) {
		if int(u.First) == k {
			n++
		}
	}
	return n
}

// noBundle names the stats rows of the groups no bundle touches.
const noBundle = "(no bundle)"

// untouchedFallbacks lists by reason the non-pooled groups that no
// bundle touches (inputs nobody reads, groups only CPU nodes touch,
// unused ones); nil when there are none.
func untouchedFallbacks(p *planner.Result, ix *planner.Index) [][]int {
	var out [][]int
	for gi := range p.Groups {
		if r := p.Groups[gi].Reason.Index(); r >= 0 && len(ix.Touches(gi)) == 0 {
			if out == nil {
				out = make([][]int, planner.NumReasons)
			}
			out[r] = append(out[r], gi)
		}
	}
	return out
}

// byteRows is the bytes table: per row of byRow (named by names), the
// bytes of its groups by reason (a column per reason that occurs in any
// row), their sum, and for a bundle the bytes of its pooled groups and
// its pool size; then the total of every column.
func byteRows(p *planner.Result, names []string, byRow [][][]int, pooledBytes []int64) [][]string {
	g := p.Graph
	var cols []int // reason indices with a group in some row
	for r := range planner.Reasons() {
		for _, fb := range byRow {
			if len(fb[r]) > 0 {
				cols = append(cols, r)
				break
			}
		}
	}
	header := []string{"bytes outside the pools"}
	for _, r := range cols {
		header = append(header, planner.Reasons()[r].String())
	}
	header = append(header, "outside pool", "pooled groups", "pool size")
	rows := [][]string{header}
	totals := make([]int64, len(cols)+3)
	for k, fb := range byRow {
		row := []string{names[k]}
		var sum int64
		for c, r := range cols {
			var n int64
			for _, gi := range fb[r] {
				n = addSat(n, g.Groups[gi].Size)
			}
			sum = addSat(sum, n)
			totals[c] = addSat(totals[c], n)
			row = append(row, lowerBytes(n))
		}
		totals[len(cols)] = addSat(totals[len(cols)], sum)
		row = append(row, lowerBytes(sum))
		if k < len(g.Bundles) {
			pool := int64(0)
			if pb := &p.Bundles[k]; pb.HasPool() {
				pool = pb.PoolSize
			}
			totals[len(cols)+1] = addSat(totals[len(cols)+1], pooledBytes[k])
			totals[len(cols)+2] = addSat(totals[len(cols)+2], pool)
			row = append(row, lowerBytes(pooledBytes[k]), strconv.FormatInt(pool, 10))
		} else {
			row = append(row, "", "")
		}
		rows = append(rows, row)
	}
	total := []string{"total"}
	for _, n := range totals {
		total = append(total, lowerBytes(n))
	}
	return append(rows, total)
}

// footprintLine is the stats line of the graph's footprint.
func footprintLine(p *planner.Result, f *planner.Footprint) string {
	if f.PeakPosition < 0 {
		return "footprint: no nodes, peak 0 B\n"
	}
	at := planner.NodeName(p.Graph, f.Nodes[f.PeakPosition])
	kind := "bundle"
	if f.Nodes[f.PeakPosition].CPU {
		kind = "CPU node"
	}
	return fmt.Sprintf("footprint: peak %s at %s %s (position %d of %d)\n"+
		"  no pooling %s: pooling saves %s; resident pools %s: per-bundle pools save %s\n",
		sizeBytes(f.Peak), kind, at, f.PeakPosition, len(f.Nodes), sizeBytes(f.NoPoolingPeak), saving(f.NoPoolingPeak, f.Peak),
		sizeBytes(f.ResidentPoolsPeak), saving(f.ResidentPoolsPeak, f.Peak))
}

// sizeBytes is "1.0 KiB (1024 bytes)".
func sizeBytes(n int64) string {
	return fmt.Sprintf("%s (%s bytes)", lowerHuman(n), lowerBytes(n))
}

// saving is how much below base the peak is: "64.0 KiB (20.0%)".
func saving(base, peak int64) string {
	d := base - peak
	if saturated(base) || saturated(peak) {
		return dash
	}
	pct := 0.0
	if base > 0 {
		pct = float64(d) / float64(base) * 100
	}
	return fmt.Sprintf("%s (%.1f%%)", HumanSize(d), pct)
}

// reasonCounts renders "cross-bundle 2, graph-input 1" in precedence
// order, or "-" when there is nothing.
func reasonCounts(byReason [][]int) string {
	var parts []string
	for r, list := range byReason {
		if len(list) > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", planner.Reasons()[r], len(list)))
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
// The last column is not padded. right says which columns are right-
// aligned; nil means all but the first.
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
			case right == nil && c > 0 || right != nil && right[c]:
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
