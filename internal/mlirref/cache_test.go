package mlirref

import (
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// checkCompared is check, after comparing src's text with mlirgen's in
// every form, plan and cache setting (compareGraph): each hand-reasoned
// program below is also one more case of the property.
func checkCompared(t *testing.T, src string) (*ir.Graph, *planner.Result) {
	t.Helper()
	compareGraph(t, t.Name(), src)
	return check(t, src)
}

// executes returns the sdsc_execute lines of a module, trimmed.
func executes(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, "sdsc_execute") {
			out = append(out, l)
		}
	}
	return out
}

func expectExecutes(t *testing.T, text string, want ...string) {
	t.Helper()
	got := executes(text)
	if len(got) != len(want) {
		t.Fatalf("%d executes, want %d:\n%s", len(got), len(want), text)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("execute %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// ex is one custom-form execute line.
func ex(operands, file, ids string) string {
	return "sdscbundle.sdsc_execute (" + operands + `) {sdsc_filename="` + file + `", "symbol_ids"=[` + ids + "]}"
}

var on = Options{SDSCCache: true}

// cacheExample is the example that ends the contract's sdsc_cache
// section: xa, xb views of the input x at 1024 and 2048, t0 and t1 pooled
// at 0 and 1024 (t0 lives over steps [0, 2], t1 over [1, 2]: they
// conflict, so first-fit puts t1 after t0), y the output.
const cacheExample = `graph e {
  buffer x  : 4096
  buffer xa : 1024
  buffer xb : 1024
  buffer t0 : 1024
  buffer t1 : 1024
  buffer y  : 1024
  input x
  output y
  alias xa = x + 1024
  alias xb = x + 2048
  fused blk {
    op a kind relu reads xa writes t0
    op b kind relu reads xb writes t1
    op c kind add reads t0, t1 writes y
  }
}`

// TestCacheExample: a registers kernel(0) -1, slice(0,1024) -2, pool(0)
// -3 and prints [-2, -3]; b registers -4, -5, -6 (the same shape: ranks
// 1 kernel, 2 slice, 3 pool; table [[2], [3]]) and reuses sdsc_0.json
// with a's ids; c (kind add) misses: the next number, 1, with its own
// ids pool(0) -7, pool(1024) -8, kernel(1) -9. Declarations and operands
// are b's own (the 2048 slice, pool 1024).
func TestCacheExample(t *testing.T) {
	g, p := checkCompared(t, cacheExample)
	expect(t, Emit(g, p, 0, on), `module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>, %arg_1_base_addr: !sdscbundle.input_arg<index>) {
		%pool = sdscbundle.device_mem_allocate 2048 bytes : index
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%arg_1 = sdscbundle.input_arg_extract value from %arg_1_base_addr : !sdscbundle.input_arg<index> -> index
		%arg_0_slice_offset_1024 = arith.constant 1024 : index
		%arg_0_slice_1024 = arith.addi %arg_0, %arg_0_slice_offset_1024 : index
		%pool_offset_0 = arith.constant 0 : index
		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
		%arg_0_slice_offset_2048 = arith.constant 2048 : index
		%arg_0_slice_2048 = arith.addi %arg_0, %arg_0_slice_offset_2048 : index
		%pool_offset_1024 = arith.constant 1024 : index
		%pool_addr_1024 = arith.addi %pool, %pool_offset_1024 : index
		sdscbundle.sdsc_execute (%arg_0_slice_1024, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}
		sdscbundle.sdsc_execute (%arg_0_slice_2048, %pool_addr_1024) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}
		sdscbundle.sdsc_execute (%pool_addr_0, %pool_addr_1024, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-7, -8, -9]}
		return
	}
}
`)
	// --generic: the same file and ids, b's own operands.
	expectExecutes(t, Emit(g, p, 0, Options{SDSCCache: true, Generic: true}),
		`"sdscbundle.sdsc_execute"(%arg_0_slice_1024, %pool_addr_0) {sdsc_filename = "sdsc_0.json", symbol_ids = [-2, -3]} : (index, index) -> ()`,
		`"sdscbundle.sdsc_execute"(%arg_0_slice_2048, %pool_addr_1024) {sdsc_filename = "sdsc_0.json", symbol_ids = [-2, -3]} : (index, index) -> ()`,
		`"sdscbundle.sdsc_execute"(%pool_addr_0, %pool_addr_1024, %arg_1) {sdsc_filename = "sdsc_1.json", symbol_ids = [-7, -8, -9]} : (index, index, index) -> ()`)
}

// TestCacheOff: without the cache every op prints its step and its own
// ids (the v2 text); the rest of the module is the same as with it.
func TestCacheOff(t *testing.T) {
	g, p := checkCompared(t, cacheExample)
	off := Emit(g, p, 0, Options{})
	expectExecutes(t, off,
		ex("%arg_0_slice_1024, %pool_addr_0", "sdsc_0.json", "-2, -3"),
		ex("%arg_0_slice_2048, %pool_addr_1024", "sdsc_1.json", "-5, -6"),
		ex("%pool_addr_0, %pool_addr_1024, %arg_1", "sdsc_2.json", "-7, -8, -9"))
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "sdsc_execute") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if strip(off) != strip(Emit(g, p, 0, on)) {
		t.Errorf("the cache changed a line other than an execute")
	}
}

// TestCacheAcrossLoopDepths: loops and steps are not part of the SDSC.
// a (top level), b (in L, x tiled by 256) and d (in L and M, x tiled by
// [0, 128]) all read the kernel arg 0 and write a pooled group: the same
// table [[1], [2]], one file. c (kind sum) is file 1. In a: kernel(0) -1,
// pool(P_t) -2. b: kernel(0) -3 (tiled: %addr_0 on #map_0), pool -4, and
// prints a's [-1, -2]. d: kernel(0) -5 (%addr_1 on #map_1, the key [128]
// is new), pool -6. c: pool(P_t) -7, pool(P_u) -8, pool(P_v) -9,
// kernel(1) -10. Pool offsets: t lives over [0, 3], u over [1, 3] and v
// over [2, 3] (written only inside their loops, never read there, so no
// back-edge): all conflict, t at 0, u at 1024, v at 2048.
func TestCacheAcrossLoopDepths(t *testing.T) {
	g, p := checkCompared(t, `graph l {
  buffer x : 4096
  buffer t : 1024
  buffer u : 1024
  buffer v : 1024
  buffer y : 256
  input x
  output y
  fused blk {
    op a kind scale reads x writes t
    loop L count 4 {
      op b kind scale reads x step 256 writes u
      loop M count 2 {
        op d kind scale reads x step [0, 128] writes v
      }
    }
    op c kind sum reads t, u, v writes y
  }
}`)
	text := Emit(g, p, 0, on)
	expectExecutes(t, text,
		ex("%arg_0, %pool_addr_0", "sdsc_0.json", "-1, -2"),
		ex("%addr_0, %pool_addr_1024", "sdsc_0.json", "-1, -2"),
		ex("%addr_1, %pool_addr_2048", "sdsc_0.json", "-1, -2"),
		ex("%pool_addr_0, %pool_addr_1024, %pool_addr_2048, %arg_1", "sdsc_1.json", "-7, -8, -9, -10"))
	for _, l := range []string{
		"%addr_0 = affine.apply #map_0(%i_0)[%arg_0]",
		"%addr_1 = affine.apply #map_1(%i_1)[%arg_0]",
	} {
		if !strings.Contains(text, "\t"+l+"\n") {
			t.Errorf("no line %q in\n%s", l, text)
		}
	}
	// The op inside the loops first: the file belongs to it.
	g, p = checkCompared(t, `graph l {
  buffer x : 4096
  buffer t : 1024
  buffer y : 1024
  input x
  output y
  fused blk {
    loop L count 4 { op b kind scale reads x step 256 writes t }
    op a kind scale reads x writes y
    op c kind scale reads t writes y
  }
}`)
	// b: kernel(0) -1 (%addr_0), pool(0) -2. a: kernel(0) -3, kernel(1)
	// -4: storage kernel 1 is not pooled: a miss, sdsc_1. c: pool(0) -5,
	// kernel(1) -6: pooled then kernel 1, as neither: sdsc_2.
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%addr_0, %pool_addr_0", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_1", "sdsc_1.json", "-3, -4"),
		ex("%pool_addr_0, %arg_1", "sdsc_2.json", "-5, -6"))
}

