package verify

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// sequentialPlan is the verifier as one pass, before Prepare split it:
// every check in the order of the package comment on one goroutine, the
// per-bundle checks bundle by bundle into four lists merged in the
// order Plan reports them (cores, CPU cores, live ranges, groups,
// pools, bounds). It is the reference Prepared.check's order is held to.
func sequentialPlan(g *ir.Graph, p *planner.Result, opt Options) error {
	c := &checker{g: g, p: p, opt: opt}
	if !c.begin() {
		return c.result()
	}
	c.views = deriveViews(g)
	c.checkViews(c.views)
	c.reasons()
	var lists [4]checker
	for l := range lists {
		lists[l] = checker{g: g, p: p, opt: opt, ws: c.ws, candStart: c.candStart, candList: c.candList, views: c.views}
	}
	s := new(scratch)
	for bi := range g.Bundles {
		lists[0].checkCores(bi)
		lists[1].liveRanges(s, bi)
		lists[1].sortCandidates(s, bi)
		lists[2].checkBundle(s, bi)
		lists[3].checkBounds(bi)
	}
	c.merge(&lists[0])
	c.checkCoresCPU()
	c.merge(&lists[1])
	c.checkGroups(0, len(g.Groups))
	c.merge(&lists[2])
	c.merge(&lists[3])
	return c.result()
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// corruption is one edit of a planned graph or its plan.
type corruption struct {
	name string
	// apply edits g or p (r picks where) and reports whether it applied.
	apply func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool
}

// pick is an index in [0, n) for which ok holds, looked for from a
// random one on, or -1.
func pick(n int, r *rand.Rand, ok func(i int) bool) int {
	if n == 0 {
		return -1
	}
	at := r.Intn(n)
	for k := range n {
		if i := (at + k) % n; ok(i) {
			return i
		}
	}
	return -1
}

var corruptions = []corruption{
	{"offset moved", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		gi := pick(len(p.Groups), r, func(i int) bool { return p.Groups[i].Offset >= 0 })
		if gi < 0 {
			return false
		}
		p.Groups[gi].Offset += int64(64 * (1 + r.Intn(4)))
		return true
	}},
	{"offset onto another", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		a := pick(len(p.Groups), r, func(i int) bool { return p.Groups[i].Offset >= 0 })
		b := pick(len(p.Groups), r, func(i int) bool { return p.Groups[i].Offset >= 0 && i != a })
		if a < 0 || b < 0 {
			return false
		}
		p.Groups[a].Offset = p.Groups[b].Offset
		return true
	}},
	{"fell back", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		gi := pick(len(p.Groups), r, func(i int) bool { return p.Groups[i].Offset >= 0 })
		if gi < 0 {
			return false
		}
		p.Groups[gi].Offset, p.Groups[gi].Reason = -1, planner.OverBudget
		return true
	}},
	{"reason", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		gi := r.Intn(len(p.Groups))
		p.Groups[gi].Reason = planner.Reasons()[r.Intn(planner.NumReasons)]
		return true
	}},
	{"bundle", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		gi := r.Intn(len(p.Groups))
		p.Groups[gi].Bundle = int32(r.Intn(len(p.Bundles)+1) - 1)
		return true
	}},
	{"range", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		gi := r.Intn(len(p.Groups))
		p.Groups[gi].Start += int32(r.Intn(3) - 1)
		p.Groups[gi].End += int32(r.Intn(3) - 1)
		return true
	}},
	{"pool size", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		bi := r.Intn(len(p.Bundles))
		p.Bundles[bi].PoolSize += int64(128 * (r.Intn(3) - 1))
		return true
	}},
	{"lower bound", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		p.Bundles[r.Intn(len(p.Bundles))].LowerBound++
		return true
	}},
	{"candidates", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		bi := pick(len(p.Bundles), r, func(i int) bool { return p.Bundles[i].Candidates.Len >= 2 })
		if bi < 0 {
			return false
		}
		c := p.Candidates(bi)
		i, j := r.Intn(len(c)), r.Intn(len(c))
		c[i], c[j] = c[j], c[i]
		return i != j
	}},
	{"allocator", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		p.Allocator = []string{"", "someone-else"}[r.Intn(2)]
		return true
	}},
	{"budget", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool { p.Budget++; return true }},
	{"disabled", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool { p.Disabled = !p.Disabled; return true }},
	{"groups dropped", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		p.Groups = p.Groups[:len(p.Groups)-1]
		return true
	}},
	{"buffer size off the stick", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		g.Buffers.At(r.Intn(g.Buffers.Len())).Size += 64
		return true
	}},
	{"view offset", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		bi := pick(g.Buffers.Len(), r, func(i int) bool { return g.Buffers.At(i).View >= 0 })
		if bi < 0 {
			return false
		}
		g.EditView(g.Buffers.At(bi)).ViewOffset += 128
		return true
	}},
	{"group size", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		g.Groups[r.Intn(len(g.Groups))].Size -= int64(1 + r.Intn(256))
		return true
	}},
	{"access buffer", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		if g.Accesses.Len() == 0 {
			return false
		}
		g.Accesses.At(r.Intn(g.Accesses.Len())).Buffer = int32(r.Intn(g.Buffers.Len()))
		return true
	}},
	{"buffer group", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		g.Buffers.At(r.Intn(g.Buffers.Len())).Group = int32(r.Intn(len(g.Groups) + 1))
		return true
	}},
	{"cores", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		b := &g.Bundles[r.Intn(len(g.Bundles))]
		if len(b.Ops) == 0 {
			return false
		}
		b.Ops[r.Intn(len(b.Ops))].Cores = g.AddInts([]int64{int64(r.Intn(3)), 2})
		return true
	}},
	{"list out of range", func(g *ir.Graph, p *planner.Result, r *rand.Rand) bool {
		b := &g.Bundles[r.Intn(len(g.Bundles))]
		if len(b.Ops) == 0 {
			return false
		}
		b.Ops[r.Intn(len(b.Ops))].NReads += 100
		return true
	}},
}

