package mlirgen

import "github.com/sdscgen/sdscgen/internal/decimal"

// The op model: every line sdscgen emits is one mop value (name, result,
// operands, attributes, region) handed to one of two printers: custom,
// the op's own assembly format, one function per op kind; or generic,
// MLIR's uniform `"name"(operands) ({region}) {attributes} : (types) ->
// types`, one function for every kind. Types are implied by the values
// (every value is an index except the !sdscbundle.input_arg<index>
// function parameters), so an op needs no type lists of its own. Ops are
// built on the stack and printed at once; nothing here allocates.

// valKind names the SSA values of bundle-ir.md §4; a value's numbers fill the name.
type valKind uint8

const (
	vNone         valKind = iota
	vPool                 // %pool
	vPoolBaseAddr         // %pool_base_addr (!sdscbundle.input_arg<index>)
	vArgBaseAddr          // %arg_N_base_addr (!sdscbundle.input_arg<index>)
	vArg                  // %arg_N
	vC0                   // %c0
	vC1                   // %c1
	vLoopBound            // %loop_bound_N
	vIV                   // %i_N
	vPoolOffset           // %pool_offset_N
	vPoolAddr             // %pool_addr_N
	vSliceOffset          // %arg_N_slice_offset_S
	vSlice                // %arg_N_slice_S
	vCoreOffset           // %B_core_offset_O, B = %arg_N, or %arg_N_slice_S when S >= 0
	vCore                 // %B_core_O
	vAddr                 // %addr_N
)

// value is one SSA value: its kind and the numbers in its name.
type value struct {
	kind valKind
	n    int64 // N (or V, K)
	s    int64 // S of a slice, or of a core value's base; -1: no slice
	o    int64 // O of a core value
}

func poolAddr(v int64) value            { return value{kind: vPoolAddr, n: v} }
func arg(n int64) value                 { return value{kind: vArg, n: n} }
func slice(n, s int64) value            { return value{kind: vSlice, n: n, s: s} }
func core(n, s, o int64) value          { return value{kind: vCore, n: n, s: s, o: o} }
func addr(k int64) value                { return value{kind: vAddr, n: k} }
func iv(k int64) value                  { return value{kind: vIV, n: k} }
func numbered(k valKind, n int64) value { return value{kind: k, n: n} }

// isInputArg reports whether v has type !sdscbundle.input_arg<index>.
func (v value) isInputArg() bool { return v.kind == vPoolBaseAddr || v.kind == vArgBaseAddr }

const inputArgType = "!sdscbundle.input_arg<index>"

// val prints an SSA name.
func (p *printer) val(v value) {
	switch v.kind {
	case vPool:
		p.s("%pool")
	case vPoolBaseAddr:
		p.s("%pool_base_addr")
	case vArgBaseAddr:
		p.s("%arg_")
		p.i(v.n)
		p.s("_base_addr")
	case vArg:
		p.s("%arg_")
		p.i(v.n)
	case vC0:
		p.s("%c0")
	case vC1:
		p.s("%c1")
	case vLoopBound:
		p.s("%loop_bound_")
		p.i(v.n)
	case vIV:
		p.s("%i_")
		p.i(v.n)
	case vPoolOffset:
		p.s("%pool_offset_")
		p.i(v.n)
	case vPoolAddr:
		p.s("%pool_addr_")
		p.i(v.n)
	case vSliceOffset, vSlice:
		p.s("%arg_")
		p.i(v.n)
		if v.kind == vSliceOffset {
			p.s("_slice_offset_")
		} else {
			p.s("_slice_")
		}
		p.i(v.s)
	case vCoreOffset, vCore:
		p.s("%arg_")
		p.i(v.n)
		if v.s >= 0 {
			p.s("_slice_")
			p.i(v.s)
		}
		if v.kind == vCoreOffset {
			p.s("_core_offset_")
		} else {
			p.s("_core_")
		}
		p.i(v.o)
	case vAddr:
		p.s("%addr_")
		p.i(v.n)
	default:
		panic("mlirgen: printing an unnamed value")
	}
}

