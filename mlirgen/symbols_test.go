package mlirgen

import (
	"testing"
	"time"
)

// The expected modules below are written from bundle-ir.md §4 by hand; each case
// says why every line is what it is.

const (
	argT   = ": !sdscbundle.input_arg<index>"
	extrac = " = sdscbundle.input_arg_extract value from "
	argTo  = " : !sdscbundle.input_arg<index> -> index"
)

func extract(n string) string { return "\t\t%arg_" + n + extrac + "%arg_" + n + "_base_addr" + argTo }

// Pool symbols are keyed by value, one per core, so cores that land on
// the same pool address share one symbol and one operand. t is the only
// pooled buffer (offset 0, 1024 bytes). Op a runs on cores [2, 2] and
// writes t with split [0, 512]: core offsets 0 (c0), 0 (c1, i_0 = 1 but
// b_0 = 0), 512 (c2), 512 (c3), so pool(0) and pool(512) only. x is a
// broadcast kernel argument: one kernel(0) symbol for all four cores.
// Ids: a: kernel(0) -1, pool(0) -2, pool(512) -3; b: pool(0) -4 (a new
// op registers again), kernel(1) -5. Declarations follow registration
// order: pool(0), pool(512); the second pool(0) declares nothing.
const poolSrc = `graph g {
  buffer x : 1024
  buffer t : 1024
  buffer y : 1024
  input x
  output y
  fused f {
    op a reads x writes t
    op b reads t writes y
  }
}`

func poolEdit(e *editor) {
	e.cores("a", 2, 2)
	e.split("a", 1, 0, 512)
}

