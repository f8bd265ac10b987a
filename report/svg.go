package report

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/templates"
)

// The memory map's fixed geometry, in SVG user units (pixels). The plot
// area is plotWidth x plotHeight with its top-left corner at
// (plotLeft, plotTop); the legend goes below it, wrapped to the width.
// The drawing is svgWidth wide unless the title line needs more.
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

	legendMargin = 20 // px kept free right of the legend lines
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

// svgDoc is what templates/memory.svg.tmpl lays out: every coordinate
// and text of one bundle's memory map, computed here; the template only
// places them and escapes the texts.
type svgDoc struct {
	Width, Height                int
	PlotLeft, PlotRight, PlotTop int
	PlotWidth, PlotHeight        int
	PlotMid, PlotMidY, TickX     int
	StepY, AxisY, LegendTop      int
	YAxisTransform               string
	Title, Sub, LegendHead       string
	Ticks                        []svgTick
	Steps                        []svgStep
	Rects, Overs                 []svgRect
	Labels                       []svgLabel
	Empty                        bool
	Lines                        []svgLine
	Legend                       []svgLegend
}

type svgTick struct{ Y, Label string }

type svgStep struct {
	X     string
	Label int
}

// svgRect is a pooled group's rectangle (Name set) or the copy of a
// grown one drawn over the others (Name "").
type svgRect struct {
	Name         string
	Offset, Size int64
	Class        string // "b" (dark outline) or "s" (outline in Stroke)
	Stroke       string
	X, Y, W, H   string
	Fill, Title  string
}

// svgLabel is a buffer name: inside its rectangle (class "l"; class "v"
// written upwards, Transform rotating it about its centre) or beside it
// (class "o"), Size px high.
type svgLabel struct {
	Class, X, Y, Transform, Text string
	Size                         int
}

// labelSizes are the font sizes a name inside its rectangle may take,
// largest first.
var labelSizes = []int{labelFont, 9, 8}

// insideLabel places name inside a w x h rectangle centred at (cx, cy):
// at the largest of labelSizes that fits, across where it fits that way,
// else upwards. A name fits across at size px where w >= its textWidth +
// 4 and h >= px + 2 (upwards: the same with w and h swapped).
// A place whose box hits one of avoid (the line labels) is skipped.
func insideLabel(name string, cx, cy, w, h float64, avoid []box) (svgLabel, box, bool) {
	for _, px := range labelSizes {
		tw, fh := textWidth(name, float64(px), false), float64(px)
		if b := (box{cx - tw/2, cy - fh/2, cx + tw/2, cy + fh/2}); w >= tw+4 && h >= fh+2 && !hitsAny(b, avoid) {
			return svgLabel{Class: "l", Size: px, X: num(cx), Y: num(cy), Text: name}, b, true
		}
		if b := (box{cx - fh/2, cy - tw/2, cx + fh/2, cy + tw/2}); h >= tw+4 && w >= fh+2 && !hitsAny(b, avoid) {
			return svgLabel{Class: "v", Size: px, X: num(cx), Y: num(cy), Transform: "rotate(-90 " + num(cx) + " " + num(cy) + ")", Text: name}, b, true
		}
	}
	return svgLabel{}, box{}, false
}

type svgLine struct {
	Name, Y, Color, Dash, TextX, TextY, Anchor, Text string
}

// svgLegend is one line of the legend; Reason is set on the first line
// of each reason's entry.
type svgLegend struct {
	Reason, Text string
	X, Y         int
}

// svgTemplate is templates/memory.svg.tmpl, parsed once.
var svgTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templates.FS, "memory.svg.tmpl"))
})

// wrapText breaks s into lines at most maxW wide (by textWidth at px):
// after ", " or " " where it can, inside a word longer than a line
// otherwise.
func wrapText(s string, maxW, px float64) []string {
	var lines []string
	var cur strings.Builder
	fits := func(t string) bool { return textWidth(t, px, false) <= maxW }
	for len(s) > 0 {
		// The next token: up to and including the next space.
		k := strings.IndexByte(s, ' ')
		tok := s
		if k >= 0 {
			tok = s[:k+1]
		}
		s = s[len(tok):]
		if fits(cur.String() + strings.TrimRight(tok, " ")) {
			cur.WriteString(tok)
			continue
		}
		if cur.Len() > 0 {
			lines = append(lines, strings.TrimRight(cur.String(), " "))
			cur.Reset()
		}
		// A token wider than a line is cut where the line is full.
		for !fits(strings.TrimRight(tok, " ")) {
			r := []rune(tok)
			n := max(int(maxW/(px*emWidth)), 1)
			lines = append(lines, string(r[:n]))
			tok = string(r[n:])
		}
		cur.WriteString(tok)
	}
	if t := strings.TrimRight(cur.String(), " "); t != "" || len(lines) == 0 {
		lines = append(lines, t)
	}
	return lines
}

