package planner_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

func mustGraph(t testing.TB, src string) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse("t.bir", []byte(src))
	if len(errs) > 0 {
		t.Fatalf("parse: %v\n%s", errs, src)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatalf("check: %v\n%s", errs, src)
	}
	return g
}

// TestRandomGraphs is the property test of issue 2: on thousands of seeded
// random graphs with random budgets, no two pooled groups of a bundle whose
// live ranges intersect overlap in bytes, every pool fits its budget, and
// the fast first-fit gives exactly the plan of the naive one.
func TestRandomGraphs(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	pooledSeen := 0
	reasons := map[planner.Reason]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := randgraph.Config{Buffers: 2 + r.Intn(20), Bundles: 1 + r.Intn(6), MaxOps: 1 + r.Intn(8), MaxDepth: r.Intn(4)}
		src := randgraph.Generate(r, cfg)
		g := mustGraph(t, src)
		if r.Intn(4) == 0 {
			g = g.Unfused()
		}
		budget := []int64{0, 1, 128, 1024, 4096, 16384, DefaultBudgetForTest}[r.Intn(7)]
		fast := planner.Plan(g, planner.Options{Budget: budget, Allocator: alloc.Placer{Name: "first-fit", Func: alloc.FirstFit}})
		naive := planner.Plan(g, planner.Options{Budget: budget, Allocator: alloc.Placer{Name: "first-fit", Func: alloc.NaiveFirstFit}})
		if a, b := summary(fast), summary(naive); a != b {
			t.Fatalf("seed %d: fast and naive first-fit differ:\n%s\nvs\n%s\n%s", seed, a, b, src)
		}
		for _, gr := range fast.Groups {
			reasons[gr.Reason]++
		}
		for bi := range g.Bundles {
			pb := fast.Bundles[bi]
			if pb.PoolSize > budget {
				t.Fatalf("seed %d: bundle %s pool %d over budget %d", seed, g.Bundles[bi].Name, pb.PoolSize, budget)
			}
			var top int64
			for _, x := range fast.Candidates(bi) {
				gx := fast.Groups[x]
				if gx.Offset < 0 {
					continue
				}
				pooledSeen++
				top = max(top, gx.Offset+g.Groups[x].Size)
				for _, y := range fast.Candidates(bi) {
					gy := fast.Groups[y]
					if x == y || gy.Offset < 0 {
						continue
					}
					live := gx.Start <= gy.End && gy.Start <= gx.End
					bytes := gx.Offset < gy.Offset+g.Groups[y].Size && gy.Offset < gx.Offset+g.Groups[x].Size
					if live && bytes {
						t.Fatalf("seed %d: %s and %s overlap in time and bytes\n%s", seed, g.GroupKey(&g.Groups[x]), g.GroupKey(&g.Groups[y]), src)
					}
				}
			}
			if pb.HasPool() && top != pb.PoolSize {
				t.Fatalf("seed %d: pool size %d but highest byte %d", seed, pb.PoolSize, top)
			}
		}
	}
	// The generator must keep exercising every rule: pooling in at least
	// one graph in three, and every reason code somewhere.
	if pooledSeen < n/3 {
		t.Fatalf("only %d pooled groups over %d graphs: the generator no longer exercises pooling", pooledSeen, n)
	}
	for _, r := range planner.Reasons() {
		if r != planner.Disabled && reasons[r] == 0 {
			t.Errorf("reason %s never occurred over %d graphs", r, n)
		}
	}
}

// DefaultBudgetForTest keeps the test independent of the default's value.
const DefaultBudgetForTest = 1 << 40

func summary(p *planner.Result) string {
	s := ""
	for gi, gr := range p.Groups {
		s += fmt.Sprintf("%s:%s:%d:%d:%d:%d\n", p.Graph.GroupKey(&p.Graph.Groups[gi]), gr.Reason, gr.Bundle, gr.Start, gr.End, gr.Offset)
	}
	for bi, b := range p.Bundles {
		s += fmt.Sprintf("%v:%d:%d\n", p.Candidates(bi), b.PoolSize, b.LowerBound)
	}
	return s
}