// TestCacheMultiCoreSplits: split values are not part of the SDSC, only
// the table they give. a: x kernel(0) rank 1 (-1), core 1 derived(0,1024)
// rank 2 (-2); y kernel(1) rank 3 (-3), core 1 derived(1,1024) rank 4
// (-4): table [[1, 2], [3, 4]]. b: other splits, the same table (core 1
// of each access has its own derived symbol): reuses sdsc_0 with a's
// ids, its own operands. c: x split 0 puts core 1 at core 0's offset, so
// core 1 uses the kernel symbol: [[1, 1], [2, 3]], a miss (sdsc_1,
// kernel(0) -9, kernel(1) -10, derived(1,1024) -11, named from y's access
// %arg_1_core_1024 as in a). d: x broadcast: the same table as c, but
// split on neither access of c's x and d's x: (d) misses, sdsc_2.
func TestCacheMultiCoreSplits(t *testing.T) {
	g, p := checkCompared(t, `graph m {
  buffer x : 8192
  buffer y : 8192
  input x
  output y
  fused blk {
    op a kind cp cores 2 reads x split 1024 writes y split 1024
    op b kind cp cores 2 reads x split 2048 writes y split 512
    op c kind cp cores 2 reads x split 0 writes y split 1024
    op d kind cp cores 2 reads x writes y split 1024
  }
}`)
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0, %arg_0_core_1024, %arg_1, %arg_1_core_1024", "sdsc_0.json", "-1, -2, -3, -4"),
		ex("%arg_0, %arg_0_core_2048, %arg_1, %arg_1_core_512", "sdsc_0.json", "-1, -2, -3, -4"),
		ex("%arg_0, %arg_1, %arg_1_core_1024", "sdsc_1.json", "-9, -10, -11"),
		ex("%arg_0, %arg_1, %arg_1_core_1024", "sdsc_2.json", "-12, -13, -14"))
}

