package frontend

// The checker as it was before the streaming builder (build.go): a test
// oracle that the builder is held equal to (see TestBuilderMatchesOldChecker).

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
)

func oldCheck(f *File, release bool) (*ir.Graph, ErrorList) {
	// Sizing the name tables up front avoids rehashing them over and
	// over on a generated graph with a million names.
	nbuf := len(f.Graph.Buffers)
	c := &oldChecker{
		file:     f.Filename,
		buffers:  make(map[string]int, nbuf),
		nodes:    make(map[string]Pos, oldCountNodes(f.Graph.Nodes)),
		renameOf: map[string]int{},
		release:  release,
	}
	c.g = &ir.Graph{Name: f.Graph.Name.Value, File: f.Filename, Pos: c.pos(f.Graph.Name.Pos)}
	c.g.Buffers = make([]ir.Buffer, 0, nbuf)
	c.keyword(f.Graph.Name)
	c.declareBuffers(f.Graph.Buffers)
	if release {
		f.Graph.Buffers = nil
	}
	c.resolveRenames(f.Graph.Decls)
	c.buildGroups(f.Graph.Decls)
	if release {
		f.Graph.Decls = nil
	}
	nodes := f.Graph.Nodes
	if release {
		f.Graph.Nodes = nil
	}
	c.buildNodes(nodes)
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	return c.g, nil
}

func oldCountNodes(nodes []Node) int {
	n := len(nodes)
	for i := range nodes {
		switch {
		case nodes[i].Fused != nil:
			n += oldCountNodes(nodes[i].Fused.Body)
		case nodes[i].Loop != nil:
			n += oldCountNodes(nodes[i].Loop.Body)
		}
	}
	return n
}

type oldChecker struct {
	file string
	g    *ir.Graph
	errs ErrorList
	// release: drop each node from the AST once it is built (see
	// CheckAndRelease).
	release bool

	buffers map[string]int // name -> index in g.Buffers
	nodes   map[string]Pos // node name -> first declaration

	renames  []*RenameDecl  // the effective renames, in source order
	renameOf map[string]int // renamed name -> index in renames
	// renameTo holds, per effective rename, the buffer its chain ends at,
	// or -1 when the chain is broken (already reported).
	renameTo []int
}

// pos is p as the graph stores it (its file is Graph.File).
func (c *oldChecker) pos(p Pos) ir.Pos { return ir.Pos{Line: p.Line, Col: p.Column} }

func (c *oldChecker) errorf(p Pos, format string, args ...any) {
	c.errs.add(irPos(c.file, p), format, args...)
}

// keyword reports a keyword in a declaring name position; the parser lets
// it through there (see ast.go) so that it is reported with the rest.
func (c *oldChecker) keyword(t Name) {
	if isKeyword(t.Value) {
		c.errs = append(c.errs, &Error{Pos: irPos(c.file, t.Pos), Msg: keywordMsg(t.Value)})
	}
}

// name is the Name of a rename's token.
func oldName(t Token) Name {
	return Name{Value: t.Value, Pos: Pos{Line: int32(t.Pos.Line), Column: int32(t.Pos.Column)}}
}

func (c *oldChecker) declareBuffers(decls []BufferDecl) {
	for i := range decls {
		b := &decls[i]
		c.keyword(b.Name)
		size := c.size(b)
		if i, dup := c.buffers[b.Name.Value]; dup {
			first := c.g.Buffers[i].Pos
			c.errorf(b.Name.Pos, "duplicate buffer %s (first declared at %d:%d)", quoteText(b.Name.Value), first.Line, first.Col)
			continue
		}
		c.buffers[b.Name.Value] = len(c.g.Buffers)
		c.g.Buffers = append(c.g.Buffers, ir.Buffer{Name: b.Name.Value, Pos: c.pos(b.Name.Pos), Size: size})
	}
}

