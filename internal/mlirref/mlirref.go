// Package mlirref is an independent reference for the MLIR text of the
// docs/bundle-ir.md §4 ("The MLIR").
//
// It is written from the contract's words only, deliberately plain and
// slow, and shares no code with package mlirgen: the property test in this
// package compares the two byte for byte on random graphs. It reads the
// checked graph (package ir) and the plan (package planner) and nothing
// else; core offsets are computed here from the bundle-ir.md §2 formula, not with
// ir.Graph.CoreOffset.
//
// Readings of the contract where its words leave room (each is marked
// "Reading" at the code that implements it):
//
//  1. A derived symbol's SSA name comes from the access that registers it
//     in the op: %B_core_O with that access's core-0 value B. When a later
//     access of the same op maps to the same key derived(N, v+o_c) it uses
//     the registered symbol (and its name), whatever its own v and o_c.
//     Across ops the key is registered afresh, so the same key can be
//     declared under two SSA names in one bundle (one pair per distinct
//     SSA name).
//  2. A map is registered by every access that has a nonzero step and is
//     not to an LX group, in the op's operand order, even when none of its
//     cores needs an affine.apply (its symbols already have an %addr in
//     the op): "an access with a nonzero step registers map #map_M". Such a
//     map is printed but never applied. (torch-spyre's generate_bundle
//     also collects maps per tiled tensor argument, not per symbol.)
//  3. The kernel symbol has no declaration pair: its SSA name %arg_N is the
//     input_arg_extract result. Pool, slice and derived symbols are the
//     ones with a pair.
//  4. The pool exists when the bundle pools at least one buffer, i.e. some
//     group has a pool offset in this bundle; its SIZE is the plan's pool
//     size. With --frontend-pool-allocation the same condition decides
//     whether %pool_base_addr is a parameter.
//  5. --generic changes only the three sdscbundle ops; the func, arith,
//     scf and affine lines, the maps and the tab indentation are as in the
//     custom form.
package mlirref