// TestCacheSymbolTableShape: a and b differ only in the offsets of their
// second view of x. a: xa registers kernel(0) rank 1 (-1), slice(0,256)
// rank 2 (-2); xb is at the same offset, so the same key: rank 2; y
// kernel(1) rank 3 (-3): [[2], [2], [3]], ids printed [-2, -3]. b: xc is
// at 512, its own slice: kernel -4, slice 256 -5, slice 512 -6, kernel(1)
// -7: [[2], [3], [4]], a miss. c reads xb, xa: the shape of a again
// (kernel -8, slice 256 -9, kernel(1) -10): sdsc_0 with a's ids.
func TestCacheSymbolTableShape(t *testing.T) {
	g, p := checkCompared(t, `graph s {
  buffer x  : 4096
  buffer xa : 256
  buffer xb : 256
  buffer xc : 256
  buffer y  : 256
  input x
  output y
  alias xa = x + 256
  alias xb = x + 256
  alias xc = x + 512
  fused blk {
    op a kind add reads xa, xb writes y
    op b kind add reads xa, xc writes y
    op c kind add reads xb, xa writes y
  }
}`)
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0_slice_256, %arg_1", "sdsc_0.json", "-2, -3"),
		ex("%arg_0_slice_256, %arg_0_slice_512, %arg_1", "sdsc_1.json", "-5, -6, -7"),
		ex("%arg_0_slice_256, %arg_1", "sdsc_0.json", "-2, -3"))
}

