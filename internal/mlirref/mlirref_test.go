package mlirref

import (
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// check parses and plans src (first-fit, default budget).
func check(t *testing.T, src string) (*ir.Graph, *planner.Result) {
	t.Helper()
	f, errs := frontend.Parse("t.bir", []byte(src))
	if errs.Len() > 0 {
		t.Fatalf("parse: %v\n%s", errs, src)
	}
	g, errs := frontend.Check(f)
	if errs.Len() > 0 {
		t.Fatalf("check: %v\n%s", errs, src)
	}
	return g, planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
}

func expect(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s\ndiff:\n%s", got, want, Diff(want, got))
	}
}

// specExample is a program whose module is the example of bundle-ir.md §4:
// one loop of 4, an op that reads and writes the pooled t (4096 bytes, at
// pool offset 0) with step 256 and reads the graph input x (arg 0).
// t's read registers pool(0) as -1 and gets %addr_0; x is kernel(0), -2;
// t's write finds pool(0) already registered, so one operand.
const specExample = `graph g {
  buffer t : 4096
  buffer x : 256
  input x
  loop L count 4 {
    op s reads t step 256, x writes t step 256
  }
}`

const specModule = `#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%pool = sdscbundle.device_mem_allocate 4096 bytes : index
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 4 : index
		%pool_offset_0 = arith.constant 0 : index
		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%pool_addr_0]
			sdscbundle.sdsc_execute (%addr_0, %arg_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
		}
		return
	}
}
`

func TestSpecExample(t *testing.T) {
	g, p := check(t, specExample)
	expect(t, Emit(g, p, 0, Options{}), specModule)
}

// With --frontend-pool-allocation the pool is the first parameter and its
// extract the first body op; the rest is unchanged. --generic on top
// changes only the sdscbundle ops.
func TestSpecExampleFrontendPoolGeneric(t *testing.T) {
	g, p := check(t, specExample)
	expect(t, Emit(g, p, 0, Options{FrontendPoolAllocation: true}), `#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
module {
	func.func @sdsc_bundle(%pool_base_addr: !sdscbundle.input_arg<index>, %arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%pool = sdscbundle.input_arg_extract value from %pool_base_addr : !sdscbundle.input_arg<index> -> index
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 4 : index
		%pool_offset_0 = arith.constant 0 : index
		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%pool_addr_0]
			sdscbundle.sdsc_execute (%addr_0, %arg_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
		}
		return
	}
}
`)
	expect(t, Emit(g, p, 0, Options{Generic: true}), `#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%pool = "sdscbundle.device_mem_allocate"() {size = 4096 : i64} : () -> index
		%arg_0 = "sdscbundle.input_arg_extract"(%arg_0_base_addr) {field = "value"} : (!sdscbundle.input_arg<index>) -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 4 : index
		%pool_offset_0 = arith.constant 0 : index
		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%pool_addr_0]
			"sdscbundle.sdsc_execute"(%addr_0, %arg_0) {sdsc_filename = "sdsc_0.json", symbol_ids = [-1, -2]} : (index, index) -> ()
		}
		return
	}
}
`)
}

// Maps are keyed by the nonzero steps only: x's `step 256` in A and
// `step [0, 256]` in B share #map_0, applied to the ivs of the loops with
// a nonzero step (%i_1 in B). y's [512, 128] is #map_1 over (%i_0, %i_1).
// Loop bounds are declared in depth-first order (A = 0, B = 1).
func TestMapKeys(t *testing.T) {
	g, p := check(t, `graph m {
  buffer x : 4096
  buffer y : 4096
  input x
  output y
  fused f {
    loop A count 2 {
      op a0 reads x step 256 writes y
      loop B count 3 {
        op a1 reads x step [0, 256] writes y step [512, 128]
      }
    }
  }
}`)
	expect(t, Emit(g, p, 0, Options{}), `#map_0 = affine_map<(d0)[s0] -> (s0 + 256*d0)>
#map_1 = affine_map<(d0, d1)[s0] -> (s0 + 512*d0 + 128*d1)>
module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>, %arg_1_base_addr: !sdscbundle.input_arg<index>) {
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%arg_1 = sdscbundle.input_arg_extract value from %arg_1_base_addr : !sdscbundle.input_arg<index> -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 2 : index
		%loop_bound_1 = arith.constant 3 : index
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%arg_0]
			sdscbundle.sdsc_execute (%addr_0, %arg_1) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
			scf.for %i_1 = %c0 to %loop_bound_1 step %c1 {
				%addr_1 = affine.apply #map_0(%i_1)[%arg_0]
				%addr_2 = affine.apply #map_1(%i_0, %i_1)[%arg_1]
				sdscbundle.sdsc_execute (%addr_1, %addr_2) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4]}
			}
		}
		return
	}
}
`)
}

