package verify

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// viewInfo is what the verifier derives from the alias declarations alone
// (Buffer.View, View.Alias and View.AliasOffset, bundle-ir.md §2): every
// name's root and view offset. It never reads View.ViewOffset, the
// groups' members (the root first) or Group.Size, which are the claims it
// checks. A name declared by no alias (the common case) is its own root
// at view offset 0, which one bit says; the others are listed (so the
// memory is a bit per name and 16 bytes per alias).
type viewInfo struct {
	// plain has bit i set when buffer i is no alias's left side (its
	// View is -1).
	plain []uint64
	// aliased lists the other buffers, ascending; for aliased[k],
	// aroot[k] is the buffer at the end of its alias chain, or -1 when
	// the chain is broken (out of range, a cycle, an overflowing
	// offset), and aview[k] the sum of the offsets on the chain.
	aliased []int32
	aroot   []int32
	aview   []int64
	// problems lists what is wrong with the declarations, in buffer order.
	problems []string
}

// isPlain reports whether buffer i is no alias (see viewInfo.plain).
func (v *viewInfo) isPlain(i int) bool { return v.plain[i>>6]>>(i&63)&1 != 0 }

// of returns buffer i's root (-1 when its chain is broken) and view
// offset.
func (v *viewInfo) of(i int32) (root int32, view int64) {
	if v.isPlain(int(i)) {
		return i, 0
	}
	k, _ := slices.BinarySearch(v.aliased, i)
	return v.aroot[k], v.aview[k]
}

// States of aroot while deriveViews runs.
const (
	rootUnseen = -2
	rootOnPath = -3
)

// deriveViews walks every alias chain once (memoized, so the cost is
// linear in the number of buffers, times log of the aliases, however
// long the chains are).
func deriveViews(g *ir.Graph) *viewInfo {
	n := g.Buffers.Len()
	v := &viewInfo{plain: make([]uint64, (n+63)/64)}
	for i, b := range g.Buffers.All() {
		if b.View == -1 {
			v.plain[i>>6] |= 1 << (i & 63)
		} else {
			v.aliased = append(v.aliased, int32(i))
		}
	}
	v.aroot = make([]int32, len(v.aliased))
	v.aview = make([]int64, len(v.aliased))
	for k := range v.aroot {
		v.aroot[k] = rootUnseen
	}
	var path []int32 // positions in aliased
	for k0 := range v.aliased {
		if v.aroot[k0] >= -1 {
			continue // done
		}
		// Follow the chain until a root, a name already resolved, or a
		// problem.
		path = path[:0]
		k := k0
		root, base := int32(-1), int64(0)
		for {
			j := v.aliased[k]
			if r := v.aroot[k]; r >= -1 {
				root, base = r, v.aview[k]
				break
			}
			bj := g.Buffers.At(int(j))
			if v.aroot[k] == rootOnPath {
				v.problems = append(v.problems, fmt.Sprintf("buffer %q: its alias chain is a cycle", g.Str(bj.Name)))
				break
			}
			v.aroot[k] = rootOnPath
			path = append(path, int32(k))
			if bj.View < 0 || int(bj.View) >= len(g.Views) {
				v.problems = append(v.problems, fmt.Sprintf("buffer %q: view index %d out of range", g.Str(bj.Name), bj.View))
				break
			}
			a := int(g.Views[bj.View].Alias)
			if a == -1 {
				v.problems = append(v.problems, fmt.Sprintf("buffer %q: a view (index %d) of no alias", g.Str(bj.Name), bj.View))
				break
			}
			if a < 0 || a >= n {
				v.problems = append(v.problems, fmt.Sprintf("buffer %q: alias index %d out of range", g.Str(bj.Name), a))
				break
			}
			if v.isPlain(a) {
				root = int32(a)
				break
			}
			k, _ = slices.BinarySearch(v.aliased, int32(a))
		}
		// Unwind: each name's offset is its own plus its base's.
		for i := len(path) - 1; i >= 0; i-- {
			pk := path[i]
			b := v.aliased[pk]
			v.aroot[pk] = root
			if root < 0 {
				continue
			}
			if b == root {
				v.aview[pk], base = 0, 0
				continue
			}
			bb := g.Buffers.At(int(b))
			off := g.Views[bb.View].AliasOffset
			if off < 0 || off > math.MaxInt64-base {
				v.problems = append(v.problems, fmt.Sprintf("buffer %q: alias offset %d on a chain at %d is negative or overflows", g.Str(bb.Name), off, base))
				v.aroot[pk], root = -1, -1
				continue
			}
			base += off
			v.aview[pk] = base
		}
	}
	return v
}

