package alloc

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// testBest is best configured for tests: bounded by nodes, with a time
// limit never reached, so results do not depend on machine speed.
var testBest = BestWith(Options{MaxNodes: 3000})

// TestTableReadOnly: what Table and Names return are copies: changing
// them changes neither the next call's answer nor a lookup.
func TestTableReadOnly(t *testing.T) {
	tab, names := Table(), Names()
	tab[0].Name, names[0] = "changed", "changed"
	if p, err := Lookup("first-fit", Options{}); Table()[0].Name != "first-fit" || Names()[0] != "first-fit" || err != nil || p.Ordered == nil {
		t.Errorf("the allocator table changed through a copy: %q, %q", Table()[0].Name, Names()[0])
	}
}

func TestNames(t *testing.T) {
	want := []string{"first-fit", "best-fit", "size-best-fit", "best"}
	if !slices.Equal(Names(), want) {
		t.Fatalf("Names() = %v, want %v", Names(), want)
	}
	for _, n := range Names() {
		p, err := Lookup(n, Options{MaxNodes: 1})
		if err != nil || p.Name != n || p.Func == nil {
			t.Errorf("Lookup(%q) = %q, %v", n, p.Name, err)
		}
	}
	if p, err := Lookup("worst-fit", Options{}); err == nil || p.Func != nil {
		t.Error("Lookup of an unknown allocator succeeded")
	}
	if d := Default(); d.Name != "first-fit" || d.Func == nil || d.Ordered == nil {
		t.Errorf("Default() = %q, want first-fit with its ordered form", d.Name)
	}
}

// mustLookup is Lookup(name) with the default options' Func.
func mustLookup(t *testing.T, name string) Func {
	t.Helper()
	p, err := Lookup(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Func
}

func TestBestFitMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for iter := 0; iter < 4000; iter++ {
		items := randomItems(rng, rng.Intn(70), 1+rng.Intn(50))
		budget := randomBudget(rng, items)
		got, want := BestFit(items, budget), naiveBestFit(items, budget)
		if got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d budget %d: BestFit %v/%d, naive %v/%d\n%v", iter, budget, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd, items)
		}
	}
}

func TestSizeBestFitMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for iter := 0; iter < 4000; iter++ {
		items := randomItems(rng, rng.Intn(70), 1+rng.Intn(50))
		budget := randomBudget(rng, items)
		got, want := SizeBestFit(items, budget), naiveSizeBestFit(items, budget)
		if got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d budget %d: SizeBestFit %v/%d, naive %v/%d\n%v", iter, budget, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd, items)
		}
	}
}

// The valley-filling skyline must make exactly the choices of the plain
// "lowest min offset, then rank" dive it stands for.
func TestSkylineDiveMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for iter := 0; iter < 3000; iter++ {
		items := randomItems(rng, rng.Intn(50), 1+rng.Intn(40))
		budget := randomBudget(rng, items)
		rank := make([]int32, len(items))
		for i, r := range rng.Perm(len(items)) {
			rank[i] = int32(r)
		}
		got, ok := skylineDive(items, newTimeline(items), rank, budget, nil)
		want := naiveDive(items, rank, budget)
		if !ok || got.PoolEnd != want.PoolEnd || !slices.Equal(got.Offsets, want.Offsets) {
			t.Fatalf("iter %d budget %d: skyline %v/%d, naive %v/%d\n%v", iter, budget, got.Offsets, got.PoolEnd, want.Offsets, want.PoolEnd, items)
		}
	}
}

// Every allocator, on thousands of random instances and budgets (tiny
// ones included): a legal result (alloc.Check), the input untouched, the
// same answer twice, no pool end below the lower bound when everything is
// placed, and best never worse than any other allocator that places
// everything.
func TestAllocatorsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	fns := map[string]Func{"first-fit": FirstFit, "best-fit": BestFit, "size-best-fit": SizeBestFit, "best": testBest}
	order := []string{"first-fit", "best-fit", "size-best-fit", "best"}
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	for iter := 0; iter < iters; iter++ {
		n := rng.Intn(40)
		if iter%100 == 0 {
			n = 150 + rng.Intn(150)
		}
		items := randomItems(rng, n, 1+rng.Intn(40))
		budget := randomBudget(rng, items)
		lb := LowerBound(items)
		orig := slices.Clone(items)
		res := map[string]Result{}
		for _, name := range order {
			r := fns[name](items, budget)
			if !slices.Equal(items, orig) {
				t.Fatalf("iter %d: %s modified its input", iter, name)
			}
			if err := Check(items, budget, r); err != nil {
				t.Fatalf("iter %d: %s: %v\nbudget %d items %v", iter, name, err, budget, items)
			}
			if placedAll(r) && r.PoolEnd < lb {
				t.Fatalf("iter %d: %s pool end %d below lower bound %d", iter, name, r.PoolEnd, lb)
			}
			if again := fns[name](items, budget); again.PoolEnd != r.PoolEnd || !slices.Equal(again.Offsets, r.Offsets) {
				t.Fatalf("iter %d: %s is not deterministic", iter, name)
			}
			res[name] = r
		}
		b := res["best"]
		for _, name := range order[:3] {
			r := res[name]
			if !placedAll(r) {
				continue
			}
			if !placedAll(b) {
				t.Fatalf("iter %d: %s places everything under budget %d, best does not", iter, name, budget)
			}
			if b.PoolEnd > r.PoolEnd {
				t.Fatalf("iter %d: best pool end %d > %s %d", iter, b.PoolEnd, name, r.PoolEnd)
			}
		}
	}
}

