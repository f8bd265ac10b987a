package report

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io"
	"sync"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/templates"
)

// HTMLOptions adds to the interactive view what the plan alone does not
// hold.
type HTMLOptions struct {
	// Alternatives are plans of the same graph by other allocators
	// (same options otherwise); each bundle's pool is drawn once per
	// plan, side by side, on one scale.
	Alternatives []*planner.Result
	// SDSCCache is the run's SDSC cache setting, for the explain text of
	// a group whose root names an op too (see Explain).
	SDSCCache bool
}

// timelinePoint is one position of the graph's HBM timeline
// (planner.Footprint): a top-level node (a bundle or a CPU node), the
// bytes of the standalone storage groups live there and the bytes of the
// pool there.
type timelinePoint struct {
	Node       string `json:"node"`
	Bundle     int    `json:"bundle"` // index into the graph's bundles, -1 for a CPU node
	Standalone int64  `json:"standalone"`
	Pool       int64  `json:"pool"`
}

// baseline is a named peak the timeline is compared with, in bytes.
type baseline struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

// maxExplain bounds the explain texts embedded in the page, in bytes
// before compression, and maxExplainGroups the groups they are written
// for (each costs a pass over the graph). Past either, the page holds
// none and composes a short form from its data (explainGroups).
const (
	maxExplain       = 4 << 20
	maxExplainGroups = 3000
)

// htmlPage is the data of the view, embedded in the page as JSON (the
// view's script reads it; docs/reporting.md describes the fields).
// Groups are columns indexed by storage group; per bundle, one entry per
// plan in Allocators.
type htmlPage struct {
	Graph      string   `json:"graph"`
	Budget     int64    `json:"budget"`
	Allocators []string `json:"allocators"`
	Reasons    []string `json:"reasons"` // index 0 is "pooled"
	Names      []string `json:"names"`   // buffer names
	BufGroup   []int32  `json:"buf_group"`
	// Per group: root buffer, size, reason index, candidate bundle (-1
	// for none) and views, flattened (buffer, view offset, size) or null.
	GRoot   []int32   `json:"g_root"`
	GSize   []int64   `json:"g_size"`
	GReason []int     `json:"g_reason"`
	GBundle []int32   `json:"g_bundle"`
	GViews  [][]int64 `json:"g_views"`
	// ExplainGz is the Explain text of every group's root, as a JSON
	// array compressed with gzip, in base64 (the texts are most of the
	// page otherwise, and compress about tenfold); "" when too big.
	ExplainGz string       `json:"explain_gz"`
	Evidence  []string     `json:"evidence"` // per group without ExplainGz: the decision's evidence, "" when pooled
	Bundles   []htmlBundle `json:"bundles"`
	// Timeline is the footprint per top-level node; Baselines the peaks
	// it is compared with.
	Timeline  []timelinePoint `json:"timeline"`
	Baselines []baseline      `json:"baselines"`
	// StandaloneReasons are the reasons (indexes into Reasons) of the
	// standalone bytes, only those that occur, in table order;
	// StandaloneByReason[k] is the standalone bytes of reason
	// StandaloneReasons[k] per position (planner.Result.StandaloneByReason) in
	// runs: flat (bytes, count) pairs, count positions each, in order. A
	// reason's bytes stay equal over long stretches (a graph input's over
	// the whole graph), so runs hold a 10,000-node timeline's split in
	// about a third of the plain numbers.
	StandaloneReasons  []int     `json:"standalone_reasons"`
	StandaloneByReason [][]int64 `json:"standalone_by_reason"`
}

type htmlBundle struct {
	Name  string   `json:"name"`
	Kind  string   `json:"kind"`
	Ops   []string `json:"ops"` // op name per step
	Lower int64    `json:"lower"`
	// Per plan: pool size (-1 without a pool entry) and pooled
	// groups flattened (group, start, end, offset), in allocation order.
	Pool   []int64   `json:"pool"`
	Blocks [][]int64 `json:"blocks"`
	// Fallbacks of the first plan, by reason: reason index, then the
	// groups.
	Fallbacks [][]int32 `json:"fallbacks"`
}

var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templates.FS, "view.html.tmpl"))
})

// HTML writes the interactive memory view of plan p: one self-contained
// page (inline style and script, no network) laid out by
// templates/view.html.tmpl, with the plan's data embedded as JSON. The
// bytes are a function of the plans and options alone.
func HTML(w io.Writer, p *planner.Result, opt HTMLOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := htmlTemplate().Execute(bw, htmlData(p, opt)); err != nil {
		return err
	}
	return bw.Flush()
}

