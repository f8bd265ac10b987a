package frontend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// TestIntListsShared: equal int lists are stored once in Graph.Ints and
// read back the same through every reference. Before, each of the 3,000
// lists below had its own copy: 6,000 words for what 3 distinct lists
// (6 words) hold.
func TestIntListsShared(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("graph g {\n  buffer a : 1048576\n  input a\n  buffer b : 1048576\n  output b\n  loop l count 4 {\n")
	for i := range 1000 {
		// The cores list [4] and the split [512]; b's step [4096].
		fmt.Fprintf(&sb, "    op o%d cores 4 reads a split 512 writes b step 4096\n", i)
	}
	sb.WriteString("  }\n}\n")
	g, errs := ParseCheck("t.bir", []byte(sb.String()))
	if errs != nil {
		t.Fatal(errs)
	}
	if want := []int64{1, 4, 1, 512, 1, 4096}; !slices.Equal(g.Ints, want) {
		t.Fatalf("Ints = %v, want %v: each distinct list once, after its length, in order of first use", g.Ints, want)
	}
	// The pairs: no step and no split (a's write, never stored), split
	// [512] alone, step [4096] alone.
	if want := []ir.Addressing{{}, {Split: 3}, {Strides: 5}}; !slices.Equal(g.Addressings, want) {
		t.Fatalf("Addressings = %v, want %v: each distinct pair once, in order of first use", g.Addressings, want)
	}
	for i := range g.Bundles[0].Ops {
		op := &g.Bundles[0].Ops[i]
		r, w := g.Reads(op)[0], g.Writes(op)[0]
		if got := fmt.Sprint(g.Cores(op), g.Split(&r), g.Strides(&w), g.Split(&w) == nil); got != "[4] [512] [4096] true" {
			t.Fatalf("op %d: cores, read split, write step, write unsplit = %s", i, got)
		}
	}
}

// TestIntListsAdd checks the table on its own, through its growth: a
// repeat of a list, of any length (the empty one too), gets the first
// one's reference; lists that differ in a value or in length do not
// share; every list reads back as added.
func TestIntListsAdd(t *testing.T) {
	g := &ir.Graph{}
	var lists intLists
	want := map[ir.IntsRef][]int64{}
	first := map[string]ir.IntsRef{}
	words := 0
	for round := range 2 {
		for i := range 5000 {
			v := make([]int64, i%4)
			for k := range v {
				v[k] = int64(i*7 + k)
			}
			if i%5 == 0 {
				v = []int64{int64(i % 3)} // repeats within the round
			}
			r := lists.add(g, v)
			if r <= 0 {
				t.Fatalf("round %d, list %v: reference %d, want a present one", round, v, r)
			}
			key := fmt.Sprint(len(v), v)
			if f, ok := first[key]; ok {
				if r != f {
					t.Fatalf("round %d: %v got %d, its first copy is at %d", round, v, r, f)
				}
			} else {
				if round > 0 {
					t.Fatalf("round %d: %v was stored anew", round, v)
				}
				first[key] = r
				want[r] = slices.Clone(v)
				words += len(v) + 1
			}
		}
	}
	if len(g.Ints) != words {
		t.Errorf("Ints holds %d words, want %d (the distinct lists)", len(g.Ints), words)
	}
	for r, v := range want {
		if got := g.IntList(r); !slices.Equal(got, v) {
			t.Errorf("list at %d = %v, want %v", r, got, v)
		}
	}
	if 2*lists.set.n > len(lists.set.slots) {
		t.Errorf("%d lists in %d slots: more than half full", lists.set.n, len(lists.set.slots))
	}
}

// TestAddressingsAdd checks the pair table on its own, through its
// growth: a repeat of a pair gets the first one's index; pairs that
// differ in either reference, or that swap them, do not share; the zero
// pair is 0 and stored never.
func TestAddressingsAdd(t *testing.T) {
	g := &ir.Graph{}
	var pairs addressings
	first := map[ir.Addressing]int32{}
	for round := range 2 {
		for i := range 5000 {
			d := ir.Addressing{Strides: ir.IntsRef(i % 70), Split: ir.IntsRef(i / 70)}
			if i%2 == 1 {
				d.Strides, d.Split = d.Split, d.Strides
			}
			k := pairs.add(g, d)
			if d == (ir.Addressing{}) {
				if k != 0 {
					t.Fatalf("the zero pair got %d", k)
				}
				continue
			}
			if f, ok := first[d]; ok {
				if k != f {
					t.Fatalf("round %d: %+v got %d, its first copy is at %d", round, d, k, f)
				}
				continue
			}
			if round > 0 {
				t.Fatalf("round %d: %+v was stored anew", round, d)
			}
			first[d] = k
		}
	}
	if len(g.Addressings) != len(first)+1 || g.Addressings[0] != (ir.Addressing{}) {
		t.Fatalf("Addressings holds %d pairs (first %+v), want the zero pair and %d distinct ones", len(g.Addressings), g.Addressings[0], len(first))
	}
	for d, k := range first {
		if g.Addressings[k] != d {
			t.Errorf("pair %d = %+v, want %+v", k, g.Addressings[k], d)
		}
	}
	if 2*pairs.set.n > len(pairs.set.slots) {
		t.Errorf("%d pairs in %d slots: more than half full", pairs.set.n, len(pairs.set.slots))
	}
}

// TestIntListsSeeded: the builder's list table hashes from the name
// table's random seed, so that two builders place the same lists
// differently and an input cannot be written to make its lists collide.
func TestIntListsSeeded(t *testing.T) {
	a, b := newBuilder("a.bir", 0), newBuilder("b.bir", 0)
	if a.lists.seed != a.names.seed64 || b.lists.seed != b.names.seed64 || a.pairs.seed != a.names.seed64 || b.pairs.seed != b.names.seed64 {
		t.Fatalf("list seeds %#x, %#x; pair seeds %#x, %#x; name seeds %#x, %#x", a.lists.seed, b.lists.seed, a.pairs.seed, b.pairs.seed, a.names.seed64, b.names.seed64)
	}
	if a.lists.seed == b.lists.seed {
		t.Errorf("two builders share the list seed %#x", a.lists.seed)
	}
	v := []int64{128, 256}
	if hashInts(a.lists.seed, v) == hashInts(b.lists.seed, v) {
		t.Errorf("the list %v hashes alike under two seeds", v)
	}
}