// size computes a buffer's byte size rounded up to whole sticks; it
// reports and returns 0 when there is none.
func (c *oldChecker) size(b *BufferDecl) int64 {
	overflow := func(p Pos) int64 {
		c.errorf(p, "size of %s overflows int64", quoteText(b.Name.Value))
		return 0
	}
	if b.Shape == nil {
		n, err := strconv.ParseInt(b.Size.Value, 10, 64)
		if err != nil || n > math.MaxInt64-(ir.StickBytes-1) {
			return overflow(b.Size.Pos)
		}
		return roundUp(n)
	}
	eb := elemBytes(b.Size.Value)
	if eb == 0 {
		c.errorf(b.Size.Pos, "unknown dtype %s (the dtypes are %s)", quoteText(b.Size.Value), dtypeList())
		return 0
	}
	var buf [8]int64 // real shapes are short: no allocation per buffer
	dims := buf[:0]
	zero := false
	for _, t := range b.Shape {
		n, err := strconv.ParseInt(t.Value, 10, 64)
		if err != nil {
			return overflow(b.Size.Pos)
		}
		zero = zero || n == 0
		dims = append(dims, n)
	}
	// The size is a mathematical product: one zero dimension makes it 0
	// however large the others are, so only a non-zero product can overflow.
	if zero {
		return 0
	}
	last, ok := mul(dims[len(dims)-1], eb)
	if !ok || last > math.MaxInt64-(ir.StickBytes-1) {
		return overflow(b.Size.Pos)
	}
	size := roundUp(last)
	for _, d := range dims[:len(dims)-1] {
		if size, ok = mul(size, d); !ok {
			return overflow(b.Size.Pos)
		}
	}
	return size
}

// resolveRenames records the renames and follows every chain once, so
// that resolving a reference later is a single map lookup; Graph.Renames
// records the result.
func (c *oldChecker) resolveRenames(decls []Decl) {
	for _, d := range decls {
		r := d.Rename
		if r == nil {
			continue
		}
		from := oldName(r.From)
		c.keyword(from)
		if i, dup := c.renameOf[from.Value]; dup {
			c.errorf(from.Pos, "%s is already renamed at %s", quoteText(from.Value), at(oldName(c.renames[i].From).Pos))
			continue
		}
		c.renameOf[r.From.Value] = len(c.renames)
		c.renames = append(c.renames, r)
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int8, len(c.renames))
	c.renameTo = make([]int, len(c.renames))
	var path []int
	for i := range c.renames {
		if state[i] != unvisited {
			continue
		}
		path = path[:0]
		j, target := i, -1
		for {
			if state[j] == done {
				target = c.renameTo[j]
				break
			}
			if state[j] == onPath {
				c.cycle(path, j)
				break
			}
			state[j] = onPath
			path = append(path, j)
			to := c.renames[j].To
			if k, ok := c.renameOf[to.Value]; ok {
				j = k
				continue
			}
			if b, ok := c.buffers[to.Value]; ok {
				target = b
			} else {
				c.errorf(oldName(to).Pos, "rename target %s is not a declared buffer", quoteText(to.Value))
			}
			break
		}
		for _, k := range path {
			state[k] = done
			c.renameTo[k] = target
		}
	}
	if len(c.renames) > 0 {
		c.g.Renames = make([]ir.Rename, len(c.renames))
		for i, r := range c.renames {
			c.g.Renames[i] = ir.Rename{From: r.From.Value, Pos: c.pos(oldName(r.From).Pos), To: c.renameTo[i]}
		}
	}
}

// cycle reports the rename cycle that path closes at rename j, once, at
// the cycle's first rename in source order.
func (c *oldChecker) cycle(path []int, j int) {
	var loop []int
	for k, p := range path {
		if p == j {
			loop = path[k:]
			break
		}
	}
	first := 0
	for k, p := range loop {
		if p < loop[first] {
			first = k
		}
	}
	var b strings.Builder
	for k := range loop {
		b.WriteString(c.renames[loop[(first+k)%len(loop)]].From.Value)
		b.WriteString(" -> ")
	}
	b.WriteString(c.renames[loop[first]].From.Value)
	c.errorf(oldName(c.renames[loop[first]].From).Pos, "rename cycle: %s", b.String())
}

// resolve maps a buffer reference to its buffer through the renames; -1
// when it cannot, after reporting why (unless a broken rename chain was
// already reported).
func (c *oldChecker) resolve(t Name) int {
	if len(c.renames) > 0 {
		if i, ok := c.renameOf[t.Value]; ok {
			return c.renameTo[i]
		}
	}
	if b, ok := c.buffers[t.Value]; ok {
		return b
	}
	c.errorf(t.Pos, "undeclared buffer %s", quoteText(t.Value))
	return -1
}