// claimedView returns the View buffer b claims: the zero offsets and
// Alias -1 when it is no alias's left side or its View index is out of
// range (which deriveViews reports).
func claimedView(g *ir.Graph, b *ir.Buffer) ir.View {
	if b.View < 0 || int(b.View) >= len(g.Views) {
		return ir.View{Alias: -1}
	}
	return g.Views[b.View]
}

// checkViews compares the graph's view offsets, group roots (each
// group's first member) and group sizes with what the alias declarations
// give. It runs after the index checks of checkGraph, so groups and
// members index correctly.
func (c *checker) checkViews(v *viewInfo) {
	g := c.g
	for _, s := range v.problems {
		c.fail("%s", s)
	}
	for i, b := range g.Buffers.All() {
		if r, view := v.of(int32(i)); r >= 0 {
			root := g.Buffers.At(int(r))
			if got := claimedView(g, b).ViewOffset; got != view {
				c.fail("buffer %q: view offset %d, its alias chain to %q gives %d", g.Str(b.Name), got, g.Str(root.Name), view)
			}
			if root.Group != b.Group {
				c.fail("buffer %q: in group %q, but its alias chain ends at %q of group %q",
					g.Str(b.Name), c.groupName(int(b.Group)), g.Str(root.Name), c.groupName(int(root.Group)))
			}
		}
		if a := claimedView(g, b).Alias; a >= 0 && int(a) < g.Buffers.Len() && g.Buffers.At(int(a)).Group != b.Group {
			c.fail("buffer %q: a view of %q, which is in another group", g.Str(b.Name), g.Str(g.Buffers.At(int(a)).Name))
		}
	}
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		var size int64
		sized := true
		for k, m := range g.Members(gr) {
			// The root, the one member that is no alias's left side,
			// comes first; every other member is a view.
			b := g.Buffers.At(int(m))
			switch {
			case k == 0 && b.View >= 0:
				c.fail("group %q: its first member %q is an alias's left side, not the root", c.groupName(gi), g.Str(b.Name))
			case k > 0 && b.View < 0:
				c.fail("group %q: member %d, %q, is no alias's left side: a root, but not first", c.groupName(gi), k, g.Str(b.Name))
			}
			r, view := v.of(m)
			if r < 0 {
				sized = false
				continue
			}
			if b.Size > math.MaxInt64-view {
				c.fail("group %q: member %q ends past the largest int64 (view offset %d + size %d)", c.groupName(gi), g.Str(b.Name), view, b.Size)
				sized = false
				continue
			}
			size = max(size, view+b.Size)
		}
		if sized && gr.Size != size {
			c.fail("group %q: size %d, the largest view offset + size of its names is %d", c.groupName(gi), gr.Size, size)
		}
	}
}

// extent is the farthest start of an access relative to the start of the
// name it accesses (bundle-ir.md §2, bounds): the largest core offset plus the
// sum over its loops of step*(count-1). Core offsets are re-derived from
// the op's cores and the access's split: core c's offset is
// sum_d i_d*split[d] with i_d in [0, cores[d]), every combination taken by
// some core, so the largest is sum_d (cores[d]-1)*split[d] and the
// smallest 0 (core 0). ok is false when the sum passes MaxInt64.
func extent(g *ir.Graph, b *ir.Bundle, op *ir.Op, a *ir.Access) (far int64, ok bool) {
	for d, s := range g.Split(a) {
		if d < len(g.Cores(op)) {
			if far, ok = addProduct(far, s, g.Cores(op)[d]-1); !ok {
				return 0, false
			}
		}
	}
	for k, st := range g.Strides(a) {
		if k < len(g.OpLoops(op)) {
			if li := g.OpLoops(op)[k]; li >= 0 && int(li) < len(b.Loops) {
				if far, ok = addProduct(far, st, b.Loops[li].Count-1); !ok {
					return 0, false
				}
			}
		}
	}
	return far, true
}

// addProduct is far + x*n, or false when x or n is negative or the result
// passes MaxInt64.
func addProduct(far, x, n int64) (int64, bool) {
	if x == 0 || n == 0 {
		return far, true
	}
	if x < 0 || n < 0 || x > math.MaxInt64/n || x*n > math.MaxInt64-far {
		return far, false
	}
	return far + x*n, true
}

// checkCores checks the cores clause of every op of bundle bi and every
// access's split (bundle-ir.md §2): entries at least 1, a split only on an op
// with cores and with one entry per cores entry, no negative split or
// step.
func (c *checker) checkCores(bi int) {
	b := &c.g.Bundles[bi]
	for oi := range b.Ops {
		c.checkOpCores(&b.Ops[oi])
	}
}