// TestCoresSlices is built by hand (no frontend, no planner) so that it
// pins the v2 symbol rules on their own. Group 0 = x (kernel arg 0) with the
// view xs at 256; group 1 = t pooled at 512 with the view tv at 128;
// group 2 = l, LX. One loop L (count 2) holds steps 1 and 2.
//
//	op0 cores 2    reads x split 1024, xs split 1024 writes t split 256
//	op1 (in L)     reads tv step 128, l writes x
//	op2 (in L)     cores [2, 2] reads t split [0, 256] writes xs split [128, 0]
//	op3            reads l writes l
//
// op0: x: kernel(0) -1; core 1 at 1024: derived(0,1024) -2
// %arg_0_core_1024. xs: kernel(0) is registered; slice(0,256) -3; core 1:
// derived(0,1280) -4 %arg_0_slice_256_core_1024. t: pool(512) -5,
// pool(768) -6. op1: tv = pool(640) -7, tiled (#map_0, %addr_0); l has no
// symbol; x: kernel(0) -8. op2: cores (i0,i1) = (0,0),(1,0),(0,1),(1,1):
// t offsets 0,0,256,256: pool(512) -9, pool(768) -10; xs: kernel(0) -11
// (hidden: a gap), slice -12, cores 1 and 3 at 128: derived(0,384) -13
// %arg_0_slice_256_core_128, core 2 at 0 uses the slice. op3: nothing.
// Declarations: one pair per new SSA name in that order (op2's pool and
// slice names are already declared).
func TestCoresSlices(t *testing.T) {
	ints := &ir.Graph{} // holds the names and the accesses' strides and splits
	acc := ints.NewAccess
	g := &ir.Graph{
		Name: "h",
		Buffers: ir.ChunkedOf([]ir.Buffer{
			{Name: ints.AddName("x"), Size: 4096, Group: 0, View: -1},
			{Name: ints.AddName("xs"), Size: 1024, Group: 0, View: 0},
			{Name: ints.AddName("t"), Size: 1024, Group: 1, View: -1},
			{Name: ints.AddName("tv"), Size: 512, Group: 1, View: 1},
			{Name: ints.AddName("l"), Size: 128, Group: 2, View: -1},
		}...),
		Views: []ir.View{{Alias: 0, AliasOffset: 256, ViewOffset: 256}, {Alias: 2, AliasOffset: 128, ViewOffset: 128}},
		Groups: []ir.Group{
			{Members: ints.AddMembers([]int32{0, 1}), Size: 4096},
			{Members: ints.AddMembers([]int32{2, 3}), Size: 1024},
			{Members: ints.AddMembers([]int32{4}), Size: 128},
		},
		Claims:      []ir.Claim{{Kind: ir.ClaimInput, Buffer: 0}, {Kind: ir.ClaimLX, Buffer: 4}},
		GroupClaims: []ir.ClaimSet{1 << ir.ClaimInput, 0, 1 << ir.ClaimLX},
		Bundles: []ir.Bundle{{
			Name: "b",
			Kind: ir.KindFused,
			Ops: []ir.Op{
				ints.NewOp("op0", nil, []int64{2},
					[]ir.Access{acc(0, nil, []int64{1024}), acc(1, nil, []int64{1024})},
					[]ir.Access{acc(2, nil, []int64{256})}),
				ints.NewOp("op1", []int32{0}, nil,
					[]ir.Access{acc(3, []int64{128}, nil), acc(4, nil, nil)},
					[]ir.Access{acc(0, nil, nil)}),
				ints.NewOp("op2", []int32{0}, []int64{2, 2},
					[]ir.Access{acc(2, nil, []int64{0, 256})},
					[]ir.Access{acc(1, nil, []int64{128, 0})}),
				ints.NewOp("op3", nil, nil,
					[]ir.Access{acc(4, nil, nil)},
					[]ir.Access{acc(4, nil, nil)}),
			},
			Loops: []ir.Loop{{Name: "L", Count: 2, Parent: -1, Depth: 1, First: 1, Last: 2,
				Body: ints.AddItems([]ir.Item{{Op: 1, Loop: -1}, {Op: 2, Loop: -1}})}},
			Body: ints.AddItems([]ir.Item{{Op: 0, Loop: -1}, {Op: -1, Loop: 0}, {Op: 3, Loop: -1}}),
		}},
	}
	g.Names, g.Ints, g.Addressings, g.Accesses, g.LoopLists, g.MemberLists, g.Items = ints.Names, ints.Ints, ints.Addressings, ints.Accesses, ints.LoopLists, ints.MemberLists, ints.Items
	p := &planner.Result{
		Graph: g,
		Groups: []planner.Group{
			{Reason: planner.GraphInput, Bundle: -1, Offset: -1},
			{Reason: planner.Pooled, Bundle: 0, Start: 0, End: 2, Offset: 512},
			{Reason: planner.LX, Bundle: -1, Offset: -1},
		},
		Bundles:         []planner.Bundle{{Candidates: ir.Span{Off: 0, Len: 1}, PoolSize: 1536}},
		CandidateGroups: []int32{1},
	}
	expect(t, Emit(g, p, 0, Options{}), `#map_0 = affine_map<(d0)[s0] -> (s0 + 128*d0)>
module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%pool = sdscbundle.device_mem_allocate 1536 bytes : index
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%c0 = arith.constant 0 : index
		%c1 = arith.constant 1 : index
		%loop_bound_0 = arith.constant 2 : index
		%arg_0_core_offset_1024 = arith.constant 1024 : index
		%arg_0_core_1024 = arith.addi %arg_0, %arg_0_core_offset_1024 : index
		%arg_0_slice_offset_256 = arith.constant 256 : index
		%arg_0_slice_256 = arith.addi %arg_0, %arg_0_slice_offset_256 : index
		%arg_0_slice_256_core_offset_1024 = arith.constant 1024 : index
		%arg_0_slice_256_core_1024 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_1024 : index
		%pool_offset_512 = arith.constant 512 : index
		%pool_addr_512 = arith.addi %pool, %pool_offset_512 : index
		%pool_offset_768 = arith.constant 768 : index
		%pool_addr_768 = arith.addi %pool, %pool_offset_768 : index
		%pool_offset_640 = arith.constant 640 : index
		%pool_addr_640 = arith.addi %pool, %pool_offset_640 : index
		%arg_0_slice_256_core_offset_128 = arith.constant 128 : index
		%arg_0_slice_256_core_128 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_128 : index
		sdscbundle.sdsc_execute (%arg_0, %arg_0_core_1024, %arg_0_slice_256, %arg_0_slice_256_core_1024, %pool_addr_512, %pool_addr_768) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3, -4, -5, -6]}
		scf.for %i_0 = %c0 to %loop_bound_0 step %c1 {
			%addr_0 = affine.apply #map_0(%i_0)[%pool_addr_640]
			sdscbundle.sdsc_execute (%addr_0, %arg_0) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-7, -8]}
			sdscbundle.sdsc_execute (%pool_addr_512, %pool_addr_768, %arg_0_slice_256, %arg_0_slice_256_core_128) {sdsc_filename="sdsc_2.json", "symbol_ids"=[-9, -10, -12, -13]}
		}
		sdscbundle.sdsc_execute () {sdsc_filename="sdsc_3.json", "symbol_ids"=[]}
		return
	}
}
`)
}

// coreOffset follows bundle-ir.md §2: the first dimension varies fastest.
func TestCoreOffset(t *testing.T) {
	cores := []int64{2, 3}
	split := []int64{100, 1000}
	// c: (i0, i1) = (c mod 2, c/2 mod 3)
	want := []int64{0, 100, 1000, 1100, 2000, 2100}
	for c, w := range want {
		if got := coreOffset(cores, split, c); got != w {
			t.Errorf("coreOffset(c=%d) = %d, want %d", c, got, w)
		}
	}
	if got := coreOffset(cores, nil, 5); got != 0 {
		t.Errorf("broadcast offset %d, want 0", got)
	}
}
