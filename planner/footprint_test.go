package planner_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/heapstat"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

func planSrc(t *testing.T, src string, opt planner.Options, unfused bool) *planner.Result {
	t.Helper()
	g, errs := frontend.ParseCheck("f.bir", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	if unfused {
		g = g.Unfused()
	}
	if opt.Budget == 0 {
		opt.Budget = planner.DefaultBudget
	}
	return planner.Plan(g, opt)
}

// timeline is the footprint as node names and HBM per position.
func timeline(p *planner.Result, f *planner.Footprint) (names []string, standalone, pool []int64) {
	for t, n := range f.Nodes {
		names = append(names, planner.NodeName(p.Graph, n))
		standalone = append(standalone, f.Standalone[t])
		pool = append(pool, f.Pool(t))
	}
	return
}

func eq[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFootprintSmall: examples/small.bir under the default flags gives the
// values of the contract's example. Positions: mlp (0), scale3 (1), the
// CPU node absmax4 (2). Standalone: the inputs x, w, b (32768 + 131072 +
// 512 = 164352) over [0, 2]; act (32768) written by mlp, last read by
// absmax4: [0, 2]; y (32768), an output first touched by scale3: [1, 2];
// amax (128) read by scale3, written by absmax4: [1, 2]. So 197120 at 0
// and 164352 + 32768 + 32768 + 128 = 230016 at 1 and 2. mlp's pool is
// 65536 (mm and pre overlap at step 1): HBM 262656 at 0, the peak. Without
// pooling mm and pre (32768 each) are standalone at 0 only: 262656 again;
// with the pool resident everywhere, 230016 + 65536 = 295552.
func TestFootprintSmall(t *testing.T) {
	src, err := os.ReadFile("../examples/small.bir")
	if err != nil {
		t.Fatal(err)
	}
	p := planSrc(t, string(src), planner.Options{}, false)
	f := p.Footprint()
	names, st, pool := timeline(p, f)
	if !eq(names, []string{"mlp", "scale3", "absmax4"}) || !eq(st, []int64{197120, 230016, 230016}) || !eq(pool, []int64{65536, 0, 0}) {
		t.Errorf("timeline %v %v %v", names, st, pool)
	}
	if f.Peak != 262656 || f.PeakPosition != 0 || f.NoPoolingPeak != 262656 || f.ResidentPoolsPeak != 295552 {
		t.Errorf("peak %d at %d, no pooling %d, resident %d", f.Peak, f.PeakPosition, f.NoPoolingPeak, f.ResidentPoolsPeak)
	}
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"{\n  \"format_version\": 2,\n  \"graph\": ",
		`"peak_bytes": 262656, "peak_node": "mlp", "peak_position": 0,`,
		`"no_pooling_peak_bytes": 262656, "resident_pools_peak_bytes": 295552,`,
		`{"node": "absmax4", "kind": "cpu", "standalone_bytes": 230016, "pool_bytes": 0}`,
	} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("plan JSON lacks %q", want)
		}
	}
}

// rulesSrc is one graph for the rules of each kind of group.
const rulesSrc = `graph r {
  buffer in   : 1024   // input, touched only by b1: still live over [0, 4]
  buffer out  : 2048   // output, written by b2: [2, 4]
  buffer dead : 4096   // output nobody touches: [0, 4]
  buffer idle : 8192   // declared, untouched, neither: not in HBM
  buffer sram : 16384  // LX: never in HBM
  buffer tmp  : 256    // pooled in b1 (written and read there)
  buffer x    : 512    // written by b1, read by c3: [1, 3]
  buffer z    : 128    // written by c0 and read by b2: [0, 2]
  input in
  output out, dead
  lx sram
  cpu c0 writes z
  fused b1 {
    op w reads in writes tmp, sram
    op r reads tmp writes x
  }
  op b2 reads z, sram writes out
  cpu c3 reads x
  op b4 reads in writes out
}`