// TestLowerBoundSaturates: three 2^62-byte buffers live at once hold
// 3*2^62 bytes, more than an int64 holds. The lower bound must saturate at
// MaxInt64 (not wrap to a negative number), in the plan and its JSON. With
// the largest budget, the first buffer bumps to offset 0 and the other two
// fall back: 2^62 more bytes would pass MaxInt64 = 2^63-1.
func TestLowerBoundSaturates(t *testing.T) {
	g := mustGraph(t, `graph big {
  buffer a : 4611686018427387904
  buffer b : 4611686018427387904
  buffer c : 4611686018427387904
  buffer x : 128
  buffer y : 128
  input x
  output y
  fused k {
    op w reads x writes a, b, c
    op r reads a, b, c writes y
  }
}`)
	p := planner.Plan(g, planner.Options{Budget: math.MaxInt64})
	pb := p.Bundles[0]
	if pb.LowerBound != math.MaxInt64 {
		t.Fatalf("lower bound %d, want saturation at %d", pb.LowerBound, int64(math.MaxInt64))
	}
	if pb.PoolSize != 1<<62 {
		t.Errorf("pool size %d, want 2^62 (one buffer placed)", pb.PoolSize)
	}
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if want := `"lower_bound": 9223372036854775807, "pos": `; !strings.Contains(js.String(), want) {
		t.Errorf("plan JSON lacks %s:\n%s", want, js.String())
	}
	// Two of them (2^63 bytes) still pass MaxInt64; one alone is exact.
	two := []alloc.Interval{{Name: "a", Size: 1 << 62, Start: 0, End: 1}, {Name: "b", Size: 1 << 62, Start: 1, End: 2}}
	if lb := planner.LowerBound(two); lb != math.MaxInt64 {
		t.Errorf("two 2^62 buffers live at step 1: lower bound %d, want %d", lb, int64(math.MaxInt64))
	}
	// Their sizes sum past MaxInt64, but they are never live together:
	// the 128-bit sweep must give the exact peak, 2^62.
	two[1].Start = 2
	if lb := planner.LowerBound(two); lb != 1<<62 {
		t.Errorf("two disjoint 2^62 buffers: lower bound %d, want 2^62", lb)
	}
	// A third, small one live with the first: 2^62 + 128.
	three := append(two, alloc.Interval{Name: "c", Size: 128, Start: 0, End: 0})
	if lb := planner.LowerBound(three); lb != 1<<62+128 {
		t.Errorf("lower bound %d, want 2^62+128", lb)
	}
}

// TestJSONViewOffset: every buffer line carries "view_offset" right after
// "offset"; a view shares its group's offset and has its own view offset,
// and the pool holds the group's size (5120 = view offset 3072 + 2048, more
// than the root's 4096 bytes).
func TestJSONViewOffset(t *testing.T) {
	h := &ir.Graph{} // holds the names and the ops' lists
	g := &ir.Graph{Name: "v",
		Buffers: ir.ChunkedOf([]ir.Buffer{
			{Name: h.AddName("t"), Size: 4096, Group: 0, View: -1},
			{Name: h.AddName("hi"), Size: 2048, Group: 0, View: 0},
			{Name: h.AddName("x"), Size: 128, Group: 1, View: -1},
		}...),
		Views: []ir.View{{Alias: 0, AliasOffset: 3072, ViewOffset: 3072}},
		Groups: []ir.Group{
			{Members: h.AddMembers([]int32{0, 1}), Size: 5120},
			{Members: h.AddMembers([]int32{2}), Size: 128},
		},
		Claims:      []ir.Claim{{Kind: ir.ClaimInput, Buffer: 2}},
		GroupClaims: []ir.ClaimSet{0, 1 << ir.ClaimInput},
		Bundles: []ir.Bundle{{Name: "k", Kind: ir.KindFused,
			Ops: []ir.Op{
				h.NewOp("w", nil, nil, []ir.Access{{Buffer: 2}}, []ir.Access{{Buffer: 0}}),
				h.NewOp("r", nil, nil, []ir.Access{{Buffer: 1}}, []ir.Access{{Buffer: 0}}),
			},
			Body: h.AddItems([]ir.Item{{Op: 0, Loop: -1}, {Op: 1, Loop: -1}})}},
	}
	g.Names, g.Ints, g.Accesses, g.LoopLists, g.MemberLists, g.Items = h.Names, h.Ints, h.Accesses, h.LoopLists, h.MemberLists, h.Items
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"name": "t", "size": 4096, "bundle": "k", "start": 0, "end": 1, "offset": 0, "view_offset": 0, "reason": null, "group": "t", "pos": ":0:0"}`,
		`{"name": "hi", "size": 2048, "bundle": "k", "start": 0, "end": 1, "offset": 0, "view_offset": 3072, "reason": null, "group": "t", "pos": ":0:0"}`,
		`{"name": "x", "size": 128, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-input", "group": "x", "pos": ":0:0"}`,
		`"pool_sizes": {"k": 5120}`,
	} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("plan JSON lacks %s:\n%s", want, js.String())
		}
	}
}

