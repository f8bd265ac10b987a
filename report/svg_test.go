package report_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// svgDoc is what the test reads back from a memory map.
type svgDoc struct {
	rects  map[string][4]float64 // data-buffer -> x, y, width, height
	order  []string
	lines  map[string]float64  // data-line -> y1
	reason []string            // data-reason of the legend entries, in order
	labels map[string]int      // inside label (class l or v) text -> count
	inside map[string]svgText  // inside label text -> the label
	titles map[string]string   // data-buffer -> tooltip
	data   map[string][2]int64 // data-buffer -> data-offset, data-size
	texts  []svgText           // every text element, in order
	shapes [][4]float64        // every rect (x, y, w, h) and line (x1, y1, x2, y2 as a box)
	width  float64             // of the root, equal to its viewBox
	height float64
}

// svgText is a text element: its attributes and content.
type svgText struct {
	class, anchor, baseline, transform string
	x, y, size                         float64
	bold                               bool
	up                                 bool // written upwards (class v)
	text                               string
}

// box is the estimated extent of a text (x0, y0, x1, y1), by the
// documented glyph width estimate: the anchor places it horizontally, the
// baseline vertically (central: centred on y; else from one font size
// above y to 0.3 below).
func (e svgText) box() [4]float64 {
	w := report.TextWidth(e.text, e.size, e.bold)
	x0 := e.x
	switch e.anchor {
	case "middle":
		x0 -= w / 2
	case "end":
		x0 -= w
	}
	if e.up {
		return [4]float64{e.x - e.size/2, e.y - w/2, e.x + e.size/2, e.y + w/2}
	}
	if e.baseline == "central" {
		return [4]float64{x0, e.y - e.size/2, x0 + w, e.y + e.size/2}
	}
	return [4]float64{x0, e.y - e.size, x0 + w, e.y + 0.3*e.size}
}

func attr(e xml.StartElement, name string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func fnum(t testing.TB, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q: %v", s, err)
	}
	return v
}

// parseSVG parses the memory map as XML (failing on any well-formedness
// error) and collects the plan-carrying elements.
func parseSVG(t testing.TB, data []byte) svgDoc {
	t.Helper()
	doc := svgDoc{rects: map[string][4]float64{}, lines: map[string]float64{}, labels: map[string]int{}, inside: map[string]svgText{}, titles: map[string]string{},
		data: map[string][2]int64{}}
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []xml.StartElement
	var text strings.Builder
	root := true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("memory map is not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if root {
				if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v, want svg in the SVG namespace", e.Name)
				}
				root = false
				w, _ := attr(e, "width")
				h, _ := attr(e, "height")
				doc.width, doc.height = fnum(t, w), fnum(t, h)
				if vb, _ := attr(e, "viewBox"); vb != "0 0 "+w+" "+h {
					t.Errorf("viewBox %q, width %s, height %s", vb, w, h)
				}
			}
			stack = append(stack, e)
			text.Reset()
			if e.Name.Local == "rect" {
				if name, ok := attr(e, "data-buffer"); ok {
					if _, dup := doc.rects[name]; dup {
						t.Errorf("two rectangles for %s", name)
					}
					var r [4]float64
					for k, a := range []string{"x", "y", "width", "height"} {
						v, _ := attr(e, a)
						r[k] = fnum(t, v)
					}
					doc.rects[name] = r
					doc.order = append(doc.order, name)
					off, _ := attr(e, "data-offset")
					size, _ := attr(e, "data-size")
					doc.data[name] = [2]int64{int64(fnum(t, off)), int64(fnum(t, size))}
				}
				var r [4]float64
				for k, a := range []string{"x", "y", "width", "height"} {
					v, _ := attr(e, a)
					r[k] = fnum(t, v)
				}
				doc.shapes = append(doc.shapes, [4]float64{r[0], r[1], r[0] + r[2], r[1] + r[3]})
			}
			if e.Name.Local == "line" {
				if name, ok := attr(e, "data-line"); ok {
					y1, _ := attr(e, "y1")
					y2, _ := attr(e, "y2")
					if y1 != y2 {
						t.Errorf("%s line is not horizontal", name)
					}
					doc.lines[name] = fnum(t, y1)
				}
				var r [4]float64
				for k, a := range []string{"x1", "y1", "x2", "y2"} {
					v, _ := attr(e, a)
					r[k] = fnum(t, v)
				}
				doc.shapes = append(doc.shapes, r)
			}
			if e.Name.Local == "text" {
				if r, ok := attr(e, "data-reason"); ok {
					doc.reason = append(doc.reason, r)
				}
			}
		case xml.CharData:
			text.Write(e)
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.Name.Local == "text" {
				c, _ := attr(top, "class")
				if c == "l" || c == "v" {
					doc.labels[text.String()]++
				}
				te := svgText{class: c, text: text.String(), size: 12}
				te.anchor, _ = attr(top, "text-anchor")
				te.baseline, _ = attr(top, "dominant-baseline")
				te.transform, _ = attr(top, "transform")
				if c == "l" || c == "o" || c == "v" {
					te.anchor, te.baseline = "middle", "central"
				}
				if v, ok := attr(top, "font-size"); ok {
					te.size = fnum(t, v)
				}
				fw, _ := attr(top, "font-weight")
				te.bold = fw == "bold"
				if te.transform == "" || c == "v" {
					x, _ := attr(top, "x")
					y, _ := attr(top, "y")
					te.x, te.y = fnum(t, x), fnum(t, y)
				}
				if c == "v" {
					// Written upwards: rotated -90 degrees about
					// its centre (x, y).
					x, y := strconv.FormatFloat(te.x, 'f', -1, 64), strconv.FormatFloat(te.y, 'f', -1, 64)
					if te.transform != "rotate(-90 "+x+" "+y+")" {
						t.Errorf("upward label %q: transform %q", te.text, te.transform)
					}
					te.transform = ""
					te.up = true
				}
				if c == "l" || c == "v" {
					doc.inside[te.text] = te
				}
				doc.texts = append(doc.texts, te)
			}
			if e.Name.Local == "title" && len(stack) > 0 {
				if name, ok := attr(stack[len(stack)-1], "data-buffer"); ok {
					doc.titles[name] = text.String()
				}
			}
		}
	}
	return doc
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.006 }

