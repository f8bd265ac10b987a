// Package llinterp evaluates LLVM IR functions that compute integers: the
// address functions of sdscgen --emit=addresses after stock MLIR lowered
// them to LLVM IR. The IR is parsed by github.com/llir/llvm; this package
// only executes it.
//
// Supported: integer parameters and constants (any width up to 64 bits,
// kept sign-extended in an int64 and truncated to the type's width after
// every operation), add, sub, mul, sdiv, srem, udiv, urem, and, or, xor,
// shl, lshr, ashr, icmp, select, zext, sext, trunc, phi, br, conditional
// br, ret, and struct/array aggregates through undef, zeroinitializer,
// insertvalue and extractvalue. Anything else is an error naming the
// instruction, so a lowering that starts producing new instructions fails
// loudly instead of being evaluated wrongly.
package llinterp

import (
	"errors"
	"fmt"

	"github.com/llir/llvm/asm"
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Value is an integer or an aggregate of values.
type Value struct {
	Int   int64
	Elems []Value // non-nil for aggregates
}

// Module is a parsed LLVM IR module.
type Module struct{ m *ir.Module }

// Parse parses LLVM IR text (typed pointers; mlir-translate-16 needs
// --opaque-pointers=0 for llir/llvm to read it).
func Parse(name, src string) (*Module, error) {
	m, err := asm.ParseString(name, src)
	if err != nil {
		return nil, err
	}
	return &Module{m}, nil
}

// Func returns the defined function called name, or nil.
func (m *Module) Func(name string) *ir.Func {
	for _, f := range m.m.Funcs {
		if f.Name() == name && len(f.Blocks) > 0 {
			return f
		}
	}
	return nil
}

// maxSteps bounds an evaluation, so a loop that never ends is an error.
const maxSteps = 1 << 24

// Call evaluates function name on integer arguments and returns its result
// (the zero Value for a void function).
func (m *Module) Call(name string, args ...int64) (Value, error) {
	f := m.Func(name)
	if f == nil {
		return Value{}, fmt.Errorf("no function @%s", name)
	}
	if len(args) != len(f.Params) {
		return Value{}, fmt.Errorf("@%s takes %d arguments, got %d", name, len(f.Params), len(args))
	}
	env := map[value.Value]Value{}
	for i, p := range f.Params {
		w, err := width(p.Typ)
		if err != nil {
			return Value{}, fmt.Errorf("parameter %d: %v", i, err)
		}
		env[p] = Value{Int: wrap(args[i], w)}
	}
	var prev *ir.Block
	block := f.Blocks[0]
	for steps := 0; ; {
		// Phis read their inputs as they were on entry to the block.
		var phis []struct {
			inst *ir.InstPhi
			v    Value
		}
		for _, inst := range block.Insts {
			phi, ok := inst.(*ir.InstPhi)
			if !ok {
				break
			}
			var v Value
			found := false
			for _, inc := range phi.Incs {
				if inc.Pred == prev {
					var err error
					if v, err = eval(env, inc.X); err != nil {
						return Value{}, err
					}
					found = true
					break
				}
			}
			if !found {
				return Value{}, fmt.Errorf("%s: no incoming value for the predecessor", phi.LLString())
			}
			phis = append(phis, struct {
				inst *ir.InstPhi
				v    Value
			}{phi, v})
		}
		for _, p := range phis {
			env[p.inst] = p.v
		}
		for _, inst := range block.Insts[len(phis):] {
			if steps++; steps > maxSteps {
				return Value{}, errors.New("step limit reached")
			}
			v, err := execInst(env, inst)
			if err != nil {
				return Value{}, fmt.Errorf("%s: %v", inst.LLString(), err)
			}
			env[inst.(value.Value)] = v
		}
		switch t := block.Term.(type) {
		case *ir.TermRet:
			if t.X == nil {
				return Value{}, nil
			}
			return eval(env, t.X)
		case *ir.TermBr:
			prev, block = block, t.Target.(*ir.Block)
		case *ir.TermCondBr:
			c, err := eval(env, t.Cond)
			if err != nil {
				return Value{}, err
			}
			prev = block
			if c.Int != 0 {
				block = t.TargetTrue.(*ir.Block)
			} else {
				block = t.TargetFalse.(*ir.Block)
			}
		default:
			return Value{}, fmt.Errorf("unsupported terminator %s", block.Term.LLString())
		}
	}
}

// width is the bit width of an integer type.
func width(t types.Type) (uint64, error) {
	it, ok := t.(*types.IntType)
	if !ok || it.BitSize == 0 || it.BitSize > 64 {
		return 0, fmt.Errorf("unsupported type %s", t)
	}
	return it.BitSize, nil
}

// wrap truncates v to w bits, sign-extended.
func wrap(v int64, w uint64) int64 {
	if w == 64 {
		return v
	}
	s := 64 - w
	return v << s >> s
}

func unsigned(v int64, w uint64) uint64 {
	if w == 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<w - 1)
}