// SVG writes the memory map of bundle bi: x is the step, y the pool
// offset (0 at the bottom, ticks at 1-2-5 steps of a binary unit), one
// rectangle per pooled buffer with data-buffer (the storage group's
// name), data-offset and data-size attributes and a <title> tooltip
// (name, size, range, offset, views), at least minHeight tall; the name
// inside the rectangle where it fits across (class "l") or else upwards
// (class "v"), at 11 px or, where that does not fit, 9 or 8 px, clear
// of the line labels (insideLabel), else at 11 px just above or below it where the
// rectangle is wide enough and no other label is in the way (class
// "o"); a dashed line at pool_end (data-line="pool_end"), one at
// the lower bound (data-line="lower_bound") and one at the budget
// (data-line="budget") when the budget is within the plot; and a legend
// listing the buffers the bundle touches that are not pooled in it, by
// reason, wrapped to the drawing's width. Coordinates follow svgScale
// and are written with two decimals; the drawing is svgWidth wide unless
// the title line needs more, and contains every element. The file is
// deterministic and its size is about 235 bytes per pooled buffer. The
// layout is templates/memory.svg.tmpl.
func SVG(w io.Writer, p *planner.Result, bi int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := svgTemplate().Execute(bw, svgData(p, bi)); err != nil {
		return err
	}
	return bw.Flush()
}

// svgData computes the memory map of bundle bi (see SVG).
func svgData(p *planner.Result, bi int) *svgDoc {
	sc := scaleOf(p, bi)
	d := svgHead(p, bi)
	d.axes(p, bi, sc)
	placed := d.lineLabels(p, bi, sc)
	d.buffers(p, bi, sc, placed)
	return d
}

// svgHead is the drawing's title, subtitle and legend of the groups the
// bundle does not pool, by reason; it sizes the drawing.
func svgHead(p *planner.Result, bi int) *svgDoc {
	g := p.Graph
	b := &g.Bundles[bi]
	pb := &p.Bundles[bi]
	fallbacks := fallbacksOf(p, p.Index().Groups(bi), bi)
	type entry struct{ reason, text string }
	var legend []entry
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
		legend = append(legend, entry{planner.Reasons()[r].String(), fmt.Sprintf("%s (%d): %s", planner.Reasons()[r], len(list), strings.Join(names, ", "))})
	}
	pooled := 0
	for _, gi := range p.Candidates(bi) {
		if p.Groups[gi].Offset >= 0 {
			pooled++
		}
	}

	pool := "none"
	if pb.HasPool() {
		pool = HumanSize(pb.PoolSize)
	}
	d := &svgDoc{
		PlotLeft: plotLeft, PlotRight: plotLeft + plotWidth, PlotTop: plotTop, PlotWidth: plotWidth, PlotHeight: plotHeight,
		PlotMid: plotLeft + plotWidth/2, PlotMidY: plotTop + plotHeight/2, TickX: plotLeft - 6,
		StepY: plotTop + plotHeight + 16, AxisY: plotTop + plotHeight + 36,
		YAxisTransform: fmt.Sprintf("translate(18 %d) rotate(-90)", plotTop+plotHeight/2),
		Title:          fmt.Sprintf("bundle %s (%s, %s) of graph %s", b.Name, b.Kind, plural(len(b.Ops), "step"), g.Name),
		Sub: fmt.Sprintf("pool %s · lower bound %s · %d pooled · %d not pooled · budget %s · allocator %s",
			pool, lowerHuman(pb.LowerBound), pooled, nFallback, HumanSize(p.Budget), p.Allocator),
		LegendHead: "not pooled: none",
		Empty:      pooled == 0,
	}
	if len(legend) > 0 {
		d.LegendHead = "not pooled (touched by this bundle, by reason):"
	}

	// The drawing holds the plot and the title lines; the legend wraps
	// to the width (continuation lines indented).
	right := float64(plotLeft + plotWidth)
	right = max(right, plotLeft+textWidth(d.Title, 16, true), plotLeft+textWidth(d.Sub, 12, false))
	d.Width = max(svgWidth, int(math.Ceil(right))+svgWidth-plotLeft-plotWidth) // the plot's right margin
	d.LegendTop = plotTop + plotHeight + 56
	y := d.LegendTop
	for _, e := range legend {
		for k, line := range wrapText(e.text, float64(d.Width-plotLeft-12-legendMargin), 12) {
			y += 20
			x, reason := plotLeft+12, e.reason
			if k > 0 {
				x, reason = plotLeft+24, ""
			}
			d.Legend = append(d.Legend, svgLegend{Reason: reason, Text: line, X: x, Y: y})
		}
	}
	d.Height = y + 14
	return d
}