// TestFootprintRules: rulesSrc's footprint.
func TestFootprintRules(t *testing.T) {
	src := rulesSrc
	// Positions: c0 0, b1 1, b2 2, c3 3, b4 4. Standalone per position:
	// in 1024 everywhere and dead 4096 everywhere (5120), z [0,2],
	// x [1,3], out [2,4]:
	//   0: 5120 + 128               = 5248
	//   1: 5120 + 128 + 512         = 5760
	//   2: 5120 + 128 + 512 + 2048  = 7808
	//   3: 5120 + 512 + 2048        = 7680
	//   4: 5120 + 2048              = 7168
	// b1's pool is tmp, 256 bytes, at 1: HBM 6016. Peak 7808 at b2 (2).
	// No pooling: tmp at 1 only: 6016 again, below 7808. Resident: 7808 +
	// 256 = 8064.
	p := planSrc(t, src, planner.Options{}, false)
	f := p.Footprint()
	names, st, pool := timeline(p, f)
	if !eq(names, []string{"c0", "b1", "b2", "c3", "b4"}) || !eq(st, []int64{5248, 5760, 7808, 7680, 7168}) || !eq(pool, []int64{0, 256, 0, 0, 0}) {
		t.Errorf("timeline %v %v %v", names, st, pool)
	}
	if f.Peak != 7808 || f.PeakPosition != 2 || f.NoPoolingPeak != 7808 || f.ResidentPoolsPeak != 8064 {
		t.Errorf("peak %d at %d, no pooling %d, resident %d", f.Peak, f.PeakPosition, f.NoPoolingPeak, f.ResidentPoolsPeak)
	}
	if f.First[groupOf(p.Graph, "idle")] != -1 || f.First[groupOf(p.Graph, "sram")] != -1 || f.First[groupOf(p.Graph, "tmp")] != -1 {
		t.Errorf("idle, sram or tmp standalone")
	}

	// Planning off: tmp is standalone over [1, 1] like any touched group;
	// the peak is unchanged (7808 at 2), and at 1 it is 5760 + 256 = 6016.
	p = planSrc(t, src, planner.Options{Disabled: true}, false)
	f = p.Footprint()
	if _, st, _ := timeline(p, f); !eq(st, []int64{5248, 6016, 7808, 7680, 7168}) || f.Peak != 7808 {
		t.Errorf("planning off: %v, peak %d", st, f.Peak)
	}
	// Planning off, every group's reason is disabled (first in the
	// table): one reason, all of the standalone bytes.
	if got := byReason(p, f); got != "disabled [5248 6016 7808 7680 7168]" {
		t.Errorf("planning off, by reason: %s", got)
	}
}

// byReason is f's standalone bytes by reason, one "reason [bytes]" per
// reason present, in table order.
func byReason(p *planner.Result, f *planner.Footprint) string {
	var s []string
	reasons, rows := p.StandaloneByReason(f)
	for k, r := range reasons {
		s = append(s, fmt.Sprintf("%s %v", r, rows[k]))
	}
	return strings.Join(s, "; ")
}

// TestFootprintByReason: rulesSrc, its standalone
// bytes split by why each group is not pooled, in table order: in (1024,
// graph-input) everywhere; dead (4096, everywhere) and out (2048, [2, 4])
// are graph-output; x (512, [1, 3]) is read by the CPU node c3
// (cpu-read); z (128, [0, 2]) is written only by the CPU node c0
// (not-written). tmp is pooled, idle and sram never in HBM, so pooled,
// unused and lx do not occur. The sums per position are
// TestFootprintRules' 5248 5760 7808 7680 7168.
func TestFootprintByReason(t *testing.T) {
	p := planSrc(t, rulesSrc, planner.Options{}, false)
	f := p.Footprint()
	want := "graph-input [1024 1024 1024 1024 1024]; graph-output [4096 4096 6144 6144 6144]; cpu-read [0 512 512 512 0]; not-written [128 128 128 0 0]"
	if got := byReason(p, f); got != want {
		t.Errorf("by reason:\n got %s\nwant %s", got, want)
	}
	checkByReason(t, p, f)
}