func TestSymbolsPoolDedupAcrossCores(t *testing.T) {
	p := build(t, poolSrc, poolEdit)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		"\t\t%pool = sdscbundle.device_mem_allocate 1024 bytes : index",
		extract("0"),
		extract("1"),
		"\t\t%pool_offset_0 = arith.constant 0 : index",
		"\t\t%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index",
		"\t\t%pool_offset_512 = arith.constant 512 : index",
		"\t\t%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index",
		`		sdscbundle.sdsc_execute (%arg_0, %pool_addr_0, %pool_addr_512) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}`,
		`		sdscbundle.sdsc_execute (%pool_addr_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-4, -5]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// --frontend-pool-allocation: %pool_base_addr is the first parameter and
// the first body op extracts %pool from it; everything else as above. In
// --generic the extract of the pool is generic too (it is an sdscbundle
// op), the arith ops are not.
func TestSymbolsFrontendPoolAllocation(t *testing.T) {
	p := build(t, poolSrc, poolEdit)
	diffText(t, emitText(t, p, 0, Options{FrontendPoolAllocation: true}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%pool_base_addr"+argT+", %arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		"\t\t%pool = sdscbundle.input_arg_extract value from %pool_base_addr"+argTo,
		extract("0"),
		extract("1"),
		"\t\t%pool_offset_0 = arith.constant 0 : index",
		"\t\t%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index",
		"\t\t%pool_offset_512 = arith.constant 512 : index",
		"\t\t%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index",
		`		sdscbundle.sdsc_execute (%arg_0, %pool_addr_0, %pool_addr_512) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}`,
		`		sdscbundle.sdsc_execute (%pool_addr_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-4, -5]}`,
		"\t\treturn",
		"\t}",
		"}"))
	gen := `(%arg_N_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index`
	ext := func(n string) string {
		return "\t\t%arg_" + n + ` = "sdscbundle.input_arg_extract"(%arg_` + n + gen[len("(%arg_N"):]
	}
	diffText(t, emitText(t, p, 0, Options{FrontendPoolAllocation: true, Generic: true}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%pool_base_addr"+argT+", %arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		`		%pool = "sdscbundle.input_arg_extract"(%pool_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index`,
		ext("0"),
		ext("1"),
		"\t\t%pool_offset_0 = arith.constant 0 : index",
		"\t\t%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index",
		"\t\t%pool_offset_512 = arith.constant 512 : index",
		"\t\t%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index",
		`		"sdscbundle.sdsc_execute"(%arg_0, %pool_addr_0, %pool_addr_512) {sdsc_filename = "sdsc_0.json", symbol_ids = [-1, -2, -3]} : (index, index, index) -> ()`,
		`		"sdscbundle.sdsc_execute"(%pool_addr_0, %arg_1) {sdsc_filename = "sdsc_1.json", symbol_ids = [-4, -5]} : (index, index) -> ()`,
		"\t\treturn",
		"\t}",
		"}"))
}

// A view at an offset into a kernel group: kernel(0) is registered (id
// -1) but nothing refers to it, the slice(0, 1024) symbol (-2) is what
// the op uses, so the ids have a gap. Op b repeats the read: kernel(0)
// -4, slice -5 again (a new op), y kernel(1) -6; the slice is declared
// once (one pair per distinct SSA name).
func TestSymbolsKernelSliceGap(t *testing.T) {
	src := `graph g {
  buffer x : 4096
  buffer xs : 1024
  buffer y : 1024
  input x
  output y
  alias xs = x
  fused f {
    op a reads xs writes y
    op b reads xs writes y
  }
}`
	p := build(t, src, func(e *editor) { e.view("xs", 1024) })
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%arg_0_slice_offset_1024 = arith.constant 1024 : index",
		"\t\t%arg_0_slice_1024 = arith.addi %arg_0, %arg_0_slice_offset_1024 : index",
		`		sdscbundle.sdsc_execute (%arg_0_slice_1024, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3]}`,
		`		sdscbundle.sdsc_execute (%arg_0_slice_1024, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// Derived symbols, one per core whose offset differs from core 0's, on a
// 2-D cores op. a: cores [2, 2] (first dimension fastest), x split
// [256, 1024]: cores 0..3 at 0, 256, 1024, 1280; y split [128, 0]: 0,
// 128, 0, 128. x: kernel(0) -1, derived(0,256) -2, derived(0,1024) -3,
// derived(0,1280) -4; y: kernel(1) -5, derived(1,128) -6 (core 2 uses
// core 0's kernel(1), core 3 the existing derived(1,128)). b: cores 2,
// reads the view xs (x + 512) split 2048: kernel(0) -7 (hidden), slice
// (0,512) -8, derived(0, 512+2048) -9 named after the slice with O =
// 2048; y broadcast: kernel(1) -10.
func TestSymbolsDerivedPerCore(t *testing.T) {
	src := `graph g {
  buffer x : 8192
  buffer xs : 4096
  buffer y : 1024
  input x
  output y
  alias xs = x
  fused f {
    op a reads x writes y
    op b reads xs writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.view("xs", 512)
		e.cores("a", 2, 2)
		e.split("a", 0, 256, 1024)
		e.split("a", 1, 128, 0)
		e.cores("b", 2)
		e.split("b", 0, 2048)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%arg_0_core_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_core_256 = arith.addi %arg_0, %arg_0_core_offset_256 : index",
		"\t\t%arg_0_core_offset_1024 = arith.constant 1024 : index",
		"\t\t%arg_0_core_1024 = arith.addi %arg_0, %arg_0_core_offset_1024 : index",
		"\t\t%arg_0_core_offset_1280 = arith.constant 1280 : index",
		"\t\t%arg_0_core_1280 = arith.addi %arg_0, %arg_0_core_offset_1280 : index",
		"\t\t%arg_1_core_offset_128 = arith.constant 128 : index",
		"\t\t%arg_1_core_128 = arith.addi %arg_1, %arg_1_core_offset_128 : index",
		"\t\t%arg_0_slice_offset_512 = arith.constant 512 : index",
		"\t\t%arg_0_slice_512 = arith.addi %arg_0, %arg_0_slice_offset_512 : index",
		"\t\t%arg_0_slice_512_core_offset_2048 = arith.constant 2048 : index",
		"\t\t%arg_0_slice_512_core_2048 = arith.addi %arg_0_slice_512, %arg_0_slice_512_core_offset_2048 : index",
		`		sdscbundle.sdsc_execute (%arg_0, %arg_0_core_256, %arg_0_core_1024, %arg_0_core_1280, %arg_1, %arg_1_core_128) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3, -4, -5, -6]}`,
		`		sdscbundle.sdsc_execute (%arg_0_slice_512, %arg_0_slice_512_core_2048, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-8, -9, -10]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// Derived keys are (arg, offset): within one op, xs (x + 256) split 256
// registers derived(0, 512) named %arg_0_slice_256_core_256, and x split
// 512 on core 1 has the same key, so it uses that symbol. In op b the
// same key is first registered by x, so there it is %arg_0_core_512: two
// names for one key, each declared once. a: kernel(0) -1, slice(0,256)
// -2, derived(0,512) -3, y kernel(1) -4; uses in order: -2, -3 (xs), -1,
// -3 (x), -4, -4 (y). b: kernel(0) -5, derived(0,512) -6, kernel(1) -7.
func TestSymbolsDerivedKeyShared(t *testing.T) {
	src := `graph g {
  buffer x : 8192
  buffer xs : 4096
  buffer y : 1024
  input x
  output y
  alias xs = x
  fused f {
    op a reads xs, x writes y
    op b reads x writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.view("xs", 256)
		e.cores("a", 2)
		e.split("a", 0, 256)
		e.split("a", 1, 512)
		e.cores("b", 2)
		e.split("b", 0, 512)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%arg_0_slice_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_slice_256 = arith.addi %arg_0, %arg_0_slice_offset_256 : index",
		"\t\t%arg_0_slice_256_core_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_slice_256_core_256 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_256 : index",
		"\t\t%arg_0_core_offset_512 = arith.constant 512 : index",
		"\t\t%arg_0_core_512 = arith.addi %arg_0, %arg_0_core_offset_512 : index",
		`		sdscbundle.sdsc_execute (%arg_0_slice_256, %arg_0_slice_256_core_256, %arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3, -1, -4]}`,
		`		sdscbundle.sdsc_execute (%arg_0, %arg_0_core_512, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6, -7]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// A broadcast tiled access on a multi-core op is one symbol and one
// apply; a split tiled access gets one apply per distinct core symbol,
// same map. x step 256 -> #map_0, y step 1024 -> #map_1. a (cores 2): x
// kernel(0) -1 used by both cores: %addr_0; y kernel(1) -2, derived(1,
// 256) -3: %addr_1 on %arg_1, %addr_2 on %arg_1_core_256.
func TestSymbolsBroadcastAndSplitTiled(t *testing.T) {
	src := `graph g {
  buffer x : 1024
  buffer y : 8192
  input x
  output y
  loop L count 4 {
    op a reads x step 256 writes y step 1024
  }
}`
	p := build(t, src, func(e *editor) {
		e.cores("a", 2)
		e.split("a", 1, 256)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>",
		"#map_1 = affine_map<(d0)[s0] -> (s0 + 1024*d0)>",
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%c0 = arith.constant 0 : index",
		"\t\t%c1 = arith.constant 1 : index",
		"\t\t%loop_bound_0 = arith.constant 4 : index",
		"\t\t%arg_1_core_offset_256 = arith.constant 256 : index",
		"\t\t%arg_1_core_256 = arith.addi %arg_1, %arg_1_core_offset_256 : index",
		"\t\tscf.for %i_0 = %c0 to %loop_bound_0 step %c1 {",
		"\t\t\t%addr_0 = affine.apply #map_0(%i_0)[%arg_0]",
		"\t\t\t%addr_1 = affine.apply #map_1(%i_0)[%arg_1]",
		"\t\t\t%addr_2 = affine.apply #map_1(%i_0)[%arg_1_core_256]",
		`			sdscbundle.sdsc_execute (%addr_0, %addr_1, %addr_2) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}`,
		"\t\t}",
		"\t\treturn",
		"\t}",
		"}"))
}

// Reading and writing the same storage at the same address is one symbol
// and one operand (y: kernel(0) -1). x read twice with different steps:
// one symbol (kernel(1) -2), one apply (the first tiled access, #map_0),
// but both steps register a map, so #map_1 is printed though unused.
func TestSymbolsSameStorageTwice(t *testing.T) {
	src := `graph g {
  buffer x : 4096
  buffer y : 1024
  input x
  output y
  loop L count 4 {
    op a reads y, x step 256, x step 512 writes y
  }
}`
	p := build(t, src, nil)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>",
		"#map_1 = affine_map<(d0)[s0] -> (s0 + 512*d0)>",
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%c0 = arith.constant 0 : index",
		"\t\t%c1 = arith.constant 1 : index",
		"\t\t%loop_bound_0 = arith.constant 4 : index",
		"\t\tscf.for %i_0 = %c0 to %loop_bound_0 step %c1 {",
		"\t\t\t%addr_0 = affine.apply #map_0(%i_0)[%arg_1]",
		`			sdscbundle.sdsc_execute (%arg_0, %addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		"\t\t}",
		"\t\treturn",
		"\t}",
		"}"))
}

// An untiled access before a tiled one of the same symbol: the symbol's
// operand is the %addr of the tiled access, for the whole op.
func TestSymbolsUntiledThenTiled(t *testing.T) {
	src := `graph g {
  buffer x : 4096
  buffer y : 1024
  input x
  output y
  loop L count 4 {
    op a reads x, x step 256 writes y
  }
}`
	p := build(t, src, nil)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>",
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%c0 = arith.constant 0 : index",
		"\t\t%c1 = arith.constant 1 : index",
		"\t\t%loop_bound_0 = arith.constant 4 : index",
		"\t\tscf.for %i_0 = %c0 to %loop_bound_0 step %c1 {",
		"\t\t\t%addr_0 = affine.apply #map_0(%i_0)[%arg_0]",
		`			sdscbundle.sdsc_execute (%addr_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		"\t\t}",
		"\t\treturn",
		"\t}",
		"}"))
}

// An LX access has no symbol and registers no map: s's step 128 makes
// no map, so x's step 256 is #map_0; ids count only x and y.
func TestSymbolsLX(t *testing.T) {
	src := `graph g {
  buffer x : 4096
  buffer s : 1024
  buffer y : 1024
  input x
  output y
  lx s
  loop L count 2 {
    op a reads s step 128, x step 256 writes y
  }
}`
	p := build(t, src, nil)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>",
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%c0 = arith.constant 0 : index",
		"\t\t%c1 = arith.constant 1 : index",
		"\t\t%loop_bound_0 = arith.constant 2 : index",
		"\t\tscf.for %i_0 = %c0 to %loop_bound_0 step %c1 {",
		"\t\t\t%addr_0 = affine.apply #map_0(%i_0)[%arg_0]",
		`			sdscbundle.sdsc_execute (%addr_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		"\t\t}",
		"\t\treturn",
		"\t}",
		"}"))
}

// Sibling loops get distinct K (depth-first: A 0, B 1, C 2), and maps
// are keyed by the nonzero steps only: `step 256` in A and `step [0,
// 256]` in C share #map_0, whose one dimension is C's iv (B's step is 0,
// so %i_1 is not an operand). Ids: a: x -1, y -2; b: x -3, y -4.
func TestSymbolsSiblingLoopsAndMapKey(t *testing.T) {
	src := `graph g {
  buffer x : 4096
  buffer y : 1024
  input x
  output y
  fused f {
    loop A count 2 {
      op a reads x step 256 writes y
    }
    loop B count 2 {
      loop C count 3 {
        op b reads x step [0, 256] writes y
      }
    }
  }
}`
	p := build(t, src, nil)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>",
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%c0 = arith.constant 0 : index",
		"\t\t%c1 = arith.constant 1 : index",
		"\t\t%loop_bound_0 = arith.constant 2 : index",
		"\t\t%loop_bound_1 = arith.constant 2 : index",
		"\t\t%loop_bound_2 = arith.constant 3 : index",
		"\t\tscf.for %i_0 = %c0 to %loop_bound_0 step %c1 {",
		"\t\t\t%addr_0 = affine.apply #map_0(%i_0)[%arg_0]",
		`			sdscbundle.sdsc_execute (%addr_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		"\t\t}",
		"\t\tscf.for %i_1 = %c0 to %loop_bound_1 step %c1 {",
		"\t\t\tscf.for %i_2 = %c0 to %loop_bound_2 step %c1 {",
		"\t\t\t\t%addr_1 = affine.apply #map_0(%i_2)[%arg_0]",
		`				sdscbundle.sdsc_execute (%addr_1, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4]}`,
		"\t\t\t}",
		"\t\t}",
		"\t\treturn",
		"\t}",
		"}"))
}

// A view at an offset into a pooled group: the pool symbol's value is
// P + v + o_c. t (1024) with view ts = t + 512 is the only pooled group,
// at 0 (pool 1024 bytes). a writes t: pool(0); b reads ts on cores 2
// split 256: pool(0 + 512 + 0) and pool(0 + 512 + 256).
// a: x kernel(0) -1, pool(0) -2; b: pool(512) -3, pool(768) -4, y
// kernel(1) -5.
func TestSymbolsPooledView(t *testing.T) {
	src := `graph g {
  buffer x : 1024
  buffer t : 1024
  buffer ts : 512
  buffer y : 1024
  input x
  output y
  alias ts = t
  fused f {
    op a reads x writes t
    op b reads ts writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.view("ts", 512)
		e.cores("b", 2)
		e.split("b", 0, 256)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		"\t\t%pool = sdscbundle.device_mem_allocate 1024 bytes : index",
		extract("0"),
		extract("1"),
		"\t\t%pool_offset_0 = arith.constant 0 : index",
		"\t\t%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index",
		"\t\t%pool_offset_512 = arith.constant 512 : index",
		"\t\t%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index",
		"\t\t%pool_offset_768 = arith.constant 768 : index",
		"\t\t%pool_addr_768 = arith.addi %pool, %pool_offset_768 : index",
		`		sdscbundle.sdsc_execute (%arg_0, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		`		sdscbundle.sdsc_execute (%pool_addr_512, %pool_addr_768, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4, -5]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// An op with no operands at all (every access LX) prints () and [].
func TestSymbolsNoOperands(t *testing.T) {
	src := `graph g {
  buffer s : 128
  lx s
  op a reads s writes s
}`
	p := build(t, src, nil)
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle() {",
		`		sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json", "symbol_ids"=[]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// The same shared derived key in a bundle of one op: x's core 1 reaches
// derived(0, 512) through the name %arg_0_slice_256_core_256 that xs
// registered first, so %arg_0_core_512 is never a symbol's name and is
// not declared (an unused declaration would be dead code that mlir-opt
// --cse removes).
func TestSymbolsDerivedKeySharedOneOp(t *testing.T) {
	src := `graph g {
  buffer x : 8192
  buffer xs : 4096
  buffer y : 1024
  input x
  output y
  alias xs = x
  op a reads xs, x writes y
}`
	p := build(t, src, func(e *editor) {
		e.view("xs", 256)
		e.cores("a", 2)
		e.split("a", 0, 256)
		e.split("a", 1, 512)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		extract("0"),
		extract("1"),
		"\t\t%arg_0_slice_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_slice_256 = arith.addi %arg_0, %arg_0_slice_offset_256 : index",
		"\t\t%arg_0_slice_256_core_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_slice_256_core_256 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_256 : index",
		`		sdscbundle.sdsc_execute (%arg_0_slice_256, %arg_0_slice_256_core_256, %arg_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-2, -3, -1, -4]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// A pool address that is not a multiple of 128 is declared in its place
// among the others. TestSymbolsPooledView's graph with b split 64: b
// reads ts on cores 2 at pool(0 + 512 + 0) and pool(0 + 512 + 64), 576
// not a multiple of 128; then c reads the view xs = x + 256 of kernel
// argument 0, declared after it.
// a: x kernel(0) -1, pool(0) -2; b: pool(512) -3, pool(576) -4, y
// kernel(1) -5; c: kernel(0) -6 (hidden), slice(0, 256) -7, y kernel(1)
// -8.
func TestSymbolsPooledOddAddress(t *testing.T) {
	src := `graph g {
  buffer x : 1024
  buffer xs : 512
  buffer t : 1024
  buffer ts : 512
  buffer y : 1024
  input x
  output y
  alias xs = x
  alias ts = t
  fused f {
    op a reads x writes t
    op b reads ts writes y
    op c reads xs writes y
  }
}`
	p := build(t, src, func(e *editor) {
		e.view("xs", 256)
		e.view("ts", 512)
		e.cores("b", 2)
		e.split("b", 0, 64)
	})
	diffText(t, emitText(t, p, 0, Options{}), lines(
		"module {",
		"\tfunc.func @sdsc_bundle(%arg_0_base_addr"+argT+", %arg_1_base_addr"+argT+") {",
		"\t\t%pool = sdscbundle.device_mem_allocate 1024 bytes : index",
		extract("0"),
		extract("1"),
		"\t\t%pool_offset_0 = arith.constant 0 : index",
		"\t\t%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index",
		"\t\t%pool_offset_512 = arith.constant 512 : index",
		"\t\t%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index",
		"\t\t%pool_offset_576 = arith.constant 576 : index",
		"\t\t%pool_addr_576 = arith.addi %pool, %pool_offset_576 : index",
		"\t\t%arg_0_slice_offset_256 = arith.constant 256 : index",
		"\t\t%arg_0_slice_256 = arith.addi %arg_0, %arg_0_slice_offset_256 : index",
		`		sdscbundle.sdsc_execute (%arg_0, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}`,
		`		sdscbundle.sdsc_execute (%pool_addr_512, %pool_addr_576, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4, -5]}`,
		`		sdscbundle.sdsc_execute (%arg_0_slice_256, %arg_1) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-7, -8]}`,
		"\t\treturn",
		"\t}",
		"}"))
}

// TestDeclSetOthersAfterOddAddresses: the slice/core value table stays
// usable when layout.others already holds more pool addresses that are
// not multiples of 128 (which it lists but never indexes) than the table
// has slots, as a bundle with many views at unaligned offsets does
// (found by FuzzPlanVerify: addOther grew the table once, to fewer slots
// than the entries it then re-inserted, and probed forever). The test
// runs the set in a goroutine so that a regression fails instead of
// hanging the package.
func TestDeclSetOthersAfterOddAddresses(t *testing.T) {
	var s declSet
	s.reset(1) // the smallest table: 64 slots
	var others seq[value]
	for k := range 200 {
		others.add(poolAddr(int64(128*k + 13)))
	}
	done := make(chan [2]bool, 1)
	go func() {
		first := s.addOther(&others, slice(7, 3))
		others.add(slice(7, 3))
		again := s.addOther(&others, slice(7, 3))
		done <- [2]bool{first, again}
	}()
	select {
	case r := <-done:
		if !r[0] || r[1] {
			t.Fatalf("addOther: new %v, then again %v; want true, false", r[0], r[1])
		}
	case <-time.After(10 * time.Second):
		t.Fatal("addOther did not return: its table is full")
	}
	if 4*others.len() > 3*len(s.otab) {
		t.Fatalf("%d entries in a table of %d slots: over three quarters full", others.len(), len(s.otab))
	}
}