// axes adds the offset ticks and the step ticks.
func (d *svgDoc) axes(p *planner.Result, bi int, sc svgScale) {
	b, pb := &p.Graph.Bundles[bi], &p.Bundles[bi]
	// A bundle without pool and lower bound has no
	// offsets to show.
	if pb.HasPool() || pb.LowerBound > 0 {
		step, u := ticks(sc.Top)
		for off := int64(0); ; off += step {
			d.Ticks = append(d.Ticks, svgTick{num(sc.Y(off)), tickLabel(off, u)})
			if off > sc.Top-step {
				break
			}
		}
	}
	if len(b.Ops) > 0 {
		every := tickEvery(sc.Steps)
		for s := 0; s < sc.Steps; s += every {
			d.Steps = append(d.Steps, svgStep{num(sc.X(s) + plotWidth/float64(sc.Steps)/2), s})
		}
	}

}

// lineLabels adds the pool end, lower bound and budget lines with their
// labels, and returns the boxes those labels take (buffer labels keep
// clear of them).
func (d *svgDoc) lineLabels(p *planner.Result, bi int, sc svgScale) []box {
	pb := &p.Bundles[bi]
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
	var placed []box // labels drawn so far
	for _, l := range lines {
		tw := textWidth(l.text, 12, false)
		x0 := map[string]float64{"start": l.x, "middle": l.x - tw/2, "end": l.x - tw}[l.anchor]
		y := sc.Y(l.off) - 4
		placed = append(placed, box{x0, y - 12, x0 + tw, y + 3})
		d.Lines = append(d.Lines, svgLine{Name: l.name, Y: num(sc.Y(l.off)), Color: l.color, Dash: l.dash,
			TextX: num(l.x), TextY: num(y), Anchor: l.anchor, Text: l.text})
	}

	return placed
}

// buffers adds a rectangle per pooled group, in allocation order, and
// their names where they fit clear of the boxes in placed.
func (d *svgDoc) buffers(p *planner.Result, bi int, sc svgScale, placed []box) {
	g := p.Graph
	lineBoxes := len(placed)
	// Buffers, in allocation order.
	type thin struct {
		name         string
		x, y, rw, rh float64
	}
	var thins []thin
	for _, gi := range p.Candidates(bi) {
		pg := &p.Groups[gi]
		if pg.Offset < 0 {
			continue
		}
		name := groupName(g, int(gi))
		size := g.Groups[gi].Size
		x, y, rw, rh := sc.Drawn(int(pg.Start), int(pg.End), pg.Offset, size)
		fill, dark := colors(name)
		// Big rectangles get a dark outline; small ones an outline in a
		// darker shade of their own colour, so that a buffer thinner
		// than a pixel still shows as a hairline.
		r := svgRect{Name: name, Offset: pg.Offset, Size: size, Class: "b", X: num(x), Y: num(y), W: num(rw), H: num(rh), Fill: fill,
			Title: fmt.Sprintf("%s: %s (%d bytes), steps %d..%d, offset %d%s", name, HumanSize(size), size, pg.Start, pg.End, pg.Offset, viewsNote(g, int(gi)))}
		if rw < 3 || rh < 6 {
			r.Class, r.Stroke = "s", dark
		}
		d.Rects = append(d.Rects, r)
		// A rectangle grown to minHeight reaches into its neighbour's
		// bytes, and a neighbour drawn later would cover that part: a
		// copy on top of all rectangles keeps it whole (only where it
		// is wide enough to be seen: hairlines are not copied).
		if rw >= 3 && rh > realHeight(sc, size) {
			d.Overs = append(d.Overs, svgRect{Class: "s", Stroke: dark, X: num(x), Y: num(y), W: num(rw), H: num(rh), Fill: fill})
		}
		cx, cy := x+rw/2, y+rh/2
		if l, bx, ok := insideLabel(name, cx, cy, rw, rh, placed[:lineBoxes]); ok {
			d.Labels = append(d.Labels, l)
			placed = append(placed, bx)
		} else if rw >= textWidth(name, labelFont, false)+4 {
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
			d.Labels = append(d.Labels, svgLabel{Class: "o", Size: labelFont, X: num(cx), Y: num(cy), Text: t.name})
			break
		}
	}
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