// TestPreparedSameErrors: Prepare, run beside planner.Plan on the graph
// (as the CLI may), then Prepared.PlanAndJSON, reports exactly the
// violations of the one-pass verifier (sequentialPlan) and of Plan, on
// one worker or several, for random graphs and plans with one to three
// random corruptions; the JSON verdict is JSONReader's.
func TestPreparedSameErrors(t *testing.T) {
	applied := make([]int, len(corruptions))
	failing := 0
	for seed := int64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewSource(seed))
		cfg := randgraph.Config{Buffers: 1 + r.Intn(20), Bundles: 1 + r.Intn(6), MaxOps: 1 + r.Intn(10), MaxDepth: r.Intn(4)}
		src := randgraph.Generate(r, cfg)
		g, errs := frontend.ParseCheck("r.bir", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		budget := []int64{planner.DefaultBudget, 1024, 4096}[r.Intn(3)]
		// The same options for both, as sdscgen.Compile passes them.
		opt := planner.Options{Budget: budget, Disabled: r.Intn(8) == 0}
		// Beside the planner: both only read g.
		preDone := make(chan *Prepared, 1)
		go func() { preDone <- Prepare(g, opt) }()
		p := planner.Plan(g, opt)
		pre := <-preDone
		var js bytes.Buffer
		if err := planner.WriteJSON(&js, p); err != nil {
			t.Fatal(err)
		}
		if seed%3 != 0 {
			// Corrupt, then prepare again (the corruptions edit g).
			for range 1 + r.Intn(3) {
				k := r.Intn(len(corruptions))
				if len(g.Groups) == 0 || len(p.Groups) == 0 || len(g.Bundles) == 0 {
					break
				}
				if corruptions[k].apply(g, p, r) {
					applied[k]++
				}
			}
			pre = Prepare(g, opt)
		}
		want := errText(sequentialPlan(g, p, opt))
		if want != "<nil>" {
			failing++
		}
		jsonWant := "<nil>"
		if c := (&checker{g: g, p: p, opt: opt}); c.begin() {
			// (JSONReader trusts what begin checks.)
			jsonWant = errText(JSONReader(g, p, bytes.NewReader(js.Bytes())))
		}
		planErr, jsonErr := pre.PlanAndJSON(p, bytes.NewReader(js.Bytes()))
		if got := errText(planErr); got != want {
			t.Fatalf("seed %d: Prepared.PlanAndJSON reports\n%s\nthe one-pass verifier\n%s\n%s", seed, got, want, src)
		}
		if got := errText(Plan(g, p, opt)); got != want {
			t.Fatalf("seed %d: Plan reports\n%s\nthe one-pass verifier\n%s", seed, got, want)
		}
		opt2 := opt
		opt2.Workers = 3
		if got := errText(Prepare(g, opt2).Plan(p)); got != want {
			t.Fatalf("seed %d: on 3 workers, Prepared.Plan reports\n%s\nthe one-pass verifier\n%s", seed, got, want)
		}
		// A plan that does not index the graph stops before the JSON.
		if jsonErr != nil || jsonWant != "<nil>" {
			if got := errText(jsonErr); got != jsonWant && !(jsonErr == nil && planErr != nil) {
				t.Fatalf("seed %d: JSON\n%s\nJSONReader\n%s", seed, got, jsonWant)
			}
		}
	}
	for k, n := range applied {
		if n < 20 {
			t.Errorf("corruption %q applied only %d times", corruptions[k].name, n)
		}
	}
	if failing < 1500 {
		t.Errorf("only %d of the plans fail", failing)
	}
}