// checkByReason holds f's split by reason to the literal rule: per
// reason and position, the bytes of the groups standalone there
// (Footprint.Live) with that reason; the reasons present are exactly
// theirs, in table order and never "pooled"; and per position the
// saturating sum of the split is Standalone.
func checkByReason(t *testing.T, p *planner.Result, f *planner.Footprint) {
	t.Helper()
	T := len(f.Nodes)
	want := map[planner.Reason][]int64{}
	for gi := range p.Graph.Groups {
		if f.First[gi] < 0 {
			continue
		}
		r := p.Groups[gi].Reason
		if want[r] == nil {
			want[r] = make([]int64, T)
		}
		for k := 0; k < T; k++ {
			if f.Live(gi, k) {
				want[r][k] = satAdd(want[r][k], p.Graph.Groups[gi].Size)
			}
		}
	}
	reasons, rows := p.StandaloneByReason(f)
	if len(reasons) != len(want) || len(rows) != len(want) {
		t.Fatalf("%d reasons, %d rows; the standalone groups have %d", len(reasons), len(rows), len(want))
	}
	for k, r := range reasons {
		if r == planner.Pooled || k > 0 && r <= reasons[k-1] {
			t.Fatalf("reasons %v: pooled, or not in table order", reasons)
		}
		if !eq(rows[k], want[r]) {
			t.Fatalf("%s: %v, want %v", r, rows[k], want[r])
		}
	}
	for k := 0; k < T; k++ {
		var sum int64
		for _, row := range rows {
			sum = satAdd(sum, row[k])
		}
		if sum != f.Standalone[k] {
			t.Fatalf("position %d: reasons sum to %d, standalone %d", k, sum, f.Standalone[k])
		}
	}
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// TestFootprintByReasonModels: the split by reason of every model of
// examples/models (fused, default budget and a 1 MiB budget, which
// turns candidates over-budget) is the literal rule's and sums to the
// standalone bytes.
func TestFootprintByReasonModels(t *testing.T) {
	files, err := filepath.Glob("../examples/models/*.bir")
	if err != nil || len(files) == 0 {
		t.Fatal("no models", err)
	}
	overBudget := false
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int64{planner.DefaultBudget, 1 << 20} {
			p := planSrc(t, string(src), planner.Options{Budget: budget}, false)
			f := p.Footprint()
			checkByReason(t, p, f)
			reasons, _ := p.StandaloneByReason(f)
			for _, r := range reasons {
				overBudget = overBudget || r == planner.OverBudget
			}
		}
	}
	if !overBudget {
		t.Errorf("no model has over-budget groups under 1 MiB")
	}
}

func groupOf(g *ir.Graph, name string) int {
	for _, b := range g.Buffers.All() {
		if g.Str(b.Name) == name {
			return int(b.Group)
		}
	}
	return -1
}

