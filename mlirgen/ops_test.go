package mlirgen

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// printOp prints m at indent 1 with the custom or the generic printer.
func printOp(t *testing.T, m mop, generic bool) string {
	t.Helper()
	var buf bytes.Buffer
	pr := newPrinter(&buf)
	pr.indent = 1
	if generic {
		pr.generic(&m)
	} else {
		pr.custom(&m)
	}
	if err := pr.flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestOpPrinters: every op kind in both forms. The custom forms are the
// lines of bundle-ir.md §4 (and MLIR's own syntax for func, arith, affine, scf);
// the generic forms are MLIR's `"name"(operands) ({region}) {attributes}
// : (operand types) -> result types`, attributes in alphabetical order,
// an scf.for body ending in its explicit "scf.yield".
func TestOpPrinters(t *testing.T) {
	apply := mop{kind: opApply, result: addr(3), operands: []value{iv(0), iv(2), core(0, 256, 512)}, nDims: 2}
	apply.attrs = []attr{{name: "map", kind: attrMap, i: 1}}
	exec := mop{kind: opExecute, operands: []value{addr(0), poolAddr(512), slice(1, 128)}}
	exec.attrs = []attr{{name: "sdsc_filename", kind: attrFile, i: 7}, {name: "symbol_ids", kind: attrInts, ints: []int64{-4, -6, -7}}}
	empty := mop{kind: opExecute}
	empty.attrs = []attr{{name: "sdsc_filename", kind: attrFile, i: 0}, {name: "symbol_ids", kind: attrInts}}
	inner := constantOp(numbered(vPoolOffset, 0), 0)
	loop := mop{kind: opFor, iv: iv(2), nOps: 3, opBuf: [3]value{{kind: vC0}, numbered(vLoopBound, 2), {kind: vC1}}}
	fn := funcOp("f", []value{{kind: vPoolBaseAddr}, arg(0)}, 1, nil)
	mod := mop{kind: opModule}
	cases := []struct {
		name            string
		m               mop
		custom, generic string
	}{
		{"constant", constantOp(value{kind: vC1}, 1),
			"\t%c1 = arith.constant 1 : index\n",
			"\t%c1 = \"arith.constant\"() {value = 1 : index} : () -> index\n"},
		{"addi pool", addiOp(poolAddr(256), value{kind: vPool}, numbered(vPoolOffset, 256)),
			"\t%pool_addr_256 = arith.addi %pool, %pool_offset_256 : index\n",
			"\t%pool_addr_256 = \"arith.addi\"(%pool, %pool_offset_256) : (index, index) -> index\n"},
		{"addi slice", addiOp(slice(2, 1024), arg(2), value{kind: vSliceOffset, n: 2, s: 1024}),
			"\t%arg_2_slice_1024 = arith.addi %arg_2, %arg_2_slice_offset_1024 : index\n",
			"\t%arg_2_slice_1024 = \"arith.addi\"(%arg_2, %arg_2_slice_offset_1024) : (index, index) -> index\n"},
		{"addi core of slice", addiOp(core(0, 256, 8192), slice(0, 256), value{kind: vCoreOffset, n: 0, s: 256, o: 8192}),
			"\t%arg_0_slice_256_core_8192 = arith.addi %arg_0_slice_256, %arg_0_slice_256_core_offset_8192 : index\n",
			"\t%arg_0_slice_256_core_8192 = \"arith.addi\"(%arg_0_slice_256, %arg_0_slice_256_core_offset_8192) : (index, index) -> index\n"},
		{"addi core", addiOp(core(0, -1, 4096), arg(0), value{kind: vCoreOffset, n: 0, s: -1, o: 4096}),
			"\t%arg_0_core_4096 = arith.addi %arg_0, %arg_0_core_offset_4096 : index\n",
			"\t%arg_0_core_4096 = \"arith.addi\"(%arg_0, %arg_0_core_offset_4096) : (index, index) -> index\n"},
		{"apply", apply,
			"\t%addr_3 = affine.apply #map_1(%i_0, %i_2)[%arg_0_slice_256_core_512]\n",
			"\t%addr_3 = \"affine.apply\"(%i_0, %i_2, %arg_0_slice_256_core_512) {map = #map_1} : (index, index, index) -> index\n"},
		{"device_mem_allocate", allocateOp(value{kind: vPool}, 4096),
			"\t%pool = sdscbundle.device_mem_allocate 4096 bytes : index\n",
			"\t%pool = \"sdscbundle.device_mem_allocate\"() {size = 4096 : i64} : () -> index\n"},
		{"input_arg_extract", extractOp(arg(3), numbered(vArgBaseAddr, 3)),
			"\t%arg_3 = sdscbundle.input_arg_extract value from %arg_3_base_addr : !sdscbundle.input_arg<index> -> index\n",
			"\t%arg_3 = \"sdscbundle.input_arg_extract\"(%arg_3_base_addr) {field = \"value\"} : (!sdscbundle.input_arg<index>) -> index\n"},
		{"input_arg_extract pool", extractOp(value{kind: vPool}, value{kind: vPoolBaseAddr}),
			"\t%pool = sdscbundle.input_arg_extract value from %pool_base_addr : !sdscbundle.input_arg<index> -> index\n",
			"\t%pool = \"sdscbundle.input_arg_extract\"(%pool_base_addr) {field = \"value\"} : (!sdscbundle.input_arg<index>) -> index\n"},
		{"sdsc_execute", exec,
			"\tsdscbundle.sdsc_execute (%addr_0, %pool_addr_512, %arg_1_slice_128) {sdsc_filename=\"sdsc_7.json\", \"symbol_ids\"=[-4, -6, -7]}\n",
			"\t\"sdscbundle.sdsc_execute\"(%addr_0, %pool_addr_512, %arg_1_slice_128) {sdsc_filename = \"sdsc_7.json\", symbol_ids = [-4, -6, -7]} : (index, index, index) -> ()\n"},
		{"sdsc_execute empty", empty,
			"\tsdscbundle.sdsc_execute () {sdsc_filename=\"sdsc_0.json\", \"symbol_ids\"=[]}\n",
			"\t\"sdscbundle.sdsc_execute\"() {sdsc_filename = \"sdsc_0.json\", symbol_ids = []} : () -> ()\n"},
		{"return", mop{kind: opReturn},
			"\treturn\n",
			"\t\"func.return\"() : () -> ()\n"},
		{"return values", mop{kind: opReturn, operands: []value{addr(0), arg(1)}},
			"\treturn %addr_0, %arg_1 : index, index\n",
			"\t\"func.return\"(%addr_0, %arg_1) : (index, index) -> ()\n"},
		{"scf.for", loop,
			"\tscf.for %i_2 = %c0 to %loop_bound_2 step %c1 {\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t}\n",
			"\t\"scf.for\"(%c0, %loop_bound_2, %c1) ({\n^bb0(%i_2: index):\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t\t\"scf.yield\"() : () -> ()\n\t}) : (index, index, index) -> ()\n"},
		{"func.func", fn,
			"\tfunc.func @f(%pool_base_addr: !sdscbundle.input_arg<index>, %arg_0: index) -> (index) {\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t}\n",
			"\t\"func.func\"() ({\n^bb0(%pool_base_addr: !sdscbundle.input_arg<index>, %arg_0: index):\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t}) {function_type = (!sdscbundle.input_arg<index>, index) -> (index), sym_name = \"f\"} : () -> ()\n"},
		{"module", mod,
			"\tmodule {\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t}\n",
			"\t\"builtin.module\"() ({\n\t\t%pool_offset_0 = arith.constant 0 : index\n\t}) : () -> ()\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, generic := range []bool{false, true} {
				m := c.m
				if m.kind == opFor || m.kind == opFunc || m.kind == opModule {
					// The region's one op, printed by the same
					// printer (custom: it is an arith op).
					var pr *printer
					m.region = func() { pr.custom(&inner) }
					var buf bytes.Buffer
					pr = newPrinter(&buf)
					pr.indent = 1
					if generic {
						pr.generic(&m)
					} else {
						pr.custom(&m)
					}
					pr.flush()
					want := c.custom
					if generic {
						want = c.generic
					}
					diffText(t, buf.String(), want)
					continue
				}
				want := c.custom
				if generic {
					want = c.generic
				}
				diffText(t, printOp(t, m, generic), want)
			}
		})
	}
}

