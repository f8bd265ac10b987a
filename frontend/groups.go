package frontend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sdscgen/sdscgen/internal/fresh"
	"github.com/sdscgen/sdscgen/ir"
)

// resolveRenames follows every rename chain once, so that resolving a
// reference is a single step; Graph.Renames records the result.
func (b *builder) resolveRenames() {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int8, len(b.renames))
	b.renameTo = make([]int, len(b.renames))
	var path []int
	for i := range b.renames {
		if state[i] != unvisited {
			continue
		}
		path = path[:0]
		j, target := i, -1
		for {
			if state[j] == done {
				target = b.renameTo[j]
				break
			}
			if state[j] == onPath {
				b.cycle(path, j)
				break
			}
			state[j] = onPath
			path = append(path, j)
			r := &b.renames[j]
			to := b.names.entry(r.to)
			if to.ren >= 0 {
				j = int(to.ren)
				continue
			}
			if to.buf >= 0 {
				target = int(to.buf)
			} else if !isKeyword(b.names.name(r.to)) { // a keyword is reported at it (see keyword)
				b.errorf(r.toPos, "rename target %s is not a declared buffer", quoteText(b.names.name(r.to)))
				b.errs[len(b.errs)-1].undeclared = r.to + 1 // for its did-you-mean
			}
			break
		}
		for _, k := range path {
			state[k] = done
			b.renameTo[k] = target
		}
	}
	if len(b.renames) > 0 {
		b.g.Renames = make([]ir.Rename, len(b.renames))
		for i, r := range b.renames {
			b.g.Renames[i] = ir.Rename{From: b.names.name(r.from), Pos: r.fromPos, To: b.renameTo[i]}
		}
	}
}

// cycle reports the rename cycle that path closes at rename j, once, at
// the cycle's first rename in source order.
func (b *builder) cycle(path []int, j int) {
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
	name := func(k int) string { return b.names.name(b.renames[loop[(first+k)%len(loop)]].from) }
	b.errorf(b.renames[loop[first]].fromPos, "rename cycle: %s", cycleText(len(loop), name))
}

// maxListed is the most names a cycle's message lists, and
// maxListedName the most bytes of a name it shows: a cycle of a million
// names, or of one name of a megabyte, would be a message as long as
// the input.
const (
	maxListed     = 10
	maxListedName = 64
)

// cycleText writes the cycle of the n names name(0), ..., name(n-1) as
// "a -> b -> c -> a", with at most maxListed names (then "... and N
// more") and each name shortened to maxListedName bytes.
func cycleText(n int, name func(k int) string) string {
	short := func(s string) string {
		if len(s) > maxListedName {
			return s[:maxListedName] + "..."
		}
		return s
	}
	var sb strings.Builder
	for k := range min(n, maxListed) {
		sb.WriteString(short(name(k)))
		sb.WriteString(" -> ")
	}
	if n > maxListed {
		fmt.Fprintf(&sb, "... and %d more -> ", n-maxListed)
	}
	sb.WriteString(short(name(0)))
	return sb.String()
}

