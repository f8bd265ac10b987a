package ir

// Unfused returns the graph as it is when fusion is off
// (`--bundle-symbolic-args=false`): every leaf op becomes a bundle of its
// own, named after the op, wrapped in copies of the counted loops that
// enclose it so that its strides keep their meaning. Buffers, groups
// (and their member lists), CPU nodes, renames, claims, the accesses and
// the Ints (each op keeps its
// loops' count, so its strides keep their length) are shared with g,
// which is not modified; the loop lists are the unfused graph's own.
func (g *Graph) Unfused() *Graph {
	out := &Graph{Name: g.Name, File: g.File, Pos: g.Pos, Buffers: g.Buffers, Groups: g.Groups, CPU: g.CPU,
		Renames: g.Renames, Claims: g.Claims, Ints: g.Ints, Accesses: g.Accesses,
		MemberLists: g.MemberLists}
	// An op inside k loops gets the list 0, 1, ..., k-1: every such list
	// is a prefix of the longest one.
	depth := 0
	for _, b := range g.Bundles {
		for i := range b.Ops {
			depth = max(depth, int(b.Ops[i].Loops.Len))
		}
	}
	ks := make([]int32, depth)
	for k := range ks {
		ks[k] = int32(k)
	}
	out.LoopLists = ks
	for _, b := range g.Bundles {
		for i := range b.Ops {
			op := &b.Ops[i]
			nb := Bundle{Name: op.Name, Pos: op.Pos, Kind: KindOp}
			nop := *op
			nop.Step = 0
			nop.Loops = Span{Len: op.Loops.Len}
			parent := -1
			for k, li := range g.OpLoops(op) {
				l := b.Loops[li]
				nb.Loops = append(nb.Loops, Loop{Name: l.Name, Pos: l.Pos, Count: l.Count,
					Parent: parent, Depth: k + 1, First: 0, Last: 0})
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
