package sdscgen_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"strings"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/dsa"
)

// src is a graph of one fused bundle k: op a writes t from the graph
// input x, op b reads t into the graph output y. Only t can share k's
// pool; it is live from step 0 to step 1.
const src = `graph g {
  buffer x : 128
  buffer t : 256
  buffer y : 128
  input x
  output y
  fused k {
    op a reads x writes t
    op b reads t writes y
  }
}
`

// Compile a graph with the default options and write its MLIR: the pool
// of bundle k holds t (256 bytes at offset 0), while x and y arrive as
// arguments.
func ExampleCompile() {
	res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.WriteMLIR(os.Stdout, sdscgen.EmitOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// module {
	// 	func.func @sdsc_bundle(%arg_0_base_addr: !sdscbundle.input_arg<index>, %arg_1_base_addr: !sdscbundle.input_arg<index>) {
	// 		%pool = sdscbundle.device_mem_allocate 256 bytes : index
	// 		%arg_0 = sdscbundle.input_arg_extract value from %arg_0_base_addr : !sdscbundle.input_arg<index> -> index
	// 		%arg_1 = sdscbundle.input_arg_extract value from %arg_1_base_addr : !sdscbundle.input_arg<index> -> index
	// 		%pool_offset_0 = arith.constant 0 : index
	// 		%pool_addr_0 = arith.addi %pool, %pool_offset_0 : index
	// 		sdscbundle.sdsc_execute (%arg_0, %pool_addr_0) {sdsc_filename="sdsc_0.json", "symbol_ids"=[-1, -2]}
	// 		sdscbundle.sdsc_execute (%pool_addr_0, %arg_1) {sdsc_filename="sdsc_1.json", "symbol_ids"=[-3, -4]}
	// 		return
	// 	}
	// }
}

// The plan JSON records the options (a budget of 200 bytes, the
// best-fit allocator) and each buffer's decision: t's 256 bytes do not
// fit under 200, so it falls back over budget, a kernel argument, and k's
// pool is empty. The footprint has one position, k, where x, t and y are
// all live: 128 + 256 + 128 = 512 bytes.
func ExampleResult_WritePlanJSON() {
	res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{Budget: 200, Allocator: "best-fit"})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.WritePlanJSON(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {
	//   "format_version": 2,
	//   "graph": "g",
	//   "allocator": "best-fit",
	//   "budget": 200,
	//   "pool_sizes": {"k": 0},
	//   "bundles": [
	//     {"name": "k", "steps": 2, "pool_size": 0, "lower_bound": 256, "pos": "g.bir:7:9",
	//       "kernel_args": [
	//         {"arg": 0, "group": "x", "names": ["x"]},
	//         {"arg": 1, "group": "t", "names": ["t"]},
	//         {"arg": 2, "group": "y", "names": ["y"]}
	//       ],
	//       "ops": [
	//         {"name": "a", "step": 0, "pos": "g.bir:8:8", "sdsc_file": "sdsc_0.json"},
	//         {"name": "b", "step": 1, "pos": "g.bir:9:8", "sdsc_file": "sdsc_1.json"}
	//       ]}
	//   ],
	//   "buffers": [
	//     {"name": "x", "size": 128, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-input", "group": "x", "pos": "g.bir:2:10"},
	//     {"name": "t", "size": 256, "bundle": "k", "start": 0, "end": 1, "offset": null, "view_offset": 0, "reason": "over-budget", "group": "t", "pos": "g.bir:3:10"},
	//     {"name": "y", "size": 128, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-output", "group": "y", "pos": "g.bir:4:10"}
	//   ],
	//   "footprint": {
	//     "peak_bytes": 512, "peak_node": "k", "peak_position": 0,
	//     "no_pooling_peak_bytes": 512, "resident_pools_peak_bytes": 512,
	//     "timeline": [
	//       {"node": "k", "kind": "bundle", "standalone_bytes": 512, "pool_bytes": 0}
	//     ]
	//   }
	// }
}

// Explain one buffer: who writes and reads it, where, and why it is
// pooled where it is.
func ExampleResult_Explain() {
	res, err := sdscgen.Compile("g.bir", []byte(src), sdscgen.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.Explain(os.Stdout, "t"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// buffer t: 256 B (256 bytes), declared at g.bir:3:10
	// storage group t: t; 256 B (256 bytes)
	// written by:
	//   bundle k, step 0, op a at g.bir:8:25
	// read by:
	//   bundle k, step 1, op b at g.bir:9:16
	// decision: pooled in bundle k
	// live range: steps 0..1 of bundle k (first touch at step 0, last at step 1)
	// pool: offset 0, bytes [0, 256) of bundle k's 256 B pool (256 bytes; lower bound 256)
	// shares bytes with: no other buffer
}

// Invalid options are errors, never silently replaced by a default.
func ExampleOptions_Validate() {
	for _, opt := range []sdscgen.Options{{}, {Budget: -1}, {Allocator: "worst-fit"}} {
		fmt.Println(opt.Validate())
	}
	// Output:
	// <nil>
	// budget -1 is negative
	// unknown allocator "worst-fit" (have [first-fit best-fit size-best-fit best])
}

// Pack a MiniMalloc CSV instance (id,lower,upper,size; half-open
// lifespans) with two allocators. x [0,2) and z [1,3) are live together
// at step 1, so no packing ends below 3 bytes. First-fit takes y before
// x (same start, y ends first): y at 0, x at 1; at step 1 y is dead but
// its one free byte cannot hold z's two, so z goes to 2 and the pool
// ends at 4. best reaches 3: x at byte 2, y at 0, then z at 0 once y is
// dead (steps 1..2, bytes 0..1, beside x's byte 2).
func Example_packMiniMallocCSV() {
	const csv = "id,lower,upper,size\nx,0,2,1\ny,0,1,1\nz,1,3,2\n"
	inst, err := dsa.Read(strings.NewReader(csv), "trap.csv")
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"first-fit", "best"} {
		a, err := alloc.Lookup(name, alloc.Options{})
		if err != nil {
			log.Fatal(err)
		}
		p, err := dsa.Pack(inst.Buffers, math.MaxInt64, a.Func)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: pool_end=%d lower_bound=%d\n", name, p.PoolEnd, p.LowerBound)
		if err := dsa.Write(os.Stdout, inst.Buffers, p.Offsets); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// first-fit: pool_end=4 lower_bound=3
	// id,lower,upper,size,offset
	// x,0,2,1,1
	// y,0,1,1,0
	// z,1,3,2,2
	// best: pool_end=3 lower_bound=3
	// id,lower,upper,size,offset
	// x,0,2,1,2
	// y,0,1,1,0
	// z,1,3,2,0
}