// buildGroups records the aliases (directed views), finds every name's
// group root and view offset, and applies the input/output/lx lists
// (recording each listed name in Graph.Claims).
func (c *oldChecker) buildGroups(decls []Decl) {
	n := len(c.g.Buffers)
	bufs := c.g.Buffers
	for i := range bufs {
		bufs[i].Alias = -1
	}
	// lineOf[v] is the alias line whose left side is v; allocated with
	// the first alias.
	var lineOf []*AliasDecl
	in, out, lx := make([]bool, n), make([]bool, n), make([]bool, n)
	for _, d := range decls {
		switch {
		case d.Alias != nil:
			a := d.Alias
			c.keyword(a.View)
			v, t := c.resolve(a.View), c.resolve(a.Target)
			var off int64
			if a.Offset.Value != "" {
				off, _ = c.integer(a.Offset)
			}
			if v < 0 || t < 0 {
				continue
			}
			if lineOf == nil {
				lineOf = make([]*AliasDecl, n)
			}
			if first := lineOf[v]; first != nil {
				c.errorf(a.View.Pos, "%s is already a view of %s (alias at %s)",
					quoteText(a.View.Value), quoteText(bufs[bufs[v].Alias].Name), at(first.View.Pos))
				continue
			}
			lineOf[v] = a
			bufs[v].Alias, bufs[v].AliasOffset = t, off
		case d.List != nil:
			flags, kind := in, ir.ClaimInput
			switch d.List.Kind {
			case "output":
				flags, kind = out, ir.ClaimOutput
			case "lx":
				flags, kind = lx, ir.ClaimLX
			}
			for _, t := range d.List.Names {
				if b := c.resolve(t); b >= 0 {
					flags[b] = true
					c.g.Claims = append(c.g.Claims, ir.Claim{Kind: kind, Buffer: b, Pos: c.pos(t.Pos)})
				}
			}
		}
	}
	rootOf := c.viewOffsets(lineOf)
	find := func(i int) int { return rootOf[i] }
	// Number the groups in order of their first member, then give every
	// group its slice of one shared member array: a graph may have a
	// million single-buffer groups.
	groupOf := make([]int, n) // root -> group index + 1
	ngroups := 0
	for i := range rootOf {
		if find(i) == i {
			ngroups++
		}
	}
	// Exact sizes: appending a million groups would allocate several
	// times their size on the way.
	groups := make([]ir.Group, 0, ngroups)
	members := make([]int, 0, ngroups)
	for i := range c.g.Buffers {
		r := find(i)
		if groupOf[r] == 0 {
			groups = append(groups, ir.Group{})
			members = append(members, 0)
			groupOf[r] = len(groups)
		}
		members[groupOf[r]-1]++
	}
	all := make([]int, 0, n)
	for k := range groups {
		groups[k].Members = all[len(all) : len(all) : len(all)+members[k]]
		all = all[:len(all)+members[k]]
	}
	for i, b := range c.g.Buffers {
		g := &groups[groupOf[find(i)]-1]
		if len(g.Members) == 0 || b.Name < g.Name {
			g.Name = b.Name
		}
		g.Members = append(g.Members, i)
		if find(i) == i {
			g.Root = i
		}
		// Overflow was reported by viewOffsets (and then there is no
		// graph to build).
		end, _ := add(b.ViewOffset, b.Size)
		g.Size = max(g.Size, end)
		g.Input = g.Input || in[i]
		g.Output = g.Output || out[i]
		g.LX = g.LX || lx[i]
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(groups[a].Name, groups[b].Name) })
	rank := make([]int, len(groups))
	c.g.Groups = make([]ir.Group, len(groups))
	for k, i := range order {
		c.g.Groups[k] = groups[i]
		rank[i] = k
	}
	for i := range c.g.Buffers {
		c.g.Buffers[i].Group = rank[groupOf[find(i)]-1]
	}
}