// checkSVG renders every bundle of p and checks the memory map against
// the plan: one rectangle per pooled group and no other, placed by the
// documented Scale; the pool_end and lower-bound lines; a legend entry per
// fallback reason of the groups the bundle touches; labels only on
// rectangles wide and tall enough for them; and byte-identical output on a
// second rendering.
func checkSVG(t *testing.T, p *planner.Result) map[int][]byte {
	t.Helper()
	g := p.Graph
	out := map[int][]byte{}
	for bi := range g.Bundles {
		var b bytes.Buffer
		if err := report.SVG(&b, p, bi); err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		report.SVG(&again, p, bi)
		if !bytes.Equal(b.Bytes(), again.Bytes()) {
			t.Fatalf("bundle %s: two renderings differ", g.Bundles[bi].Name)
		}
		out[bi] = b.Bytes()
		doc := parseSVG(t, b.Bytes())
		sc := report.ScaleOf(p, bi)
		pb := &p.Bundles[bi]

		pooled := 0
		for _, gi := range p.Candidates(bi) {
			pg := &p.Groups[gi]
			if pg.Offset < 0 {
				continue
			}
			pooled++
			// Rectangles are named by the group's root.
			name := g.Str(g.Buffers.At(int(g.Root(&g.Groups[gi]))).Name)
			r, ok := doc.rects[name]
			if !ok {
				t.Fatalf("bundle %s: no rectangle for pooled %s", g.Bundles[bi].Name, name)
			}
			// The data attributes are the plan's; the rectangle is the
			// Scale's, grown to MinHeight upwards from the offset (or
			// down from the plot top) when it is lower than that.
			if d := doc.data[name]; d != [2]int64{pg.Offset, g.Groups[gi].Size} {
				t.Errorf("bundle %s: %s data-offset, data-size %v, want %d, %d", g.Bundles[bi].Name, name, d, pg.Offset, g.Groups[gi].Size)
			}
			x, y, w, h := sc.Rect(int(pg.Start), int(pg.End), pg.Offset, g.Groups[gi].Size)
			if h < report.MinHeight {
				h = report.MinHeight
				y = max(sc.Y(pg.Offset)-report.MinHeight, report.PlotTop)
			}
			if !near(r[0], x) || !near(r[1], y) || !near(r[2], w) || !near(r[3], h) {
				t.Errorf("bundle %s: %s at %v, want %v", g.Bundles[bi].Name, name, r, [4]float64{x, y, w, h})
			}
			if r[3] < report.MinHeight-0.006 {
				t.Errorf("bundle %s: %s drawn %v px tall", g.Bundles[bi].Name, name, r[3])
			}
			// The rectangle is inside the plot, its steps are the
			// live range and its bottom is the offset.
			if r[0] < report.PlotLeft-0.01 || r[0]+r[2] > report.PlotLeft+report.PlotWidth+0.01 ||
				r[1] < report.PlotTop-0.01 || r[1]+r[3] > report.PlotTop+report.PlotHeight+0.01 {
				t.Errorf("%s outside the plot: %v", name, r)
			}
			wantTitle := fmt.Sprintf("%s: %s (%d bytes), steps %d..%d, offset %d", name,
				report.HumanSize(g.Groups[gi].Size), g.Groups[gi].Size, pg.Start, pg.End, pg.Offset)
			// Then the views, in declaration order, at their offsets.
			var views []string
			for _, m := range g.Members(&g.Groups[gi]) {
				if m != g.Root(&g.Groups[gi]) {
					b := g.Buffers.At(int(m))
					views = append(views, fmt.Sprintf("%s@%d", g.Str(b.Name), g.ViewOf(b).ViewOffset))
				}
			}
			if len(views) > 0 {
				wantTitle += "; views " + strings.Join(views, ", ")
			}
			if doc.titles[name] != wantTitle {
				t.Errorf("tooltip of %s = %q, want %q", name, doc.titles[name], wantTitle)
			}
		}
		if len(doc.rects) != pooled {
			t.Errorf("bundle %s: %d rectangles, %d pooled groups", g.Bundles[bi].Name, len(doc.rects), pooled)
		}
		if pb.HasPool() {
			if !near(doc.lines["pool_end"], sc.Y(pb.PoolSize)) || !near(doc.lines["lower_bound"], sc.Y(pb.LowerBound)) {
				t.Errorf("bundle %s: lines %v, want pool_end %v lower_bound %v", g.Bundles[bi].Name, doc.lines,
					sc.Y(pb.PoolSize), sc.Y(pb.LowerBound))
			}
		} else if _, ok := doc.lines["pool_end"]; ok {
			t.Errorf("bundle %s without pool has lines %v", g.Bundles[bi].Name, doc.lines)
		} else if _, ok := doc.lines["lower_bound"]; ok {
			t.Errorf("bundle %s without pool has lines %v", g.Bundles[bi].Name, doc.lines)
		}
		// The budget line is there exactly when the budget is within
		// the plot (at most its top offset).
		if y, ok := doc.lines["budget"]; ok != (p.Budget <= sc.Top) || ok && !near(y, sc.Y(p.Budget)) {
			t.Errorf("bundle %s: budget %d, top %d: budget line %v at %v", g.Bundles[bi].Name, p.Budget, sc.Top, ok, y)
		}
		checkTicks(t, g.Bundles[bi].Name, doc, sc, pb.HasPool() || pb.LowerBound > 0)
		checkInside(t, g.Bundles[bi].Name, doc)
		steps := fmt.Sprintf("(%s, %d steps)", g.Bundles[bi].Kind, len(g.Bundles[bi].Ops))
		if len(g.Bundles[bi].Ops) == 1 {
			steps = fmt.Sprintf("(%s, 1 step)", g.Bundles[bi].Kind)
		}
		if !strings.Contains(doc.texts[0].text, steps) {
			t.Errorf("title %q lacks %q", doc.texts[0].text, steps)
		}

		// Legend: the reasons of the touched, not pooled groups.
		seen := map[int]bool{}
		for _, op := range g.Bundles[bi].Ops {
			for _, a := range g.OpAccesses(&op) {
				if !p.Pooled(int(g.GroupOf(&a)), bi) {
					seen[int(g.GroupOf(&a))] = true
				}
			}
		}
		var want []string
		for _, r := range planner.Reasons() {
			for gi := range seen {
				if p.Groups[gi].Reason == r {
					want = append(want, r.String())
					break
				}
			}
		}
		if strings.Join(doc.reason, " ") != strings.Join(want, " ") {
			t.Errorf("bundle %s: legend %v, want %v", g.Bundles[bi].Name, doc.reason, want)
		}

		// A rectangle is labelled inside exactly when its name fits:
		// at the largest of 11, 9 and 8 px where the rectangle is
		// 0.6 em per character + 4 px wide and the size + 2 px tall
		// (across), else the same with width and height swapped
		// (upwards); centred on the rectangle (within the rounding of
		// its corner and size to two decimals).
		// A place covering a line label (class k) is skipped.
		var keys [][4]float64
		for _, e := range doc.texts {
			if e.class == "k" {
				keys = append(keys, e.box())
			}
		}
		free := func(b [4]float64) bool {
			for _, o := range keys {
				if b[0] < o[2]-0.01 && o[0] < b[2]-0.01 && b[1] < o[3]-0.01 && o[1] < b[3]-0.01 {
					return false
				}
			}
			return true
		}
		for name, r := range doc.rects {
			want, up := 0.0, false
			cx, cy := r[0]+r[2]/2, r[1]+r[3]/2
			for _, px := range []float64{11, 9, 8} {
				tw := float64(len(name)) * px * 0.6
				if r[2] >= tw+4 && r[3] >= px+2 && free([4]float64{cx - tw/2, cy - px/2, cx + tw/2, cy + px/2}) {
					want = px
					break
				}
				if r[3] >= tw+4 && r[2] >= px+2 && free([4]float64{cx - px/2, cy - tw/2, cx + px/2, cy + tw/2}) {
					want, up = px, true
					break
				}
			}
			l, ok := doc.inside[name]
			if ok != (want > 0) || doc.labels[name] > 1 || ok && (l.size != want || l.up != up || math.Abs(l.x-(r[0]+r[2]/2)) > 0.011 || math.Abs(l.y-(r[1]+r[3]/2)) > 0.011) {
				t.Errorf("bundle %s: %s on a %vx%v rectangle: label %+v (%d times), want %v px, upwards %v", g.Bundles[bi].Name, name, r[2], r[3], l, doc.labels[name], want, up)
			}
		}
		for label := range doc.labels {
			if _, ok := doc.rects[label]; !ok {
				t.Errorf("label %q without its rectangle", label)
			}
		}
		checkOutsideLabels(t, g.Bundles[bi].Name, doc)
	}
	return out
}