// typ prints v's type.
func (p *printer) typ(v value) {
	if v.isInputArg() {
		p.s(inputArgType)
	} else {
		p.s("index")
	}
}

// opKind is one operation of the output: an index into opTable.
type opKind uint8

const (
	opModule opKind = iota
	opFunc
	opReturn
	opFor
	opConstant
	opAddi
	opApply
	opDeviceMemAllocate
	opInputArgExtract
	opExecute
)

// dialect is the MLIR dialect of an op kind.
type dialect uint8

const (
	dBuiltin dialect = iota
	dFunc
	dSCF
	dArith
	dAffine
	dSDSCBundle // the one stock mlir-opt does not know: see sdscbundle
)

// dialectNames are the dialects' names, the prefix of their ops' names.
var dialectNames = [...]string{dBuiltin: "builtin", dFunc: "func", dSCF: "scf", dArith: "arith", dAffine: "affine", dSDSCBundle: "sdscbundle"}

// opDesc is everything the printers know of one op kind. What an op
// holds (operands, attributes, region) is its mop's; how it prints is
// here, once.
type opDesc struct {
	// name is the full name, dialect prefix included: the generic form
	// prints it quoted, and the custom printers print it (a test holds
	// the prefix equal to dialect's name).
	name    string
	dialect dialect
	// region: the op holds one region (module, func, scf.for), printed
	// between the opening line its form prints and a closing "}".
	region bool
	// form is the shape of the custom form (several kinds may share one:
	// any binary index op prints as arith.addi does). The ops of
	// formExecute, one per leaf op, also have a fast generic printer
	// (genericExecute, which a test holds equal to the general one).
	form form
}

// form is the shape of an op's custom form; customBody prints each.
// (The printers are methods chosen by a switch, not func values in the
// table: a call through a func value would make every op escape to the
// heap, and ops are built on the stack.)
type form uint8

const (
	formModule   form = iota // module
	formFunc                 // NAME @sym(params) -> (results)
	formReturn               // return %a, ... : types
	formFor                  // NAME %iv = %lo to %hi step %step
	formConstant             // NAME V : index
	formBinary               // NAME %a, %b : index
	formApply                // NAME #map_M(dims)[symbols]
	formAllocate             // NAME SIZE bytes : index
	formExtract              // NAME value from %x : !sdscbundle.input_arg<index> -> index
	formExecute              // NAME (operands) {sdsc_filename=..., "symbol_ids"=[...]}
)

// opTable describes every op kind, in opKind order: adding an op kind is
// a constant above, an entry here, and a constructor (docs/contributing.md).
var opTable = [...]opDesc{
	opModule:            {name: "builtin.module", dialect: dBuiltin, region: true, form: formModule},
	opFunc:              {name: "func.func", dialect: dFunc, region: true, form: formFunc},
	opReturn:            {name: "func.return", dialect: dFunc, form: formReturn},
	opFor:               {name: "scf.for", dialect: dSCF, region: true, form: formFor},
	opConstant:          {name: "arith.constant", dialect: dArith, form: formConstant},
	opAddi:              {name: "arith.addi", dialect: dArith, form: formBinary},
	opApply:             {name: "affine.apply", dialect: dAffine, form: formApply},
	opDeviceMemAllocate: {name: "sdscbundle.device_mem_allocate", dialect: dSDSCBundle, form: formAllocate},
	opInputArgExtract:   {name: "sdscbundle.input_arg_extract", dialect: dSDSCBundle, form: formExtract},
	opExecute:           {name: "sdscbundle.sdsc_execute", dialect: dSDSCBundle, form: formExecute},
}

// desc returns the kind's entry of opTable.
func (k opKind) desc() *opDesc { return &opTable[k] }

// sdscbundle reports whether the kind belongs to the sdscbundle dialect:
// the ops that --generic prints in generic form.
func (k opKind) sdscbundle() bool { return opTable[k].dialect == dSDSCBundle }