// viewOffsets follows every name's alias chain to its root, once per
// name, setting the names' ViewOffset and returning each name's root. It
// reports alias cycles and offset sums that overflow int64; the names of
// a cycle take its first member in the walk as their root, and a name
// whose offset cannot be computed keeps ViewOffset 0 (there is no graph
// then anyway).
func (c *oldChecker) viewOffsets(lineOf []*AliasDecl) []int {
	bufs := c.g.Buffers
	rootOf := make([]int, len(bufs))
	if lineOf == nil {
		for i := range rootOf {
			rootOf[i] = i
		}
		return rootOf
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int8, len(bufs))
	broken := make([]bool, len(bufs)) // no offset: in or behind a cycle or overflow
	var path []int
	for i := range bufs {
		if state[i] != unvisited {
			continue
		}
		path = path[:0]
		j := i
		for j >= 0 && state[j] == unvisited {
			state[j] = onPath
			path = append(path, j)
			j = bufs[j].Alias
		}
		// The chain ended at a root (j < 0: the last of path), at a name
		// already done, or closed a cycle at j.
		end := len(path)
		var root int
		var base int64
		ok := true
		switch {
		case j < 0:
			root = path[end-1]
		case state[j] == done:
			root, base, ok = rootOf[j], bufs[j].ViewOffset, !broken[j]
		default:
			k := slices.Index(path, j)
			c.aliasCycle(path[k:], lineOf)
			for _, m := range path[k:] {
				state[m], broken[m], rootOf[m] = done, true, j
			}
			end, root, ok = k, j, false
		}
		for k := end - 1; k >= 0; k-- {
			m := path[k]
			state[m], rootOf[m] = done, root
			switch {
			case !ok:
				broken[m] = true
			case bufs[m].Alias < 0:
				base = 0
			default:
				a := lineOf[m]
				pos := a.View.Pos
				if a.Offset.Value != "" {
					pos = a.Offset.Pos
				}
				name := quoteText(bufs[m].Name)
				sum, fits := add(base, bufs[m].AliasOffset)
				if !fits {
					c.errorf(pos, "view offset of %s overflows int64 (%d + %d)", name, base, bufs[m].AliasOffset)
				} else if _, fits = add(sum, bufs[m].Size); !fits {
					c.errorf(pos, "end of view %s overflows int64 (view offset %d + size %d)", name, sum, bufs[m].Size)
				}
				if !fits {
					broken[m], ok = true, false
					continue
				}
				bufs[m].ViewOffset, base = sum, sum
			}
		}
	}
	return rootOf
}

// aliasCycle reports the alias cycle of the names in loop (each the left
// side of an alias whose right side is the next, the last's the first),
// once, at the alias line of the cycle that comes first in the source.
func (c *oldChecker) aliasCycle(loop []int, lineOf []*AliasDecl) {
	first := 0
	for k, m := range loop {
		p, q := lineOf[m].Pos, lineOf[loop[first]].Pos
		if p.Line < q.Line || p.Line == q.Line && p.Column < q.Column {
			first = k
		}
	}
	var b strings.Builder
	for k := range loop {
		b.WriteString(c.g.Buffers[loop[(first+k)%len(loop)]].Name)
		b.WriteString(" -> ")
	}
	b.WriteString(c.g.Buffers[loop[first]].Name)
	c.errorf(lineOf[loop[first]].View.Pos, "alias cycle: %s", b.String())
}

// node declares a node name in the node namespace.
func (c *oldChecker) node(t Name) {
	c.keyword(t)
	if len(t.Value) > maxNodeName {
		c.errorf(t.Pos, "node name is %d bytes long; at most %d are allowed", len(t.Value), maxNodeName)
	}
	if first, dup := c.nodes[t.Value]; dup {
		c.errorf(t.Pos, "duplicate node %s (first declared at %s)", quoteText(t.Value), at(first))
		return
	}
	c.nodes[t.Value] = t.Pos
}

// oldBundle is the state of one oldBundle under construction.
type oldBundle struct {
	b *ir.Bundle
	// loops is the enclosing loop stack. It is replaced, never modified,
	// so the ops of one loop body can share it as their Op.Loops.
	loops []int
	// accs and strides are preallocated for the whole oldBundle and handed
	// out in pieces: a generated oldBundle has a million ops, and one
	// allocation per operand list would dominate Check.
	accs    []ir.Access
	strides []int64
}

// oldTally counts what a oldBundle body holds, to preallocate it.
type oldTally struct{ ops, loops, accs, strides int }

