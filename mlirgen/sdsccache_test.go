package mlirgen

import (
	"fmt"
	"strings"
	"testing"
)

// executes returns the sdsc_execute lines of a module, without their
// indentation.
func executes(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "sdsc_execute") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

func wantExecutes(t *testing.T, got string, want ...string) {
	t.Helper()
	g := executes(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Fatalf("executes:\n%s\nwant:\n%s\nwhole output:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"), got)
	}
}

// The example of the contract's sdsc_cache section: a and b are both
// relu, read a kernel argument (x, %arg_0) through views at 1024 and
// 2048 and write pooled groups (t0 at 0, t1 at 1024): same kind, same
// cores, one read and one write, the same storage per access (arg 0,
// pooled), the same symbol shape (kernel(0) #1 hidden behind slice #2,
// pool #3: uses [2, 3]). So b reuses sdsc_0.json and prints a's ids
// [-2, -3] (its own are -5, -6: a registered -1..-3, b -4..-6). c (add)
// misses: the next file, sdsc_1.json, with its own ids -7..-9.
func TestSDSCCacheSpecExample(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer t0 : 1024
  buffer t1 : 1024
  buffer y : 1024
  buffer xa : 1024
  buffer xb : 1024
  input x
  output y
  alias xa = x + 1024
  alias xb = x + 2048
  fused f {
    op a reads xa writes t0
    op b reads xb writes t1
    op c reads t0, t1 writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.kind("relu", "a", "b")
		e.kind("add", "c")
	})
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute (%arg_0_slice_1024, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`,
		`sdscbundle.sdsc_execute (%arg_0_slice_2048, %pool_addr_1024) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`,
		`sdscbundle.sdsc_execute (%pool_addr_0, %pool_addr_1024, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-7, -8, -9]}`)
	// The cache off: every op its own file (its step) and its own ids.
	off := emitText(t, p, 0, Options{})
	wantExecutes(t, off,
		`sdscbundle.sdsc_execute (%arg_0_slice_1024, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`,
		`sdscbundle.sdsc_execute (%arg_0_slice_2048, %pool_addr_1024) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6]}`,
		`sdscbundle.sdsc_execute (%pool_addr_0, %pool_addr_1024, %arg_1) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-7, -8, -9]}`)
	// Only the execute lines differ: declarations, operands and the rest
	// are the op's own either way.
	on := emitText(t, p, 0, Options{SDSCCache: true})
	if strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "sdsc_execute") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}; strip(on) != strip(off) {
		t.Errorf("the cache changed more than the execute lines:\n%s\nvs\n%s", on, off)
	}
}

// An op outside a loop shares with one inside: steps and loops are not
// part of the rule. x is %arg_0 and y %arg_1 (first access order); both
// ops register kernel(0), kernel(1) (uses [0, 1]). b's operands are its
// own applies, its file and ids a's.
func TestSDSCCacheAcrossLoops(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer y : 4096
  input x
  output y
  fused f {
    op a reads x writes y
    loop l count 2 {
      op b reads x step 1024 writes y step 1024
    }
  }
}`
	p := build(t, src, func(e *editor) { e.kind("k", "a", "b") })
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		`sdscbundle.sdsc_execute (%addr_0, %addr_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`)
}

// A miss caused only by the symbol table shape. p and q are views of x
// at the same offset 1024, r at 2048. a reads p, q: kernel(0) #0,
// slice(0,1024) #1, used by both reads, then y's kernel(1) #2: uses
// [1, 1, 2], ids printed [-2, -3]. b reads p, r: slices 1024 #1 and 2048
// #2, y #3: uses [1, 2, 3]: everything else equal, a miss, sdsc_1.json
// with its own ids -5..-7 (a took -1..-3, b -4..-7). c reads q, p: the
// shape of a, so a's file and ids (c's own would be -9, -10).
func TestSDSCCacheShapeMiss(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer p : 1024
  buffer q : 1024
  buffer r : 1024
  buffer y : 1024
  input x
  output y
  alias p = x + 1024
  alias q = x + 1024
  alias r = x + 2048
  fused f {
    op a reads p, q writes y
    op b reads p, r writes y
    op c reads q, p writes y
  }
}`
	p := build(t, src, func(e *editor) { e.kind("k", "a", "b", "c") })
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute (%arg_0_slice_1024, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`,
		`sdscbundle.sdsc_execute (%arg_0_slice_1024, %arg_0_slice_2048, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6, -7]}`,
		`sdscbundle.sdsc_execute (%arg_0_slice_1024, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`)
}

