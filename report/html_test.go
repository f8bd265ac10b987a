package report_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// pageData is the JSON the view embeds, as far as the tests read it.
type pageData struct {
	Graph      string    `json:"graph"`
	Budget     int64     `json:"budget"`
	Allocators []string  `json:"allocators"`
	Reasons    []string  `json:"reasons"`
	Names      []string  `json:"names"`
	BufGroup   []int     `json:"buf_group"`
	GRoot      []int     `json:"g_root"`
	GSize      []int64   `json:"g_size"`
	GReason    []int     `json:"g_reason"`
	GBundle    []int     `json:"g_bundle"`
	GViews     [][]int64 `json:"g_views"`
	ExplainGz  string    `json:"explain_gz"`
	Evidence   []string  `json:"evidence"`
	Bundles    []struct {
		Name      string    `json:"name"`
		Ops       []string  `json:"ops"`
		Lower     int64     `json:"lower"`
		Pool      []int64   `json:"pool"`
		Blocks    [][]int64 `json:"blocks"`
		Fallbacks [][]int   `json:"fallbacks"`
	} `json:"bundles"`
	Timeline []struct {
		Node             string `json:"node"`
		Bundle           int    `json:"bundle"`
		Standalone, Pool int64
	} `json:"timeline"`
	Baselines []struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	} `json:"baselines"`
	StandaloneReasons  []int     `json:"standalone_reasons"`
	StandaloneByReason [][]int64 `json:"standalone_by_reason"`
}