// checkTicks: the offset axis has ticks exactly when the bundle has a
// pool or a lower bound; then they are 0, s, 2s, ... up to the plot's top
// (and no further than one interval short of it), s being 1, 2 or 5 x
// 10^d of one binary unit (d >= 0, below 1024 of it), every label an
// integer count of that unit at the tick's height, and at most 9 ticks.
func checkTicks(t *testing.T, bundle string, doc svgDoc, sc report.Scale, want bool) {
	t.Helper()
	units := map[string]int64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50, "EiB": 1 << 60}
	var vals []int64
	unit := ""
	for _, e := range doc.texts {
		if e.class != "t" {
			continue
		}
		var n int64
		var u string
		if _, err := fmt.Sscanf(e.text, "%d %s", &n, &u); err != nil || units[u] == 0 || fmt.Sprintf("%d %s", n, u) != e.text {
			t.Errorf("bundle %s: tick label %q", bundle, e.text)
			return
		}
		if unit != "" && u != unit {
			t.Errorf("bundle %s: ticks in %s and %s", bundle, unit, u)
		}
		unit = u
		v := n * units[u]
		if !near(e.y, sc.Y(v)) {
			t.Errorf("bundle %s: tick %q at y %v, want %v", bundle, e.text, e.y, sc.Y(v))
		}
		vals = append(vals, v)
	}
	if !want {
		if len(vals) > 0 {
			t.Errorf("bundle %s without pool or lower bound has ticks %v", bundle, vals)
		}
		return
	}
	if len(vals) < 2 || len(vals) > 9 || vals[0] != 0 {
		t.Fatalf("bundle %s: ticks %v", bundle, vals)
	}
	step := vals[1]
	for k, v := range vals {
		if v != int64(k)*step {
			t.Errorf("bundle %s: ticks %v not evenly spaced", bundle, vals)
		}
	}
	if last := vals[len(vals)-1]; last > sc.Top || last+step <= sc.Top {
		t.Errorf("bundle %s: ticks %v do not end at the last multiple below the top %d", bundle, vals, sc.Top)
	}
	m := step / units[unit]
	if step%units[unit] != 0 || m >= 1024 {
		t.Errorf("bundle %s: interval %d is not a count of %s", bundle, step, unit)
	}
	for m%10 == 0 {
		m /= 10
	}
	if m != 1 && m != 2 && m != 5 {
		t.Errorf("bundle %s: interval %d %s is not 1, 2 or 5 x 10^d", bundle, step/units[unit], unit)
	}
}