// On instances small enough to solve by brute force, best's search runs
// to the end: its pool end is the optimum. And the decision search is
// sound and complete: for every capacity it reports infeasible exactly
// below the optimum, under each preordering.
func TestBestOptimalSmall(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	exact := BestWith(Options{MaxNodes: 1 << 30})
	for iter := 0; iter < 400; iter++ {
		n := 1 + rng.Intn(7)
		items := make([]Interval, n)
		for i := range items {
			s := rng.Intn(6)
			items[i] = Interval{Name: string(rune('a' + i)), Size: int64(1 + rng.Intn(5)), Start: s, End: s + rng.Intn(4)}
		}
		opt := bruteOptimum(items)
		r := exact(items, 1<<62)
		if err := Check(items, 1<<62, r); err != nil {
			t.Fatal(err)
		}
		if r.PoolEnd != opt {
			t.Fatalf("iter %d: best %d, optimum %d\n%v", iter, r.PoolEnd, opt, items)
		}
		tl := newTimeline(items)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		p := newSearchProblem(items, tl, idx, 1<<20)
		for C := LowerBound(items) - 1; C <= opt; C++ {
			for _, h := range []string{"WAT", "TAW", "TWA", "Z"} {
				offs, st, _ := p.decide(C, h, 1<<40, nil)
				if (st == searchFound) != (C >= opt) || st == searchAborted {
					t.Fatalf("iter %d: decide(%d, %s) = %d, optimum %d\n%v", iter, C, h, st, opt, items)
				}
				if st == searchFound {
					r := Result{Offsets: offs}
					for b, o := range offs {
						r.PoolEnd = max(r.PoolEnd, o+items[b].Size)
					}
					if err := Check(items, C, r); err != nil {
						t.Fatalf("iter %d: decide(%d, %s): %v", iter, C, h, err)
					}
				}
			}
			if offs, st, _ := p.decideAll(C, []string{"WAT", "TAW", "TWA"}, 1<<40, nil); (st == searchFound) != (C >= opt) || (st == searchFound && len(offs) != n) {
				t.Fatalf("iter %d: decideAll(%d) = %d, optimum %d", iter, C, st, opt)
			}
		}
	}
}

