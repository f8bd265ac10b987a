package ir

import "slices"

// Unfused returns the graph as it is when fusion is off
// (`--bundle-symbolic-args=false`): every leaf op becomes a bundle of its
// own, named after the op, wrapped in copies of the counted loops that
// enclose it so that its strides keep their meaning. Buffers, groups
// (their member lists and claim sets), CPU nodes, renames, claims, the
// accesses (their positions and addressings), the Ints (each op keeps
// its loops' count, so its strides keep their length) and the name store
// (the ops keep their Names; a bundle's name is its op's, sharing the
// store's bytes) are shared with g, which is not modified; the loop lists and
// loop bodies are the unfused graph's own. Like every graph, the result
// is read-only: its bundles' Body spans are shared among them, and so
// are the Loops of the bundles made of the ops of one loop body.
func (g *Graph) Unfused() *Graph {
	out := &Graph{Name: g.Name, Names: g.Names, File: g.File, Pos: g.Pos, Buffers: g.Buffers, Views: g.Views, Groups: g.Groups, CPU: g.CPU,
		Renames: g.Renames, Claims: g.Claims, GroupClaims: g.GroupClaims, Ints: g.Ints, Kinds: g.Kinds, Accesses: g.Accesses,
		Addressings: g.Addressings, AccessCols: g.AccessCols, AccessPositions: g.AccessPositions,
		MemberLists: g.MemberLists}
	// An op inside d loops gets the loops 0, 1, ..., d-1, each the only
	// item of its parent's body: its loop list is the one list 0..d-1 of
	// its depth (at listAt[d]), the body of loop k < d-1 is Items[k+1]
	// (loop k+1) and that of loop d-1 is Items[0] (the op). A bundle's
	// body is Items[0] when the op is in no loop, else the last item
	// (loop 0).
	depth := 0
	for _, b := range g.Bundles {
		for i := range b.Ops {
			depth = max(depth, len(g.OpLoops(&b.Ops[i])))
		}
	}
	listAt := make([]int32, depth+1)
	for d := 1; d <= depth; d++ {
		ks := make([]int32, d)
		for k := range ks {
			ks[k] = int32(k)
		}
		listAt[d] = out.AddLoopList(ks)
	}
	out.Items = make([]Item, max(depth, 1)+1)
	out.Items[0] = Item{Op: 0, Loop: -1}
	for k := 1; k < depth; k++ {
		out.Items[k] = Item{Op: -1, Loop: int32(k)}
	}
	opBody := Span{Off: 0, Len: 1}
	loopBody := Span{Off: int32(len(out.Items) - 1), Len: 1}
	out.Items[loopBody.Off] = Item{Op: -1, Loop: 0}
	// One array each for the bundles, their ops and their loops, sliced
	// per bundle with capacity limits, instead of an allocation or two
	// per op: a million small objects cost their headers and the
	// collector's time. The two possible bodies are shared by all.
	//
	// The copies of an op's loops depend only on the loops: an op whose
	// loops are those of the op before it in its bundle (the ops of one
	// loop body) shares that op's copies (newChain says it has its own).
	newChain := func(loops, prev []int32) bool { return len(loops) > 0 && !slices.Equal(loops, prev) }
	nOps, nLoops := 0, 0
	for _, b := range g.Bundles {
		nOps += len(b.Ops)
		var prev []int32
		for i := range b.Ops {
			if loops := g.OpLoops(&b.Ops[i]); newChain(loops, prev) {
				nLoops += len(loops)
				prev = loops
			}
		}
	}
	out.Bundles = make([]Bundle, 0, nOps)
	ops := make([]Op, 0, nOps)
	loopSlab := make([]Loop, 0, nLoops)
	for _, b := range g.Bundles {
		var prev []int32
		var prevCopies []Loop
		for i := range b.Ops {
			op := &b.Ops[i]
			nb := Bundle{Name: g.Str(op.Name), Pos: op.Pos, Kind: KindOp}
			nop := *op
			loops := g.OpLoops(op)
			nop.Loops = listAt[len(loops)]
			if newChain(loops, prev) {
				first := len(loopSlab)
				for k, li := range loops {
					l := &b.Loops[li]
					body := Span{Off: int32(k + 1), Len: 1}
					if k == len(loops)-1 {
						body = Span{Off: 0, Len: 1}
					}
					loopSlab = append(loopSlab, Loop{Name: l.Name, Pos: l.Pos, Count: l.Count,
						Parent: int32(k - 1), Depth: int32(k + 1), First: 0, Last: 0, Body: body})
				}
				prev, prevCopies = loops, loopSlab[first:len(loopSlab):len(loopSlab)]
			}
			if len(loops) > 0 {
				nb.Loops = prevCopies
			}
			ops = append(ops, nop)
			nb.Ops = ops[len(ops)-1 : len(ops) : len(ops)]
			nb.Body = opBody
			if len(loops) > 0 {
				nb.Body = loopBody
			}
			out.Bundles = append(out.Bundles, nb)
		}
	}
	return out
}