// customBody prints op m's custom form after "%r = ": the whole op, or
// for a region op its opening line up to " {".
func (p *printer) customBody(m *mop, d *opDesc) {
	switch d.form {
	case formModule:
		// The custom form of builtin.module drops the dialect.
		p.s("module")
	case formFunc:
		p.s(d.name)
		p.s(" @")
		p.s(m.attrList()[1].str)
		p.s("(")
		p.params(m)
		p.s(")")
		if m.nResults > 0 {
			p.s(" -> (")
			p.indexTypes(m.nResults)
			p.s(")")
		}
	case formReturn:
		// Inside a func.func, the custom form's default dialect is
		// func: "return".
		p.s("return")
		if ops := m.ops(); len(ops) > 0 {
			p.s(" ")
			p.vals(ops)
			p.s(" : ")
			p.types(ops)
		}
	case formFor:
		ops := m.ops()
		p.s(d.name)
		p.s(" ")
		p.val(m.iv)
		p.s(" = ")
		p.val(ops[0])
		p.s(" to ")
		p.val(ops[1])
		p.s(" step ")
		p.val(ops[2])
	case formConstant:
		p.s(d.name)
		p.s(" ")
		p.i(m.attrList()[0].i)
		p.s(" : index")
	case formBinary:
		p.s(d.name)
		p.s(" ")
		p.vals(m.ops())
		p.s(" : index")
	case formApply:
		ops := m.ops()
		p.s(d.name)
		p.s(" #map_")
		p.i(m.attrList()[0].i)
		p.s("(")
		p.vals(ops[:m.nDims])
		p.s(")[")
		p.vals(ops[m.nDims:])
		p.s("]")
	case formAllocate:
		p.s(d.name)
		p.s(" ")
		p.i(m.attrList()[0].i)
		p.s(" bytes : index")
	case formExtract:
		p.s(d.name)
		p.s(" value from ")
		p.val(m.ops()[0])
		p.s(" : " + inputArgType + " -> index")
	case formExecute:
		attrs := m.attrList()
		p.s(d.name)
		p.s(" (")
		p.vals(m.ops())
		p.s(`) {sdsc_filename="sdsc_`)
		p.i(attrs[0].i)
		p.s(`.json", "symbol_ids"=`)
		p.ints(attrs[1].ints)
		p.s("}")
	}
}

// attrKind says how an attribute value prints.
type attrKind uint8

const (
	attrIndex    attrKind = iota // i : index
	attrI64                      // i : i64
	attrStr                      // "str"
	attrFile                     // "sdsc_<i>.json"
	attrInts                     // [ints...]
	attrMap                      // #map_<i>
	attrFuncType                 // (param types) -> (result types) of the op
)

// attr is one named attribute. The generic form prints them in the
// order given, which every constructor keeps alphabetical as MLIR does.
type attr struct {
	name string
	kind attrKind
	str  string
	i    int64
	ints []int64
}

// mop is one emitted operation.
type mop struct {
	kind     opKind
	result   value // vNone when the op has no result
	operands []value
	// For opFunc: the entry block's arguments, param(k) for k <
	// nParams (a function may have a parameter per kernel argument of a
	// huge bundle: they are not listed).
	param   func(k int) value
	nParams int
	attrs   []attr
	// nDims is the number of dimension operands of an affine.apply (the
	// rest are its symbols).
	nDims int
	// nResults is the number of index results of a func.func.
	nResults int
	// region emits the ops of the op's single region (module, func,
	// scf.for), or is nil.
	region func()
	// iv is the induction variable of an scf.for (its block argument).
	iv value
	// Inline storage for the attributes and operands of small ops, used
	// when attrs and operands are nil, so that building one needs no
	// allocation: nAttrs and nOps say how much of it is in use. (A slice
	// of the op's own array stored in the op would move every op to the
	// heap.)
	attrBuf      [2]attr
	opBuf        [3]value
	nAttrs, nOps int8
}

// ops returns the op's operands.
func (m *mop) ops() []value {
	if m.operands != nil {
		return m.operands
	}
	return m.opBuf[:m.nOps]
}