// zero is the zero value of type t.
func zero(t types.Type) (Value, error) {
	switch t := t.(type) {
	case *types.IntType:
		return Value{}, nil
	case *types.StructType:
		v := Value{Elems: make([]Value, len(t.Fields))}
		for i, f := range t.Fields {
			var err error
			if v.Elems[i], err = zero(f); err != nil {
				return Value{}, err
			}
		}
		return v, nil
	case *types.ArrayType:
		v := Value{Elems: make([]Value, t.Len)}
		for i := range v.Elems {
			var err error
			if v.Elems[i], err = zero(t.ElemType); err != nil {
				return Value{}, err
			}
		}
		return v, nil
	}
	return Value{}, fmt.Errorf("unsupported type %s", t)
}

func eval(env map[value.Value]Value, x value.Value) (Value, error) {
	switch c := x.(type) {
	case *constant.Int:
		w, err := width(c.Typ)
		if err != nil {
			return Value{}, err
		}
		if !c.X.IsInt64() && !c.X.IsUint64() {
			return Value{}, fmt.Errorf("constant %s out of range", c.X)
		}
		if c.X.IsInt64() {
			return Value{Int: wrap(c.X.Int64(), w)}, nil
		}
		return Value{Int: wrap(int64(c.X.Uint64()), w)}, nil
	case *constant.Undef:
		return zero(c.Typ)
	case *constant.ZeroInitializer:
		return zero(c.Typ)
	case *constant.Poison:
		return zero(c.Typ)
	}
	v, ok := env[x]
	if !ok {
		return Value{}, fmt.Errorf("value %s used before it is defined", x.Ident())
	}
	return v, nil
}