// checkInside: every rectangle, line and text lies inside the drawing
// (texts by the glyph width estimate; the rotated axis title by hand: it
// is centred at (18, plot middle) and 11 characters long).
func checkInside(t *testing.T, bundle string, doc svgDoc) {
	t.Helper()
	in := func(what string, b [4]float64) {
		if min(b[0], b[2]) < -0.01 || min(b[1], b[3]) < -0.01 || max(b[0], b[2]) > doc.width+0.01 || max(b[1], b[3]) > doc.height+0.01 {
			t.Errorf("bundle %s: %s at %v outside the %vx%v drawing", bundle, what, b, doc.width, doc.height)
		}
	}
	for _, s := range doc.shapes {
		in("shape", s)
	}
	for _, e := range doc.texts {
		if e.transform != "" {
			if e.transform != fmt.Sprintf("translate(18 %d) rotate(-90)", report.PlotTop+report.PlotHeight/2) {
				t.Errorf("bundle %s: unexpected transform %q", bundle, e.transform)
			}
			continue
		}
		in(fmt.Sprintf("text %q", e.text), e.box())
	}
}

// checkOutsideLabels: a name written outside its rectangle (class "o") is
// that of a rectangle with no inside label, at least as wide as the name,
// centred on it horizontally and touching its top or bottom (within a
// pixel), inside the plot; no two buffer or line labels overlap.
func checkOutsideLabels(t *testing.T, bundle string, doc svgDoc) {
	t.Helper()
	var boxes [][4]float64
	var names []string
	for _, e := range doc.texts {
		if e.class != "l" && e.class != "v" && e.class != "o" && e.class != "k" {
			continue
		}
		b := e.box()
		for k, o := range boxes {
			if b[0] < o[2]-0.01 && o[0] < b[2]-0.01 && b[1] < o[3]-0.01 && o[1] < b[3]-0.01 {
				t.Errorf("bundle %s: labels %q and %q overlap", bundle, e.text, names[k])
			}
		}
		boxes = append(boxes, b)
		names = append(names, e.text)
		if e.class != "o" {
			continue
		}
		r, ok := doc.rects[e.text]
		if !ok || doc.labels[e.text] != 0 {
			t.Errorf("bundle %s: outside label %q: rectangle %v, inside labels %d", bundle, e.text, ok, doc.labels[e.text])
			continue
		}
		above, below := math.Abs(b[3]+1-r[1]) < 0.02, math.Abs(b[1]-1-(r[1]+r[3])) < 0.02
		if r[2] < b[2]-b[0] || !near(e.x, r[0]+r[2]/2) || !above && !below ||
			b[1] < report.PlotTop-0.01 || b[3] > report.PlotTop+report.PlotHeight+0.01 {
			t.Errorf("bundle %s: outside label %q at %v for rectangle %v", bundle, e.text, b, r)
		}
	}
}

