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
	if 2*lists.n > len(lists.slots) {
		t.Errorf("%d lists in %d slots: more than half full", lists.n, len(lists.slots))
	}
}

// TestIntListsSeeded: the builder's list table hashes from the name
// table's random seed, so that two builders place the same lists
// differently and an input cannot be written to make its lists collide.
func TestIntListsSeeded(t *testing.T) {
	a, b := newBuilder("a.bir", 0), newBuilder("b.bir", 0)
	if a.lists.seed != a.names.seed64 || b.lists.seed != b.names.seed64 {
		t.Fatalf("list seeds %#x, %#x; name seeds %#x, %#x", a.lists.seed, b.lists.seed, a.names.seed64, b.names.seed64)
	}
	if a.lists.seed == b.lists.seed {
		t.Errorf("two builders share the list seed %#x", a.lists.seed)
	}
	v := []int64{128, 256}
	if hashInts(a.lists.seed, v) == hashInts(b.lists.seed, v) {
		t.Errorf("the list %v hashes alike under two seeds", v)
	}
}
