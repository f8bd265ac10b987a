package verify

import (
	"bytes"
	"io"
	"math"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// planJSON is the document of bundle-ir.md §5 without its two long arrays
// (bundles and buffers), which JSON checks element by element as they
// stream by, and without pool_sizes, which poolSizes takes in as it
// streams by. A field is !ok when it is null or missing.
type planJSON struct {
	Graph, Allocator jstr
	Budget           jint
	// Version is format_version: !ok in a version 1 document.
	Version jint
	// Footprint is the footprint object, nil when absent (version 1).
	Footprint *footprintJSON
}

// footprintJSON is the document's footprint object.
type footprintJSON struct {
	Peak, PeakPosition, NoPooling, Resident jint
	PeakNode                                jstr
	PeakNodeName                            string
	// ByAllocator is peak_bytes_by_allocator in document order, nil
	// when absent.
	ByAllocator []namedInt
	// TimelineLen counts the timeline's elements; Bad holds those that
	// are not the derived ones (v2Hooks.node).
	TimelineLen int
	Bad         []badNode
	TimelineOK  bool
}

// badNode is element t of the footprint's timeline, which is not the
// derived one.
type badNode struct {
	t int
	e timelineJSON
}

type namedInt struct {
	name string
	v    jint
}

// timelineJSON is one element of the footprint's timeline.
type timelineJSON struct {
	Node, Kind            string
	NodeOK, KindOK        bool
	Standalone, PoolBytes jint
}

// argJSON is one element of a bundle's kernel_args.
type argJSON struct {
	Arg   jint
	Group jstr
	Names [][]byte
	// NamesOK: names is there and not null.
	NamesOK bool
}

// opJSON is one element of a bundle's ops.
type opJSON struct {
	Name, Pos, SDSCFile jstr
	Step                jint
}

// bundleJSON is one element of the document's bundles array.
type bundleJSON struct {
	Name                        jstr
	Steps, PoolSize, LowerBound jint
	// Own is compare[the plan's allocator], present with --compare.
	Own jint
	// Pos is the bundle's source position (version 2). Args and Ops
	// count the kernel_args and ops elements, -1 when the key is
	// absent; ArgsBad and OpsBad the elements the hooks rejected.
	Pos       jstr
	Args, Ops int
}

// bufferJSON is one element of the document's buffers array.
type bufferJSON struct {
	Name, Bundle, Reason jstr
	Size, Offset         jint
	Start, End           jint
	// ViewOffset is the name's own view offset (0 for a group's root).
	ViewOffset jint
	// Group and Pos are version 2's root name and source position.
	Group, Pos jstr
}

// decodePlan reads the document of bundle-ir.md §5 (keys in any order, exactly
// the spec's keys), handing each pool_sizes member to ps, and each
// bundles element and each buffers element, with its index, to bundle
// and buffer as it is read. A repeated array key starts its indices
// afresh (the last value of a key is the one that counts). It returns
// the rest of the document and the two arrays' lengths.
//
// expect, when not nil, is a fast path for the buffers: it returns the
// length of the text that element i is expected to be when data begins
// with that text, else 0; data holds at least the next expectMin(i)
// bytes of the document where it has them. When the element is exactly
// that text, it is taken as read and buffer gets a nil element: the
// caller's expected text is valid JSON whose reading would pass the
// caller's checks. The hooks' matchArg and matchOp are the same fast
// path for the elements of kernel_args and ops (see reader.expected).
func decodePlan(r *reader, allocator string, ps *poolSizes, bundle func(i int, b *bundleJSON), expectMin func(i, _ int) int, expect func(i, _ int, data []byte) int, buffer func(i int, b *bufferJSON), hooks *v2Hooks) (doc planJSON, nBundles, nBuffers int) {
	r.object(func(key []byte) {
		switch string(key) {
		case "format_version":
			doc.Version = r.optInt()
		case "footprint":
			doc.Footprint = decodeFootprint(r, hooks.node)
		case "graph":
			doc.Graph = r.optStr()
			doc.Graph.b = bytes.Clone(doc.Graph.b)
		case "allocator":
			doc.Allocator = r.optStr()
			doc.Allocator.b = bytes.Clone(doc.Allocator.b)
		case "budget":
			doc.Budget = r.optInt()
		case "pool_sizes":
			ps.reset()
			ps.ok = r.object(func(name []byte) {
				r.key = append(r.key[:0], name...) // the value's read may move name
				if v := r.optInt(); r.err == nil {
					ps.add(r.key, v)
				}
			})
		case "bundles":
			nBundles = 0
			hooks.start()
			r.array(func(i int) {
				b := decodeBundle(r, i, allocator, hooks)
				if r.err == nil {
					bundle(i, &b)
					nBundles = i + 1
				}
			})
		case "buffers":
			nBuffers = 0
			r.array(func(i int) {
				if r.expected(expectMin, expect, i, 0) {
					buffer(i, nil)
					nBuffers = i + 1
					return
				}
				b := decodeBuffer(r)
				if r.err == nil {
					buffer(i, &b)
					nBuffers = i + 1
				}
			})
		default:
			r.unknown(key)
		}
	})
	return doc, nBundles, nBuffers
}

// decodeBundle reads element i of the bundles array, handing its
// kernel_args and ops elements to hooks as they are read (or taking
// them by the hooks' fast paths).
func decodeBundle(r *reader, i int, allocator string, hooks *v2Hooks) bundleJSON {
	b := bundleJSON{Args: -1, Ops: -1}
	r.strs = r.strs[:0] // the strings of the last element are done with
	r.object(func(key []byte) {
		switch string(key) {
		case "name":
			b.Name = r.optStr()
		case "steps":
			b.Steps = r.optInt()
		case "pool_size":
			b.PoolSize = r.optInt()
		case "lower_bound":
			b.LowerBound = r.optInt()
		case "pos":
			b.Pos = r.optStr()
		case "kernel_args":
			b.Args = 0
			mark := len(r.strs) // the bundle's own strings stay
			r.array(func(k int) {
				if !r.expected(hooks.argMin, hooks.matchArg, i, k) {
					r.strs = r.strs[:mark]
					a := decodeArg(r)
					if r.err != nil {
						return
					}
					hooks.arg(i, k, &a)
				}
				b.Args = k + 1
			})
		case "ops":
			b.Ops = 0
			mark := len(r.strs)
			r.array(func(k int) {
				if !r.expected(hooks.opMin, hooks.matchOp, i, k) {
					r.strs = r.strs[:mark]
					o := decodeOp(r)
					if r.err != nil {
						return
					}
					hooks.op(i, k, &o)
				}
				b.Ops = k + 1
			})
		case "compare":
			b.Own = jint{}
			r.object(func(name []byte) {
				own := string(name) == allocator
				v := r.optInt()
				if own {
					b.Own = jint{v: v.v, ok: true}
				}
			})
		default:
			r.unknown(key)
		}
	})
	return b
}

// decodeArg reads an element of a bundle's kernel_args.
func decodeArg(r *reader) argJSON {
	var a argJSON
	r.object(func(key []byte) {
		switch string(key) {
		case "arg":
			a.Arg = r.optInt()
		case "group":
			a.Group = r.optStr()
		case "names":
			a.Names = a.Names[:0]
			a.NamesOK = r.array(func(int) { a.Names = append(a.Names, r.str()) })
		default:
			r.unknown(key)
		}
	})
	return a
}

// decodeOp reads an element of a bundle's ops.
func decodeOp(r *reader) opJSON {
	var o opJSON
	r.object(func(key []byte) {
		switch string(key) {
		case "name":
			o.Name = r.optStr()
		case "step":
			o.Step = r.optInt()
		case "pos":
			o.Pos = r.optStr()
		case "sdsc_file":
			o.SDSCFile = r.optStr()
		default:
			r.unknown(key)
		}
	})
	return o
}

// decodeBuffer reads an element of the buffers array.
func decodeBuffer(r *reader) bufferJSON {
	var b bufferJSON
	r.strs = r.strs[:0]
	r.object(func(key []byte) {
		switch string(key) {
		case "name":
			b.Name = r.optStr()
		case "size":
			b.Size = r.optInt()
		case "bundle":
			b.Bundle = r.optStr()
		case "start":
			b.Start = r.optInt()
		case "end":
			b.End = r.optInt()
		case "offset":
			b.Offset = r.optInt()
		case "view_offset":
			b.ViewOffset = r.optInt()
		case "reason":
			b.Reason = r.optStr()
		case "group":
			b.Group = r.optStr()
		case "pos":
			b.Pos = r.optStr()
		default:
			r.unknown(key)
		}
	})
	return b
}

// poolSizes takes in the members of pool_sizes as they stream by. The
// members are usually the bundles with a pool, in order, each once: while
// they are, only their values are kept (vals[k] for the k-th bundle with
// a pool); the members after the first that is not are kept whole, in
// document order (rest).
type poolSizes struct {
	g    *ir.Graph
	p    *planner.Result
	ok   bool // the key is there and not null
	vals []jint
	next int // the bundle after the last in-order member
	rest []poolSize
}

type poolSize struct {
	name string
	size jint
}

func (ps *poolSizes) reset() {
	ps.ok, ps.vals, ps.next, ps.rest = false, ps.vals[:0], 0, ps.rest[:0]
}

func (ps *poolSizes) add(name []byte, v jint) {
	if len(ps.rest) == 0 {
		bs := ps.p.Bundles
		for ps.next < len(bs) && !bs[ps.next].HasPool() {
			ps.next++
		}
		if ps.next < len(bs) && string(name) == ps.g.Bundles[ps.next].Name {
			ps.vals = append(ps.vals, v)
			ps.next++
			return
		}
	}
	ps.rest = append(ps.rest, poolSize{string(name), v})
}

// JSON checks the plan JSON data (as planner.WriteJSON writes it) against
// the plan p of graph g: it must be strict JSON with exactly the keys of
// bundle-ir.md §5, the pool-size table must hold exactly the bundles with
// candidates, every bundle must state its name, steps, pool size and
// lower bound, and every buffer, in declaration order, must carry its
// group's decision, so alias members share one bundle, range and offset,
// and its own view offset, re-derived from its alias chain.
// Call Plan first: JSON trusts p's decisions and checks only that the
// document states them.
func JSON(g *ir.Graph, p *planner.Result, data []byte) error {
	return checkJSON(g, p, &reader{data: data, tok: -1}, nil, false)
}

// JSONReader is JSON on the document read from src, which it reads to
// the end unless the check fails first. It keeps only a window of the
// document in memory, not the document.
func JSONReader(g *ir.Graph, p *planner.Result, src io.Reader) error {
	return checkJSON(g, p, newStreamReader(src), nil, false)
}

// checkJSON is JSON reading from r, with the views views (nil: derive
// them). slow turns the fast paths (buffers, kernel arguments, ops) off:
// the tests that hold the two paths equal set it.
func checkJSON(g *ir.Graph, p *planner.Result, r *reader, views *viewInfo, slow bool) error {
	c := &checker{g: g, p: p}
	matches := len(p.Groups) == len(g.Groups) && len(p.Bundles) == len(g.Bundles)
	// Bundles and buffers are checked as they stream by, into kc and bc;
	// their violations are reported after the document-level ones, as
	// long as the counts are right (as if the whole arrays had been read
	// first).
	kc := &checker{g: g, p: p}
	bc := &checker{g: g, p: p}
	if matches {
		if views == nil {
			views = deriveViews(g)
		}
		bc.views = views
	}
	ps := &poolSizes{g: g, p: p}
	v2 := &v2State{c: kc}
	// withV2 and withoutV2 count the buffers with and without the
	// version 2 keys.
	withV2, withoutV2 := 0, 0
	var expectMin func(i, _ int) int
	var expect func(i, _ int, data []byte) int
	if matches && !slow {
		expectMin = func(i, _ int) int { return bc.bufferMin(i) }
		expect = func(i, _ int, data []byte) int { return bc.matchBuffer(i, data) }
	}
	doc, nBundles, nBuffers := decodePlan(r, p.Allocator, ps, func(i int, jb *bundleJSON) {
		if matches && i < len(g.Bundles) {
			kc.checkBundleJSON(i, jb)
			v2.bundle(i, jb)
		}
	}, expectMin, expect, func(i int, jb *bufferJSON) {
		if i == 0 {
			bc.err = Error{} // a repeated "buffers" key: the last one counts
			withV2, withoutV2 = 0, 0
		}
		switch {
		case jb == nil:
			withV2++ // the fast path's text has the version 2 keys
		case matches && i < g.Buffers.Len():
			bc.checkBuffer(i, jb)
			if bc.checkBufferV2(i, jb) {
				withV2++
			} else {
				withoutV2++
			}
		}
	}, v2.hooks(func() {
		kc.err = Error{} // a repeated "bundles" key: the last one counts
		v2.with, v2.without = 0, 0
	}, matches && !slow))
	if r.err == nil && !r.atEnd() {
		r.fail("data after the document")
	}
	if r.rerr != nil {
		c.fail("plan JSON: reading it: %v", r.rerr)
		return c.result()
	}
	if r.err != nil {
		c.fail("plan JSON: %v", r.err)
		return c.result()
	}
	if !matches {
		c.fail("the plan does not match the graph")
		return c.result()
	}
	if !doc.Graph.is(g.Name) {
		c.fail("plan JSON: graph %s, want %q", doc.Graph, g.Name)
	}
	if !doc.Allocator.is(p.Allocator) {
		c.fail("plan JSON: allocator %s, want %q", doc.Allocator, p.Allocator)
	}
	if !doc.Budget.is(p.Budget) {
		c.fail("plan JSON: budget %s, want %d", doc.Budget, p.Budget)
	}
	c.checkPoolSizes(ps)
	switch {
	case !doc.Version.ok:
		// Version 1: none of version 2's keys.
		if doc.Footprint != nil || v2.with > 0 || withV2 > 0 {
			c.fail("plan JSON: version 2 keys (footprint, pos, kernel_args, ops, group) without format_version")
		}
	case doc.Version.v == 2:
		if v2.without > 0 || withoutV2 > 0 {
			c.fail("plan JSON: format_version 2, but %d bundles and %d buffers lack its keys", v2.without, withoutV2)
		}
		if doc.Footprint == nil {
			c.fail("plan JSON: format_version 2 without a footprint")
		} else {
			c.checkFootprint(doc.Footprint, v2.footprint())
		}
	default:
		c.fail("plan JSON: format_version %s, want 2 (or none, version 1)", doc.Version)
	}

	if nBundles != len(g.Bundles) {
		c.fail("plan JSON: %d bundles, the graph has %d", nBundles, len(g.Bundles))
	} else {
		c.merge(kc)
	}
	if nBuffers != g.Buffers.Len() {
		c.fail("plan JSON: %d buffers, the graph declares %d", nBuffers, g.Buffers.Len())
		return c.result()
	}
	c.merge(bc)
	return c.result()
}

// checkPoolSizes: pool_sizes maps exactly the bundles with candidates to
// their pool sizes. When its members were those bundles, in order, each
// once, their values are checked in order; anything else goes through a
// map (last key wins).
func (c *checker) checkPoolSizes(ps *poolSizes) {
	g, p := c.g, c.p
	if !ps.ok {
		c.fail("plan JSON: pool_sizes missing or null")
	}
	pooled := 0
	for bi := range p.Bundles {
		if p.Bundles[bi].HasPool() {
			pooled++
		}
	}
	if len(ps.rest) == 0 && len(ps.vals) == pooled {
		k := 0
		for bi := range g.Bundles {
			if pb := &p.Bundles[bi]; pb.HasPool() {
				if v := ps.vals[k]; !v.is(pb.PoolSize) {
					c.fail("plan JSON: pool_sizes[%q] = %s, want %d", g.Bundles[bi].Name, v, pb.PoolSize)
				}
				k++
			}
		}
		return
	}
	// The members in document order: the in-order ones (the first
	// len(vals) bundles with a pool), then the rest.
	sizes := make(map[string]jint, len(ps.vals)+len(ps.rest))
	k := 0
	for bi := range g.Bundles {
		if k < len(ps.vals) && p.Bundles[bi].HasPool() {
			sizes[g.Bundles[bi].Name] = ps.vals[k]
			k++
		}
	}
	for _, e := range ps.rest {
		sizes[e.name] = e.size
	}
	entries := 0
	for bi := range g.Bundles {
		b := &g.Bundles[bi]
		pb := &p.Bundles[bi]
		v, ok := sizes[b.Name]
		if pb.HasPool() {
			entries++
			if !ok || !v.is(pb.PoolSize) {
				c.fail("plan JSON: pool_sizes[%q] = %s, want %d", b.Name, v, pb.PoolSize)
			}
		} else if ok {
			c.fail("plan JSON: pool_sizes has %q, which has no candidate", b.Name)
		}
	}
	if len(sizes) != entries {
		c.fail("plan JSON: pool_sizes has %d entries, %d bundles have candidates", len(sizes), entries)
	}
}

// checkBundleJSON checks element bi of the bundles array.
func (c *checker) checkBundleJSON(bi int, jb *bundleJSON) {
	b, pb := c.g.Bundles[bi], c.p.Bundles[bi]
	if !jb.Name.is(b.Name) {
		c.fail("plan JSON: bundle %d is %s, want %q", bi, jb.Name, b.Name)
	}
	if !jb.Steps.is(int64(len(b.Ops))) {
		c.fail("plan JSON: bundle %q: steps wrong, want %d", b.Name, len(b.Ops))
	}
	if pb.HasPool() != jb.PoolSize.ok || (jb.PoolSize.ok && jb.PoolSize.v != pb.PoolSize) {
		c.fail("plan JSON: bundle %q: pool_size %s, want %d (entry %v)", b.Name, jb.PoolSize, pb.PoolSize, pb.HasPool())
	}
	if !jb.LowerBound.is(pb.LowerBound) {
		c.fail("plan JSON: bundle %q: lower_bound %s, want %d", b.Name, jb.LowerBound, pb.LowerBound)
	}
	if jb.Own.ok && pb.HasPool() && jb.Own.v != pb.PoolSize {
		c.fail("plan JSON: bundle %q: compare[%s] = %d, but the plan's pool_size is %d", b.Name, c.p.Allocator, jb.Own.v, pb.PoolSize)
	}
}

// bufferMin bounds the length of appendBuffer's text for element i.
func (c *checker) bufferMin(i int) int {
	if i >= c.g.Buffers.Len() {
		return 0
	}
	buf := c.g.Buffers.At(i)
	n := 300 + 7*20 + len(c.g.Str(buf.Name)) + len(c.g.File) // the keys and reason, the integers, the file
	n += len(c.g.Str(c.g.Buffers.At(int(c.g.Root(&c.g.Groups[buf.Group]))).Name))
	if pg := &c.p.Groups[buf.Group]; pg.Bundle >= 0 && int(pg.Bundle) < len(c.g.Bundles) {
		n += len(c.g.Bundles[pg.Bundle].Name)
	}
	return n
}

// matchBuffer returns len(t) when data begins with t, the text
// appendBuffer(nil, i) renders (not nil), else 0. It compares as it goes,
// without rendering t.
func (c *checker) matchBuffer(i int, data []byte) int {
	if i >= c.g.Buffers.Len() {
		return 0
	}
	g, p := c.g, c.p
	buf := g.Buffers.At(i)
	pg := &p.Groups[buf.Group]
	m := matcher{data: data, ok: true}
	m.lit(`{"name": `)
	m.str(g.Str(buf.Name))
	m.lit(`, "size": `)
	m.int(buf.Size)
	m.lit(`, "bundle": `)
	if pg.Bundle >= 0 {
		m.str(g.Bundles[pg.Bundle].Name)
		m.lit(`, "start": `)
		m.int(int64(pg.Start))
		m.lit(`, "end": `)
		m.int(int64(pg.End))
	} else {
		m.lit(`null, "start": null, "end": null`)
	}
	m.lit(`, "offset": `)
	if pg.Offset >= 0 {
		m.int(pg.Offset)
	} else {
		m.lit(`null`)
	}
	m.lit(`, "view_offset": `)
	want := claimedView(g, buf).ViewOffset
	if c.views != nil {
		if r, view := c.views.of(int32(i)); r >= 0 {
			want = view
		}
	}
	m.int(want)
	m.lit(`, "reason": `)
	if pg.Reason == planner.Pooled {
		m.lit(`null`)
	} else {
		m.str(pg.Reason.String())
	}
	m.lit(`, "group": `)
	m.str(g.Str(g.Buffers.At(int(g.Root(&g.Groups[buf.Group]))).Name))
	m.lit(`, "pos": "`)
	m.lit(c.plainFile())
	m.lit(`:`)
	m.int(int64(buf.Pos.Line))
	m.lit(`:`)
	m.int(int64(buf.Pos.Col))
	m.lit(`"}`)
	if !m.ok {
		return 0
	}
	return m.i
}

// plainFile is the graph's file name when it needs no escape in a JSON
// string, else a text that matches no document (a quote).
func (c *checker) plainFile() string {
	f := c.g.File
	for k := 0; k < len(f); k++ {
		if !plain[f[k]] {
			return `"`
		}
	}
	return f
}

// matcher compares data, from i on, with a text given piece by piece;
// ok turns false at the first difference (and stays false).
type matcher struct {
	data []byte
	i    int
	ok   bool
}

// lit matches s as it is.
func (m *matcher) lit(s string) {
	if m.ok && len(m.data)-m.i >= len(s) && string(m.data[m.i:m.i+len(s)]) == s {
		m.i += len(s)
		return
	}
	m.ok = false
}

// str matches s quoted, as a JSON string without escapes (a string
// that would need one matches nothing).
func (m *matcher) str(s string) {
	if !m.ok || len(m.data)-m.i < len(s)+2 || m.data[m.i] != '"' || string(m.data[m.i+1:m.i+1+len(s)]) != s || m.data[m.i+1+len(s)] != '"' {
		m.ok = false
		return
	}
	for k := 0; k < len(s); k++ {
		if !plain[s[k]] {
			m.ok = false
			return
		}
	}
	m.i += len(s) + 2
}

// int matches v in decimal, as strconv.AppendInt writes it (no leading
// zero, no plus sign).
func (m *matcher) int(v int64) {
	if !m.ok {
		return
	}
	d, i := m.data, m.i
	if v < 0 {
		if v == math.MinInt64 || i >= len(d) || d[i] != '-' {
			m.ok = false
			return
		}
		v, i = -v, i+1
	}
	u := uint64(v)
	if i < len(d) && d[i] == '0' {
		m.ok, m.i = u == 0, i+1
		return
	}
	var acc uint64
	start, lim := i, u/10
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		if acc > lim {
			m.ok = false
			return
		}
		acc = acc*10 + uint64(d[i]-'0')
		i++
	}
	m.ok, m.i = i > start && acc == u, i
}