// failingWriter fails every write after the first ok ones, counting the
// writes it is asked for.
type failingWriter struct{ ok, writes int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.writes > w.ok {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// bigChain is a graph of 20,000 buffers t0..t19999 and one bundle of
// 19,999 ops, op i reading t(i-1) and writing ti.
func bigChain(t *testing.T) *ir.Graph {
	t.Helper()
	var b strings.Builder
	b.WriteString("graph big {\n")
	const n = 20000
	for i := range n {
		fmt.Fprintf(&b, "  buffer t%d : 256\n", i)
	}
	b.WriteString("  input t0\n  fused k {\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "    op o%d reads t%d writes t%d\n", i, i-1, i)
	}
	b.WriteString("  }\n  output t19999\n}\n")
	g, errs := frontend.ParseCheck("big.bir", []byte(b.String()))
	if errs != nil {
		t.Fatal(errs)
	}
	return g
}

// TestWriteJSONStopsAtWriteError: the plan JSON is handed to the writer
// in 64 KiB pieces; once one fails, WriteJSON returns that error at once
// (the verifier stops reading a document it has rejected, and the writer
// must not build the rest: a plan of 20,000 buffers and ops is well over
// ten pieces, so any write after the failing one is a defect).
func TestWriteJSONStopsAtWriteError(t *testing.T) {
	g := bigChain(t)
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var whole bytes.Buffer
	if err := planner.WriteJSON(&whole, p); err != nil {
		t.Fatal(err)
	}
	if whole.Len() < 10*(64<<10) {
		t.Fatalf("the document is %d bytes: too small for this test", whole.Len())
	}
	for _, ok := range []int{0, 1, 3} {
		w := &failingWriter{ok: ok}
		if err := planner.WriteJSON(w, p); err == nil || err.Error() != "disk full" {
			t.Fatalf("after %d good writes: %v, want disk full", ok, err)
		}
		if w.writes != ok+1 {
			t.Errorf("after %d good writes: %d writes, want %d (none after the failing one)", ok, w.writes, ok+1)
		}
	}
}

// piecesWriter records the length of the largest write.
type piecesWriter struct{ writes, largest int }

func (w *piecesWriter) Write(p []byte) (int, error) {
	w.writes++
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

// TestWriteJSONInPieces: every part of the plan JSON, the footprint's
// timeline included, is handed to the writer in pieces of about 64 KiB
// (a piece ends after the element that took it past 64 KiB), never held
// whole: with fusion off, the 20,000 ops of TestWriteJSONStopsAtWriteError
// are 20,000 bundles, whose timeline alone is some 1.8 MB (about 90
// bytes a node); 10,000 bundles with a pool each have a "pool_sizes" of
// some 200 KB.
func TestWriteJSONInPieces(t *testing.T) {
	const n = 20000
	g := bigChain(t)
	p := planner.Plan(g.Unfused(), planner.Options{Budget: planner.DefaultBudget})
	if len(p.Bundles) != n-1 {
		t.Fatalf("%d bundles, want %d", len(p.Bundles), n-1)
	}
	w := &piecesWriter{}
	if err := planner.WriteJSON(w, p); err != nil {
		t.Fatal(err)
	}
	// 64 KiB, and the element that passed it: a few hundred bytes here.
	if w.largest > 64<<10+4<<10 {
		t.Errorf("fusion off: a write of %d bytes (%d writes): a part of the document was built whole", w.largest, w.writes)
	}

	// 10,000 bundles of two ops, each with a pool for the buffer its
	// first op writes and its second reads: "pool_sizes" has 10,000
	// entries, some 200 KB.
	var b strings.Builder
	b.WriteString("graph pools {\n  buffer x : 256\n")
	const m = 10000
	for i := range m {
		fmt.Fprintf(&b, "  buffer t%d : 256\n  buffer y%d : 256\n", i, i)
	}
	b.WriteString("  input x\n")
	for i := range m {
		fmt.Fprintf(&b, "  fused k%d {\n    op a%d reads x writes t%d\n    op b%d reads t%d writes y%d\n  }\n  output y%d\n", i, i, i, i, i, i, i)
	}
	b.WriteString("}\n")
	g, errs := frontend.ParseCheck("pools.bir", []byte(b.String()))
	if errs != nil {
		t.Fatal(errs)
	}
	p = planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	if !p.Bundles[m-1].HasPool() {
		t.Fatal("the last bundle has no pool")
	}
	w = &piecesWriter{}
	if err := planner.WriteJSON(w, p); err != nil {
		t.Fatal(err)
	}
	if w.largest > 64<<10+4<<10 {
		t.Errorf("pools: a write of %d bytes (%d writes): a part of the document was built whole", w.largest, w.writes)
	}
}
