package report

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/planner"
)

// The memory map's fixed geometry, in SVG user units (pixels). The plot
// area is PlotWidth x PlotHeight with its top-left corner at
// (PlotLeft, PlotTop); the legend goes below it.
const (
	SVGWidth   = 1200
	PlotLeft   = 100
	PlotTop    = 70
	PlotWidth  = 1060
	PlotHeight = 520

	labelFont = 11  // px, buffer labels
	charWidth = 6.6 // px, a generous average glyph width at labelFont
	maxLegend = 8   // names listed per fallback reason before "and N more"
)

// Scale maps plan coordinates to the plot area of bundle bi's memory map:
//
//	x(step)   = PlotLeft + step * PlotWidth / steps          (steps >= 1)
//	y(offset) = PlotTop + PlotHeight - offset * PlotHeight / top
//
// where steps is the bundle's step count (1 if it has none) and top is
// max(pool size, lower bound, 1) in bytes. A pooled buffer live at steps
// start..end (inclusive) at offset off with size n is the rectangle
// x = x(start), width = (end-start+1) * PlotWidth/steps,
// y = y(off+n), height = n * PlotHeight/top.
type Scale struct {
	Steps int
	Top   int64
}

// ScaleOf returns the scale of bundle bi's memory map.
func ScaleOf(p *planner.Result, bi int) Scale {
	pb := &p.Bundles[bi]
	return Scale{Steps: max(len(p.Graph.Bundles[bi].Ops), 1), Top: max(pb.PoolSize, pb.LowerBound, 1)}
}

// X is the left edge of step s.
func (s Scale) X(step int) float64 {
	return PlotLeft + float64(step)*PlotWidth/float64(s.Steps)
}

// Y is the height of byte offset off.
func (s Scale) Y(off int64) float64 {
	return PlotTop + PlotHeight - float64(off)*PlotHeight/float64(s.Top)
}

// Rect is the rectangle of a buffer live at steps start..end, at offset
// off with size n.
func (s Scale) Rect(start, end int, off, n int64) (x, y, w, h float64) {
	x = s.X(start)
	w = float64(end-start+1) * PlotWidth / float64(s.Steps)
	y = s.Y(off + n)
	h = float64(n) * PlotHeight / float64(s.Top)
	return
}

