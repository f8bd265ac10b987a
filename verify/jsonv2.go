package verify

import (
	"strconv"

	"github.com/sdscgen/sdscgen/ir"
)

// Version 2 of the plan JSON (docs/bundle-ir.md, "Plan JSON") adds
// format_version, each bundle's pos, kernel_args and ops, each buffer's
// group and pos, and the footprint. A document without format_version is
// version 1 and must have none of these; a version 2 document must have
// all of them.

// v2Hooks receives the elements of the bundles' nested arrays as they
// stream by: bundle bi's k-th kernel argument and op.
type v2Hooks struct {
	// start is called as a bundles array begins.
	start func()
	arg   func(bi, k int, a *argJSON)
	op    func(bi, k int, o *opJSON)
	// argMin/matchArg and opMin/matchOp, when not nil, are the fast
	// paths of kernel_args and ops elements (reader.expected).
	argMin, opMin     func(bi, k int) int
	matchArg, matchOp func(bi, k int, data []byte) int
	// node reports whether element t of the footprint's timeline is
	// the derived one: the timeline is checked as it is read (a node
	// per bundle: a million with fusion off), and only the elements
	// that differ are kept, for checkFootprint's messages.
	node func(t int, e *timelineJSON) bool
}

// decodeFootprint reads the footprint object (nil for null), its
// timeline's elements through node (see v2Hooks).
func decodeFootprint(r *reader, node func(t int, e *timelineJSON) bool) *footprintJSON {
	f := &footprintJSON{}
	ok := r.object(func(key []byte) {
		switch string(key) {
		case "peak_bytes":
			f.Peak = r.optInt()
		case "peak_node":
			f.PeakNode = r.optStr()
			f.PeakNodeName = string(f.PeakNode.b)
			f.PeakNode.b = []byte(f.PeakNodeName)
		case "peak_position":
			f.PeakPosition = r.optInt()
		case "no_pooling_peak_bytes":
			f.NoPooling = r.optInt()
		case "resident_pools_peak_bytes":
			f.Resident = r.optInt()
		case "peak_bytes_by_allocator":
			f.ByAllocator = []namedInt{}
			r.object(func(name []byte) {
				n := string(name) // before the value's read moves it
				f.ByAllocator = append(f.ByAllocator, namedInt{n, r.optInt()})
			})
		case "timeline":
			f.TimelineLen, f.Bad = 0, f.Bad[:0]
			f.TimelineOK = r.array(func(t int) {
				var e timelineJSON
				r.object(func(key []byte) {
					switch string(key) {
					case "node":
						s := r.optStr()
						e.Node, e.NodeOK = string(s.b), s.ok
					case "kind":
						s := r.optStr()
						e.Kind, e.KindOK = string(s.b), s.ok
					case "standalone_bytes":
						e.Standalone = r.optInt()
					case "pool_bytes":
						e.PoolBytes = r.optInt()
					default:
						r.unknown(key)
					}
				})
				f.TimelineLen++
				if !node(t, &e) {
					f.Bad = append(f.Bad, badNode{t, e})
				}
			})
		default:
			r.unknown(key)
		}
	})
	r.strs = r.strs[:0]
	if !ok {
		return nil
	}
	return f
}

// posText is pos as the plan JSON states it.
func posText(g *ir.Graph, pos ir.Pos) string {
	return g.File + ":" + strconv.Itoa(int(pos.Line)) + ":" + strconv.Itoa(int(pos.Col))
}

// posIs reports whether text is pos as the plan JSON states it, without
// building that text.
func posIs(g *ir.Graph, pos ir.Pos, text []byte) bool {
	f := g.File
	if len(text) < len(f) || string(text[:len(f)]) != f {
		return false
	}
	m := matcher{data: text, i: len(f), ok: true}
	m.lit(":")
	m.int(int64(pos.Line))
	m.lit(":")
	m.int(int64(pos.Col))
	return m.ok && m.i == len(text)
}

// v2State follows the version 2 parts of the bundles array.
type v2State struct {
	c *checker
	// bi and args are the bundle whose kernel arguments were derived
	// last, and them.
	bi   int
	args []kernelArg
	// with and without count the bundles that have all of pos,
	// kernel_args and ops, and those that have none of them.
	with, without int
	fp            *footprint // derived at its first use
}

// footprint returns the footprint the verifier derives (the plan
// matches the graph: len(c.p.Groups), len(c.p.Bundles) are the graph's).
func (s *v2State) footprint() *footprint {
	if s.fp == nil {
		s.fp = deriveFootprint(s.c.g, s.c.p)
	}
	return s.fp
}

func (s *v2State) argsOf(bi int) []kernelArg {
	if s.args == nil || s.bi != bi {
		s.bi, s.args = bi, deriveKernelArgs(s.c.g, s.c.p, bi)
		if s.args == nil {
			s.args = []kernelArg{}
		}
	}
	return s.args
}