func (z *oldTally) count(nodes []Node, depth int) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Leaf != nil && n.Leaf.Kind == "op":
			z.ops++
			for _, as := range [2][]Access{n.Leaf.Reads, n.Leaf.Writes} {
				z.accs += len(as)
				for j := range as {
					if as[j].Step != nil {
						z.strides += depth
					}
				}
			}
		case n.Fused != nil:
			z.count(n.Fused.Body, depth)
		case n.Loop != nil:
			z.loops++
			z.count(n.Loop.Body, depth+1)
		}
	}
}

func (c *oldChecker) buildNodes(nodes []Node) {
	nb := 0
	for i := range nodes {
		if l := nodes[i].Leaf; l == nil || l.Kind != "cpu" {
			nb++
		}
	}
	c.g.Bundles = make([]ir.Bundle, 0, nb)
	for i := range nodes {
		n := &nodes[i]
		var body []Node
		switch {
		case n.Leaf != nil && n.Leaf.Kind == "cpu":
			l := n.Leaf
			c.node(l.Name)
			lf := c.leaf(l)
			c.g.CPU = append(c.g.CPU, ir.CPUNode{
				Name:   l.Name.Value,
				Pos:    c.pos(l.Name.Pos),
				Reads:  c.accesses(nil, lf, l.Reads, 0),
				Writes: c.accesses(nil, lf, l.Writes, 0),
			})
			continue
		case n.Leaf != nil:
			c.g.Bundles = append(c.g.Bundles, ir.Bundle{Name: n.Leaf.Name.Value, Pos: c.pos(n.Leaf.Name.Pos), Kind: ir.KindOp})
			body = nodes[i : i+1]
		case n.Fused != nil:
			// The oldBundle is the fused block itself: its nodes are the
			// bundle's top level.
			c.node(n.Fused.Name)
			c.g.Bundles = append(c.g.Bundles, ir.Bundle{Name: n.Fused.Name.Value, Pos: c.pos(n.Fused.Name.Pos), Kind: ir.KindFused})
			body = n.Fused.Body
		case n.Loop != nil:
			c.g.Bundles = append(c.g.Bundles, ir.Bundle{Name: n.Loop.Name.Value, Pos: c.pos(n.Loop.Name.Pos), Kind: ir.KindLoop})
			body = nodes[i : i+1]
		}
		var z oldTally
		z.count(body, 0)
		b := &c.g.Bundles[len(c.g.Bundles)-1]
		b.Ops = make([]ir.Op, 0, z.ops)
		if z.loops > 0 {
			b.Loops = make([]ir.Loop, 0, z.loops)
		}
		bb := &oldBundle{b: b, accs: make([]ir.Access, 0, z.accs), strides: make([]int64, 0, z.strides)}
		b.Body = c.walk(bb, body, oldItemBuf(body))
		if c.release {
			nodes[i] = Node{}
		}
	}
}

// oldItems counts the oldItems of a body: its ops and loops, and those of the
// fused blocks it holds, which only group nodes.
func oldItems(nodes []Node) int {
	n := 0
	for i := range nodes {
		switch nd := &nodes[i]; {
		case nd.Leaf != nil && nd.Leaf.Kind == "op", nd.Loop != nil:
			n++
		case nd.Fused != nil:
			n += oldItems(nd.Fused.Body)
		}
	}
	return n
}

// oldItemBuf returns room for the oldItems of a body; nil for none, as before
// the preallocation, so that an empty body stays nil.
func oldItemBuf(nodes []Node) []ir.Item {
	if n := oldItems(nodes); n > 0 {
		return make([]ir.Item, 0, n)
	}
	return nil
}