func TestSVGGoldenInputs(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget int64
	}{{"spec_example", planner.DefaultBudget}, {"reasons", 4096}, {"offset_dedup", planner.DefaultBudget},
		{"partial_overflow", planner.DefaultBudget}, {"nested_steps", planner.DefaultBudget}, {"alias_rename", planner.DefaultBudget}} {
		p := plan(t, c.name, c.budget)
		checkSVG(t, p)
	}
	// Small buffers are labelled: offset_dedup's p, q and r all fit.
	p := plan(t, "offset_dedup", planner.DefaultBudget)
	var b bytes.Buffer
	report.SVG(&b, p, 0)
	doc := parseSVG(t, b.Bytes())
	if len(doc.labels) != 3 || doc.labels["p"] != 1 || doc.labels["q"] != 1 || doc.labels["r"] != 1 {
		t.Errorf("labels %v, want p, q and r", doc.labels)
	}
	if !strings.Contains(b.String(), ">pool_end 768 B</text>") || !strings.Contains(b.String(), ">lower bound 768 B</text>") {
		t.Errorf("line labels missing:\n%s", b.String())
	}
	// Legend text lists the names.
	p = plan(t, "reasons", 4096)
	b.Reset()
	report.SVG(&b, p, 0)
	for _, want := range []string{">over-budget (1): big</text>", ">cross-bundle (1): xb</text>", ">graph-input (1): in_</text>"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("legend lacks %s", want)
		}
	}
}

// TestSVGRandomGraphs runs the plan/SVG agreement on random graphs, fused
// and unfused, with random budgets (so over-budget fallbacks appear).
func TestSVGRandomGraphs(t *testing.T) {
	for seed := 0; seed < 300; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		src := randgraph.Generate(r, randgraph.Default)
		g := check(t, "r.bir", []byte(src))
		if seed%3 == 0 {
			g = g.Unfused()
		}
		budget := []int64{0, 256, 4096, planner.DefaultBudget}[seed%4]
		checkSVG(t, planner.Plan(g, planner.Options{Budget: budget}))
	}
}