// TestCacheLX: an LX access has no symbol and no row in the table; it
// matches only the same LX storage group. l1 and l2 are two LX groups,
// lv a view of l1. t, u, w are pooled; every op writes one of them, so
// each op registers one pool symbol. a: pool -1 (l1 has no symbol). b
// reads l1 too: sdsc_0 with [-1]. c reads l2: another LX group, a miss
// (sdsc_1, [-3]). d reads lv: l1's group, a's file. e reads x (a kernel
// arg, arg 0) instead of LX: a miss (sdsc_2: kernel(0) -5, pool -6).
// f reads t, u, w: pool symbols only, kind sink (sdsc_3).
func TestCacheLX(t *testing.T) {
	g, p := checkCompared(t, `graph x {
  buffer l1 : 1024
  buffer lv : 512
  buffer l2 : 1024
  buffer x  : 1024
  buffer t  : 256
  buffer u  : 256
  buffer w  : 256
  buffer v  : 256
  buffer y  : 256
  input x
  output y
  lx l1, l2
  alias lv = l1 + 512
  fused blk {
    op a kind ld reads l1 writes t
    op b kind ld reads l1 writes u
    op c kind ld reads l2 writes w
    op d kind ld reads lv writes v
    op e kind ld reads x writes v
    op g kind sink reads t, u, w, v writes y
  }
}`)
	text := Emit(g, p, 0, on)
	// Pool: t [0, 5], u [1, 5], w [2, 5], v [3, 5]: all conflict, placed
	// at 0, 256, 512, 768.
	expectExecutes(t, text,
		ex("%pool_addr_0", "sdsc_0.json", "-1"),
		ex("%pool_addr_256", "sdsc_0.json", "-1"),
		ex("%pool_addr_512", "sdsc_1.json", "-3"),
		ex("%pool_addr_768", "sdsc_0.json", "-1"),
		ex("%arg_0, %pool_addr_768", "sdsc_2.json", "-5, -6"),
		ex("%pool_addr_0, %pool_addr_256, %pool_addr_512, %pool_addr_768, %arg_1", "sdsc_3.json", "-7, -8, -9, -10, -11"))
}

// TestCacheCores: no cores, cores 1 and cores [1] are one list; cores 2
// and cores [2] another; [2, 1] and [1, 1] (Reading 8) are lists of their
// own. Every op reads x (arg 0) and writes y (arg 1) broadcast: on one
// core the table is [[1], [2]], on two [[1, 1], [2, 2]]: only (b) tells
// them apart.
func TestCacheCores(t *testing.T) {
	g, p := checkCompared(t, `graph c {
  buffer x : 256
  buffer y : 256
  input x
  output y
  fused blk {
    op a kind k reads x writes y
    op b kind k cores 1 reads x writes y
    op c kind k cores [1] reads x writes y
    op d kind k cores 2 reads x writes y
    op e kind k cores [2] reads x writes y
    op f kind k cores [2, 1] reads x writes y
    op h kind k cores [1, 1] reads x writes y
    op i kind k cores [1, 2] reads x writes y
  }
}`)
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_1", "sdsc_1.json", "-7, -8"),
		ex("%arg_0, %arg_1", "sdsc_1.json", "-7, -8"),
		ex("%arg_0, %arg_1", "sdsc_2.json", "-11, -12"),
		ex("%arg_0, %arg_1", "sdsc_3.json", "-13, -14"),
		ex("%arg_0, %arg_1", "sdsc_4.json", "-15, -16"))
}

// TestCacheNoKind: ops without a kind never share, not even with each
// other or with an op of a kind; each still takes the next number. a and
// b have no kind (sdsc_0, sdsc_1); c and d (kind k) share sdsc_2; e has
// no kind (sdsc_3); f is k again: sdsc_2.
func TestCacheNoKind(t *testing.T) {
	g, p := checkCompared(t, `graph n {
  buffer x : 256
  buffer y : 256
  input x
  output y
  fused blk {
    op a reads x writes y
    op b reads x writes y
    op c kind k reads x writes y
    op d kind k reads x writes y
    op e reads x writes y
    op f kind k reads x writes y
  }
}`)
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_1", "sdsc_1.json", "-3, -4"),
		ex("%arg_0, %arg_1", "sdsc_2.json", "-5, -6"),
		ex("%arg_0, %arg_1", "sdsc_2.json", "-5, -6"),
		ex("%arg_0, %arg_1", "sdsc_3.json", "-9, -10"),
		ex("%arg_0, %arg_1", "sdsc_2.json", "-5, -6"))
}