// Hand-made cases whose answers are worked out in the comments.
func TestHandCases(t *testing.T) {
	run := func(name string, f Func, items []Interval, budget int64) Result {
		t.Helper()
		r := f(items, budget)
		if err := Check(items, budget, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}

	// The first-fit trap. y lives at step 0, x at 0-1, z at 1-2; sizes
	// 1, 1, 2. Live bytes: step 0 x+y = 2, step 1 x+z = 3, step 2 z = 2,
	// so no packing beats 3. Start order is y, x, z: first-fit puts y at
	// 0 and x at 1; when z comes, y's 1-byte block is free but too small,
	// so z bumps to [2, 4): pool 4. best-fit sees the same free block
	// (x still sits above it), so 4 as well. Packing 3 exists: x at 0,
	// y and z both at 1 (they never live together). size-best-fit places
	// z first at 0, then x (longer life than y) above it at 2, then y in
	// the 2-byte gap below x: 3.
	trap := []Interval{{"x", 1, 0, 1}, {"y", 1, 0, 0}, {"z", 2, 1, 2}}
	for name, want := range map[string]int64{"first-fit": 4, "best-fit": 4, "size-best-fit": 3, "best": 3} {
		f := mustLookup(t, name)
		if got := run(name, f, trap, 1<<62).PoolEnd; got != want {
			t.Errorf("trap: %s pool end %d, want %d", name, got, want)
		}
	}

	// MiniMalloc's README example (input.12.csv, half-open lifespans
	// made inclusive): b1 [0,2], b2 [3,8], b3 [0,8], b4 [9,20], b5
	// [0,20], all 4 bytes. Steps 0-2 have b1, b3, b5 live: 12 bytes, so
	// 12 is optimal; b2 replaces b1 next to b3 and b5, b4 comes alone
	// with b5. Every allocator reaches 12 here, since the three buffers
	// live together can only stack.
	readme := []Interval{{"b1", 4, 0, 2}, {"b2", 4, 3, 8}, {"b3", 4, 0, 8}, {"b4", 4, 9, 20}, {"b5", 4, 0, 20}}
	for _, name := range Names() {
		f := mustLookup(t, name)
		if got := run(name, f, readme, 1<<62).PoolEnd; got != 12 {
			t.Errorf("readme: %s pool end %d, want 12", name, got)
		}
	}

	// A best-fit win: a [0,0] 2 bytes, b [0,3] 1 byte, c [1,1] 1 byte,
	// d [2,2] 2 bytes. Start order a, b, c, d. first-fit: a at 0, b at
	// 2; at step 1 a's block [0,2) is free, c takes [0,1) and the
	// remainder [1,2) is appended; at step 2 c's [0,1) is freed after
	// it, and d (2 bytes) finds neither 1-byte block big enough: bump to
	// [3,5), pool 5. best-fit coalesces [0,1) and [1,2) back into [0,2)
	// when c ends and puts d there: pool 3, the lower bound (b plus a, or
	// b plus d).
	bf := []Interval{{"a", 2, 0, 0}, {"b", 1, 0, 3}, {"c", 1, 1, 1}, {"d", 2, 2, 2}}
	if got := run("first-fit", FirstFit, bf, 1<<62).PoolEnd; got != 5 {
		t.Errorf("coalescing: first-fit %d, want 5", got)
	}
	if got := run("best-fit", BestFit, bf, 1<<62).PoolEnd; got != 3 {
		t.Errorf("coalescing: best-fit %d, want 3", got)
	}

	// The top of the pool: a [0,0] 4 bytes, then b [1,1] 6 bytes. a's
	// block [0,4) is free when b comes and touches the pool end, so
	// best-fit extends it: b at 0, pool 6, where first-fit bumps to
	// [4,10).
	top := []Interval{{"a", 4, 0, 0}, {"b", 6, 1, 1}}
	if r := run("best-fit", BestFit, top, 1<<62); r.Offsets[1] != 0 || r.PoolEnd != 6 {
		t.Errorf("top extension: best-fit %v pool %d, want b at 0, pool 6", r.Offsets, r.PoolEnd)
	}
	if r := run("first-fit", FirstFit, top, 1<<62); r.PoolEnd != 10 {
		t.Errorf("top extension: first-fit pool %d, want 10", r.PoolEnd)
	}

	// Over budget. Two 5-byte buffers live together under a budget of
	// 7: only one fits, whichever allocator; the other gets -1 and the
	// pool end is 5. A 9-byte buffer alone under budget 7 never fits.
	two := []Interval{{"p", 5, 0, 1}, {"q", 5, 1, 2}}
	for _, name := range Names() {
		f := mustLookup(t, name)
		r := run(name, f, two, 7)
		if r.PoolEnd != 5 || (r.Offsets[0] == -1) == (r.Offsets[1] == -1) {
			t.Errorf("budget 7: %s %v pool %d, want exactly one placed, pool 5", name, r.Offsets, r.PoolEnd)
		}
		if r := run(name, f, []Interval{{"big", 9, 0, 0}}, 7); r.Offsets[0] != -1 || r.PoolEnd != 0 {
			t.Errorf("budget 7: %s placed a 9-byte buffer: %v", name, r.Offsets)
		}
	}

	// Nothing to place.
	for _, name := range Names() {
		f := mustLookup(t, name)
		if r := run(name, f, nil, 100); len(r.Offsets) != 0 || r.PoolEnd != 0 {
			t.Errorf("empty: %s gave %v", name, r)
		}
	}
}

// Goal turns best into a decision procedure: it stops at the first
// packing under the goal instead of pushing on to the lower bound.
func TestBestGoal(t *testing.T) {
	// Three buffers live together at step 1 (4+4+4) and a fourth alone
	// later: lower bound 12. Any packing is at most 16 here, so with a
	// goal of 16 the first member (first-fit) already meets it.
	items := []Interval{{"a", 4, 0, 1}, {"b", 4, 1, 2}, {"c", 4, 1, 1}, {"d", 16, 3, 3}}
	r := BestWith(Options{Goal: 1 << 40})(items, 1<<62)
	ff := FirstFit(items, 1<<62)
	if r.PoolEnd != ff.PoolEnd || !slices.Equal(r.Offsets, ff.Offsets) {
		t.Errorf("goal above first-fit: best %v, want first-fit's %v", r, ff)
	}
}

// With a caller's limit that has already passed (what a tiny opt-in clock
// cap amounts to), best still returns a valid packing of a big bundle
// (first-fit always runs to completion) and never a worse one than
// first-fit's. No wall time is asserted here: speed targets live in
// BenchmarkBestVsBestFit100k and scripts/bench.sh.
func TestBestTinyTimeLimit(t *testing.T) {
	items := pipeline100k()
	const budget = 15032385536
	stopAtOnce := func() func() bool { return func() bool { return true } }
	r := BestWith(Options{Stop: stopAtOnce})(items, budget)
	if err := Check(items, budget, r); err != nil {
		t.Fatal(err)
	}
	if ff := FirstFit(items, budget); r.PoolEnd > ff.PoolEnd {
		t.Errorf("best with a 1ns limit packs to %d, first-fit alone to %d", r.PoolEnd, ff.PoolEnd)
	}
}

// The work rule of BestWith: memberCharge(n) = n·L²/64 with L = bits.Len(n).
// 65535 has 16 bits: 65535·256/64 = 262140 <= 1<<18 = 262144, so skyline A
// runs there at the default effort; 65536 has 17: 65536·289/64 = 295936,
// and 100000·289/64 = 451562, so it does not. The other expensive members
// need charge <= 1<<18/16 = 16384: 6204 (13 bits) is charged
// 6204·169/64 = 16382, 6205 is charged 16385.
func TestMemberCharge(t *testing.T) {
	for _, c := range []struct {
		n    int
		want int64
	}{{0, 0}, {1, 0}, {64, 49}, {6204, 16382}, {6205, 16385}, {65535, 262140}, {65536, 295936}, {100000, 451562}} {
		if got := memberCharge(c.n); got != c.want {
			t.Errorf("memberCharge(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	// Members after first-fit at the default effort: all six up to 6204
	// buffers, skyline A and best-fit up to 65535, best-fit alone above.
	for _, c := range []struct{ n, want int }{{6204, 6}, {6205, 2}, {65535, 2}, {65536, 1}} {
		items := make([]Interval, c.n)
		for i := range items {
			items[i] = Interval{Name: "x", Size: 1, Start: i, End: i}
		}
		if got := len(portfolio(items, newTimeline(items), 1<<62, 0)); got != c.want {
			t.Errorf("%d buffers: %d members after first-fit, want %d", c.n, got, c.want)
		}
	}
	// A larger effort buys the expensive members on larger bundles.
	items := pipeline100k()
	if got := len(portfolio(items, newTimeline(items), 1<<62, 451562*16)); got != 6 {
		t.Errorf("100k buffers at effort %d: %d members, want 6", 451562*16, got)
	}
}

// On 100k buffers at the default effort, best runs first-fit and best-fit
// only (TestMemberCharge), without a clock, and its packing is valid and
// never worse than either.
func TestBestLargeBundleNeverWorse(t *testing.T) {
	if testing.Short() {
		t.Skip("100k buffers")
	}
	items := pipeline100k()
	const budget = 15032385536
	r := BestWith(Options{})(items, budget)
	if err := Check(items, budget, r); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name string
		r    Result
	}{{"first-fit", FirstFit(items, budget)}, {"best-fit", BestFit(items, budget)}} {
		if r.PoolEnd > m.r.PoolEnd {
			t.Errorf("best packs to %d, %s to %d", r.PoolEnd, m.name, m.r.PoolEnd)
		}
	}
}

// decideAll runs its preorderings in parallel but must answer as if they
// ran one after the other with the success after the fewest nodes kept
// (the lowest index on ties), whatever the scheduling.
func TestDecideAllDeterministic(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	keys := []string{"WAT", "TAW", "TWA"}
	for iter := 0; iter < 200; iter++ {
		items := randomItems(rng, 10+rng.Intn(30), 1+rng.Intn(20))
		tl := newTimeline(items)
		idx := make([]int, len(items))
		for i := range idx {
			idx[i] = i
		}
		p := newSearchProblem(items, tl, idx, 1<<20)
		lb := LowerBound(items)
		C := lb + rng.Int63n(lb/10+1)
		limit := int64(50 + rng.Intn(2000))
		var want []int64
		wantSt, wantNodes := searchAborted, int64(math.MaxInt64)
		for _, k := range keys {
			offs, st, n := p.decide(C, k, limit, nil)
			if st == searchNotFound {
				want, wantSt = nil, searchNotFound
				break
			}
			if st == searchFound && n < wantNodes {
				want, wantSt, wantNodes = offs, st, n
			}
		}
		for rep := 0; rep < 3; rep++ {
			got, st, n := p.decideAll(C, keys, limit, nil)
			if st != wantSt || !slices.Equal(got, want) || (st == searchFound && n != wantNodes) {
				t.Fatalf("iter %d rep %d: decideAll = %d after %d nodes, sequential %d after %d", iter, rep, st, n, wantSt, wantNodes)
			}
		}
	}
}