func htmlData(p *planner.Result, opt HTMLOptions) *htmlPage {
	g := p.Graph
	plans := append([]*planner.Result{p}, opt.Alternatives...)
	d := &htmlPage{Graph: g.Name, Budget: p.Budget, Reasons: []string{"pooled"}}
	f := p.Footprint()
	d.Timeline = make([]timelinePoint, len(f.Nodes))
	for t, n := range f.Nodes {
		b := -1
		if !n.CPU {
			b = int(n.Index)
		}
		d.Timeline[t] = timelinePoint{Node: planner.NodeName(g, n), Bundle: b, Standalone: f.Standalone[t], Pool: f.Pool(t)}
	}
	d.StandaloneReasons, d.StandaloneByReason = []int{}, [][]int64{}
	reasons, rows := p.StandaloneByReason(f)
	for k, r := range reasons {
		d.StandaloneReasons = append(d.StandaloneReasons, r.Index()+1)
		d.StandaloneByReason = append(d.StandaloneByReason, runs(rows[k]))
	}
	d.Baselines = []baseline{{"no pooling", f.NoPoolingPeak}, {"pools resident", f.ResidentPoolsPeak}}
	for _, alt := range p.Compare {
		if alt.Allocator != p.Allocator {
			d.Baselines = append(d.Baselines, baseline{alt.Allocator, alt.PeakBytes})
		}
	}
	for _, q := range plans {
		d.Allocators = append(d.Allocators, q.Allocator)
	}
	for _, r := range planner.Reasons() {
		d.Reasons = append(d.Reasons, r.String())
	}
	d.Names = make([]string, g.Buffers.Len())
	d.BufGroup = make([]int32, g.Buffers.Len())
	for i, b := range g.Buffers.All() {
		d.Names[i] = g.Str(b.Name)
		d.BufGroup[i] = b.Group
	}
	n := len(g.Groups)
	d.GRoot, d.GSize, d.GReason, d.GBundle, d.GViews = make([]int32, n), make([]int64, n), make([]int, n), make([]int32, n), make([][]int64, n)
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		d.GRoot[gi], d.GSize[gi], d.GReason[gi], d.GBundle[gi] = g.Root(gr), gr.Size, p.Groups[gi].Reason.Index()+1, p.Groups[gi].Bundle
		// The views: the members after the root, in declaration order.
		for _, m := range g.Members(gr)[1:] {
			b := g.Buffers.At(int(m))
			d.GViews[gi] = append(d.GViews[gi], int64(m), g.ViewOf(b).ViewOffset, b.Size)
		}
	}
	texts := explainGroups(p, opt.SDSCCache)
	if texts != nil {
		d.ExplainGz = gzipJSON(texts)
	} else {
		d.Evidence = make([]string, n)
		ix := p.Index()
		for gi := range n {
			if p.Groups[gi].Reason != planner.Pooled {
				d.Evidence[gi] = evidence(p, ix, gi)
			}
		}
	}
	for bi := range g.Bundles {
		b := &g.Bundles[bi]
		hb := htmlBundle{Name: b.Name, Kind: b.Kind.String(), Ops: make([]string, len(b.Ops)), Lower: p.Bundles[bi].LowerBound}
		for s := range b.Ops {
			hb.Ops[s] = g.Str(b.Ops[s].Name)
		}
		for _, q := range plans {
			pb := &q.Bundles[bi]
			pool := int64(-1)
			if pb.HasPool() {
				pool = pb.PoolSize
			}
			blocks := []int64{}
			for _, gi := range q.Candidates(bi) {
				if pg := &q.Groups[gi]; pg.Offset >= 0 {
					blocks = append(blocks, int64(gi), int64(pg.Start), int64(pg.End), pg.Offset)
				}
			}
			hb.Pool = append(hb.Pool, pool)
			hb.Blocks = append(hb.Blocks, blocks)
		}
		for r, list := range fallbacksOf(p, p.Index().Groups(bi), bi) {
			if len(list) == 0 {
				continue
			}
			e := []int32{int32(r + 1)}
			for _, gi := range list {
				e = append(e, int32(gi))
			}
			hb.Fallbacks = append(hb.Fallbacks, e)
		}
		if hb.Fallbacks == nil {
			hb.Fallbacks = [][]int32{}
		}
		d.Bundles = append(d.Bundles, hb)
	}
	return d
}

// runs is row as flat (value, count) pairs: count positions of value
// each, in order.
func runs(row []int64) []int64 {
	out := []int64{}
	for i := 0; i < len(row); {
		j := i + 1
		for j < len(row) && row[j] == row[i] {
			j++
		}
		out = append(out, row[i], int64(j-i))
		i = j
	}
	return out
}

// gzipJSON is v as JSON, compressed with gzip (no name, no time: the
// bytes depend on v alone), in standard base64.
func gzipJSON(v any) string {
	js, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings only
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(js)
	zw.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// explainGroups is the Explain text of every storage group's root, or
// nil when the graph has more than maxExplainGroups groups or the texts
// pass maxExplain bytes.
func explainGroups(p *planner.Result, sdscCache bool) []string {
	g := p.Graph
	if len(g.Groups) > maxExplainGroups {
		return nil
	}
	out := make([]string, len(g.Groups))
	total := 0
	var b bytes.Buffer
	for gi := range g.Groups {
		b.Reset()
		if Explain(&b, p, groupName(g, gi), sdscCache) != nil {
			return nil
		}
		total += b.Len()
		if total > maxExplain {
			return nil
		}
		out[gi] = b.String()
	}
	return out
}