// buildGroups records the aliases (directed views), finds every name's
// group root and view offset, and applies the input/output/lx claims
// (claims holds each claim's resolved buffer, or -1).
func (b *builder) buildGroups(claims []int) {
	g := b.g
	bufs := &g.Buffers
	n := bufs.Len()
	// lineOf[v] is the alias line whose left side is v; allocated with
	// the first alias.
	var lineOf []*aliasRec
	for _, a := range b.aliases.All() {
		v, t := a.v, a.t
		if v < 0 || t < 0 {
			continue
		}
		if lineOf == nil {
			lineOf = make([]*aliasRec, n)
		}
		if first := lineOf[v]; first != nil {
			b.errorf(a.viewPos, "%s is already a view of %s (alias at %s)",
				quoteText(a.viewName), quoteText(g.Str(bufs.At(int(g.ViewOf(bufs.At(v)).Alias)).Name)), at(first.viewPos))
			continue
		}
		lineOf[v] = a
		view := g.EditView(bufs.At(v))
		view.Alias, view.AliasOffset = int32(t), a.offset
	}
	// flags[i] holds the kinds of buffer i's claims.
	flags := make([]ir.ClaimSet, n)
	if b.claims.Len() > 0 {
		g.Claims = make([]ir.Claim, 0, b.claims.Len())
	}
	for i, c := range b.claims.All() {
		if bi := claims[i]; bi >= 0 {
			flags[bi] = flags[bi].With(c.kind)
			g.Claims = append(g.Claims, ir.Claim{Kind: c.kind, Buffer: bi, Pos: c.pos})
		}
	}
	rootOf := b.viewOffsets(lineOf)
	lineOf = nil
	// Number the groups in order of their first member; nameOf[k] is
	// the member of group k with the smallest name, which orders the
	// groups. The groups are then built in place, in that order, each
	// with its span of one shared member array: a graph may have a
	// million single-buffer groups, and holding them twice (numbered and
	// sorted) would double their peak.
	groupOf := fresh.Make[int32](n) // root -> group number + 1
	ngroups := 0
	for i := range rootOf {
		if rootOf[i] == int32(i) {
			ngroups++
		}
	}
	nameOf, count := make([]int32, 0, ngroups), make([]int32, 0, ngroups)
	for i, bf := range bufs.All() {
		r := rootOf[i]
		k := groupOf[r] - 1
		if k < 0 {
			nameOf = append(nameOf, int32(i))
			count = append(count, 0)
			k = int32(len(nameOf) - 1)
			groupOf[r] = k + 1
		}
		count[k]++
		if g.Str(bf.Name) < g.Str(bufs.At(int(nameOf[k])).Name) {
			nameOf[k] = int32(i)
		}
	}
	rank := groupOrder(g, nameOf) // group number -> index in Groups
	nameOf = nil
	g.Groups = make([]ir.Group, len(rank))
	g.GroupClaims = make([]ir.ClaimSet, len(rank))
	// Each group's Members starts empty at its place in the one member
	// array and grows as its members are met, in declaration order: the
	// root takes the first place and the others the places after it, in
	// that order (a view declared before its root leaves the first place
	// free for it).
	g.MemberLists = make([]int32, n)
	off := int32(0)
	for k, r := range rank {
		g.Groups[r].Members = ir.Span{Off: off}
		off += count[k]
	}
	count = nil
	b.measure()
	for i, bf := range bufs.All() {
		r := rootOf[i]
		k := rank[groupOf[r]-1]
		gr := &g.Groups[k]
		at := gr.Members.Off + gr.Members.Len
		switch {
		case r == int32(i):
			at = gr.Members.Off
		case r > int32(i):
			at++
		}
		g.MemberLists[at] = int32(i)
		gr.Members.Len++
		// Overflow was reported by viewOffsets (and then there is no
		// graph to build).
		end, _ := add(g.ViewOf(bf).ViewOffset, bf.Size)
		gr.Size = max(gr.Size, end)
		g.GroupClaims[k] |= flags[i]
		bf.Group = k
	}
}

// groupOrder returns the rank of every group when the groups are sorted
// by name, nameOf[k] being the buffer of g that names group k.
func groupOrder(g *ir.Graph, nameOf []int32) []int32 {
	bufs := &g.Buffers
	keys := make([]prefixKey, len(nameOf))
	for k, i := range nameOf {
		keys[k] = prefixKey{prefix8(g.Str(bufs.At(int(i)).Name)), int32(k)}
	}
	keys = sortByPrefix(keys, func(a, b prefixKey) int {
		return strings.Compare(g.Str(bufs.At(int(nameOf[a.k])).Name), g.Str(bufs.At(int(nameOf[b.k])).Name))
	})
	rank := make([]int32, len(keys))
	for r := range keys {
		rank[keys[r].k] = int32(r)
	}
	return rank
}

// prefixKey is a name's prefix8 and the index of what it names.
type prefixKey struct {
	prefix uint64
	k      int32
}