// TestFootprintUnfused: with fusion off every leaf op is a bundle at its
// own position, in step order, and a CPU node keeps its place between the
// fused blocks it was written between.
func TestFootprintUnfused(t *testing.T) {
	const src = `graph u {
  buffer x : 128
  buffer a : 256
  buffer b : 512
  buffer c : 1024
  input x
  output c
  fused f {
    op f0 reads x writes a
    loop l count 2 {
      op f1 reads a writes b
    }
  }
  cpu h reads b writes b
  fused g {
    op g0 reads b writes c
  }
}`
	// Unfused: f0 0, f1 1, h 2, g0 3. x 128 over [0, 3]; a [0, 1]
	// (cross-bundle now); b [1, 3]; c output first touched at 3.
	//   0: 128 + 256             = 384
	//   1: 128 + 256 + 512       = 896
	//   2: 128 + 512             = 640
	//   3: 128 + 512 + 1024      = 1664, the peak.
	p := planSrc(t, src, planner.Options{}, true)
	f := p.Footprint()
	names, st, pool := timeline(p, f)
	if !eq(names, []string{"f0", "f1", "h", "g0"}) || !eq(st, []int64{384, 896, 640, 1664}) || !eq(pool, []int64{0, 0, 0, 0}) {
		t.Errorf("timeline %v %v %v", names, st, pool)
	}
	if f.Peak != 1664 || f.PeakPosition != 3 {
		t.Errorf("peak %d at %d", f.Peak, f.PeakPosition)
	}
	// Fused: f 0, h 1, g 2; a is pooled in f (256, alone), b is
	// cpu-read: [0, 2]. 0: 128 + 512 = 640 + pool 256 = 896; 1: 640;
	// 2: 640 + 1024 = 1664.
	p = planSrc(t, src, planner.Options{}, false)
	f = p.Footprint()
	names, st, pool = timeline(p, f)
	if !eq(names, []string{"f", "h", "g"}) || !eq(st, []int64{640, 640, 1664}) || !eq(pool, []int64{256, 0, 0}) {
		t.Errorf("fused: timeline %v %v %v", names, st, pool)
	}
}

// TestFootprintTies: equal HBM at two positions: the first is the peak.
// And a graph with no nodes has peak 0 at no position.
func TestFootprintTies(t *testing.T) {
	// x (128) is an input, live everywhere; a (256) is written by p0 and
	// read by p1, [0, 1]; b (256) written by p2 and read by p3, [2, 3]
	// (both cross-bundle). HBM is 384 at every position: the peak is the
	// first, p0 at 0.
	const src = `graph t {
  buffer x : 128
  buffer a : 256
  buffer b : 256
  input x
  op p0 reads x writes a
  op p1 reads a
  op p2 reads x writes b
  op p3 reads b
}`
	p := planSrc(t, src, planner.Options{}, false)
	f := p.Footprint()
	if _, st, _ := timeline(p, f); !eq(st, []int64{384, 384, 384, 384}) || f.Peak != 384 || f.PeakPosition != 0 {
		t.Errorf("ties: %v, peak %d at %d", st, f.Peak, f.PeakPosition)
	}
	p = planSrc(t, "graph e {\n  buffer x : 128\n  input x\n}", planner.Options{}, false)
	f = p.Footprint()
	if len(f.Nodes) != 0 || f.Peak != 0 || f.PeakPosition != -1 {
		t.Errorf("no nodes: %d nodes, peak %d at %d", len(f.Nodes), f.Peak, f.PeakPosition)
	}
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if want := `"peak_bytes": 0, "peak_node": null, "peak_position": null,`; !strings.Contains(js.String(), want) {
		t.Errorf("plan JSON lacks %s:\n%s", want, js.String())
	}
}

// TestFootprintOverBudget: a candidate that does not fit the budget is
// standalone over its touches. Budget 256: a (256) fits, b (256) overlaps
// it and falls back; b is touched by k only, [0, 0].
func TestFootprintOverBudget(t *testing.T) {
	const src = `graph o {
  buffer x : 128
  buffer a : 256
  buffer b : 256
  input x
  fused k {
    op p0 reads x writes a, b
    op p1 reads a, b writes x
  }
}`
	p := planSrc(t, src, planner.Options{Budget: 256}, false)
	f := p.Footprint()
	// 128 (x) + 256 (b standalone) = 384, pool 256: 640.
	if _, st, pool := timeline(p, f); !eq(st, []int64{384}) || !eq(pool, []int64{256}) || f.Peak != 640 || f.NoPoolingPeak != 640 {
		t.Errorf("over budget: %v %v, peak %d, no pooling %d", st, pool, f.Peak, f.NoPoolingPeak)
	}
}

