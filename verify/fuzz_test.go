package verify_test

import (
	"bytes"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

// fuzzSetup turns fuzz inputs into a random graph and planning settings.
// Every input maps to a valid graph, so the fuzzer explores planning, not
// parsing: the seed picks the graph, the small integers its shape, budget
// its pool budget in sticks (with 0xffffffff meaning the default budget),
// and flags the allocator, fusion and planning switches.
func fuzzSetup(seed int64, buffers, bundles, maxOps, depth uint8, budget uint32, flags uint8) (string, setup) {
	cfg := randgraph.Config{
		Buffers:  1 + int(buffers%40),
		Bundles:  1 + int(bundles%8),
		MaxOps:   1 + int(maxOps%16),
		MaxDepth: int(depth % 5),
	}
	src := randgraph.Generate(rand.New(rand.NewSource(seed)), cfg)
	s := setup{budget: int64(budget) * 128}
	if budget == 0xffffffff {
		s.budget = planner.DefaultBudget
	}
	names := append([]string(nil), alloc.Names()...)
	sort.Strings(names) // independent of registration order
	s.allocator = names[int(flags&7)%len(names)]
	s.unfused = flags&8 != 0
	s.disabled = flags&0x30 == 0x30
	return src, s
}

// FuzzPlanVerify: whatever the graph and settings, the plan passes the
// independent verifier and emits MLIR without failing.
func FuzzPlanVerify(f *testing.F) {
	f.Add(int64(1), uint8(12), uint8(4), uint8(6), uint8(3), uint32(0xffffffff), uint8(0))
	f.Add(int64(2), uint8(20), uint8(2), uint8(10), uint8(2), uint32(24), uint8(1))
	f.Add(int64(3), uint8(30), uint8(1), uint8(15), uint8(4), uint32(8), uint8(2|8))
	f.Fuzz(func(t *testing.T, seed int64, buffers, bundles, maxOps, depth uint8, budget uint32, flags uint8) {
		src, s := fuzzSetup(seed, buffers, bundles, maxOps, depth, budget, flags)
		p := plan(t, check(t, "fuzz.bir", []byte(src)), s)
		if err := verifyAll(p, s); err != nil {
			t.Fatalf("%+v: %v\n%s", s, err, src)
		}
		for _, mo := range []mlirgen.Options{{}, {Generic: true}, {Generic: true, FrontendPoolAllocation: true}, {Addresses: true}} {
			if err := mlirgen.EmitAll(io.Discard, p, mo); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzPipeline feeds arbitrary text through the whole pipeline. Input the
// frontend rejects must come with sorted FILE:LINE:COL diagnostics and no
// graph; input it accepts must plan, verify and emit. (Parsing alone is
// fuzzed by frontend's FuzzParseCheck; this target is about what happens
// after the frontend says yes.)
func FuzzPipeline(f *testing.F) {
	ins, _ := filepath.Glob("../golden/testdata/*/input.bir")
	for _, in := range ins {
		if src, err := os.ReadFile(in); err == nil {
			f.Add(src)
		}
	}
	// Malformed inputs steer the fuzzer towards the diagnostics paths.
	bad, _ := filepath.Glob("../frontend/testdata/errors/*.bir")
	for _, in := range bad {
		if src, err := os.ReadFile(in); err == nil {
			f.Add(src)
		}
	}
	for seed := int64(0); seed < 8; seed++ {
		f.Add([]byte(randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, errs := frontend.Parse("fuzz.bir", src)
		if len(errs) == 0 {
			g, cerrs := frontend.Check(file)
			if len(cerrs) == 0 {
				if g == nil {
					t.Fatal("Check returned no graph and no errors")
				}
				for _, s := range []setup{{budget: planner.DefaultBudget}, {budget: 1024}, {budget: 1024, unfused: true}} {
					p := plan(t, g, s)
					if err := verifyAll(p, s); err != nil {
						t.Fatalf("%+v: %v\n%s", s, err, src)
					}
					var buf bytes.Buffer
					if err := mlirgen.EmitAll(&buf, p, mlirgen.Options{}); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			errs = cerrs
		}
		for i, e := range errs {
			if e.Pos.File != "fuzz.bir" || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
				t.Fatalf("bad diagnostic %q", e.Error())
			}
			if i > 0 {
				a, b := errs[i-1].Pos, e.Pos
				if a.Line > b.Line || a.Line == b.Line && a.Col > b.Col {
					t.Fatalf("diagnostics out of order: %q before %q", errs[i-1].Error(), e.Error())
				}
			}
		}
	})
}