// attrList returns the op's attributes.
func (m *mop) attrList() []attr {
	if m.attrs != nil {
		return m.attrs
	}
	return m.attrBuf[:m.nAttrs]
}

// Constructors of the ops with a fixed shape.

func constantOp(res value, v int64) mop {
	m := mop{kind: opConstant, result: res, nAttrs: 1}
	m.attrBuf[0] = attr{name: "value", kind: attrIndex, i: v}
	return m
}

func addiOp(res, a, b value) mop {
	m := mop{kind: opAddi, result: res, nOps: 2}
	m.opBuf[0], m.opBuf[1] = a, b
	return m
}

func extractOp(res, from value) mop {
	m := mop{kind: opInputArgExtract, result: res, nOps: 1, nAttrs: 1}
	m.opBuf[0] = from
	m.attrBuf[0] = attr{name: "field", kind: attrStr, str: "value"}
	return m
}

func allocateOp(res value, size int64) mop {
	m := mop{kind: opDeviceMemAllocate, result: res, nAttrs: 1}
	m.attrBuf[0] = attr{name: "size", kind: attrI64, i: size}
	return m
}

// print writes op in the form the options ask for: generic for the
// sdscbundle ops under --generic, custom otherwise.
func (p *printer) print(m *mop, generic bool) {
	if generic && m.kind.sdscbundle() {
		p.generic(m)
	} else {
		p.custom(m)
	}
}

// result prints `%r = ` when the op has a result.
func (p *printer) result(m *mop) {
	if m.result.kind != vNone {
		p.val(m.result)
		p.s(" = ")
	}
}

// vals prints a comma-separated value list.
func (p *printer) vals(vs []value) {
	for k, v := range vs {
		if k > 0 {
			p.buf = append(p.buf, ", "...)
		}
		p.val(v)
		if k&255 == 255 {
			p.check()
		}
	}
}

func (p *printer) ints(vs []int64) {
	p.buf = append(p.buf, '[')
	for k, v := range vs {
		if k > 0 {
			p.buf = append(p.buf, ", "...)
		}
		p.buf = decimal.Append(p.buf, v)
		if k&255 == 255 {
			p.check()
		}
	}
	p.buf = append(p.buf, ']')
}

// custom prints op in its own assembly format, one line (a region's ops
// on the lines between its opening and closing line).
func (p *printer) custom(m *mop) {
	d := m.kind.desc()
	if d.region {
		p.customOpen(m)
		if m.region != nil {
			m.region()
		}
		p.customClose(m)
		return
	}
	p.start()
	p.result(m)
	p.customBody(m, d)
	p.end()
}

// params prints a func.func's entry block arguments with their types.
func (p *printer) params(m *mop) {
	for k := range m.nParams {
		if k > 0 {
			p.s(", ")
		}
		v := m.param(k)
		p.val(v)
		p.s(": ")
		p.typ(v)
		p.check()
	}
}

// customOpen prints the opening line of a region op in custom form and
// moves one level deeper for the region's ops; customClose moves back
// and prints the closing line. Between the two, the region's ops may be
// printed by other printers (parallel.go).
func (p *printer) customOpen(m *mop) {
	d := m.kind.desc()
	p.start()
	p.result(m)
	p.customBody(m, d)
	p.s(" {")
	p.end()
	p.indent++
}

func (p *printer) customClose(*mop) {
	p.indent--
	p.start()
	p.s("}")
	p.end()
}

// open prints the opening of region op m in the form print would, and
// close its closing.
func (p *printer) open(m *mop, generic bool) {
	if generic && m.kind.sdscbundle() {
		p.genericOpen(m)
	} else {
		p.customOpen(m)
	}
}

func (p *printer) close(m *mop, generic bool) {
	if generic && m.kind.sdscbundle() {
		p.genericClose(m)
	} else {
		p.customClose(m)
	}
}

func (p *printer) types(vs []value) {
	n := 0 // index values not printed yet
	for k, v := range vs {
		if !v.isInputArg() {
			n++
			continue
		}
		if n > 0 {
			p.indexTypes(n)
			p.s(", ")
			n = 0
		}
		p.s(inputArgType)
		if k < len(vs)-1 {
			p.s(", ")
		}
	}
	p.indexTypes(n)
}