func execInst(env map[value.Value]Value, inst ir.Instruction) (Value, error) {
	bin := func(x, y value.Value, t types.Type, f func(a, b int64, w uint64) (int64, error)) (Value, error) {
		w, err := width(t)
		if err != nil {
			return Value{}, err
		}
		a, err := eval(env, x)
		if err != nil {
			return Value{}, err
		}
		b, err := eval(env, y)
		if err != nil {
			return Value{}, err
		}
		r, err := f(a.Int, b.Int, w)
		return Value{Int: wrap(r, w)}, err
	}
	div0 := errors.New("division by zero")
	switch i := inst.(type) {
	case *ir.InstAdd:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a + b, nil })
	case *ir.InstSub:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a - b, nil })
	case *ir.InstMul:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a * b, nil })
	case *ir.InstSDiv:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) {
			if b == 0 {
				return 0, div0
			}
			return a / b, nil
		})
	case *ir.InstSRem:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) {
			if b == 0 {
				return 0, div0
			}
			return a % b, nil
		})
	case *ir.InstUDiv:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, w uint64) (int64, error) {
			if b == 0 {
				return 0, div0
			}
			return int64(unsigned(a, w) / unsigned(b, w)), nil
		})
	case *ir.InstURem:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, w uint64) (int64, error) {
			if b == 0 {
				return 0, div0
			}
			return int64(unsigned(a, w) % unsigned(b, w)), nil
		})
	case *ir.InstAnd:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a & b, nil })
	case *ir.InstOr:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a | b, nil })
	case *ir.InstXor:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, _ uint64) (int64, error) { return a ^ b, nil })
	case *ir.InstShl:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, w uint64) (int64, error) {
			if uint64(b) >= w {
				return 0, nil // poison in LLVM; 0 here
			}
			return a << uint(b), nil
		})
	case *ir.InstLShr:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, w uint64) (int64, error) {
			if uint64(b) >= w {
				return 0, nil
			}
			return int64(unsigned(a, w) >> uint(b)), nil
		})
	case *ir.InstAShr:
		return bin(i.X, i.Y, i.Typ, func(a, b int64, w uint64) (int64, error) {
			if uint64(b) >= w {
				return 0, nil
			}
			return a >> uint(b), nil
		})
	case *ir.InstICmp:
		w, err := width(i.X.Type())
		if err != nil {
			return Value{}, err
		}
		a, err := eval(env, i.X)
		if err != nil {
			return Value{}, err
		}
		b, err := eval(env, i.Y)
		if err != nil {
			return Value{}, err
		}
		ua, ub := unsigned(a.Int, w), unsigned(b.Int, w)
		var r bool
		switch i.Pred {
		case enum.IPredEQ:
			r = a.Int == b.Int
		case enum.IPredNE:
			r = a.Int != b.Int
		case enum.IPredSLT:
			r = a.Int < b.Int
		case enum.IPredSLE:
			r = a.Int <= b.Int
		case enum.IPredSGT:
			r = a.Int > b.Int
		case enum.IPredSGE:
			r = a.Int >= b.Int
		case enum.IPredULT:
			r = ua < ub
		case enum.IPredULE:
			r = ua <= ub
		case enum.IPredUGT:
			r = ua > ub
		case enum.IPredUGE:
			r = ua >= ub
		default:
			return Value{}, fmt.Errorf("unsupported predicate %s", i.Pred)
		}
		if r {
			return Value{Int: -1}, nil // i1 true, sign-extended
		}
		return Value{}, nil
	case *ir.InstSelect:
		c, err := eval(env, i.Cond)
		if err != nil {
			return Value{}, err
		}
		if c.Int != 0 {
			return eval(env, i.ValueTrue)
		}
		return eval(env, i.ValueFalse)
	case *ir.InstZExt:
		return convert(env, i.From, i.To, func(v int64, from, to uint64) int64 { return wrap(int64(unsigned(v, from)), to) })
	case *ir.InstSExt:
		return convert(env, i.From, i.To, func(v int64, from, to uint64) int64 { return v })
	case *ir.InstTrunc:
		return convert(env, i.From, i.To, func(v int64, from, to uint64) int64 { return wrap(v, to) })
	case *ir.InstInsertValue:
		agg, err := eval(env, i.X)
		if err != nil {
			return Value{}, err
		}
		elem, err := eval(env, i.Elem)
		if err != nil {
			return Value{}, err
		}
		return insert(agg, elem, i.Indices)
	case *ir.InstExtractValue:
		agg, err := eval(env, i.X)
		if err != nil {
			return Value{}, err
		}
		for _, k := range i.Indices {
			if k >= uint64(len(agg.Elems)) {
				return Value{}, fmt.Errorf("index %d out of range", k)
			}
			agg = agg.Elems[k]
		}
		return agg, nil
	}
	return Value{}, errors.New("unsupported instruction")
}

func convert(env map[value.Value]Value, from value.Value, to types.Type, f func(v int64, from, to uint64) int64) (Value, error) {
	wf, err := width(from.Type())
	if err != nil {
		return Value{}, err
	}
	wt, err := width(to)
	if err != nil {
		return Value{}, err
	}
	v, err := eval(env, from)
	if err != nil {
		return Value{}, err
	}
	return Value{Int: f(v.Int, wf, wt)}, nil
}

// insert returns agg with the element at the index path replaced; agg is
// not modified.
func insert(agg, elem Value, path []uint64) (Value, error) {
	if len(path) == 0 {
		return elem, nil
	}
	k := path[0]
	if k >= uint64(len(agg.Elems)) {
		return Value{}, fmt.Errorf("index %d out of range", k)
	}
	out := Value{Elems: append([]Value(nil), agg.Elems...)}
	var err error
	out.Elems[k], err = insert(agg.Elems[k], elem, path[1:])
	return out, err
}
