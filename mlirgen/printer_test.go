package mlirgen

import (
	"bytes"
	"math"
	"testing"
)

// TestGenericExecute: the sdsc_execute line of the generic printer is
// what its general path (genericHead, genericTail) prints, for operand
// lists of every length up to past a spill check (256), with and
// without !sdscbundle.input_arg operands, at several indentations.
func TestGenericExecute(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 255, 256, 300} {
		for _, indent := range []int{0, 2, 5} {
			var vals []value
			var ids []int64
			for k := range n {
				v := poolAddr(int64(k) * 128)
				if k%5 == 3 {
					v = numbered(vArgBaseAddr, int64(k))
				}
				vals = append(vals, v)
				ids = append(ids, -int64(k+1)*int64(k+1))
			}
			m := mop{kind: opExecute, operands: vals, nAttrs: 2}
			m.attrBuf[0] = attr{name: "sdsc_filename", kind: attrFile, i: int64(n * 1001)}
			m.attrBuf[1] = attr{name: "symbol_ids", kind: attrInts, ints: ids}
			var fast, general bytes.Buffer
			pf, pg := newPrinter(&fast), newPrinter(&general)
			pf.indent, pg.indent = indent, indent
			pf.generic(&m)
			pg.genericHead(&m)
			pg.genericTail(&m)
			pf.flush()
			pg.flush()
			if fast.String() != general.String() {
				t.Fatalf("%d operands: %s", n, firstDiff(general.String(), fast.String()))
			}
			if n == 2 && indent == 2 {
				diffText(t, fast.String(), lines(`		"sdscbundle.sdsc_execute"(%pool_addr_0, %pool_addr_128) {sdsc_filename = "sdsc_2002.json", symbol_ids = [-1, -4]} : (index, index) -> ()`))
			}
		}
	}
}

// TestPoolDeclaration: the declaration of a pool address is the constant
// and addi ops' custom lines, for addresses of every digit count.
func TestPoolDeclaration(t *testing.T) {
	for _, v := range []int64{0, 7, 128, 7296, 99999, 1 << 20, 250142336, 1 << 40, math.MaxInt64 - 127} {
		var fast, ops bytes.Buffer
		pf, po := newPrinter(&fast), newPrinter(&ops)
		pf.indent, po.indent = 2, 2
		c, a := constantOp(value{}, 0), addiOp(value{}, value{}, value{})
		declaration(pf, poolAddr(v), &c, &a)
		c = constantOp(numbered(vPoolOffset, v), v)
		a = addiOp(poolAddr(v), value{kind: vPool}, numbered(vPoolOffset, v))
		po.custom(&c)
		po.custom(&a)
		pf.flush()
		po.flush()
		if fast.String() != ops.String() {
			t.Fatalf("%d: %s", v, firstDiff(ops.String(), fast.String()))
		}
		if v == 7296 {
			diffText(t, fast.String(), lines("\t\t%pool_offset_7296 = arith.constant 7296 : index", "\t\t%pool_addr_7296 = arith.addi %pool, %pool_offset_7296 : index"))
		}
	}
}