// bigGraph is one fused bundle of n ops over n buffers of mixed sizes: a
// chain, each op also reading the value 7 back, every 100th value living
// 50 steps longer.
func bigGraph(n int) string {
	var b strings.Builder
	b.WriteString("graph big {\n  buffer x : 128\n  buffer y : 128\n  input x\n  output y\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  buffer t%d : %d\n", i, 128*(1+(i*7919)%61))
	}
	b.WriteString("  fused blk {\n    op o0 reads x writes t0\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "    op o%d reads t%d, t%d", i, i-1, max(0, i-7))
		if i >= 50 && (i-50)%100 == 0 {
			fmt.Fprintf(&b, ", t%d", i-50)
		}
		fmt.Fprintf(&b, " writes t%d\n", i)
	}
	fmt.Fprintf(&b, "    op last reads t%d writes y\n  }\n}\n", n-1)
	return b.String()
}

// TestSVGScales renders 10 and 10,000 pooled buffers: everything agrees
// with the plan (including "labelled exactly where the name fits"), most
// buffers are labelled at 10, and the big file stays under 250 bytes per
// buffer.
func TestSVGScales(t *testing.T) {
	for _, n := range []int{10, 10000} {
		g := check(t, "big.bir", []byte(bigGraph(n)))
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		out := checkSVG(t, p)
		doc := parseSVG(t, out[0])
		if len(doc.rects) != n {
			t.Fatalf("n=%d: %d rectangles", n, len(doc.rects))
		}
		size := len(out[0])
		t.Logf("n=%d: %d bytes, %d labels", n, size, len(doc.labels))
		switch n {
		case 10:
			if len(doc.labels) < n/2 {
				t.Errorf("n=10: only %d labels", len(doc.labels))
			}
		case 10000:
			if size > 250*n {
				t.Errorf("n=10000: %d bytes", size)
			}
		}
		// Rectangles come in allocation order.
		var want []string
		for _, gi := range p.Candidates(0) {
			want = append(want, g.GroupKey(&g.Groups[gi]))
		}
		if strings.Join(doc.order, ",") != strings.Join(want, ",") {
			t.Errorf("n=%d: rectangles not in allocation order", n)
		}
	}
}

// TestSVGEscapes renders a hand-built graph whose names need escaping.
func TestSVGEscapes(t *testing.T) {
	h := &ir.Graph{} // holds the names and the ops' lists
	g := &ir.Graph{Name: `g<&>"'`,
		Buffers:     ir.ChunkedOf([]ir.Buffer{{Name: h.AddName("a&b"), Size: 256, Group: 0, View: -1}, {Name: h.AddName("c<d>"), Size: 128, Group: 1, View: -1}}...),
		Groups:      []ir.Group{{Members: h.AddMembers([]int32{0}), Size: 256}, {Members: h.AddMembers([]int32{1}), Size: 128}},
		Claims:      []ir.Claim{{Kind: ir.ClaimInput, Buffer: 1}},
		GroupClaims: []ir.ClaimSet{0, 1 << ir.ClaimInput},
		Bundles: []ir.Bundle{{Name: `b"1'`, Kind: ir.KindFused, Ops: []ir.Op{
			h.NewOp("o0", nil, nil, []ir.Access{{Buffer: 1}}, []ir.Access{{Buffer: 0}}),
			h.NewOp("o1", nil, nil, []ir.Access{{Buffer: 0}}, nil),
		}}},
	}
	g.Names, g.Ints, g.Accesses, g.LoopLists, g.MemberLists = h.Names, h.Ints, h.Accesses, h.LoopLists, h.MemberLists
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	out := checkSVG(t, p)
	doc := parseSVG(t, out[0])
	if _, ok := doc.rects["a&b"]; !ok {
		t.Errorf("no rectangle for a&b: %v", doc.rects)
	}
	if !bytes.Contains(out[0], []byte(`graph-input (1): c&lt;d&gt;`)) {
		t.Errorf("legend not escaped:\n%s", out[0])
	}
}

// decoderBlock plans examples/decoder_block.bir.
func decoderBlock(t *testing.T) *planner.Result {
	t.Helper()
	src, err := os.ReadFile("../examples/decoder_block.bir")
	if err != nil {
		t.Fatal(err)
	}
	g := check(t, "decoder_block.bir", src)
	return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
}

