package synth

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"testing"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

var configs = []Config{
	{Ops: 1},
	{Ops: 2, Bundles: 2},
	{Ops: 50, Seed: 3},
	{Ops: 500, Bundles: 7, Seed: 1},
	{Ops: 3000, Bundles: 30, Seed: 42},
	{Ops: 5000, Bundles: 1, Seed: 9},
	{Ops: 4000, Bundles: 4000, Seed: 2},
}

func generate(t *testing.T, cfg Config) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Generate(&b, cfg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterministic(t *testing.T) {
	for _, cfg := range configs {
		a, b := generate(t, cfg), generate(t, cfg)
		if !bytes.Equal(a, b) {
			t.Errorf("%+v: two runs differ", cfg)
		}
	}
	c := Config{Ops: 500, Bundles: 7, Seed: 1}
	d := c
	d.Seed = 2
	if bytes.Equal(generate(t, c), generate(t, d)) {
		t.Errorf("seeds 1 and 2 give the same graph")
	}
}

// TestValid checks that every config parses and checks, has the asked-for
// shape, and exercises the planning rules it is meant to. The v2 frontend
// enforces the bounds rule (bundle-ir.md §2), so this is also the test that no
// step or split synth writes leaves its buffer.
func TestValid(t *testing.T) {
	for _, cfg := range configs {
		src := generate(t, cfg)
		f, errs := frontend.Parse("synth.bir", src)
		if errs != nil {
			t.Fatalf("%+v: %v", cfg, errs)
		}
		g, errs := frontend.Check(f)
		if errs != nil {
			t.Fatalf("%+v: %v", cfg, errs)
		}
		bundles := max(cfg.Bundles, 1)
		if len(g.Bundles) != bundles {
			t.Errorf("%+v: %d bundles", cfg, len(g.Bundles))
		}
		ops, loops, strided, multi, split := 0, 0, 0, 0, 0
		for _, b := range g.Bundles {
			ops += len(b.Ops)
			loops += len(b.Loops)
			for _, op := range b.Ops {
				if g.NumCores(&op) > 1 {
					multi++
				}
				for _, a := range g.Reads(&op) {
					if g.HasStride(&a) {
						strided++
					}
				}
				for _, a := range g.Writes(&op) {
					if g.AddressingOf(&a).Split.Present() {
						split++
					}
				}
			}
		}
		views, offset, chained := 0, 0, 0
		for _, b := range g.Buffers.All() {
			if v := g.ViewOf(b); v.Alias >= 0 {
				views++
				if v.AliasOffset > 0 {
					offset++
				}
				if g.Buffers.At(int(v.Alias)).View >= 0 {
					chained++
				}
			}
		}
		if ops != cfg.Ops {
			t.Errorf("%+v: %d leaf ops", cfg, ops)
		}
		if len(g.CPU) != 1+cfg.Ops/100000 {
			t.Errorf("%+v: %d cpu nodes", cfg, len(g.CPU))
		}
		p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
		reasons := map[planner.Reason]int{}
		var minSize, maxSize int64 = 1 << 62, 0
		for gi, pg := range p.Groups {
			reasons[pg.Reason]++
			minSize = min(minSize, g.Groups[gi].Size)
			maxSize = max(maxSize, g.Groups[gi].Size)
		}
		if cfg.Ops < 3000 {
			continue
		}
		want := []planner.Reason{planner.GraphInput, planner.GraphOutput, planner.CPURead, planner.NotWritten}
		if 3*cfg.Bundles <= cfg.Ops {
			want = append(want, planner.Pooled)
		}
		for _, r := range want {
			if reasons[r] == 0 {
				t.Errorf("%+v: no group is %q: %v", cfg, r, reasons)
			}
		}
		if cfg.Bundles > 1 && reasons[planner.CrossBundle] == 0 {
			t.Errorf("%+v: nothing is cross-bundle: %v", cfg, reasons)
		}
		if cfg.Bundles < cfg.Ops && (loops == 0 || strided == 0) {
			t.Errorf("%+v: %d loops, %d strided reads", cfg, loops, strided)
		}
		// One op in eight runs on cores, and writes split: hundreds of
		// each in 3000 ops. Every 1000th op's value gets a view, three
		// in four of them at an explicit offset (not all nonzero), and
		// every 3000th a view of that view.
		if multi < cfg.Ops/16 || split < multi {
			t.Errorf("%+v: %d multi-core ops, %d split writes", cfg, multi, split)
		}
		if views < cfg.Ops/1000 || chained < cfg.Ops/3000 {
			t.Errorf("%+v: %d views, %d at an offset, %d chained", cfg, views, offset, chained)
		}
		if minSize != 128 || maxSize < 32<<20 || maxSize > 64<<20 {
			t.Errorf("%+v: sizes %d .. %d", cfg, minSize, maxSize)
		}
	}
}

// TestKinds: with Kinds set, the graph is the one without kinds plus a
// `kind` clause on most ops (and kinds=N in the header comment), so
// Kinds 0, the default, writes what synth wrote before kinds existed.
// Seven ops in eight have a kind (so about 3500 of 4000), no more than
// Kinds distinct ones, with reuse inside the bundles: the first few
// kinds are the most drawn, so with 4000 ops in 40 bundles of 100 most
// ops share their kind with an earlier op of their bundle.
func TestKinds(t *testing.T) {
	kindClause := regexp.MustCompile(` kind [A-Za-z0-9_.]+`)
	for _, cfg := range []Config{{Ops: 4000, Bundles: 40, Seed: 3, Kinds: 12}, {Ops: 300, Bundles: 300, Seed: 1, Kinds: 1}, {Ops: 50, Kinds: 200}} {
		with := generate(t, cfg)
		plain := cfg
		plain.Kinds = 0
		without := generate(t, plain)
		if bytes.Contains(without, []byte(" kind")) {
			t.Fatalf("%+v: a kind without Kinds", plain)
		}
		stripped := kindClause.ReplaceAll(with, nil)
		stripped = bytes.Replace(stripped, []byte(fmt.Sprintf(" kinds=%d\n", cfg.Kinds)), []byte("\n"), 1)
		if !bytes.Equal(stripped, without) {
			t.Errorf("%+v: the graph without its kinds is not the one of Kinds 0", cfg)
		}
		g, errs := frontend.ParseCheck("synth.bir", with)
		if errs != nil {
			t.Fatalf("%+v: %v", cfg, errs)
		}
		if len(g.Kinds)-1 > cfg.Kinds || len(g.Kinds) < 2 {
			t.Errorf("%+v: %d kinds", cfg, len(g.Kinds)-1)
		}
		kinded, reused := 0, 0
		for _, b := range g.Bundles {
			seen := map[int32]bool{}
			for _, op := range b.Ops {
				if op.Kind == 0 {
					continue
				}
				kinded++
				if seen[op.Kind] {
					reused++
				}
				seen[op.Kind] = true
			}
		}
		if lo, hi := cfg.Ops*7/8-cfg.Ops/16, cfg.Ops*7/8+cfg.Ops/16; kinded < lo || kinded > hi {
			t.Errorf("%+v: %d ops of a kind, want %d..%d", cfg, kinded, lo, hi)
		}
		if cfg.Bundles == 40 && reused < kinded/2 {
			t.Errorf("%+v: %d of %d ops reuse a kind of their bundle", cfg, reused, kinded)
		}
	}
}

func TestBadConfig(t *testing.T) {
	var b bytes.Buffer
	for _, cfg := range []Config{{}, {Ops: 2, Bundles: 3}, {Ops: 2, Bundles: -1}, {Ops: 2, Kinds: -1}} {
		if Generate(&b, cfg) == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// BenchmarkGenerate times writing a 1M-op graph (the largest benchmark
// size) to io.Discard.
func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Generate(io.Discard, Config{Ops: 1_000_000, Bundles: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// familyStats is what TestFamilies measures of a family's graph.
type familyStats struct {
	ops, inLoops, maxDepth, multi, views, offsetViews, lx, cpu int
	minReads, maxReads, maxWrites                              int
	// farthest is the largest distance, in bundles, from the bundle that
	// first writes a buffer to a later bundle that reads it.
	farthest int
	// maxArgs is the largest number of kernel arguments of a bundle.
	maxArgs int
	cores   map[string]int
}

func measure(t *testing.T, cfg Config) familyStats {
	t.Helper()
	src := generate(t, cfg)
	g, errs := frontend.ParseCheck("synth.bir", src)
	if errs != nil {
		t.Fatalf("%+v: %v", cfg, errs)
	}
	st := familyStats{minReads: 1 << 30, cpu: len(g.CPU), cores: map[string]int{}}
	writer := map[int32]int{}
	for bi, b := range g.Bundles {
		for _, op := range b.Ops {
			st.ops++
			if d := len(g.OpLoops(&op)); d > 0 {
				st.inLoops++
				st.maxDepth = max(st.maxDepth, d)
			}
			if g.NumCores(&op) > 1 {
				st.multi++
				st.cores[fmt.Sprint(g.Cores(&op))]++
			}
			reads, writes := g.Reads(&op), g.Writes(&op)
			if st.ops > 2 { // the first ops have no past to read
				st.minReads = min(st.minReads, len(reads))
			}
			st.maxReads = max(st.maxReads, len(reads))
			st.maxWrites = max(st.maxWrites, len(writes))
			for _, a := range reads {
				if w, ok := writer[g.GroupOf(&a)]; ok {
					st.farthest = max(st.farthest, bi-w)
				}
			}
			for _, a := range writes {
				if _, ok := writer[g.GroupOf(&a)]; !ok {
					writer[g.GroupOf(&a)] = bi
				}
			}
		}
	}
	for _, b := range g.Buffers.All() {
		if v := g.ViewOf(b); v.Alias >= 0 {
			st.views++
			if v.AliasOffset > 0 {
				st.offsetViews++
			}
		}
	}
	for _, c := range g.GroupClaims {
		if c.Has(ir.ClaimLX) {
			st.lx++
		}
	}
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	for bi := range g.Bundles {
		st.maxArgs = max(st.maxArgs, len(p.KernelArgs(bi)))
	}
	// The whole library pipeline accepts it too: plan, verify, emit.
	res, err := sdscgen.Compile("synth.bir", src, sdscgen.Options{})
	if err != nil {
		t.Fatalf("%+v: %v", cfg, err)
	}
	if err := res.WriteMLIR(io.Discard, sdscgen.EmitOptions{Generic: true}); err != nil {
		t.Fatalf("%+v: %v", cfg, err)
	}
	return st
}

// TestFamilies checks each family's graph on 4000 ops over 40 bundles
// (100 ops a bundle): it parses, checks and compiles with the library,
// and has the shape the family promises, against the default family's
// figures on the same config where the family is about a difference.
func TestFamilies(t *testing.T) {
	base := Config{Ops: 4000, Bundles: 40, Seed: 5}
	def := measure(t, base)
	for _, fam := range Families {
		cfg := base
		cfg.Family = fam
		if fam == "default" || fam == "unfused" {
			// The historical graph, byte for byte (unfused is the
			// default shape, timed with fusion off).
			if !bytes.Equal(generate(t, cfg), generate(t, base)) {
				t.Errorf("%s: not the default graph", fam)
			}
			continue
		}
		st := measure(t, cfg)
		if st.ops != cfg.Ops {
			t.Errorf("%s: %d ops", fam, st.ops)
		}
		switch fam {
		case "wide":
			// Ring reads fill every op (but the first two) up to 4..8
			// reads; 0..3 fresh buffers besides the value.
			if st.minReads < 4 || st.maxReads < 8 || st.maxWrites < 4 {
				t.Errorf("%s: reads %d..%d, up to %d writes", fam, st.minReads, st.maxReads, st.maxWrites)
			}
		case "kargs":
			// 2..3 reads, the added ones from a sample of the whole
			// past: some op reads a value of the graph's first bundles
			// from its last ones, and a bundle of 100 ops reads
			// about 100 such values, most of them distinct and
			// written elsewhere: far more kernel arguments than the
			// default's.
			if st.minReads < 2 {
				t.Errorf("%s: an op with %d reads", fam, st.minReads)
			}
			if st.farthest < cfg.Bundles*3/4 {
				t.Errorf("%s: farthest read %d bundles back (default %d)", fam, st.farthest, def.farthest)
			}
			if st.maxArgs < 50 || st.maxArgs < 3*def.maxArgs {
				t.Errorf("%s: at most %d kernel arguments in a bundle (default %d)", fam, st.maxArgs, def.maxArgs)
			}
		case "loops":
			// A node opens a loop one time in two, four deep.
			if st.maxDepth != 4 || st.inLoops < st.ops/2 || st.inLoops <= def.inLoops {
				t.Errorf("%s: %d of %d ops in loops, depth %d (default %d in loops)", fam, st.inLoops, st.ops, st.maxDepth, def.inLoops)
			}
		case "views":
			// Six ops in eight on 4 or [2, 2] cores; a view every 20th
			// op (three in four at an explicit offset, not all
			// nonzero), an LX claim every 50th, a CPU node between
			// every two bundles, up to 8 reads.
			if st.multi < st.ops*5/8 || st.cores["[4]"] == 0 || st.cores["[2 2]"] == 0 || len(st.cores) != 2 {
				t.Errorf("%s: %d multi-core ops: %v", fam, st.multi, st.cores)
			}
			if st.views < st.ops/20 || st.offsetViews < st.views/4 || st.lx != st.ops/50 || st.cpu != cfg.Bundles-1 {
				t.Errorf("%s: %d views (%d at an offset), %d lx, %d cpu", fam, st.views, st.offsetViews, st.lx, st.cpu)
			}
			if st.maxReads != 8 {
				t.Errorf("%s: at most %d reads", fam, st.maxReads)
			}
		}
		t.Logf("%s: %+v (default %+v)", fam, st, def)
	}
}

// TestFamiliesDeterministic: each family's graph depends on the seed
// alone, and differs from every other family's.
func TestFamiliesDeterministic(t *testing.T) {
	seen := map[string]string{}
	for _, fam := range Families {
		cfg := Config{Ops: 3000, Bundles: 30, Seed: 11, Family: fam}
		a, b := generate(t, cfg), generate(t, cfg)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", fam)
		}
		other := cfg
		other.Seed = 12
		if bytes.Equal(a, generate(t, other)) {
			t.Errorf("%s: seeds 11 and 12 give the same graph", fam)
		}
		if fam == "unfused" {
			continue
		}
		if f, ok := seen[string(a)]; ok {
			t.Errorf("%s: the same graph as %s", fam, f)
		}
		seen[string(a)] = fam
	}
	var w bytes.Buffer
	if Generate(&w, Config{Ops: 10, Family: "nope"}) == nil {
		t.Errorf("an unknown family: no error")
	}
}