import (
	"fmt"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// Options selects the output form.
type Options struct {
	// FrontendPoolAllocation: the pool is the first parameter
	// %pool_base_addr, extracted as the first body op.
	FrontendPoolAllocation bool
	// Generic prints the sdscbundle ops in MLIR's generic form.
	Generic bool
}

// symbol is one registered symbol of one op.
type symbol struct {
	id  int    // -1, -2, ... through the bundle
	ssa string // its SSA name: %pool_addr_V, %arg_N, %arg_N_slice_S, %B_core_O
	// decl holds the declaration pair (empty for a kernel symbol).
	decl []string
	addr string // its %addr_K in this op, or ""
}

// opInfo is everything printed for one leaf op.
type opInfo struct {
	applies  []string // the affine.apply lines, in order
	operands []string
	ids      []int
}

// coreOffset is core c's offset for an access with the given split on an
// op with the given cores list (bundle-ir.md §2): sum over d of i_d*b_d with
// i_d = (c / (s0*...*s(d-1))) mod s_d.
func coreOffset(cores []int64, split []int64, c int) int64 {
	if split == nil {
		return 0
	}
	var off int64
	for d := range cores {
		var below int64 = 1
		for e := 0; e < d; e++ {
			below *= cores[e]
		}
		id := (int64(c) / below) % cores[d]
		off += id * split[d]
	}
	return off
}

// numCores is the product of the cores list (1 without one).
func numCores(cores []int64) int {
	n := 1
	for _, s := range cores {
		n *= int(s)
	}
	return n
}

// Emit returns the module text of bundle bi.
func Emit(g *ir.Graph, p *planner.Result, bi int, opt Options) string {
	b := &g.Bundles[bi]

	pooled := func(gi int) bool {
		return p.Groups[gi].Offset >= 0 && int(p.Groups[gi].Bundle) == bi
	}

	// Kernel args: groups neither pooled nor LX, numbered by first access
	// (ops in step order, reads before writes).
	argOf := map[int]int{} // group -> N
	nargs := 0
	hasPool := false
	for oi := range b.Ops {
		op := &b.Ops[oi]
		for _, a := range operands(g, op) {
			gi := int(a.Group)
			if g.Groups[gi].LX {
				continue
			}
			if pooled(gi) {
				hasPool = true
				continue
			}
			if _, ok := argOf[gi]; !ok {
				argOf[gi] = nargs
				nargs++
			}
		}
	}
	// Reading 4: a pooled group of this bundle is always touched by it
	// (its single writer), but check every group anyway.
	for gi := range p.Groups {
		if pooled(gi) {
			hasPool = true
		}
	}

	// Symbols, maps and applies, op by op.
	nextID := -1
	nextAddr := 0
	mapOf := map[string]int{} // key (nonzero steps) -> M
	var mapLines []string
	declared := map[string]bool{}
	var decls []string
	infos := make([]opInfo, len(b.Ops))

	for oi := range b.Ops {
		op := &b.Ops[oi]
		n := numCores(g.Cores(op))
		syms := map[string]*symbol{} // key -> symbol, this op only
		register := func(key, ssa string, decl []string) *symbol {
			if s, ok := syms[key]; ok {
				return s
			}
			s := &symbol{id: nextID, ssa: ssa, decl: decl}
			nextID--
			syms[key] = s
			// Declarations: one pair per distinct SSA name, in
			// registration order.
			if len(decl) > 0 && !declared[ssa] {
				declared[ssa] = true
				decls = append(decls, decl...)
			}
			return s
		}
		// uses[i][c] is the symbol core c of access i uses.
		accs := operands(g, op)
		uses := make([][]*symbol, len(accs))
		maps := make([]int, len(accs)) // map number, -1 when untiled
		for i, a := range accs {
			maps[i] = -1
			gi := int(a.Group)
			if g.Groups[gi].LX {
				continue
			}
			v := g.Buffers[a.Buffer].ViewOffset
			uses[i] = make([]*symbol, n)
			if pooled(gi) {
				P := p.Groups[gi].Offset
				for c := 0; c < n; c++ {
					V := P + v + coreOffset(g.Cores(op), g.Split(&a), c)
					name := fmt.Sprintf("%%pool_addr_%d", V)
					uses[i][c] = register(fmt.Sprintf("pool(%d)", V), name, []string{
						fmt.Sprintf("%%pool_offset_%d = arith.constant %d : index", V, V),
						fmt.Sprintf("%s = arith.addi %%pool, %%pool_offset_%d : index", name, V),
					})
				}
			} else {
				N := argOf[gi]
				arg := fmt.Sprintf("%%arg_%d", N)
				kernel := register(fmt.Sprintf("kernel(%d)", N), arg, nil)
				core0 := kernel
				base := arg // the access's core-0 value B
				if v > 0 {
					base = fmt.Sprintf("%%arg_%d_slice_%d", N, v)
					core0 = register(fmt.Sprintf("slice(%d,%d)", N, v), base, []string{
						fmt.Sprintf("%%arg_%d_slice_offset_%d = arith.constant %d : index", N, v, v),
						fmt.Sprintf("%s = arith.addi %s, %%arg_%d_slice_offset_%d : index", base, arg, N, v),
					})
				}
				uses[i][0] = core0
				o0 := coreOffset(g.Cores(op), g.Split(&a), 0)
				for c := 1; c < n; c++ {
					oc := coreOffset(g.Cores(op), g.Split(&a), c)
					if oc == o0 {
						uses[i][c] = core0
						continue
					}
					O := oc - o0
					// Reading 1: the name comes from this access;
					// an already registered key keeps its own.
					name := fmt.Sprintf("%s_core_%d", base, O)
					uses[i][c] = register(fmt.Sprintf("derived(%d,%d)", N, v+oc), name, []string{
						fmt.Sprintf("%s_core_offset_%d = arith.constant %d : index", base, O, O),
						fmt.Sprintf("%s = arith.addi %s, %s_core_offset_%d : index", name, base, base, O),
					})
				}
			}
			// Reading 2: the map is registered by the access.
			var nz []int64
			for _, s := range g.Strides(&a) {
				if s != 0 {
					nz = append(nz, s)
				}
			}
			if len(nz) > 0 {
				key := fmt.Sprint(nz)
				m, ok := mapOf[key]
				if !ok {
					m = len(mapLines)
					mapOf[key] = m
					var dims, terms []string
					for k, s := range nz {
						dims = append(dims, fmt.Sprintf("d%d", k))
						terms = append(terms, fmt.Sprintf(" + %d*d%d", s, k))
					}
					mapLines = append(mapLines, fmt.Sprintf("#map_%d = affine_map<(%s)[s0] -> (s0%s)>",
						m, strings.Join(dims, ", "), strings.Join(terms, "")))
				}
				maps[i] = m
			}
		}
		// Applies, in operand order and for each core.
		info := &infos[oi]
		for i, a := range accs {
			if maps[i] < 0 {
				continue
			}
			var ivs []string
			for k, s := range g.Strides(&a) {
				if s != 0 {
					ivs = append(ivs, fmt.Sprintf("%%i_%d", g.OpLoops(op)[k]))
				}
			}
			for c := 0; c < n; c++ {
				s := uses[i][c]
				if s.addr != "" {
					continue
				}
				s.addr = fmt.Sprintf("%%addr_%d", nextAddr)
				nextAddr++
				info.applies = append(info.applies, fmt.Sprintf("%s = affine.apply #map_%d(%s)[%s]",
					s.addr, maps[i], strings.Join(ivs, ", "), s.ssa))
			}
		}
		// Execute: each symbol once, first occurrence.
		seen := map[int]bool{}
		for i := range accs {
			for _, s := range uses[i] {
				if seen[s.id] {
					continue
				}
				seen[s.id] = true
				info.ids = append(info.ids, s.id)
				if s.addr != "" {
					info.operands = append(info.operands, s.addr)
				} else {
					info.operands = append(info.operands, s.ssa)
				}
			}
		}
	}

	// Printing.
	var out strings.Builder
	line := func(depth int, s string) {
		out.WriteString(strings.Repeat("\t", depth))
		out.WriteString(s)
		out.WriteString("\n")
	}
	for _, m := range mapLines {
		line(0, m)
	}
	line(0, "module {")
	var params []string
	if opt.FrontendPoolAllocation && hasPool {
		params = append(params, "%pool_base_addr: !sdscbundle.input_arg<index>")
	}
	for N := 0; N < nargs; N++ {
		params = append(params, fmt.Sprintf("%%arg_%d_base_addr: !sdscbundle.input_arg<index>", N))
	}
	line(1, fmt.Sprintf("func.func @sdsc_bundle(%s) {", strings.Join(params, ", ")))
	extract := func(x string) string {
		if opt.Generic {
			return fmt.Sprintf("%%%s = \"sdscbundle.input_arg_extract\"(%%%s_base_addr) {field = \"value\"} : (!sdscbundle.input_arg<index>) -> index", x, x)
		}
		return fmt.Sprintf("%%%s = sdscbundle.input_arg_extract value from %%%s_base_addr : !sdscbundle.input_arg<index> -> index", x, x)
	}
	if hasPool {
		switch {
		case opt.FrontendPoolAllocation:
			line(2, extract("pool"))
		case opt.Generic:
			line(2, fmt.Sprintf("%%pool = \"sdscbundle.device_mem_allocate\"() {size = %d : i64} : () -> index", p.Bundles[bi].PoolSize))
		default:
			line(2, fmt.Sprintf("%%pool = sdscbundle.device_mem_allocate %d bytes : index", p.Bundles[bi].PoolSize))
		}
	}
	for N := 0; N < nargs; N++ {
		line(2, extract(fmt.Sprintf("arg_%d", N)))
	}
	if len(b.Loops) > 0 {
		line(2, "%c0 = arith.constant 0 : index")
		line(2, "%c1 = arith.constant 1 : index")
		for K, l := range b.Loops {
			line(2, fmt.Sprintf("%%loop_bound_%d = arith.constant %d : index", K, l.Count))
		}
	}
	for _, d := range decls {
		line(2, d)
	}
	var items func(depth int, body []ir.Item)
	items = func(depth int, body []ir.Item) {
		for _, it := range body {
			if it.Loop >= 0 {
				K := it.Loop
				line(depth, fmt.Sprintf("scf.for %%i_%d = %%c0 to %%loop_bound_%d step %%c1 {", K, K))
				items(depth+1, g.LoopBody(&b.Loops[K]))
				line(depth, "}")
				continue
			}
			info := &infos[it.Op]
			for _, a := range info.applies {
				line(depth, a)
			}
			var ids []string
			for _, id := range info.ids {
				ids = append(ids, fmt.Sprint(id))
			}
			file := fmt.Sprintf("sdsc_%d.json", b.Ops[it.Op].Step)
			if opt.Generic {
				types := make([]string, len(info.operands))
				for i := range types {
					types[i] = "index"
				}
				line(depth, fmt.Sprintf("\"sdscbundle.sdsc_execute\"(%s) {sdsc_filename = %q, symbol_ids = [%s]} : (%s) -> ()",
					strings.Join(info.operands, ", "), file, strings.Join(ids, ", "), strings.Join(types, ", ")))
			} else {
				line(depth, fmt.Sprintf("sdscbundle.sdsc_execute (%s) {sdsc_filename=%q, \"symbol_ids\"=[%s]}",
					strings.Join(info.operands, ", "), file, strings.Join(ids, ", ")))
			}
		}
	}
	items(2, b.Body)
	line(2, "return")
	line(1, "}")
	line(0, "}")
	return out.String()
}

// operands lists an op's accesses in operand order: reads, then writes.
func operands(g *ir.Graph, op *ir.Op) []ir.Access {
	var all []ir.Access
	all = append(all, g.Reads(op)...)
	all = append(all, g.Writes(op)...)
	return all
}