// TestSVGSmallBuffer: in bundle attention, scores (f32[16,128,128] = 1 MiB)
// sits at 0, denom (f32[16,128] = 8 KiB) right above it at 1048576, probs
// (bf16, 512 KiB) above that at 1056768: top = 1581056 bytes. denom's true
// height 8192*520/1581056 = 2.69 px is below MinHeight, so it is drawn 4 px
// tall on its offset line y(1048576) = 590 - 344.87 = 245.13, with its true
// offset and size in the data attributes, and named just above it (its
// 1060 px width holds the name; no other label is there).
// The offset axis of 1544 KiB is split every 200 KiB (100 KiB would
// give 15 intervals), 0 to 1400 KiB.
func TestSVGSmallBuffer(t *testing.T) {
	p := decoderBlock(t)
	out := checkSVG(t, p)
	bi := 1
	if p.Graph.Bundles[bi].Name != "attention" {
		t.Fatalf("bundle 1 is %s", p.Graph.Bundles[bi].Name)
	}
	doc := parseSVG(t, out[bi])
	if d := doc.data["denom"]; d != [2]int64{1048576, 8192} {
		t.Errorf("denom data %v", d)
	}
	if r := doc.rects["denom"]; !near(r[1], 241.13) || r[3] != 4 || r[2] != 1060 {
		t.Errorf("denom drawn at %v", r)
	}
	found := false
	for _, e := range doc.texts {
		if e.class == "o" && e.text == "denom" {
			found = true
			if !near(e.y, 241.13-6.5) || e.x != 630 {
				t.Errorf("denom named at %v, %v", e.x, e.y)
			}
		}
	}
	if !found {
		t.Errorf("denom has no name beside it:\n%s", out[bi])
	}
	// denom's 4 px reach 1.31 px into probs (245.13 - 4 < 242.44), which
	// is drawn after it: a copy of denom's rectangle (no data-buffer) on
	// top of probs keeps all of it in view.
	svg := string(out[bi])
	fill := regexp.MustCompile(`data-buffer="denom"[^>]* fill="([^"]*)"`).FindStringSubmatch(svg)
	if fill == nil {
		t.Fatalf("no fill for denom")
	}
	cp := strings.Index(svg, `x="100" y="241.13" width="1060" height="4" fill="`+fill[1]+`" pointer-events="none"/>`)
	if cp < 0 || cp < strings.Index(svg, `data-buffer="probs"`) {
		t.Errorf("no copy of denom on top of probs:\n%s", svg)
	}
	var ticks []string
	for _, e := range doc.texts {
		if e.class == "t" {
			ticks = append(ticks, e.text)
		}
	}
	if got := strings.Join(ticks, ", "); got != "0 KiB, 200 KiB, 400 KiB, 600 KiB, 800 KiB, 1000 KiB, 1200 KiB, 1400 KiB" {
		t.Errorf("ticks %s", got)
	}
}

// TestSVGTicks checks the axis interval on hand-picked tops: the smallest
// 1-2-5 x 10^d count of a binary unit with at most 8 multiples in 1..top
// (at most 9 ticks, 0 included).
func TestSVGTicks(t *testing.T) {
	for _, c := range []struct {
		top, step int64
		label     string // of the tick at 3 intervals
	}{
		{1, 1, "3 B"}, {8, 1, "3 B"}, {9, 2, "6 B"}, {768, 100, "300 B"}, {899, 100, "300 B"}, {900, 200, "600 B"},
		{4096, 500, "1500 B"}, {4500, 1024, "3 KiB"}, {1581056, 200 << 10, "600 KiB"},
		{4 << 30, 500 << 20, "1500 MiB"}, {math.MaxInt64, 1 << 60, "3 EiB"},
	} {
		step, u := report.Ticks(c.top)
		if step != c.step || report.TickLabel(3*step, u) != c.label {
			t.Errorf("top %d: interval %d, third tick %q; want %d, %q", c.top, step, report.TickLabel(3*step, u), c.step, c.label)
		}
	}
}

// TestSVGEmptyPool: attn_proj (1 op, nothing pooled, lower bound 0) has
// no offset ticks (no "0 B" printed over "1 B"), no lines and a singular
// step count; with a budget of 0 every bundle's budget line is drawn, at
// offset 0.
func TestSVGEmptyPool(t *testing.T) {
	p := decoderBlock(t)
	var b bytes.Buffer
	report.SVG(&b, p, 0)
	doc := parseSVG(t, b.Bytes())
	if p.Graph.Bundles[0].Name != "attn_proj" || p.Bundles[0].HasPool() {
		t.Fatalf("bundle 0 is %s", p.Graph.Bundles[0].Name)
	}
	for _, e := range doc.texts {
		if e.class == "t" || strings.HasSuffix(e.text, " B") && !strings.Contains(e.text, "·") {
			t.Errorf("empty pool shows %q", e.text)
		}
	}
	if len(doc.lines) != 0 {
		t.Errorf("lines %v", doc.lines)
	}
	if !strings.Contains(doc.texts[0].text, "(fused, 1 step) of") {
		t.Errorf("title %q", doc.texts[0].text)
	}
	g := p.Graph
	out := checkSVG(t, planner.Plan(g, planner.Options{Budget: 0}))
	for bi := range g.Bundles {
		if y, ok := parseSVG(t, out[bi]).lines["budget"]; !ok || y != report.PlotTop+report.PlotHeight {
			t.Errorf("bundle %s at budget 0: budget line %v at %v", g.Bundles[bi].Name, ok, y)
		}
	}
}