// TestCacheCounts: (c) and (d) on kernel args. b reads one more input:
// a miss. c writes instead of reading: a miss. d reads z (arg 2) where a
// reads x (arg 0): a miss. e is a again: sdsc_0. f reads the view xs of
// x: the kernel symbol (rank 1, hidden) and the slice (rank 2) give the
// table [[2], [3]] where a has [[1], [2]]: a miss, printing its own ids
// with the gap of the hidden kernel symbol (-12).
func TestCacheCounts(t *testing.T) {
	g, p := checkCompared(t, `graph n {
  buffer x : 512
  buffer xs : 256
  buffer z : 256
  buffer y : 256
  input x, z
  output y
  alias xs = x + 256
  fused blk {
    op a kind k reads x writes y
    op b kind k reads x, z writes y
    op c kind k writes x, y
    op d kind k reads z writes y
    op e kind k reads x writes y
    op f kind k reads xs writes y
  }
}`)
	// Args: x 0 (a), y 1 (a), z 2 (b).
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0, %arg_2, %arg_1", "sdsc_1.json", "-3, -4, -5"),
		ex("%arg_0, %arg_1", "sdsc_2.json", "-6, -7"),
		ex("%arg_2, %arg_1", "sdsc_3.json", "-8, -9"),
		ex("%arg_0, %arg_1", "sdsc_0.json", "-1, -2"),
		ex("%arg_0_slice_256, %arg_1", "sdsc_4.json", "-13, -14"))
}

// TestCacheOnWithoutKindsIsOff (Reading 12): with no kind anywhere every
// op misses, and the miss counter is the step.
func TestCacheOnWithoutKindsIsOff(t *testing.T) {
	for _, src := range []string{specExample, derivedShared, edgePrograms["empty-bodies"], edgePrograms["lx-only-and-zero-size"]} {
		g, p := checkCompared(t, src)
		for bi := range g.Bundles {
			expect(t, Emit(g, p, bi, on), Emit(g, p, bi, Options{}))
		}
	}
}

// TestCacheDerivedKeyShared: a key registered by one access and met again
// by a later access of the same op keeps its rank (Reading 10). x is arg
// 0, xs its view at 256.
// a: x kernel(0) rank 1 (-1), core 1 derived(0, 512) rank 2 (-2); xs
// kernel (rank 1), slice(0, 256) rank 3 (-3), core 1 at 256+256: the key
// derived(0, 512) again, rank 2: [[1, 2], [3, 2]].
// b: x derived(0, 768) (-5); xs core 1 at 256+256 = 512, a new key (-7,
// named %arg_0_slice_256_core_256): [[1, 2], [3, 4]], a miss.
// c: x derived(0, 1024) (-9); xs core 1 at 256+768 = 1024, the key of x's
// core 1: [[1, 2], [3, 2]], a's file and ids.
func TestCacheDerivedKeyShared(t *testing.T) {
	g, p := checkCompared(t, `graph d {
  buffer x : 2048
  buffer xs : 1024
  alias xs = x + 256
  input x
  fused blk {
    op a kind k cores 2 reads x split 512, xs split 256
    op b kind k cores 2 reads x split 768, xs split 256
    op c kind k cores 2 reads x split 1024, xs split 768
  }
}`)
	expectExecutes(t, Emit(g, p, 0, on),
		ex("%arg_0, %arg_0_core_512, %arg_0_slice_256", "sdsc_0.json", "-1, -2, -3"),
		ex("%arg_0, %arg_0_core_768, %arg_0_slice_256, %arg_0_slice_256_core_256", "sdsc_1.json", "-4, -5, -6, -7"),
		ex("%arg_0, %arg_0_core_1024, %arg_0_slice_256", "sdsc_0.json", "-1, -2, -3"))
}