// checkOpCores is checkCores for one op.
func (c *checker) checkOpCores(op *ir.Op) {
	if c.g.Cores(op) != nil && len(c.g.Cores(op)) == 0 {
		c.fail("op %q: an empty cores list", c.g.Str(op.Name))
	}
	n := int64(1)
	for _, s := range c.g.Cores(op) {
		if s < 1 {
			c.fail("op %q: cores entry %d is below 1", c.g.Str(op.Name), s)
			continue
		}
		if n > math.MaxInt64/s {
			c.fail("op %q: cores %v multiply past the largest int64", c.g.Str(op.Name), c.g.Cores(op))
			break
		}
		n *= s
	}
	for _, accs := range [2][]ir.Access{c.g.Reads(op), c.g.Writes(op)} {
		for ai := range accs {
			a := &accs[ai]
			split := c.g.Split(a)
			if split != nil && len(split) != len(c.g.Cores(op)) {
				c.fail("op %q: split %v on an access of %q, but the op has cores %v", c.g.Str(op.Name), split, c.g.Str(c.g.Buffers.At(int(a.Buffer)).Name), c.g.Cores(op))
			}
			for _, s := range split {
				if s < 0 {
					c.fail("op %q: negative split %d", c.g.Str(op.Name), s)
				}
			}
			for _, s := range c.g.Strides(a) {
				if s < 0 {
					c.fail("op %q: negative step %d", c.g.Str(op.Name), s)
				}
			}
		}
	}
}

// checkCoresCPU: a CPU node's accesses have no split and no step.
func (c *checker) checkCoresCPU() {
	for ni := range c.g.CPU {
		n := &c.g.CPU[ni]
		accs := c.g.CPUAccesses(n)
		for ai := range accs {
			if d := c.g.AddressingOf(&accs[ai]); d.Split.Present() || d.Strides.Present() {
				c.fail("cpu %q: an access with a split or step", n.Name)
			}
		}
	}
}

// checkBounds applies the bounds rule of bundle-ir.md §2 to every access of
// every op of bundle bi, and checks every pooled access against its
// group's bytes: each core's start address, from the first iteration's
// (pool offset + view offset, core 0) to the farthest (+ the largest core
// offset + every loop's last step), must lie in [offset, offset + group
// size). A 0-byte name touches no byte and is exempt from the second
// check (its start may be its group's end). Without a plan (c.p nil, see
// Prepared), every access is taken as pooled and a start outside its
// group's bytes sets c.boundsNeedPlan instead of being reported.
func (c *checker) checkBounds(bi int) {
	b := &c.g.Bundles[bi]
	for oi := range b.Ops {
		c.checkOpBounds(bi, b, &b.Ops[oi])
	}
}

// checkOpBounds is checkBounds for one op of bundle bi (b).
func (c *checker) checkOpBounds(bi int, b *ir.Bundle, op *ir.Op) {
	g, p, v := c.g, c.p, c.views
	for _, accs := range [2][]ir.Access{g.Reads(op), g.Writes(op)} {
		for ai := range accs {
			a := &accs[ai]
			buf := g.Buffers.At(int(a.Buffer))
			far, ok := extent(g, b, op, a)
			if !ok {
				c.fail("bundle %q: op %q: the farthest start of its access of %q passes the largest int64", b.Name, g.Str(op.Name), g.Str(buf.Name))
				continue
			}
			if far != 0 && far >= buf.Size {
				c.fail("bundle %q: op %q: its access of %q reaches start %d, outside the name's %d bytes",
					b.Name, g.Str(op.Name), g.Str(buf.Name), far, buf.Size)
			}
			gi := buf.Group
			if buf.Size == 0 {
				continue
			}
			var pg *planner.Group
			if p != nil {
				if pg = &p.Groups[gi]; pg.Offset < 0 || int(pg.Bundle) != bi {
					continue
				}
			}
			r, lo := v.of(a.Buffer)
			if r < 0 {
				continue
			}
			size := g.Groups[gi].Size
			if far > math.MaxInt64-lo || lo+far >= size {
				if p == nil {
					c.boundsNeedPlan = true // a violation if the plan pools it
					continue
				}
				c.fail("bundle %q: op %q: a start of its access of %q, pool bytes %d+%d+%d, is not inside its group %q's bytes [%d, %d)",
					b.Name, g.Str(op.Name), g.Str(buf.Name), pg.Offset, lo, far, c.groupName(int(gi)), pg.Offset, pg.Offset+size)
			}
		}
	}
}
