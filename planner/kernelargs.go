package planner

import "github.com/sdscgen/sdscgen/ir"

// KernelArg is one kernel argument of a bundle: %arg_N for N its index
// in the list KernelArgs returns.
type KernelArg struct {
	// Group indexes ir.Graph.Groups: the storage the argument carries.
	Group int32
	// Names are the buffers (indices into ir.Graph.Buffers) through
	// which the bundle's ops access the group, in order of first access.
	Names []int32
}

// KernelArgs returns bundle bi's kernel arguments in the order of their
// numbers: every storage group the bundle touches that is neither pooled
// in it nor LX, numbered from 0 in order of first access (ops in step
// order, each op's reads before its writes). This is the one statement of
// the rule; mlirgen numbers its %arg_N the same way, and a test holds the
// two equal. Time is linear in the bundle's accesses.
func (p *Result) KernelArgs(bi int) []KernelArg {
	g := p.Graph
	b := &g.Bundles[bi]
	var out []KernelArg
	at := map[int32]int{}     // group -> index in out
	named := map[int32]bool{} // the buffers already in a Names list
	for oi := range b.Ops {
		as := g.OpAccesses(&b.Ops[oi])
		for i := range as {
			a := &as[i]
			gi := g.GroupOf(a)
			if g.GroupClaims[gi].Has(ir.ClaimLX) || p.Pooled(int(gi), bi) {
				continue
			}
			k, ok := at[gi]
			if !ok {
				k = len(out)
				at[gi] = k
				out = append(out, KernelArg{Group: gi})
			}
			if !named[a.Buffer] {
				named[a.Buffer] = true
				out[k].Names = append(out[k].Names, a.Buffer)
			}
		}
	}
	return out
}