// plainFootprint is the rule applied literally: for every position and
// every group, is the group live there? Quadratic, for small graphs.
func plainFootprint(p *planner.Result) (names []string, standalone, pool []int64, noPool, resident int64) {
	g := p.Graph
	type node struct {
		pos   ir.Pos
		cpu   bool
		i     int
		touch map[int32]bool
	}
	var nodes []node
	for i := range g.Bundles {
		n := node{pos: g.Bundles[i].Pos, i: i, touch: map[int32]bool{}}
		for _, op := range g.Bundles[i].Ops {
			for _, a := range g.OpAccesses(&op) {
				n.touch[g.GroupOf(&a)] = true
			}
		}
		nodes = append(nodes, n)
	}
	for i, c := range g.CPU {
		n := node{pos: c.Pos, cpu: true, i: i, touch: map[int32]bool{}}
		for _, a := range g.CPUAccesses(&c) {
			n.touch[g.GroupOf(&a)] = true
		}
		// insert by position
		k := len(nodes)
		for k > 0 && (nodes[k-1].pos.Line > n.pos.Line || nodes[k-1].pos.Line == n.pos.Line && nodes[k-1].pos.Col > n.pos.Col) {
			k--
		}
		nodes = append(nodes[:k], append([]node{n}, nodes[k:]...)...)
	}
	var allPools int64
	for bi := range p.Bundles {
		if p.Bundles[bi].HasPool() {
			allPools += p.Bundles[bi].PoolSize
		}
	}
	for t, n := range nodes {
		var st, extra, pl int64
		if n.cpu {
			names = append(names, g.CPU[n.i].Name)
		} else {
			names = append(names, g.Bundles[n.i].Name)
			if p.Bundles[n.i].HasPool() {
				pl = p.Bundles[n.i].PoolSize
			}
		}
		for gi := range g.Groups {
			gr, claims := &g.Groups[gi], g.GroupClaims[gi]
			if claims.Has(ir.ClaimLX) {
				continue
			}
			if pg := p.Groups[gi]; pg.Offset >= 0 {
				if !n.cpu && int(pg.Bundle) == n.i {
					extra += gr.Size
				}
				continue
			}
			first, last := -1, -1
			for u := range nodes {
				if nodes[u].touch[int32(gi)] {
					if first < 0 {
						first = u
					}
					last = u
				}
			}
			live := false
			switch {
			case claims.Has(ir.ClaimInput):
				live = true
			case claims.Has(ir.ClaimOutput):
				live = t >= max(first, 0)
			default:
				live = first >= 0 && first <= t && t <= last
			}
			if live {
				st += gr.Size
			}
		}
		standalone = append(standalone, st)
		pool = append(pool, pl)
		noPool = max(noPool, st+extra)
		resident = max(resident, st+allPools)
	}
	return
}

// TestFootprintMatchesPlain holds Footprint equal to the literal rule on
// random graphs, fused and unfused, with tight budgets and planning off.
func TestFootprintMatchesPlain(t *testing.T) {
	for seed := int64(0); seed < 400; seed++ {
		r := rand.New(rand.NewSource(seed))
		src := randgraph.Generate(r, randgraph.Config{Buffers: 4 + int(seed%20), Bundles: 1 + int(seed%6), MaxOps: 1 + int(seed%7), MaxDepth: int(seed % 3)})
		opt := planner.Options{Budget: []int64{planner.DefaultBudget, 1024, 128}[seed%3], Disabled: seed%11 == 0}
		p := planSrc(t, src, opt, seed%4 == 1)
		f := p.Footprint()
		names, st, pool := timeline(p, f)
		wn, ws, wp, noPool, resident := plainFootprint(p)
		if !eq(names, wn) || !eq(st, ws) || !eq(pool, wp) || f.NoPoolingPeak != noPool || f.ResidentPoolsPeak != resident {
			t.Fatalf("seed %d: got %v %v %v %d %d\nwant %v %v %v %d %d\n%s", seed, names, st, pool, f.NoPoolingPeak, f.ResidentPoolsPeak, wn, ws, wp, noPool, resident, src)
		}
		peak, at := int64(0), -1
		for k := range ws {
			if at < 0 || ws[k]+wp[k] > peak {
				peak, at = ws[k]+wp[k], k
			}
		}
		if f.Peak != peak || f.PeakPosition != at {
			t.Fatalf("seed %d: peak %d at %d, want %d at %d", seed, f.Peak, f.PeakPosition, peak, at)
		}
		checkByReason(t, p, f)
	}
}