// sortByPrefix sorts keys by prefix, keeping the order of equal prefixes
// (an LSD radix sort, least significant byte first), then each run of
// equal prefixes stably by cmp. It may return keys' array or a new one.
func sortByPrefix(keys []prefixKey, cmp func(a, b prefixKey) int) []prefixKey {
	n := len(keys)
	if n == 0 {
		return keys
	}
	tmp := make([]prefixKey, n)
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, k := range keys {
			count[k.prefix>>shift&0xff]++
		}
		if count[keys[0].prefix>>shift&0xff] == n {
			continue // one digit: the pass would not move anything
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for _, k := range keys {
			d := k.prefix >> shift & 0xff
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j].prefix == keys[i].prefix {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(keys[i:j], cmp)
		}
		i = j
	}
	return keys
}

// prefix8 is the first 8 bytes of s as a big-endian integer, padded with
// zero bytes: prefix8(a) < prefix8(b) implies a < b, and unequal strings
// with equal prefixes need a full comparison.
func prefix8(s string) uint64 {
	var p uint64
	for i := 0; i < min(len(s), 8); i++ {
		p |= uint64(s[i]) << (56 - 8*i)
	}
	return p
}

// viewOffsets follows every name's alias chain to its root, once per
// name, setting the views' ViewOffset and returning each name's root. It
// reports alias cycles and offset sums that overflow int64; the names of
// a cycle take its first member in the walk as their root, and a name
// whose offset cannot be computed keeps ViewOffset 0 (there is no graph
// then anyway).
func (b *builder) viewOffsets(lineOf []*aliasRec) []int32 {
	g := b.g
	bufs := &g.Buffers
	n := bufs.Len()
	rootOf := make([]int32, n)
	if lineOf == nil {
		for i := range rootOf {
			rootOf[i] = int32(i)
		}
		return rootOf
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int8, n)
	broken := make([]bool, n) // no offset: in or behind a cycle or overflow
	var path []int
	for i := range n {
		if state[i] != unvisited {
			continue
		}
		path = path[:0]
		j := i
		for j >= 0 && state[j] == unvisited {
			state[j] = onPath
			path = append(path, j)
			j = int(g.ViewOf(bufs.At(j)).Alias)
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
			root, base, ok = int(rootOf[j]), g.ViewOf(bufs.At(j)).ViewOffset, !broken[j]
		default:
			k := slices.Index(path, j)
			b.aliasCycle(path[k:], lineOf)
			for _, m := range path[k:] {
				state[m], broken[m], rootOf[m] = done, true, int32(j)
			}
			end, root, ok = k, j, false
		}
		for k := end - 1; k >= 0; k-- {
			m := path[k]
			state[m], rootOf[m] = done, int32(root)
			bm := bufs.At(m)
			switch {
			case !ok:
				broken[m] = true
			case bm.View < 0:
				base = 0
			default:
				v := &g.Views[bm.View]
				a := lineOf[m]
				pos := a.viewPos
				if a.hasOffset {
					pos = a.offPos
				}
				name := quoteText(g.Str(bm.Name))
				sum, fits := add(base, v.AliasOffset)
				if !fits {
					b.errorf(pos, "view offset of %s overflows int64 (%d + %d)", name, base, v.AliasOffset)
				} else if _, fits = add(sum, bm.Size); !fits {
					b.errorf(pos, "end of view %s overflows int64 (view offset %d + size %d)", name, sum, bm.Size)
				}
				if !fits {
					broken[m], ok = true, false
					continue
				}
				v.ViewOffset, base = sum, sum
			}
		}
	}
	return rootOf
}

// aliasCycle reports the alias cycle of the names in loop (each the left
// side of an alias whose right side is the next, the last's the first),
// once, at the alias line of the cycle that comes first in the source.
func (b *builder) aliasCycle(loop []int, lineOf []*aliasRec) {
	first := 0
	for k, m := range loop {
		p, q := lineOf[m].pos, lineOf[loop[first]].pos
		if p.Line < q.Line || p.Line == q.Line && p.Col < q.Col {
			first = k
		}
	}
	name := func(k int) string { return b.g.Str(b.g.Buffers.At(loop[(first+k)%len(loop)]).Name) }
	b.errorf(lineOf[loop[first]].viewPos, "alias cycle: %s", cycleText(len(loop), name))
}
