package report_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand"
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
	lines  map[string]float64 // data-line -> y1
	reason []string           // data-reason of the legend entries, in order
	labels map[string]int     // buffer label text -> count
	titles map[string]string  // data-buffer -> tooltip
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
	doc := svgDoc{rects: map[string][4]float64{}, lines: map[string]float64{}, labels: map[string]int{}, titles: map[string]string{}}
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
				}
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
				if c, _ := attr(top, "class"); c == "l" {
					doc.labels[text.String()]++
				}
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
		for _, gi := range pb.Candidates {
			pg := &p.Groups[gi]
			if pg.Offset < 0 {
				continue
			}
			pooled++
			// Rectangles are named by the group's root.
			name := g.Buffers[g.Groups[gi].Root].Name
			r, ok := doc.rects[name]
			if !ok {
				t.Fatalf("bundle %s: no rectangle for pooled %s", g.Bundles[bi].Name, name)
			}
			x, y, w, h := sc.Rect(pg.Start, pg.End, pg.Offset, g.Groups[gi].Size)
			if !near(r[0], x) || !near(r[1], y) || !near(r[2], w) || !near(r[3], h) {
				t.Errorf("bundle %s: %s at %v, want %v", g.Bundles[bi].Name, name, r, [4]float64{x, y, w, h})
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
			for _, m := range g.Groups[gi].Members {
				if m != g.Groups[gi].Root {
					views = append(views, fmt.Sprintf("%s@%d", g.Buffers[m].Name, g.Buffers[m].ViewOffset))
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
		} else if len(doc.lines) != 0 {
			t.Errorf("bundle %s without pool has lines %v", g.Bundles[bi].Name, doc.lines)
		}

		// Legend: the reasons of the touched, not pooled groups.
		seen := map[int]bool{}
		for _, op := range g.Bundles[bi].Ops {
			for _, a := range append(append([]ir.Access{}, op.Reads...), op.Writes...) {
				if !p.Pooled(a.Group, bi) {
					seen[a.Group] = true
				}
			}
		}
		var want []string
		for _, r := range planner.Reasons {
			for gi := range seen {
				if p.Groups[gi].Reason == r {
					want = append(want, string(r))
					break
				}
			}
		}
		if strings.Join(doc.reason, " ") != strings.Join(want, " ") {
			t.Errorf("bundle %s: legend %v, want %v", g.Bundles[bi].Name, doc.reason, want)
		}

		// A rectangle is labelled exactly when its name fits inside.
		for name, r := range doc.rects {
			fits := r[2] >= float64(len(name))*6.6+4 && r[3] >= 14
			if fits != (doc.labels[name] == 1) {
				t.Errorf("bundle %s: %s on a %vx%v rectangle: labelled %d times", g.Bundles[bi].Name, name, r[2], r[3], doc.labels[name])
			}
		}
		// Labels fit their rectangle.
		for label, n := range doc.labels {
			r, ok := doc.rects[label]
			if !ok || n != 1 {
				t.Errorf("label %q (%d times) without its rectangle", label, n)
				continue
			}
			if r[2] < float64(len(label))*6.6+4 || r[3] < 14 {
				t.Errorf("label %q on a %vx%v rectangle", label, r[2], r[3])
			}
		}
	}
	return out
}

func TestSVGGoldenInputs(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget int64
	}{{"spec_example", planner.DefaultBudget}, {"reasons", 4096}, {"offset_dedup", planner.DefaultBudget},
		{"partial_overflow", planner.DefaultBudget}, {"nested_steps", planner.DefaultBudget}, {"alias_rename", planner.DefaultBudget}} {
		p, _ := plan(t, c.name, c.budget)
		checkSVG(t, p)
	}
	// Small buffers are labelled: offset_dedup's p, q and r all fit.
	p, _ := plan(t, "offset_dedup", planner.DefaultBudget)
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
	p, _ = plan(t, "reasons", 4096)
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
		g, _ := check(t, "r.bir", []byte(src))
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
		g, _ := check(t, "big.bir", []byte(bigGraph(n)))
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
		for _, gi := range p.Bundles[0].Candidates {
			want = append(want, g.Groups[gi].Name)
		}
		if strings.Join(doc.order, ",") != strings.Join(want, ",") {
			t.Errorf("n=%d: rectangles not in allocation order", n)
		}
	}
}

// TestSVGEscapes renders a hand-built graph whose names need escaping.
func TestSVGEscapes(t *testing.T) {
	g := &ir.Graph{Name: `g<&>"'`,
		Buffers: []ir.Buffer{{Name: "a&b", Size: 256, Group: 0, Alias: -1}, {Name: "c<d>", Size: 128, Group: 1, Alias: -1}},
		Groups:  []ir.Group{{Name: "a&b", Root: 0, Members: []int{0}, Size: 256}, {Name: "c<d>", Root: 1, Members: []int{1}, Size: 128, Input: true}},
		Bundles: []ir.Bundle{{Name: `b"1'`, Kind: ir.KindFused, Ops: []ir.Op{
			{Name: "o0", Step: 0, Reads: []ir.Access{{Buffer: 1, Group: 1}}, Writes: []ir.Access{{Buffer: 0, Group: 0}}},
			{Name: "o1", Step: 1, Reads: []ir.Access{{Buffer: 0, Group: 0}}},
		}}},
	}
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