// walk builds the oldItems of one body, appending to body.
func (c *oldChecker) walk(bb *oldBundle, nodes []Node, body []ir.Item) []ir.Item {
	b := bb.b
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Leaf != nil && n.Leaf.Kind == "cpu":
			l := n.Leaf
			c.node(l.Name)
			c.errorf(l.Pos, "cpu node %s must be at the top level", quoteText(l.Name.Value))
			lf := c.leaf(l)
			c.accesses(nil, lf, l.Reads, 0)
			c.accesses(nil, lf, l.Writes, 0)
		case n.Leaf != nil:
			l := n.Leaf
			c.node(l.Name)
			step := len(b.Ops)
			lf := c.leaf(l)
			b.Ops = append(b.Ops, ir.Op{
				Name:   l.Name.Value,
				Pos:    c.pos(l.Name.Pos),
				Step:   step,
				Loops:  bb.loops,
				Cores:  lf.cores,
				Reads:  c.accesses(bb, lf, l.Reads, len(bb.loops)),
				Writes: c.accesses(bb, lf, l.Writes, len(bb.loops)),
			})
			body = append(body, ir.Item{Op: step, Loop: -1})
			if c.release {
				// The op is built: let its AST (leaf, accesses, step
				// lists) go, so that a oldBundle of a million ops does not
				// keep its whole AST alive until its last op.
				n.Leaf = nil
			}
		case n.Fused != nil:
			// A fused block nested in a oldBundle only groups nodes; its
			// contents belong to the enclosing body.
			c.node(n.Fused.Name)
			body = c.walk(bb, n.Fused.Body, body)
			if c.release {
				n.Fused = nil
			}
		case n.Loop != nil:
			l := n.Loop
			c.node(l.Name)
			count, ok := c.integer(l.Count)
			if ok && count == 0 {
				c.errorf(l.Count.Pos, "loop %s has count 0", quoteText(l.Name.Value))
			}
			parent := -1
			if len(bb.loops) > 0 {
				parent = bb.loops[len(bb.loops)-1]
			}
			k := len(b.Loops)
			b.Loops = append(b.Loops, ir.Loop{
				Name:   l.Name.Value,
				Pos:    c.pos(l.Name.Pos),
				Count:  count,
				Parent: parent,
				Depth:  len(bb.loops) + 1,
				First:  len(b.Ops),
			})
			body = append(body, ir.Item{Op: -1, Loop: k})
			outer := bb.loops
			bb.loops = append(outer[:len(outer):len(outer)], k)
			inner := c.walk(bb, l.Body, oldItemBuf(l.Body))
			bb.loops = outer
			b.Loops[k].Body = inner
			b.Loops[k].Last = len(b.Ops) - 1
			if c.release {
				n.Loop = nil
			}
		}
	}
	return body
}

// integer parses a non-size integer literal.
func (c *oldChecker) integer(t Name) (int64, bool) {
	n, err := strconv.ParseInt(t.Value, 10, 64)
	if err != nil {
		c.errorf(t.Pos, "integer literal too large")
		return 0, false
	}
	return n, true
}

// oldLeafInfo is what the accesses of a leaf node need to know about it.
type oldLeafInfo struct {
	l *Leaf
	// cores is the op's cores list (nil without one); coresOK is false
	// when it has an error, so that no bound is computed from it.
	cores   []int64
	coresOK bool
}

// leaf checks a leaf node's cores clause.
func (c *oldChecker) leaf(l *Leaf) oldLeafInfo {
	lf := oldLeafInfo{l: l, coresOK: true}
	if l.Cores == nil {
		return lf
	}
	if l.Kind == "cpu" {
		c.errorf(l.Cores.Pos, "cores on cpu node %s; only op nodes run on cores", quoteText(l.Name.Value))
		lf.coresOK = false
		return lf
	}
	lf.cores = make([]int64, len(l.Cores.Ints))
	prod, fits := int64(1), true
	for k, t := range l.Cores.Ints {
		n, ok := c.integer(t)
		if !ok {
			lf.coresOK = false
			continue
		}
		if n < 1 {
			c.errorf(t.Pos, "cores entry is 0; every entry must be at least 1")
			lf.coresOK = false
		}
		lf.cores[k] = n
		if fits {
			prod, fits = mul(prod, n)
		}
	}
	if !lf.coresOK {
		return lf
	}
	switch {
	case !fits:
		c.errorf(l.Cores.Pos, "op %s: the product of its cores entries overflows int64; at most %d cores are allowed", quoteText(l.Name.Value), ir.MaxCores)
		lf.coresOK = false
	case prod > ir.MaxCores:
		c.errorf(l.Cores.Pos, "op %s runs on %d cores; at most %d are allowed", quoteText(l.Name.Value), prod, ir.MaxCores)
		lf.coresOK = false
	}
	return lf
}