// TestSVGBudgetLine: reasons at budget 4096 has a lower bound of 6 KiB
// (top 6144), so the budget is drawn two thirds up: 590 - 4096*520/6144 =
// 243.33; at the default budget it is not drawn.
func TestSVGBudgetLine(t *testing.T) {
	p := plan(t, "reasons", 4096)
	var b bytes.Buffer
	report.SVG(&b, p, 0)
	if y, ok := parseSVG(t, b.Bytes()).lines["budget"]; !ok || !near(y, 243.33) {
		t.Errorf("budget line %v at %v", ok, y)
	}
	if !strings.Contains(b.String(), ">budget 4.0 KiB</text>") {
		t.Errorf("budget line not labelled:\n%s", b.String())
	}
	p = plan(t, "reasons", planner.DefaultBudget)
	b.Reset()
	report.SVG(&b, p, 0)
	if _, ok := parseSVG(t, b.Bytes()).lines["budget"]; ok {
		t.Errorf("budget line drawn at the default budget")
	}
}

// TestSVGWideLegend: a legend of eight 60-character names wraps below
// the 1200 px plot instead of widening the drawing (it once grew to 2000
// px, the plot in its left half): the graph-input entry "graph-input (8):
// in0_xxx..., ..." is 8*62 characters (7.2 px each at 12 px) = 3571 px,
// so it takes at least 4 lines of the 1068 px left of the plot's right
// margin; every line lies inside the drawing (checkSVG), only the first
// carries data-reason, and all eight names are there.
func TestSVGWideLegend(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph wide {\n  buffer y : 128\n  output y\n")
	var ins []string
	for i := 0; i < 8; i++ {
		name := fmt.Sprintf("in%d_%s", i, strings.Repeat("x", 56))
		ins = append(ins, name)
		fmt.Fprintf(&b, "  buffer %s : 128\n  input %s\n", name, name)
	}
	fmt.Fprintf(&b, "  fused f {\n    op o reads %s writes y\n  }\n}\n", strings.Join(ins, ", "))
	g := check(t, "wide.bir", []byte(b.String()))
	out := checkSVG(t, planner.Plan(g, planner.Options{Budget: planner.DefaultBudget}))
	doc := parseSVG(t, out[0])
	if doc.width != report.SVGWidth {
		t.Errorf("width %v, want %v: the legend wraps", doc.width, report.SVGWidth)
	}
	var legend []string
	for _, e := range doc.texts {
		if e.y > report.PlotTop+report.PlotHeight+56 {
			legend = append(legend, e.text)
		}
	}
	if len(legend) < 4 {
		t.Errorf("legend lines %q, want at least 4", legend)
	}
	all := strings.Join(legend, " ")
	for _, n := range ins {
		if !strings.Contains(all, n) {
			t.Errorf("legend lacks %s", n)
		}
	}
	if len(doc.reason) != 2 { // graph-input, graph-output
		t.Errorf("data-reason on %v", doc.reason)
	}
}

// TestSVGLargeBundle: gpt2's bundle (197 steps, 196 pooled buffers, 162
// graph inputs) is 1200 px wide with the plot across it, and most of its
// tall 2-step rectangles (1060/197*2 = 10.76 px wide) now carry their
// name upwards at 8 or 9 px: once only 24 names were drawn; at least 60
// are now (68 at the time of writing: 18 across, 50 upwards).
func TestSVGLargeBundle(t *testing.T) {
	src, err := os.ReadFile("../examples/models/gpt2.bir")
	if err != nil {
		t.Fatal(err)
	}
	g := check(t, "gpt2.bir", src)
	out := checkSVG(t, planner.Plan(g, planner.Options{Budget: planner.DefaultBudget}))
	doc := parseSVG(t, out[0])
	if doc.width != report.SVGWidth || len(doc.rects) != 196 {
		t.Errorf("width %v, %d rectangles", doc.width, len(doc.rects))
	}
	if len(doc.labels) < 60 {
		t.Errorf("%d of %d buffers named inside", len(doc.labels), len(doc.rects))
	}
}