// checkBuffer checks element i of the buffers array: it must carry its
// group's decision.
func (c *checker) checkBuffer(i int, jb *bufferJSON) {
	g, p := c.g, c.p
	buf := g.Buffers.At(i)
	pg := p.Groups[buf.Group]
	if !jb.Name.is(g.Str(buf.Name)) {
		c.fail("plan JSON: buffer %d is %s, declaration order gives %q", i, jb.Name, g.Str(buf.Name))
		return
	}
	if !jb.Size.is(buf.Size) {
		c.fail("plan JSON: buffer %q: size %s, want %d", g.Str(buf.Name), jb.Size, buf.Size)
	}
	if pg.Bundle >= 0 {
		bn := g.Bundles[pg.Bundle].Name
		if !jb.Bundle.is(bn) || !jb.Start.is(int64(pg.Start)) || !jb.End.is(int64(pg.End)) {
			c.fail("plan JSON: buffer %q: bundle/start/end differ from its group's (%q, %d, %d)", g.Str(buf.Name), bn, pg.Start, pg.End)
		}
	} else if jb.Bundle.ok || jb.Start.ok || jb.End.ok {
		c.fail("plan JSON: buffer %q: bundle/start/end set for a non-candidate", g.Str(buf.Name))
	}
	if pg.Offset >= 0 {
		if !jb.Offset.is(pg.Offset) {
			c.fail("plan JSON: buffer %q: offset %s, its group's is %d", g.Str(buf.Name), jb.Offset, pg.Offset)
		}
	} else if jb.Offset.ok {
		c.fail("plan JSON: buffer %q: offset %d for an unpooled group", g.Str(buf.Name), jb.Offset.v)
	}
	want := claimedView(c.g, buf).ViewOffset // where the chain is broken, Plan reports it
	if c.views != nil {
		if r, view := c.views.of(int32(i)); r >= 0 {
			want = view
		}
	}
	if !jb.ViewOffset.is(want) {
		c.fail("plan JSON: buffer %q: view_offset %s, its alias chain gives %d", g.Str(buf.Name), jb.ViewOffset, want)
	}
	if pg.Reason == planner.Pooled {
		if jb.Reason.ok {
			c.fail("plan JSON: buffer %q: reason %s for a pooled group", g.Str(buf.Name), jb.Reason)
		}
	} else if !jb.Reason.is(pg.Reason.String()) {
		c.fail("plan JSON: buffer %q: reason %s, want %q", g.Str(buf.Name), jb.Reason, pg.Reason)
	}
}
