package report

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/planner"
)

// The memory map's fixed geometry, in SVG user units (pixels). The plot
// area is plotWidth x plotHeight with its top-left corner at
// (plotLeft, plotTop); the legend goes below it. The drawing is svgWidth
// wide unless a title or legend line needs more.
const (
	svgWidth   = 1200
	plotLeft   = 100
	plotTop    = 70
	plotHeight = 520
	plotWidth  = 1060

	// minHeight is the least drawn height of a pooled buffer: a buffer
	// whose true height (svgScale.Rect) is smaller is drawn minHeight tall,
	// grown upwards from its offset (downwards from the plot top if it
	// would cross it). Its data-offset and data-size attributes and its
	// tooltip keep the true values.
	minHeight = 4

	// emWidth is the estimated average glyph width, in em, of the
	// sans-serif font the map uses; it decides where a label fits and
	// how wide the drawing must be (bold text counts 10% wider).
	emWidth = 0.6

	labelFont = 11 // px, buffer labels
	maxLegend = 8  // names listed per fallback reason before "and N more"
	maxTicks  = 8  // intervals on the offset axis, at most
)

// textWidth estimates the rendered width of s at font size px.
func textWidth(s string, px float64, bold bool) float64 {
	w := float64(len([]rune(s))) * px * emWidth
	if bold {
		w *= 1.1
	}
	return w
}

// svgScale maps plan coordinates to the plot area of bundle bi's memory map:
//
//	x(step)   = plotLeft + step * plotWidth / steps          (steps >= 1)
//	y(offset) = plotTop + plotHeight - offset * plotHeight / top
//
// where steps is the bundle's step count (1 if it has none) and top is
// max(pool size, lower bound, 1) in bytes. A pooled buffer live at steps
// start..end (inclusive) at offset off with size n is the rectangle
// x = x(start), width = (end-start+1) * plotWidth/steps,
// y = y(off+n), height = n * plotHeight/top.
type svgScale struct {
	Steps int
	Top   int64
}

// ScaleOf returns the scale of bundle bi's memory map.
func scaleOf(p *planner.Result, bi int) svgScale {
	pb := &p.Bundles[bi]
	return svgScale{Steps: max(len(p.Graph.Bundles[bi].Ops), 1), Top: max(pb.PoolSize, pb.LowerBound, 1)}
}

// X is the left edge of step s.
func (s svgScale) X(step int) float64 {
	return plotLeft + float64(step)*plotWidth/float64(s.Steps)
}

// Y is the height of byte offset off.
func (s svgScale) Y(off int64) float64 {
	return plotTop + plotHeight - float64(off)*plotHeight/float64(s.Top)
}

// Rect is the rectangle of a buffer live at steps start..end, at offset
// off with size n.
func (s svgScale) Rect(start, end int, off, n int64) (x, y, w, h float64) {
	x = s.X(start)
	w = float64(end-start+1) * plotWidth / float64(s.Steps)
	y = s.Y(off + n)
	h = float64(n) * plotHeight / float64(s.Top)
	return
}

// Drawn is the rectangle actually drawn for a buffer: Rect, made at least
// minHeight tall (see minHeight).
func (s svgScale) Drawn(start, end int, off, n int64) (x, y, w, h float64) {
	x, y, w, h = s.Rect(start, end, off, n)
	if h < minHeight {
		h = minHeight
		y = max(s.Y(off)-h, plotTop)
	}
	return
}

// realHeight is the height of n bytes by the scale, before minHeight.
func realHeight(s svgScale, n int64) float64 { return float64(n) * plotHeight / float64(s.Top) }

// binaryUnits are the units of the offset axis, 1024^k bytes.
var binaryUnits = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// ticks returns the offset axis interval for a plot of top bytes: the
// smallest m * 10^d * 1024^u bytes (m in 1, 2, 5; m * 10^d < 1024) with
// at most 8 multiples in 1..top, and u (the unit, binaryUnits[u]). The
// ticks are 0 and those multiples: at most 9.
func ticks(top int64) (step int64, u int) {
	unit := int64(1)
	for u = 0; u < len(binaryUnits); u++ {
		for _, m := range []int64{1, 2, 5, 10, 20, 50, 100, 200, 500} {
			if m > math.MaxInt64/unit {
				return m / 2 * unit, u // unreachable for int64 sizes
			}
			if step = m * unit; top/step <= maxTicks {
				return step, u
			}
		}
		unit *= 1024
	}
	return step, u - 1
}