var dataRE = regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`)

// renderHTML renders the view of p twice (the bytes must be equal) and
// returns the page and its data.
func renderHTML(t testing.TB, p *planner.Result, opt report.HTMLOptions) ([]byte, pageData) {
	t.Helper()
	var a, b bytes.Buffer
	if err := report.HTML(&a, p, opt); err != nil {
		t.Fatal(err)
	}
	report.HTML(&b, p, opt)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings differ")
	}
	m := dataRE.FindSubmatch(a.Bytes())
	if m == nil {
		t.Fatal("no data script")
	}
	var d pageData
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return a.Bytes(), d
}

// checkPage checks the page data against the plans: every pooled group
// of every bundle is one block (group, start, end, offset) in allocation
// order, per plan; the fallbacks are the bundle's touched, not pooled
// groups by reason; the groups' columns are the graph's; and the page
// loads nothing from elsewhere.
func checkPage(t *testing.T, page []byte, d pageData, plans ...*planner.Result) {
	t.Helper()
	p := plans[0]
	g := p.Graph
	if d.Graph != g.Name || d.Budget != p.Budget || len(d.Allocators) != len(plans) || len(d.Bundles) != len(g.Bundles) {
		t.Fatalf("header %q %d %v, %d bundles", d.Graph, d.Budget, d.Allocators, len(d.Bundles))
	}
	for i, b := range g.Buffers.All() {
		if d.Names[i] != g.Str(b.Name) || d.BufGroup[i] != int(b.Group) {
			t.Errorf("buffer %d: %q in %d", i, d.Names[i], d.BufGroup[i])
		}
	}
	for gi, gr := range g.Groups {
		pg := p.Groups[gi]
		if d.GRoot[gi] != int(g.Root(&gr)) || d.GSize[gi] != gr.Size || d.GBundle[gi] != int(pg.Bundle) || d.Reasons[d.GReason[gi]] != map[bool]string{true: "pooled", false: pg.Reason.String()}[pg.Reason == planner.Pooled] {
			t.Errorf("group %d: root %d size %d bundle %d reason %d", gi, d.GRoot[gi], d.GSize[gi], d.GBundle[gi], d.GReason[gi])
		}
		var views []int64
		for _, m := range g.Members(&gr) {
			if b := g.Buffers.At(int(m)); b.View >= 0 {
				views = append(views, int64(m), g.ViewOf(b).ViewOffset, b.Size)
			}
		}
		if jsonOf(views) != jsonOf(d.GViews[gi]) {
			t.Errorf("group %d views %v, want %v", gi, d.GViews[gi], views)
		}
	}
	for bi := range g.Bundles {
		hb := d.Bundles[bi]
		if hb.Name != g.Bundles[bi].Name || len(hb.Ops) != len(g.Bundles[bi].Ops) || hb.Lower != p.Bundles[bi].LowerBound {
			t.Errorf("bundle %d: %s, %d ops, lower %d", bi, hb.Name, len(hb.Ops), hb.Lower)
		}
		for k, q := range plans {
			var want []int64
			for _, gi := range q.Candidates(bi) {
				if pg := q.Groups[gi]; pg.Offset >= 0 {
					want = append(want, int64(gi), int64(pg.Start), int64(pg.End), pg.Offset)
				}
			}
			if jsonOf(want) != jsonOf(hb.Blocks[k]) && !(len(want) == 0 && len(hb.Blocks[k]) == 0) {
				t.Errorf("bundle %s, plan %s: blocks %v, want %v", hb.Name, q.Allocator, hb.Blocks[k], want)
			}
			pool := int64(-1)
			if q.Bundles[bi].HasPool() {
				pool = q.Bundles[bi].PoolSize
			}
			if hb.Pool[k] != pool {
				t.Errorf("bundle %s, plan %s: pool %d, want %d", hb.Name, q.Allocator, hb.Pool[k], pool)
			}
		}
		// Fallbacks: every touched group not pooled here, once, under
		// its reason, reasons in precedence order.
		seen := map[int]bool{}
		for _, op := range g.Bundles[bi].Ops {
			for _, a := range g.OpAccesses(&op) {
				if !p.Pooled(int(g.GroupOf(&a)), bi) {
					seen[int(g.GroupOf(&a))] = true
				}
			}
		}
		n, last := 0, 0
		for _, f := range hb.Fallbacks {
			if f[0] <= last {
				t.Errorf("bundle %s: reasons out of order", hb.Name)
			}
			last = f[0]
			for _, gi := range f[1:] {
				n++
				if !seen[gi] || d.Reasons[f[0]] != p.Groups[gi].Reason.String() {
					t.Errorf("bundle %s: fallback %d under %s", hb.Name, gi, d.Reasons[f[0]])
				}
			}
		}
		if n != len(seen) {
			t.Errorf("bundle %s: %d fallbacks, want %d", hb.Name, n, len(seen))
		}
	}
	// Self-contained: no external script, style, image or link.
	for _, bad := range []string{"src=", "href=", "@import", "url(", "fetch(", "XMLHttpRequest"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("page contains %q", bad)
		}
	}
}

// checkTimeline: the page's timeline is the plan's footprint, position by
// position (node name, its bundle or -1 for a CPU node, standalone and
// pool bytes), and the baselines are its no-pooling and resident-pools
// peaks, then the other allocators' peaks of --compare.
func checkTimeline(t *testing.T, d pageData, p *planner.Result) {
	t.Helper()
	f := p.Footprint()
	if len(d.Timeline) != len(f.Nodes) {
		t.Fatalf("timeline of %d positions, footprint of %d", len(d.Timeline), len(f.Nodes))
	}
	for k, n := range f.Nodes {
		e := d.Timeline[k]
		b := int(n.Index)
		if n.CPU {
			b = -1
		}
		if e.Node != planner.NodeName(p.Graph, n) || e.Bundle != b || e.Standalone != f.Standalone[k] || e.Pool != f.Pool(k) {
			t.Errorf("timeline[%d] = %+v, want %s %d %d %d", k, e, planner.NodeName(p.Graph, n), b, f.Standalone[k], f.Pool(k))
		}
	}
	// The standalone bytes by reason: the footprint's split, its reasons
	// named by index into the page's reasons, each row in runs that
	// expand to one number per position, no two neighbouring runs of
	// equal bytes; per position they sum to the standalone bytes.
	reasons, byReason := p.StandaloneByReason(f)
	if len(d.StandaloneReasons) != len(reasons) || len(d.StandaloneByReason) != len(byReason) {
		t.Fatalf("reasons %v, rows %d; footprint %v", d.StandaloneReasons, len(d.StandaloneByReason), reasons)
	}
	rows := make([][]int64, len(d.StandaloneByReason))
	for k, r := range reasons {
		rr := d.StandaloneByReason[k]
		for j := 0; j+1 < len(rr); j += 2 {
			if rr[j+1] < 1 || j > 0 && rr[j] == rr[j-2] {
				t.Errorf("reason %s: runs %v", r, rr)
			}
			for c := int64(0); c < rr[j+1]; c++ {
				rows[k] = append(rows[k], rr[j])
			}
		}
		if d.Reasons[d.StandaloneReasons[k]] != r.String() || len(rr)%2 != 0 || fmt.Sprint(rows[k]) != fmt.Sprint(byReason[k]) || len(rows[k]) != len(f.Nodes) {
			t.Errorf("reason %d: %s %v, want %s %v", k, d.Reasons[d.StandaloneReasons[k]], rr, r, byReason[k])
		}
	}
	for k := range d.Timeline {
		var sum int64
		for _, row := range rows {
			sum += row[k]
		}
		if sum != d.Timeline[k].Standalone {
			t.Errorf("position %d: reasons sum to %d, standalone %d", k, sum, d.Timeline[k].Standalone)
		}
	}
	want := fmt.Sprintf("no pooling %d, pools resident %d", f.NoPoolingPeak, f.ResidentPoolsPeak)
	for _, a := range p.Compare {
		if a.Allocator != p.Allocator {
			want += fmt.Sprintf(", %s %d", a.Allocator, a.PeakBytes)
		}
	}
	var got []string
	for _, b := range d.Baselines {
		got = append(got, fmt.Sprintf("%s %d", b.Name, b.Bytes))
	}
	if strings.Join(got, ", ") != want {
		t.Errorf("baselines %q, want %q", strings.Join(got, ", "), want)
	}
}

// TestHTMLTimelineByHand: offset_dedup is one bundle d (pool 768 bytes)
// reading the 128-byte input x and writing the 128-byte output y, both
// standalone and live at its one position: standalone 256, pool 768; by
// reason, 128 graph-input (x) and 128 graph-output (y), and no other
// reason is listed.
func TestHTMLTimelineByHand(t *testing.T) {
	p := plan(t, "offset_dedup", planner.DefaultBudget)
	page, d := renderHTML(t, p, report.HTMLOptions{})
	if len(d.Timeline) != 1 || d.Timeline[0].Node != "d" || d.Timeline[0].Bundle != 0 || d.Timeline[0].Standalone != 256 || d.Timeline[0].Pool != 768 {
		t.Errorf("timeline %+v", d.Timeline)
	}
	var names []string
	for _, r := range d.StandaloneReasons {
		names = append(names, d.Reasons[r])
	}
	if strings.Join(names, ",") != "graph-input,graph-output" || fmt.Sprint(d.StandaloneByReason) != "[[128 1] [128 1]]" {
		t.Errorf("by reason %v %v", names, d.StandaloneByReason)
	}
	// Compact: integers, one run of 128 bytes over 1 position a reason.
	if !bytes.Contains(page, []byte(`"standalone_reasons":[2,3],"standalone_by_reason":[[128,1],[128,1]]`)) {
		t.Errorf("page data lacks the compact split by reason")
	}
}

// unzipTexts decodes the page's compressed explain texts.
func unzipTexts(t *testing.T, gz string) []string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(gz)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	js, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	if err := json.Unmarshal(js, &texts); err != nil {
		t.Fatal(err)
	}
	return texts
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHTMLGoldenInputs: the page data agrees with the plan on every
// golden input, and holds each group's Explain text (these graphs are
// small).
func TestHTMLGoldenInputs(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget int64
	}{{"spec_example", planner.DefaultBudget}, {"reasons", 4096}, {"offset_dedup", planner.DefaultBudget},
		{"partial_overflow", planner.DefaultBudget}, {"nested_steps", planner.DefaultBudget}, {"alias_rename", planner.DefaultBudget}} {
		p := plan(t, c.name, c.budget)
		page, d := renderHTML(t, p, report.HTMLOptions{})
		checkPage(t, page, d, p)
		texts := unzipTexts(t, d.ExplainGz)
		if len(texts) != len(p.Graph.Groups) || d.Evidence != nil {
			t.Fatalf("%s: %d explanations for %d groups", c.name, len(texts), len(p.Graph.Groups))
		}
		for gi := range p.Graph.Groups {
			var b bytes.Buffer
			report.Explain(&b, p, p.Graph.Str(p.Graph.Buffers.At(int(p.Graph.Root(&p.Graph.Groups[gi]))).Name), false)
			if texts[gi] != b.String() {
				t.Errorf("%s: explanation of group %d differs", c.name, gi)
			}
		}
		checkTimeline(t, d, p)
	}
}

// TestHTMLAlternatives: with another plan, each bundle has its blocks
// and pool per plan (checkPage compares both with their plans).
func TestHTMLAlternatives(t *testing.T) {
	g := decoderBlock(t).Graph
	ff := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	best, err := alloc.Lookup("best", alloc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	alt := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget, Allocator: best})
	page, d := renderHTML(t, ff, report.HTMLOptions{Alternatives: []*planner.Result{alt}})
	checkPage(t, page, d, ff, alt)
	if strings.Join(d.Allocators, ",") != "first-fit,best" {
		t.Errorf("allocators %v", d.Allocators)
	}
	checkTimeline(t, d, ff)
}

// TestHTMLBig: the 10,000-buffer bundle is past the explain budget, so
// the page holds the short form instead (the evidence of each not pooled
// group, "" for pooled ones), and stays under 110 bytes per buffer:
// the names (~6 bytes each with quotes), the group columns (~25) and one
// block of four numbers (~20) a buffer.
func TestHTMLBig(t *testing.T) {
	g := check(t, "big.bir", []byte(bigGraph(10000)))
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	page, d := renderHTML(t, p, report.HTMLOptions{})
	checkPage(t, page, d, p)
	if d.ExplainGz != "" || len(d.Evidence) != len(g.Groups) {
		t.Fatalf("explain %d bytes, evidence %d", len(d.ExplainGz), len(d.Evidence))
	}
	for gi := range g.Groups {
		if (d.Evidence[gi] == "") != (p.Groups[gi].Reason == planner.Pooled) {
			t.Errorf("group %d: evidence %q", gi, d.Evidence[gi])
		}
	}
	t.Logf("%d bytes, %.1f per buffer", len(page), float64(len(page))/float64(g.Buffers.Len()))
	if len(page) > 110*g.Buffers.Len() {
		t.Errorf("%d bytes for %d buffers", len(page), g.Buffers.Len())
	}
}

// TestHTMLEscapes: names that HTML, JSON and the script element would
// misread come back unchanged from the page data, and none closes the
// script element early.
func TestHTMLEscapes(t *testing.T) {
	h := &ir.Graph{}
	names := []string{`a&b</script><script>alert(1)</script>`, `c<d>"'`}
	g := &ir.Graph{Name: `g</title><b>`,
		Buffers:     ir.ChunkedOf([]ir.Buffer{{Name: h.AddName(names[0]), Size: 256, Group: 0, View: -1}, {Name: h.AddName(names[1]), Size: 128, Group: 1, View: -1}}...),
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
	page, d := renderHTML(t, p, report.HTMLOptions{})
	checkPage(t, page, d, p)
	if d.Names[0] != names[0] || d.Names[1] != names[1] || d.Graph != g.Name {
		t.Errorf("names %q, graph %q", d.Names, d.Graph)
	}
	if n := bytes.Count(page, []byte("</script>")); n != 2 {
		t.Errorf("%d script end tags, want 2", n)
	}
	if !bytes.Contains(page, []byte("<title>sdscgen memory view: "+html.EscapeString(g.Name)+"</title>")) &&
		!bytes.Contains(page, []byte("<title>sdscgen memory view: g&lt;/title&gt;&lt;b&gt;</title>")) {
		t.Errorf("title not escaped")
	}
}
