package ir

// Unfused returns the graph as it is when fusion is off
// (`--bundle-symbolic-args=false`): every leaf op becomes a bundle of its
// own, named after the op, wrapped in copies of the counted loops that
// enclose it so that its strides keep their meaning. Buffers, groups, CPU
// nodes, renames, claims and the Ints of the accesses (each op keeps its
// loops' count, so its strides keep their length) are shared with g, which is not modified.
func (g *Graph) Unfused() *Graph {
	out := &Graph{Name: g.Name, File: g.File, Pos: g.Pos, Buffers: g.Buffers, Groups: g.Groups, CPU: g.CPU,
		Renames: g.Renames, Claims: g.Claims, Ints: g.Ints}
	for _, b := range g.Bundles {
		for _, op := range b.Ops {
			nb := Bundle{Name: op.Name, Pos: op.Pos, Kind: KindOp}
			nop := op
			nop.Step = 0
			nop.Loops = make([]int, len(op.Loops))
			parent := -1
			for k, li := range op.Loops {
				l := b.Loops[li]
				nb.Loops = append(nb.Loops, Loop{Name: l.Name, Pos: l.Pos, Count: l.Count,
					Parent: parent, Depth: k + 1, First: 0, Last: 0})
				nop.Loops[k] = k
				parent = k
			}
			nb.Ops = []Op{nop}
			// Build the chain of bodies from the inside out.
			inner := []Item{{Op: 0, Loop: -1}}
			for k := len(nb.Loops) - 1; k >= 0; k-- {
				nb.Loops[k].Body = inner
				inner = []Item{{Op: -1, Loop: k}}
			}
			nb.Body = inner
			out.Bundles = append(out.Bundles, nb)
		}
	}
	return out
}