// generic prints any op in MLIR's generic form:
//
//	%r = "name"(operands) ({
//	^bb0(block args):
//	  ...
//	}) {attributes} : (operand types) -> result type
//
// The region's entry block arguments are an scf.for's induction variable
// or a func.func's parameters; an scf.for body ends in its implicit
// "scf.yield", which the generic form spells out.
func (p *printer) generic(m *mop) {
	if d := m.kind.desc(); d.form == formExecute {
		p.genericExecute(m, d)
		return
	}
	if m.region != nil {
		p.genericOpen(m)
		m.region()
		p.genericClose(m)
		return
	}
	p.genericHead(m)
	p.genericTail(m)
}

// genericExecute prints an sdsc_execute in generic form, a line an op:
// what genericHead and genericTail print (TestGenericExecute holds them
// equal), with the constant text in runs.
func (p *printer) genericExecute(m *mop, d *opDesc) {
	ops, attrs := m.ops(), m.attrList()
	p.start()
	p.s(`"`)
	p.s(d.name)
	p.s(`"(`)
	p.vals(ops)
	p.s(`) {sdsc_filename = "sdsc_`)
	p.i(attrs[0].i)
	p.s(`.json", symbol_ids = `)
	p.ints(attrs[1].ints)
	p.s(`} : (`)
	p.types(ops)
	p.s(`) -> ()`)
	p.end()
}

// genericHead prints a generic op up to its region.
func (p *printer) genericHead(m *mop) {
	p.start()
	p.result(m)
	p.s(`"`)
	p.s(m.kind.desc().name)
	p.s(`"(`)
	if m.kind != opFunc {
		p.vals(m.ops())
	}
	p.s(")")
}

// genericOpen prints a generic region op up to its region's first op and
// moves one level deeper; genericClose ends the region and the op.
func (p *printer) genericOpen(m *mop) {
	p.genericHead(m)
	p.s(" ({\n")
	switch m.kind {
	case opFor:
		p.s("^bb0(")
		p.val(m.iv)
		p.s(": index):\n")
	case opFunc:
		p.s("^bb0(")
		p.params(m)
		p.s("):\n")
	}
	p.check()
	p.indent++
}

func (p *printer) genericClose(m *mop) {
	if m.kind == opFor {
		p.start()
		p.s(`"scf.yield"() : () -> ()`)
		p.end()
	}
	p.indent--
	p.start()
	p.s("})")
	p.genericTail(m)
}

// genericTail prints a generic op's attributes and types.
func (p *printer) genericTail(m *mop) {
	ops, attrs := m.ops(), m.attrList()
	if len(attrs) > 0 {
		p.s(" {")
		for k := range attrs {
			if k > 0 {
				p.s(", ")
			}
			p.attr(m, &attrs[k])
		}
		p.s("}")
	}
	p.s(" : (")
	if m.kind != opFunc {
		p.types(ops)
	}
	p.s(") -> ")
	if m.result.kind != vNone {
		p.typ(m.result)
	} else {
		p.s("()")
	}
	p.end()
}

func (p *printer) attr(m *mop, a *attr) {
	p.s(a.name)
	p.s(" = ")
	switch a.kind {
	case attrIndex:
		p.i(a.i)
		p.s(" : index")
	case attrI64:
		p.i(a.i)
		p.s(" : i64")
	case attrStr:
		p.s(`"`)
		p.s(a.str)
		p.s(`"`)
	case attrFile:
		p.s(`"sdsc_`)
		p.i(a.i)
		p.s(`.json"`)
	case attrInts:
		p.ints(a.ints)
	case attrMap:
		p.s("#map_")
		p.i(a.i)
	case attrFuncType:
		p.s("(")
		for k := range m.nParams {
			if k > 0 {
				p.s(", ")
			}
			p.typ(m.param(k))
			p.check()
		}
		p.s(") -> (")
		p.indexTypes(m.nResults)
		p.s(")")
	}
}