// tickLabel is the label of offset v on an axis whose interval has unit
// index u: v in that unit, an integer.
func tickLabel(v int64, u int) string {
	return strconv.FormatInt(v>>(10*u), 10) + " " + binaryUnits[u]
}

// box is a label's extent, for collision checks.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) hits(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

func hitsAny(b box, placed []box) bool {
	for _, p := range placed {
		if b.hits(p) {
			return true
		}
	}
	return false
}

// plural is "1 step" or "n steps".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// SVG writes the memory map of bundle bi: x is the step, y the pool
// offset (0 at the bottom, ticks at 1-2-5 steps of a binary unit), one
// rectangle per pooled buffer with data-buffer (the storage group's
// name), data-offset and data-size attributes and a <title> tooltip
// (name, size, range, offset, views), at least minHeight tall; the name
// inside the rectangle where it fits (class "l"), else just above or
// below it where the rectangle is wide enough and no other label is in
// the way (class "o"); a dashed line at pool_end (data-line="pool_end"),
// one at the lower bound (data-line="lower_bound") and one at the budget
// (data-line="budget") when the budget is within the plot; and a legend
// listing the buffers the bundle touches that are not pooled in it, by
// reason. Coordinates follow svgScale and are written with two decimals; the
// drawing is at least svgWidth wide and contains every element. The file
// is deterministic and its size is about 235 bytes per pooled buffer.
func SVG(w io.Writer, p *planner.Result, bi int) error {
	g := p.Graph
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	sc := scaleOf(p, bi)

	fallbacks := fallbacksOf(p, touchedBy(g, bi), bi)
	var legend []string
	nFallback := 0
	for r, list := range fallbacks {
		if len(list) == 0 {
			continue
		}
		nFallback += len(list)
		var names []string
		for k, gi := range list {
			if k == maxLegend {
				names = append(names, fmt.Sprintf("and %d more", len(list)-k))
				break
			}
			names = append(names, groupName(g, gi))
		}
		legend = append(legend, fmt.Sprintf("%s (%d): %s", planner.Reasons[r], len(list), strings.Join(names, ", ")))
	}
	pooled := 0
	for _, gi := range pb.Candidates {
		if p.Groups[gi].Offset >= 0 {
			pooled++
		}
	}

	pool := "none"
	if pb.HasPool() {
		pool = HumanSize(pb.PoolSize)
	}
	title := fmt.Sprintf("bundle %s (%s, %s) of graph %s", b.Name, b.Kind, plural(len(b.Ops), "step"), g.Name)
	sub := fmt.Sprintf("pool %s · lower bound %s · %d pooled · %d not pooled · budget %s · allocator %s",
		pool, lowerHuman(pb.LowerBound), pooled, nFallback, HumanSize(p.Budget), p.Allocator)
	head := "not pooled: none"
	if len(legend) > 0 {
		head = "not pooled (touched by this bundle, by reason):"
	}

	// The drawing holds the plot and every title and legend line.
	right := float64(plotLeft + plotWidth)
	right = max(right, plotLeft+textWidth(title, 16, true), plotLeft+textWidth(sub, 12, false), plotLeft+textWidth(head, 12, true))
	for _, line := range legend {
		right = max(right, plotLeft+12+textWidth(line, 12, false))
	}
	width := max(svgWidth, int(math.Ceil(right))+svgWidth-plotLeft-plotWidth) // the plot's right margin
	legendTop := plotTop + plotHeight + 56
	height := legendTop + 20*len(legend) + 14

	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	bw.WriteString(`<style>rect.b{stroke:#333;stroke-width:.6}rect.s{stroke-width:.8}text.l,text.o{font-size:11px;text-anchor:middle;dominant-baseline:central;pointer-events:none}text.o,text.k{paint-order:stroke;stroke:#fff;stroke-width:3px}line.g{stroke:#ddd}</style>` + "\n")
	fmt.Fprintf(bw, `<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>`+"\n", width, height)

	fmt.Fprintf(bw, `<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", plotLeft, esc(title))
	fmt.Fprintf(bw, `<text x="%d" y="46">%s</text>`+"\n", plotLeft, esc(sub))

	// Grid and axes. A bundle without pool and lower bound has no
	// offsets to show.
	if pb.HasPool() || pb.LowerBound > 0 {
		step, u := ticks(sc.Top)
		for off := int64(0); ; off += step {
			y := sc.Y(off)
			fmt.Fprintf(bw, `<line class="g" x1="%d" y1="%s" x2="%d" y2="%s"/><text class="t" x="%d" y="%s" text-anchor="end" dominant-baseline="central">%s</text>`+"\n",
				plotLeft, num(y), plotLeft+plotWidth, num(y), plotLeft-6, num(y), tickLabel(off, u))
			if off > sc.Top-step {
				break
			}
		}
	}
	if len(b.Ops) > 0 {
		every := tickEvery(sc.Steps)
		for s := 0; s < sc.Steps; s += every {
			x := sc.X(s) + plotWidth/float64(sc.Steps)/2
			fmt.Fprintf(bw, `<text x="%s" y="%d" text-anchor="middle">%d</text>`+"\n", num(x), plotTop+plotHeight+16, s)
		}
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle">step</text>`+"\n", plotLeft+plotWidth/2, plotTop+plotHeight+36)
	fmt.Fprintf(bw, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">pool offset</text>`+"\n", plotTop+plotHeight/2)
	fmt.Fprintf(bw, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>`+"\n", plotLeft, plotTop, plotWidth, plotHeight)

	// The line labels, placed first: buffer labels keep clear of them.
	type lineLabel struct {
		name, color, dash, text string
		off                     int64
		x                       float64
		anchor                  string
	}
	var lines []lineLabel
	if pb.HasPool() {
		lines = append(lines,
			lineLabel{"pool_end", "#c00", "6 3", "pool_end " + HumanSize(pb.PoolSize), pb.PoolSize, plotLeft + plotWidth - 4, "end"},
			lineLabel{"lower_bound", "#06c", "2 3", "lower bound " + lowerHuman(pb.LowerBound), pb.LowerBound, plotLeft + 4, "start"})
	}
	if p.Budget <= sc.Top {
		lines = append(lines, lineLabel{"budget", "#080", "10 3 2 3", "budget " + HumanSize(p.Budget), p.Budget, plotLeft + plotWidth/2, "middle"})
	}
	var placed []box
	for _, l := range lines {
		tw := textWidth(l.text, 12, false)
		x0 := map[string]float64{"start": l.x, "middle": l.x - tw/2, "end": l.x - tw}[l.anchor]
		y := sc.Y(l.off) - 4
		placed = append(placed, box{x0, y - 12, x0 + tw, y + 3})
	}

	// Buffers, in allocation order.
	var labels, over strings.Builder
	type thin struct {
		name         string
		x, y, rw, rh float64
	}
	var thins []thin
	for _, gi := range pb.Candidates {
		pg := &p.Groups[gi]
		if pg.Offset < 0 {
			continue
		}
		name := groupName(g, gi)
		size := g.Groups[gi].Size
		x, y, rw, rh := sc.Drawn(int(pg.Start), int(pg.End), pg.Offset, size)
		fill, dark := colors(name)
		// Big rectangles get a dark outline; small ones an outline in a
		// darker shade of their own colour, so that a buffer thinner
		// than a pixel still shows as a hairline.
		class := ` class="b"`
		if rw < 3 || rh < 6 {
			class = ` class="s" stroke="` + dark + `"`
		}
		fmt.Fprintf(bw, `<rect data-buffer="%s" data-offset="%d" data-size="%d"%s x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s: %s (%d bytes), steps %d..%d, offset %d%s</title></rect>`+"\n",
			esc(name), pg.Offset, size, class, num(x), num(y), num(rw), num(rh), fill, esc(name), HumanSize(size), size, pg.Start, pg.End, pg.Offset, esc(viewsNote(g, gi)))
		// A rectangle grown to minHeight reaches into its neighbour's
		// bytes, and a neighbour drawn later would cover that part: a
		// copy on top of all rectangles keeps it whole (only where it
		// is wide enough to be seen: hairlines are not copied).
		if rw >= 3 && rh > realHeight(sc, size) {
			fmt.Fprintf(&over, `<rect class="s" stroke="%s" x="%s" y="%s" width="%s" height="%s" fill="%s" pointer-events="none"/>`+"\n",
				dark, num(x), num(y), num(rw), num(rh), fill)
		}
		tw := textWidth(name, labelFont, false)
		switch {
		case rw >= tw+4 && rh >= labelFont+3:
			fmt.Fprintf(&labels, `<text class="l" x="%s" y="%s">%s</text>`+"\n", num(x+rw/2), num(y+rh/2), esc(name))
			placed = append(placed, box{x + rw/2 - tw/2, y + rh/2 - labelFont/2.0, x + rw/2 + tw/2, y + rh/2 + labelFont/2.0})
		case rw >= tw+4:
			thins = append(thins, thin{name, x, y, rw, rh})
		}
	}
	// Names of rectangles too low for them: just above the rectangle, or
	// else just below it, inside the plot and clear of every other label;
	// otherwise only the tooltip names it.
	for _, t := range thins {
		tw := textWidth(t.name, labelFont, false)
		cx := t.x + t.rw/2
		for _, cy := range []float64{t.y - labelFont/2.0 - 1, t.y + t.rh + labelFont/2.0 + 1} {
			bx := box{cx - tw/2, cy - labelFont/2.0, cx + tw/2, cy + labelFont/2.0}
			if bx.y0 < plotTop || bx.y1 > plotTop+plotHeight || hitsAny(bx, placed) {
				continue
			}
			placed = append(placed, bx)
			fmt.Fprintf(&labels, `<text class="o" x="%s" y="%s">%s</text>`+"\n", num(cx), num(cy), esc(t.name))
			break
		}
	}
	// Grown copies and labels after every rectangle, so none is covered.
	bw.WriteString(over.String())
	bw.WriteString(labels.String())
	if pooled == 0 {
		fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle" fill="#888" font-size="16">no pooled buffers</text>`+"\n",
			plotLeft+plotWidth/2, plotTop+plotHeight/2)
	}

	// pool_end, lower bound and budget.
	for _, l := range lines {
		y := sc.Y(l.off)
		fmt.Fprintf(bw, `<line data-line="%s" x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`+"\n",
			l.name, plotLeft, num(y), plotLeft+plotWidth, num(y), l.color, l.dash)
		fmt.Fprintf(bw, `<text class="k" x="%s" y="%s" text-anchor="%s" fill="%s">%s</text>`+"\n",
			num(l.x), num(y-4), l.anchor, l.color, l.text)
	}

	// Legend.
	fmt.Fprintf(bw, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", plotLeft, legendTop, head)
	for k, line := range legend {
		fmt.Fprintf(bw, `<text data-reason="%s" x="%d" y="%d">%s</text>`+"\n", esc(line[:strings.IndexByte(line, ' ')]), plotLeft+12, legendTop+20*(k+1), esc(line))
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// tickEvery picks a step-label interval (1, 2, 5, 10, 20, 50, ...) that
// keeps at most 25 labels on the x axis.
func tickEvery(steps int) int {
	for base := 1; ; base *= 10 {
		for _, m := range []int{1, 2, 5} {
			if steps/(base*m) < 25 {
				return base * m
			}
		}
	}
}

// num formats a coordinate with at most two decimals.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// colors is a stable pastel fill derived from the buffer name, and a
// darker shade of it for outlines, as #rrggbb.
func colors(name string) (fill, dark string) {
	h := fnv.New32a()
	h.Write([]byte(name))
	v := h.Sum32()
	hue, sat, light := float64(v%360), float64(45+(v>>9)%25)/100, float64(68+(v>>17)%12)/100
	return hsl(hue, sat, light), hsl(hue, sat, light-0.3)
}

// hsl converts a colour to #rrggbb (hue in degrees, s and l in 0..1).
func hsl(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round((r+m)*255)), int(math.Round((g+m)*255)), int(math.Round((b+m)*255)))
}

// esc escapes text for XML content and attribute values.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