// TestJSONFastPathSameErrors: with the fast paths (buffers, kernel
// arguments, ops) and without them, the JSON check reports the same, on
// the writer's text of random plans with random edits in its buffers
// array (even seeds) or from its bundles array on (odd seeds).
func TestJSONFastPathSameErrors(t *testing.T) {
	differ := 0
	differIn := [2]int{}
	for seed := int64(0); seed < 1500; seed++ {
		r := rand.New(rand.NewSource(seed))
		src := randgraph.Generate(r, randgraph.Default)
		g, errs := frontend.ParseCheck("r.bir", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		p := planner.Plan(g, planner.Options{Budget: []int64{planner.DefaultBudget, 1024}[r.Intn(2)]})
		var js bytes.Buffer
		if err := planner.WriteJSON(&js, p); err != nil {
			t.Fatal(err)
		}
		doc := js.Bytes()
		at := bytes.Index(doc, []byte([2]string{`"buffers": [`, `"bundles": [`}[seed%2]))
		for range 1 + r.Intn(3) {
			i := at + r.Intn(len(doc)-at)
			switch r.Intn(4) {
			case 0: // a byte changed
				doc[i] = "0123456789 ,:\"{}[]nulabt\\"[r.Intn(25)]
			case 1: // a byte dropped
				doc = append(doc[:i:i], doc[i+1:]...)
			case 2: // a field's value swapped for null
				if j := bytes.Index(doc[i:], []byte(`: `)); j >= 0 {
					k := i + j + 2
					e := k
					for e < len(doc) && doc[e] != ',' && doc[e] != '}' {
						e++
					}
					doc = append(doc[:k:k], append([]byte("null"), doc[e:]...)...)
				}
			case 3: // a space added
				doc = append(doc[:i:i], append([]byte(" "), doc[i:]...)...)
			}
		}
		fast := errText(JSON(g, p, doc))
		slow := errText(checkJSON(g, p, &reader{data: doc, tok: -1}, nil, true))
		if fast != slow {
			t.Fatalf("seed %d: the fast path reports\n%s\nthe long way\n%s\n%s", seed, fast, slow, doc)
		}
		if fast != "<nil>" {
			differ++
			differIn[seed%2]++
		}
	}
	if differ < 1000 || min(differIn[0], differIn[1]) < 400 {
		t.Errorf("only %d edited documents fail (%d edited in buffers, %d from bundles on)", differ, differIn[0], differIn[1])
	}
}