// TestPrintChoosesForm: under --generic only the sdscbundle ops take the
// generic form; arith, affine, scf and func keep their custom syntax.
func TestPrintChoosesForm(t *testing.T) {
	for k := opModule; k <= opExecute; k++ {
		want := k == opDeviceMemAllocate || k == opInputArgExtract || k == opExecute
		if got := k.sdscbundle(); got != want {
			t.Errorf("%s: sdscbundle() = %v, want %v", opTable[k].name, got, want)
		}
	}
	var buf bytes.Buffer
	pr := newPrinter(&buf)
	c := constantOp(value{kind: vC0}, 0)
	pr.print(&c, true)
	a := allocateOp(value{kind: vPool}, 128)
	pr.print(&a, true)
	pr.print(&a, false)
	pr.flush()
	diffText(t, buf.String(), lines(
		"%c0 = arith.constant 0 : index",
		`%pool = "sdscbundle.device_mem_allocate"() {size = 128 : i64} : () -> index`,
		"%pool = sdscbundle.device_mem_allocate 128 bytes : index"))
}

// TestOpTable: every op kind has an entry whose name starts with its
// dialect's name, and the names are distinct.
func TestOpTable(t *testing.T) {
	seen := map[string]bool{}
	for k := range opTable {
		d := &opTable[k]
		if d.name == "" || !strings.HasPrefix(d.name, dialectNames[d.dialect]+".") || seen[d.name] {
			t.Errorf("op kind %d: %+v: want a distinct name prefixed by its dialect %q", k, d, dialectNames[d.dialect])
		}
		seen[d.name] = true
	}
	if len(opTable) != int(opExecute)+1 {
		t.Errorf("%d entries, want one per op kind (%d)", len(opTable), opExecute+1)
	}
}

