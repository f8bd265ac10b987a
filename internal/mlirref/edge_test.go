package mlirref

import "testing"

// Edge programs the generators reach rarely or never, compared with
// mlirgen like the property tests.
var edgePrograms = map[string]string{
	"empty-bodies": `graph e {
  buffer x : 256
  input x
  fused f { }
  fused g { loop L count 3 { } }
  loop h count 2 { loop i count 2 { } op a reads x }
  fused k { loop A count 2 { op a1 reads x } loop B count 3 { op b1 reads x step 64 } }
}`,
	"derived-key-shared": derivedShared,
	"all-over-budget": `graph o {
  buffer t : 2048
  buffer u : 2048
  fused f { op a writes t, u op b reads t, u }
}`,
	"lx-only-and-zero-size": `graph z {
  buffer l : 256
  buffer zero : 0
  buffer t : 256
  lx l
  fused f { op a reads l writes zero op b reads zero writes t op c reads t, l }
}`,
}

func TestEdgeProgramsAgainstMlirgen(t *testing.T) {
	for _, name := range []string{"empty-bodies", "derived-key-shared", "all-over-budget", "lx-only-and-zero-size"} {
		compareGraph(t, name, edgePrograms[name])
	}
}

// derivedShared: x is arg 0 with the view xs 256 bytes in.
//
//	op a cores 2 reads x split 512, xs split 256
//	op b cores 2 reads xs split 256
//
// In a, x registers kernel(0) -1 and, for core 1, derived(0, 512) -2 named
// %arg_0_core_512; xs registers kernel(0) (already), slice(0,256) -3, and
// for core 1 the key derived(0, 256+256) = derived(0, 512): already
// registered in this op, so core 1 of xs uses -2 (%arg_0_core_512). In b the
// keys are registered afresh: kernel(0) -4, slice -5, derived(0, 512) -6,
// now named from b's access: %arg_0_slice_256_core_256 (a second pair for
// the same address: one pair per distinct SSA name).
const derivedShared = `graph d {
  buffer x : 2048
  buffer xs : 1024
  alias xs = x + 256
  input x
  fused f {
    op a cores 2 reads x split 512, xs split 256
    op b cores 2 reads xs split 256
  }
}`

func TestDerivedKeySharedAcrossViews(t *testing.T) {
	g, p := check(t, derivedShared)
	expect(t, Emit(g, p, 0, Options{}), `module {
	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>) {
		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
		%arg_0_core_offset_512 = arith.constant 512 : index
		%arg_0_core_512 = arith.addi %arg_0, %arg_0_core_offset_512 : index
		%arg_0_slice_offset_256 = arith.constant 256 : index
		%arg_0_slice_256 = arith.addi %arg_0, %arg_0_slice_offset_256 : index
		%arg_0_slice_256_core_offset_256 = arith.constant 256 : index
		%arg_0_slice_256_core_256 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_256 : index
		sdscbundle.sdsc_execute (%arg_0, %arg_0_core_512, %arg_0_slice_256) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2, -3]}
		sdscbundle.sdsc_execute (%arg_0_slice_256, %arg_0_slice_256_core_256) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-5, -6]}
		return
	}
}
`)
}