// SVG writes the memory map of bundle bi: x is the step, y the pool
// offset (0 at the bottom), one rectangle per pooled buffer with a
// data-buffer attribute (the storage group's name) and a <title> tooltip
// (name, size, range, offset); a label where the name fits inside; a
// dashed line at pool_end (data-line="pool_end") and one at the lower
// bound (data-line="lower_bound"); and a legend listing the buffers the
// bundle touches that are not pooled in it, by reason. Coordinates follow
// Scale and are written with two decimals. The file is deterministic and
// its size is about 225 bytes per pooled buffer.
func SVG(w io.Writer, p *planner.Result, bi int) error {
	g := p.Graph
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	sc := ScaleOf(p, bi)

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

	legendTop := PlotTop + PlotHeight + 56
	height := legendTop + 20*(len(legend)+1) + 10

	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		SVGWidth, height, SVGWidth, height)
	bw.WriteString(`<style>rect.b{stroke:#333;stroke-width:.6}text.l{font-size:11px;text-anchor:middle;dominant-baseline:central;pointer-events:none}line.g{stroke:#ddd}</style>` + "\n")
	fmt.Fprintf(bw, `<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>`+"\n", SVGWidth, height)

	// Title.
	fmt.Fprintf(bw, `<text x="%d" y="24" font-size="16" font-weight="bold">bundle %s (%s, %d steps) of graph %s</text>`+"\n",
		PlotLeft, esc(b.Name), b.Kind, len(b.Ops), esc(g.Name))
	pool := "none"
	if pb.HasPool() {
		pool = HumanSize(pb.PoolSize)
	}
	fmt.Fprintf(bw, `<text x="%d" y="46">pool %s · lower bound %s · %d pooled · %d not pooled · budget %s · allocator %s</text>`+"\n",
		PlotLeft, pool, lowerHuman(pb.LowerBound), pooled, nFallback, HumanSize(p.Budget), esc(p.Allocator))

	// Grid and axes.
	for k := 0; k <= 4; k++ {
		off := sc.Top * int64(k) / 4
		y := sc.Y(off)
		fmt.Fprintf(bw, `<line class="g" x1="%d" y1="%s" x2="%d" y2="%s"/><text x="%d" y="%s" text-anchor="end" dominant-baseline="central">%s</text>`+"\n",
			PlotLeft, num(y), PlotLeft+PlotWidth, num(y), PlotLeft-6, num(y), HumanSize(off))
	}
	every := tickEvery(sc.Steps)
	for s := 0; s < sc.Steps; s += every {
		x := sc.X(s) + PlotWidth/float64(sc.Steps)/2
		fmt.Fprintf(bw, `<text x="%s" y="%d" text-anchor="middle">%d</text>`+"\n", num(x), PlotTop+PlotHeight+16, s)
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle">step</text>`+"\n", PlotLeft+PlotWidth/2, PlotTop+PlotHeight+36)
	fmt.Fprintf(bw, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">pool offset</text>`+"\n", PlotTop+PlotHeight/2)
	fmt.Fprintf(bw, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>`+"\n", PlotLeft, PlotTop, PlotWidth, PlotHeight)

	// Buffers, in allocation order.
	var labels strings.Builder
	for _, gi := range pb.Candidates {
		pg := &p.Groups[gi]
		if pg.Offset < 0 {
			continue
		}
		name := groupName(g, gi)
		size := g.Groups[gi].Size
		x, y, rw, rh := sc.Rect(pg.Start, pg.End, pg.Offset, size)
		fill := color(name)
		// Big rectangles get a dark outline; small ones an outline in
		// their own colour, so that a buffer thinner than a pixel still
		// shows as a hairline instead of vanishing.
		class := ` class="b"`
		if rw < 3 || rh < 3 {
			class = ` stroke="` + fill + `" stroke-width=".8"`
		}
		fmt.Fprintf(bw, `<rect data-buffer="%s"%s x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s: %s (%d bytes), steps %d..%d, offset %d%s</title></rect>`+"\n",
			esc(name), class, num(x), num(y), num(rw), num(rh), fill, esc(name), HumanSize(size), size, pg.Start, pg.End, pg.Offset, esc(viewsNote(g, gi)))
		if rw >= float64(len(name))*charWidth+4 && rh >= labelFont+3 {
			fmt.Fprintf(&labels, `<text class="l" x="%s" y="%s">%s</text>`+"\n", num(x+rw/2), num(y+rh/2), esc(name))
		}
	}
	// Labels after every rectangle, so none is covered.
	bw.WriteString(labels.String())
	if pooled == 0 {
		fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle" fill="#888" font-size="16">no pooled buffers</text>`+"\n",
			PlotLeft+PlotWidth/2, PlotTop+PlotHeight/2)
	}

	// pool_end and lower bound.
	if pb.HasPool() {
		y := sc.Y(pb.PoolSize)
		fmt.Fprintf(bw, `<line data-line="pool_end" x1="%d" y1="%s" x2="%d" y2="%s" stroke="#c00" stroke-width="1.5" stroke-dasharray="6 3"/>`+"\n",
			PlotLeft, num(y), PlotLeft+PlotWidth, num(y))
		fmt.Fprintf(bw, `<text x="%d" y="%s" text-anchor="end" fill="#c00">pool_end %s</text>`+"\n", PlotLeft+PlotWidth-4, num(y-4), HumanSize(pb.PoolSize))
		y = sc.Y(pb.LowerBound)
		fmt.Fprintf(bw, `<line data-line="lower_bound" x1="%d" y1="%s" x2="%d" y2="%s" stroke="#06c" stroke-width="1.5" stroke-dasharray="2 3"/>`+"\n",
			PlotLeft, num(y), PlotLeft+PlotWidth, num(y))
		fmt.Fprintf(bw, `<text x="%d" y="%s" fill="#06c">lower bound %s</text>`+"\n", PlotLeft+4, num(y-4), lowerHuman(pb.LowerBound))
	}

	// Legend.
	head := "not pooled: none"
	if len(legend) > 0 {
		head = "not pooled (touched by this bundle, by reason):"
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", PlotLeft, legendTop, head)
	for k, line := range legend {
		fmt.Fprintf(bw, `<text data-reason="%s" x="%d" y="%d">%s</text>`+"\n", esc(line[:strings.IndexByte(line, ' ')]), PlotLeft+12, legendTop+20*(k+1), esc(line))
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

// color is a stable pastel fill derived from the buffer name.
func color(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	v := h.Sum32()
	return fmt.Sprintf("hsl(%d,%d%%,%d%%)", v%360, 45+(v>>9)%25, 68+(v>>17)%12)
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