func (s *v2State) hooks(start func(), fast bool) *v2Hooks {
	c := s.c
	h := &v2Hooks{
		start: start,
		arg: func(bi, k int, a *argJSON) {
			if bi >= len(c.g.Bundles) || len(c.p.Bundles) != len(c.g.Bundles) || len(c.p.Groups) != len(c.g.Groups) {
				return
			}
			name := c.g.Bundles[bi].Name
			args := s.argsOf(bi)
			if k >= len(args) {
				if k == len(args) {
					c.fail("plan JSON: bundle %q: more than its %d kernel arguments", name, len(args))
				}
				return
			}
			want := args[k]
			root := c.g.Str(c.g.Buffers.At(int(c.g.Root(&c.g.Groups[want.group]))).Name)
			if !a.Arg.is(int64(k)) || !a.Group.is(root) {
				c.fail("plan JSON: bundle %q: kernel argument %d is %s (group %s), want %d (group %q)", name, k, a.Arg, a.Group, k, root)
			}
			same := a.NamesOK && len(a.Names) == len(want.names)
			for j := 0; same && j < len(a.Names); j++ {
				same = string(a.Names[j]) == want.names[j]
			}
			if !same {
				c.fail("plan JSON: bundle %q: kernel argument %d: names differ from %q", name, k, want.names)
			}
		},
		op: func(bi, k int, o *opJSON) {
			if bi >= len(c.g.Bundles) {
				return
			}
			b := &c.g.Bundles[bi]
			if k >= len(b.Ops) {
				if k == len(b.Ops) {
					c.fail("plan JSON: bundle %q: more than its %d ops", b.Name, len(b.Ops))
				}
				return
			}
			op := &b.Ops[k]
			if !o.Name.is(c.g.Str(op.Name)) || !o.Step.is(int64(k)) || !o.Pos.ok || !posIs(c.g, op.Pos, o.Pos.b) {
				c.fail("plan JSON: bundle %q: op %d is %s, step %s at %s; want %q, step %d at %s", b.Name, k, o.Name, o.Step, o.Pos, c.g.Str(op.Name), k, posText(c.g, op.Pos))
			}
		},
	}
	if fast {
		h.argMin, h.matchArg = s.argMin, s.matchArg
		h.opMin, h.matchOp = s.opMin, s.matchOp
	}
	h.node = func(t int, e *timelineJSON) bool {
		if len(c.p.Bundles) != len(c.g.Bundles) || len(c.p.Groups) != len(c.g.Groups) {
			return true // the plan does not match the graph: checkJSON says so
		}
		return s.footprint().nodeIs(t, e)
	}
	return h
}

// The fast paths of kernel_args and ops: the text WriteJSON renders for
// element k of bundle bi, as the hooks above would accept it, compared
// as it goes (see matcher). They match nothing that arg and op would
// reject: an element that differs in any byte, even in spacing, takes
// the slow path, which reads and checks it.

// argMin bounds the length of kernel argument k's text.
func (s *v2State) argMin(bi, k int) int {
	if bi >= len(s.c.g.Bundles) {
		return 0
	}
	args := s.argsOf(bi)
	if k >= len(args) {
		return 0
	}
	n := 40 + 20 + len(s.c.g.Str(s.c.g.Buffers.At(int(s.c.g.Root(&s.c.g.Groups[args[k].group]))).Name))
	for _, name := range args[k].names {
		n += len(name) + 4
	}
	return n
}

// matchArg returns the length of kernel argument k's text when data
// begins with it, else 0.
func (s *v2State) matchArg(bi, k int, data []byte) int {
	if bi >= len(s.c.g.Bundles) {
		return 0
	}
	args := s.argsOf(bi)
	if k >= len(args) {
		return 0
	}
	g := s.c.g
	m := matcher{data: data, ok: true}
	m.lit(`{"arg": `)
	m.int(int64(k))
	m.lit(`, "group": `)
	m.str(g.Str(g.Buffers.At(int(g.Root(&g.Groups[args[k].group]))).Name))
	m.lit(`, "names": [`)
	for j, name := range args[k].names {
		if j > 0 {
			m.lit(`, `)
		}
		m.str(name)
	}
	m.lit(`]}`)
	if !m.ok {
		return 0
	}
	return m.i
}

// opMin bounds the length of op k's text.
func (s *v2State) opMin(bi, k int) int {
	g := s.c.g
	if bi >= len(g.Bundles) || k >= len(g.Bundles[bi].Ops) {
		return 0
	}
	return 40 + 3*20 + len(g.Str(g.Bundles[bi].Ops[k].Name)) + len(g.File)
}

// matchOp returns the length of op k's text when data begins with it,
// else 0.
func (s *v2State) matchOp(bi, k int, data []byte) int {
	c := s.c
	g := c.g
	if bi >= len(g.Bundles) || k >= len(g.Bundles[bi].Ops) {
		return 0
	}
	op := &g.Bundles[bi].Ops[k]
	m := matcher{data: data, ok: true}
	m.lit(`{"name": `)
	m.str(g.Str(op.Name))
	m.lit(`, "step": `)
	m.int(int64(k))
	m.lit(`, "pos": "`)
	m.lit(c.plainFile())
	m.lit(`:`)
	m.int(int64(op.Pos.Line))
	m.lit(`:`)
	m.int(int64(op.Pos.Col))
	m.lit(`"}`)
	if !m.ok {
		return 0
	}
	return m.i
}