// accesses resolves the operands of a leaf node that sits inside depth
// counted loops, taking storage from bb when there is one.
func (c *oldChecker) accesses(bb *oldBundle, lf oldLeafInfo, as []Access, depth int) []ir.Access {
	if len(as) == 0 {
		return nil
	}
	var out []ir.Access
	if bb != nil && cap(bb.accs)-len(bb.accs) >= len(as) {
		n := len(bb.accs)
		bb.accs = bb.accs[:n+len(as)]
		out = bb.accs[n : n+len(as) : n+len(as)]
	} else {
		out = make([]ir.Access, len(as))
	}
	for i := range as {
		a := &as[i]
		b := c.resolve(a.Name)
		out[i] = ir.Access{Pos: c.pos(a.Name.Pos), Buffer: b, Group: -1}
		if b >= 0 {
			out[i].Group = c.g.Buffers[b].Group
		}
		ok := true
		if a.Step != nil {
			out[i].Strides, ok = c.strides(bb, a.Step, depth)
		}
		if a.Split != nil {
			var splitOK bool
			out[i].Split, splitOK = c.split(lf, a.Split)
			ok = ok && splitOK
		}
		if (a.Step != nil || a.Split != nil) && ok && b >= 0 && lf.coresOK {
			c.bounds(bb, lf, a, &out[i])
		}
	}
	return out
}

// split checks an access's split clause against its leaf's cores.
func (c *oldChecker) split(lf oldLeafInfo, s *IntList) ([]int64, bool) {
	l := lf.l
	switch {
	case l.Kind == "cpu":
		c.errorf(s.Pos, "split on an access of cpu node %s; only op nodes run on cores", quoteText(l.Name.Value))
		return nil, false
	case l.Cores == nil:
		c.errorf(s.Pos, "split on an access of op %s, which has no cores", quoteText(l.Name.Value))
		return nil, false
	case len(s.Ints) != len(l.Cores.Ints):
		c.errorf(s.Pos, "split has %s but the op's cores list has %s",
			plural(len(s.Ints), "entry", "entries"), plural(len(l.Cores.Ints), "entry", "entries"))
		return nil, false
	}
	split := make([]int64, len(s.Ints))
	ok := true
	for k, t := range s.Ints {
		var good bool
		split[k], good = c.integer(t)
		ok = ok && good
	}
	return split, ok
}

// bounds checks that the farthest start of an access with a step or a
// split, its largest core offset plus the sum over its enclosing loops of
// stride * (count - 1), is 0 or inside the accessed name's own size.
func (c *oldChecker) bounds(bb *oldBundle, lf oldLeafInfo, a *Access, acc *ir.Access) {
	far, fits := int64(0), true
	for d, s := range acc.Split {
		term, ok := mul(lf.cores[d]-1, s)
		if fits = ok; fits {
			far, fits = add(far, term)
		}
		if !fits {
			break
		}
	}
	for k, st := range acc.Strides {
		if !fits {
			break
		}
		count := bb.b.Loops[bb.loops[k]].Count
		if count < 1 { // count 0 or too large: reported
			return
		}
		term, ok := mul(st, count-1)
		if fits = ok; fits {
			far, fits = add(far, term)
		}
	}
	buf := &c.g.Buffers[acc.Buffer]
	switch {
	case !fits:
		c.errorf(a.Name.Pos, "the farthest start of the access to %s overflows int64", quoteText(a.Name.Value))
	case far != 0 && far >= buf.Size:
		c.errorf(a.Name.Pos, "access to %s reaches byte offset %d but %s is %d bytes",
			quoteText(a.Name.Value), far, quoteText(buf.Name), buf.Size)
	}
}

// strides checks a step clause inside depth loops; ok is false when it
// has an error.
func (c *oldChecker) strides(bb *oldBundle, s *IntList, depth int) (strides []int64, ok bool) {
	if depth == 0 {
		c.errorf(s.Pos, "step outside any loop")
		return nil, false
	}
	ints := s.Ints
	if s.List {
		if len(ints) != depth {
			c.errorf(s.Pos, "step list has %s but the op is inside %s", plural(len(ints), "entry", "entries"), plural(depth, "loop", "loops"))
			return nil, false
		}
	}
	if bb != nil && cap(bb.strides)-len(bb.strides) >= depth {
		n := len(bb.strides)
		bb.strides = bb.strides[:n+depth]
		strides = bb.strides[n : n+depth : n+depth]
	} else {
		strides = make([]int64, depth)
	}
	if !s.List {
		strides[depth-1], ok = c.integer(ints[0])
		return strides, ok
	}
	ok = true
	for k, t := range ints {
		var good bool
		strides[k], good = c.integer(t)
		ok = ok && good
	}
	return strides, ok
}