// TestOpTableDocs: the ops table of docs/dialect.md lists exactly the
// sdscbundle ops of opTable, in table order.
func TestOpTableDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/dialect.md")
	if err != nil {
		t.Fatal(err)
	}
	_, ops, ok := strings.Cut(string(doc), "\n## Ops\n")
	if !ok {
		t.Fatal("docs/dialect.md has no ## Ops section")
	}
	var got, want []string
	for _, line := range strings.Split(ops, "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok {
			name, _, _ = strings.Cut(name, "`")
			got = append(got, "sdscbundle."+name)
		} else if len(got) > 0 && !strings.HasPrefix(line, "|") {
			break
		}
	}
	for _, d := range opTable {
		if d.dialect == dSDSCBundle {
			want = append(want, d.name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/dialect.md ops %v, want (opTable) %v", got, want)
	}
}

// TestPrintAllocatesNothing: ops are built on the stack and printed at
// once, in both forms, without an allocation (a printer called through
// a func value would make each op escape to the heap: see form).
func TestPrintAllocatesNothing(t *testing.T) {
	var buf bytes.Buffer
	pr := newPrinter(&buf)
	ids := []int64{-1, -2}
	n := testing.AllocsPerRun(100, func() {
		for _, generic := range []bool{false, true} {
			c := constantOp(value{kind: vC0}, 0)
			pr.print(&c, generic)
			a := addiOp(poolAddr(128), value{kind: vPool}, numbered(vPoolOffset, 128))
			pr.print(&a, generic)
			x := mop{kind: opExecute, nOps: 2, nAttrs: 2}
			x.opBuf[0], x.opBuf[1] = poolAddr(0), poolAddr(128)
			x.attrBuf[0] = attr{name: "sdsc_filename", kind: attrFile, i: 3}
			x.attrBuf[1] = attr{name: "symbol_ids", kind: attrInts, ints: ids}
			pr.print(&x, generic)
		}
		buf.Reset()
		pr.buf = pr.buf[:0]
	})
	if n != 0 {
		t.Errorf("printing six ops allocated %v times", n)
	}
}