// bundle checks the version 2 keys of bundle bi's element.
func (s *v2State) bundle(bi int, jb *bundleJSON) {
	c := s.c
	b := &c.g.Bundles[bi]
	switch {
	case !jb.Pos.ok && jb.Args < 0 && jb.Ops < 0:
		s.without++
		return
	case jb.Pos.ok && jb.Args >= 0 && jb.Ops >= 0:
		s.with++
	default:
		c.fail("plan JSON: bundle %q: pos, kernel_args and ops must be all there or all absent", b.Name)
		return
	}
	if !jb.Pos.is(posText(c.g, b.Pos)) {
		c.fail("plan JSON: bundle %q: pos %s, want %q", b.Name, jb.Pos, posText(c.g, b.Pos))
	}
	if n := len(s.argsOf(bi)); jb.Args != n {
		c.fail("plan JSON: bundle %q: %d kernel arguments, want %d", b.Name, jb.Args, n)
	}
	if jb.Ops != len(b.Ops) {
		c.fail("plan JSON: bundle %q: %d ops, want %d", b.Name, jb.Ops, len(b.Ops))
	}
}

// checkBufferV2 checks buffer i's version 2 keys; it reports whether it
// has them (both: true, neither: false; one of them is a violation).
func (c *checker) checkBufferV2(i int, jb *bufferJSON) bool {
	g := c.g
	buf := g.Buffers.At(int(i))
	if !jb.Group.ok && !jb.Pos.ok {
		return false
	}
	root := g.Str(g.Buffers.At(int(g.Root(&g.Groups[buf.Group]))).Name)
	if !jb.Group.is(root) {
		c.fail("plan JSON: buffer %q: group %s, its storage's root is %q", g.Str(buf.Name), jb.Group, root)
	}
	if want := posText(g, buf.Pos); !jb.Pos.is(want) {
		c.fail("plan JSON: buffer %q: pos %s, want %q", g.Str(buf.Name), jb.Pos, want)
	}
	return true
}

// checkFootprint checks the document's footprint against the footprint
// the verifier derives.
func (c *checker) checkFootprint(f *footprintJSON, w *footprint) {
	p := c.p
	if !f.Peak.is(w.peak) || !f.NoPooling.is(w.noPool) || !f.Resident.is(w.resident) {
		c.fail("plan JSON: footprint: peak %s, no pooling %s, resident pools %s; want %d, %d, %d", f.Peak, f.NoPooling, f.Resident, w.peak, w.noPool, w.resident)
	}
	if w.peakAt < 0 {
		if f.PeakNode.ok || f.PeakPosition.ok {
			c.fail("plan JSON: footprint: peak_node %s at %s for a graph with no nodes", f.PeakNode, f.PeakPosition)
		}
	} else if !f.PeakPosition.is(int64(w.peakAt)) || !f.PeakNode.ok || f.PeakNodeName != w.name(w.peakAt) {
		c.fail("plan JSON: footprint: peak at %s (%s), want position %d (%q)", f.PeakPosition, f.PeakNode, w.peakAt, w.name(w.peakAt))
	}
	if len(p.Compare) > 0 {
		same := len(f.ByAllocator) == len(p.Compare)
		for k := 0; same && k < len(p.Compare); k++ {
			same = f.ByAllocator[k].name == p.Compare[k].Allocator && f.ByAllocator[k].v.ok
			if same && p.Compare[k].Allocator == p.Allocator {
				same = f.ByAllocator[k].v.v == w.peak
			}
		}
		if !same {
			c.fail("plan JSON: footprint: peak_bytes_by_allocator must name every compared allocator in order, the plan's own with peak %d", w.peak)
		}
	} else if f.ByAllocator != nil {
		c.fail("plan JSON: footprint: peak_bytes_by_allocator without --compare")
	}
	if !f.TimelineOK || f.TimelineLen != w.len() {
		c.fail("plan JSON: footprint: timeline of %d positions, want %d", f.TimelineLen, w.len())
		return
	}
	for _, b := range f.Bad {
		t, e := b.t, &b.e
		c.fail("plan JSON: footprint: timeline[%d] is %q (%s) %s + %s, want %q (%s) %d + %d", t, e.Node, e.Kind, e.Standalone, e.PoolBytes, w.name(t), w.kind(t), w.standalone[t], w.pool(t))
	}
}

// nodeIs reports whether e is element t of the footprint's timeline.
func (w *footprint) nodeIs(t int, e *timelineJSON) bool {
	return t < w.len() && e.NodeOK && e.Node == w.name(t) && e.KindOK && e.Kind == w.kind(t) && e.Standalone.is(w.standalone[t]) && e.PoolBytes.is(w.pool(t))
}

// kind is the "kind" of timeline position t.
func (w *footprint) kind(t int) string {
	if w.cpu(t) {
		return "cpu"
	}
	return "bundle"
}