// TestCompareFootprint: with --compare every allocator's peak is the
// footprint of the plan that allocator makes (its pools, its over-budget
// groups standalone), and the plan JSON lists them in table order after
// the baselines. Graphs of many buffers in two bundles give the
// allocators room to differ; every other one has a 4 KiB budget, so what
// falls back differs too.
func TestCompareFootprint(t *testing.T) {
	var all []alloc.Placer
	for _, a := range alloc.Table() {
		all = append(all, a.With(alloc.Options{}))
	}
	differ := 0
	for seed := int64(0); seed < 60; seed++ {
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Config{Buffers: 40, Bundles: 2, MaxOps: 14, MaxDepth: 1})
		opt := planner.Options{Budget: []int64{planner.DefaultBudget, 4096}[seed%2]}
		p := planSrc(t, src, opt, false)
		p.Compare = planner.Compare(p.Graph, opt, all)
		seen := map[int64]bool{}
		for k, alt := range p.Compare {
			a, err := alloc.Lookup(alt.Allocator, alloc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			o := opt
			o.Allocator = a
			if want := planner.Plan(p.Graph, o).Footprint().Peak; alt.PeakBytes != want || alt.Allocator != alloc.Names()[k] {
				t.Fatalf("seed %d: %s peak %d, its plan's footprint %d", seed, alt.Allocator, alt.PeakBytes, want)
			}
			seen[alt.PeakBytes] = true
		}
		if len(seen) > 1 {
			differ++
		}
		if seed == 0 {
			var js bytes.Buffer
			if err := planner.WriteJSON(&js, p); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(js.String(), "\"resident_pools_peak_bytes\": ") || !strings.Contains(js.String(), ",\n    \"peak_bytes_by_allocator\": {\"first-fit\": ") {
				t.Errorf("plan JSON lacks peak_bytes_by_allocator after the baselines:\n%s", js.String())
			}
		}
	}
	if differ < 5 {
		t.Errorf("only %d of 60 graphs have allocators with different peaks", differ)
	}
}

// TestFootprintAllocates: Footprint allocates its result (the nodes, 8
// bytes a position; Standalone, 8; First and Last, 8 bytes a group) and
// its scratch (each bundle's position, 4 bytes a bundle; the standalone
// difference array, 16 bytes a position; the pooled groups' bytes
// without pooling, 8), nothing per reason and no pool bytes per position
// (Pool reads the plan's): on a graph without fusion every op is a
// position, and a difference array and a row per reason present made
// the footprint of a million ops 170 MB, most of the run's peak. The
// split by reason is StandaloneByReason's, on demand. Each of the nine
// allocations may round up to a whole 8 KiB page.
func TestFootprintAllocates(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 200, Seed: 3, Family: "views"}); err != nil {
		t.Fatal(err)
	}
	p := planSrc(t, src.String(), planner.Options{Budget: 1 << 20}, true)
	f := p.Footprint()
	if reasons, _ := p.StandaloneByReason(f); len(reasons) < 4 {
		t.Fatalf("standalone reasons %v: the graph should have several", reasons)
	}
	T, groups, bundles := len(f.Nodes), len(p.Graph.Groups), len(p.Graph.Bundles)
	want := uint64(40*T + 8*groups + 4*bundles + 9*8192)
	if got := heapstat.AllocatedPerCall(4, func() { p.Footprint() }); got > want {
		t.Errorf("Footprint of %d positions, %d groups, %d bundles allocates %d bytes, want at most %d", T, groups, bundles, got, want)
	}
}