// Multi-core ops that differ only in split values share: each core 1
// uses its own derived symbol in both (uses [0, 1, 2, 3]); b's operands
// are its own core values, its file and ids a's.
func TestSDSCCacheSplitValues(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer y : 4096
  input x
  output y
  fused f {
    op a reads x writes y
    op b reads x writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.kind("k", "a", "b")
		e.cores("a", 2)
		e.cores("b", 2)
		e.split("a", 0, 1024)
		e.split("a", 1, 1024)
		e.split("b", 0, 512)
		e.split("b", 1, 512)
	})
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute (%arg_0, %arg_0_core_1024, %arg_1, %arg_1_core_1024) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3, -4]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_0_core_512, %arg_1, %arg_1_core_512) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3, -4]}`)
}

// LX storage splits classes by group: a and c read l1, b reads l2 (no
// symbol, no operand for either); y is %arg_0. b misses (sdsc_1.json, its
// own id -2); c shares a's file and id.
func TestSDSCCacheLX(t *testing.T) {
	src := `graph ex {
  buffer l1 : 1024
  buffer l2 : 1024
  buffer y : 1024
  output y
  lx l1, l2
  fused f {
    op w writes l1, l2
    op a reads l1 writes y
    op b reads l2 writes y
    op c reads l1 writes y
  }
}`
	p := build(t, src, func(e *editor) { e.kind("k", "a", "b", "c") })
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json", "symbol_ids"=[]}`,
		`sdscbundle.sdsc_execute (%arg_0) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-1]}`,
		`sdscbundle.sdsc_execute (%arg_0) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-2]}`,
		`sdscbundle.sdsc_execute (%arg_0) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-1]}`)
}

// The cores rule: no clause, cores 1 and cores [1] are equal; cores
// [2, 1] is not cores 2 (one access without split keeps the shapes
// equal: every core uses the kernel symbol). Ops without a kind never
// share, however alike.
func TestSDSCCacheCoresAndNoKind(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer y : 4096
  input x
  output y
  fused f {
    op a reads x writes y
    op b reads x writes y
    op c reads x writes y
    op d reads x writes y
    op e reads x writes y
    op n1 reads x writes y
    op n2 reads x writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.kind("k", "a", "b", "c", "d", "e")
		e.cores("b", 1)
		e.cores("c", 2)
		e.cores("d", 2, 1)
		e.cores("e", 2)
	})
	// a: ids -1, -2 (file 0); b = a; c: 2 cores, every core on the
	// kernel symbols, uses [0, 0, 1, 1]: file 1, ids -5, -6; d [2, 1]:
	// file 2, ids -7, -8; e = c (ids -5, -6); n1, n2: files 3 and 4.
	wantExecutes(t, emitText(t, p, 0, Options{SDSCCache: true}),
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-7, -8]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_3.json", "symbol_ids"=[-11, -12]}`,
		`sdscbundle.sdsc_execute (%arg_0, %arg_1) {sdsc_filename="sdsc_4.json", "symbol_ids"=[-13, -14]}`)
}

// SDSCFiles and SDSCWhy answer from the same layout as the printer: on
// the cores test's graph, the files printed there, the first op of each
// file, and the first rule each miss breaks against its nearest earlier
// op of the kind.
func TestSDSCFilesAndWhy(t *testing.T) {
	src := `graph ex {
  buffer x : 4096
  buffer p : 1024
  buffer r : 1024
  buffer y : 4096
  input x
  output y
  alias p = x + 1024
  alias r = x + 2048
  fused f {
    op a reads x writes y
    op b reads x writes y
    op c reads x writes y
    op d reads x writes y
    op e reads p, p writes y
    op h reads p, r writes y
    op n1 reads x writes y
    op m reads x writes y
    op q reads x, x writes y
    op z reads x writes y
    op z3 reads x, x, x writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.kind("k", "a", "b", "c", "d", "e", "h", "q", "z", "z3")
		e.kind("other", "m")
		e.cores("c", 2)
		e.cores("d", 2, 1)
	})
	// a: file 0; b = a; c: cores differ, file 1; d: file 2; e: two
	// reads and no cores (unlike d, its nearest), file 3; h: the same
	// counts and storage as e (p and r are views of x, %arg_0), another
	// shape (two slices), file 4; n1: no kind, file 5; m: the only op of
	// its kind, file 6; q: the same counts and storage as h, a shape
	// (kernel only, uses [0, 0, 1]) unlike h's ([1, 2, 3]): file 7; z is
	// a again (file 0); z3 has three reads, unlike z: file 8.
	want := []SDSCUse{{0, 0}, {0, 0}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {0, 0}, {8, 10}}
	got := SDSCFiles(p, 0, true)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for k, u := range SDSCFiles(p, 0, false) {
		if u.File != int32(k) || u.First != int32(k) {
			t.Fatalf("cache off: op %d uses %v", k, u)
		}
	}
	for _, c := range []struct {
		step    int
		why     string
		nearest int
	}{
		{1, "", -1},
		{2, "it differs from b in its cores list", 1},
		{3, "it differs from c in its cores list", 2},
		{4, "it differs from d in its cores list", 3},
		{5, "it differs from e in its symbol table shape (which symbol each access and core uses)", 4},
		{6, "it has no kind: an op without a kind never shares its file", -1},
		{7, "no earlier op of the bundle has its kind", -1},
		{8, "it differs from h in its symbol table shape (which symbol each access and core uses)", 5},
		{9, "", -1},
		{10, "it differs from z in its number of reads or writes", 9},
	} {
		why, nearest := SDSCWhy(p, 0, c.step)
		if why != c.why || nearest != c.nearest {
			t.Errorf("op %d: %q (nearest %d), want %q (%d)", c.step, why, nearest, c.why, c.nearest)
		}
	}
}
