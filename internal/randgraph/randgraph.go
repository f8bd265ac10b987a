// Package randgraph writes seeded random, always-valid bundle IR (contract
// v3) for property tests and fuzz seeds: buffers of mixed sizes (some
// zero), graph inputs and outputs, LX claims, views (`alias v = t [+ OFF]`,
// with and without an offset, offsets that are whole sticks and offsets
// that are not, chains of views), rename chains, fused and loop bundles
// nested a few levels with step lists, ops on 1-D and 2-D cores with split
// and broadcast accesses, ops that read and write the same storage, the
// same name read twice with different steps, CPU fallback nodes, and op
// kinds: a pool of one to three kinds per graph, so that ops of one kind
// (whose SDSC may be shared) are common, and some ops without a kind.
//
// Every step and split it writes keeps the bounds rule of bundle-ir.md §2: the
// farthest start (largest core offset + every loop's step*(count-1)) is 0
// or below the accessed name's size. The same seed always gives the same
// text.
package randgraph

import (
	"fmt"
	"math/rand"
	"strings"
)

// Config bounds the size of a generated graph.
type Config struct {
	Buffers  int // declared buffers (at least 1)
	Bundles  int // top-level nodes
	MaxOps   int // leaf ops per bundle at most
	MaxDepth int // loop nesting at most
	// V1 restricts the text to contract v1 syntax: views without an
	// offset, no kind, no cores and no split (for tests that add the
	// newer syntax themselves). The graph is still valid under contract
	// v3.
	V1 bool
}

// Default is a small graph where every rule has a fair chance to fire.
var Default = Config{Buffers: 12, Bundles: 4, MaxOps: 6, MaxDepth: 3}

type gen struct {
	r     *rand.Rand
	cfg   Config
	b     strings.Builder
	names []string // referable names: declared buffers and rename sources
	// size is the byte size (rounded to sticks) of each referable name,
	// index as names; a rename source has its target's.
	size []int64
	node int
	// bundle is the index of the top-level node being written; most
	// accesses pick names "owned" by it (index = bundle mod Bundles) so
	// that bundle-local buffers, the ones that get pooled, are common.
	bundle int
	// counts holds the counts of the loops enclosing the op being
	// written, outermost first.
	counts []int64
	// kr draws the ops' kinds from kinds, the graph's pool. It is a
	// source of its own (seeded by the graph's number), so that the
	// kinds leave every other choice as it was before there were any.
	kr    *rand.Rand
	kinds []string
}

// kindNames are the kinds a graph's pool is drawn from: torch operations
// with their dtype and shape, as a backend would name what an SDSC
// holds, and a dtype name, which is a name too.
var kindNames = []string{
	"aten.relu.default.f16_8x64x56x56",
	"aten.add.Tensor.f16_4x64",
	"aten.mm.default.f16_64x4096x4096",
	"aten.mul.Tensor.f16_4x64",
	"aten._softmax.default.f32_16x128",
	"f16",
}

// Generate returns one random graph.
func Generate(r *rand.Rand, cfg Config) string {
	g := &gen{r: r, cfg: cfg}
	num := r.Intn(100)
	fmt.Fprintf(&g.b, "graph g%d {\n", num)
	if !cfg.V1 {
		g.kr = rand.New(rand.NewSource(int64(num)*7919 + 1))
		pool := g.kr.Perm(len(kindNames))[:1+g.kr.Intn(3)]
		for _, k := range pool {
			g.kinds = append(g.kinds, kindNames[k])
		}
	}
	n := max(cfg.Buffers, 1)
	for i := 0; i < n; i++ {
		text, bytes := g.bufSize()
		fmt.Fprintf(&g.b, "  buffer b%d : %s\n", i, text)
		g.names = append(g.names, fmt.Sprintf("b%d", i))
		g.size = append(g.size, bytes)
	}
	// Renames: r_k -> an existing name; chains arise because a later
	// rename may target an earlier rename's source. Sources are fresh
	// names, so there is never a cycle.
	for k := 0; k < r.Intn(3); k++ {
		src := fmt.Sprintf("r%d", k)
		t := g.r.Intn(len(g.names))
		fmt.Fprintf(&g.b, "  rename %s -> %s\n", src, g.names[t])
		g.names = append(g.names, src)
		g.size = append(g.size, g.size[t])
	}
	g.aliases(n)
	for _, kw := range []string{"input", "output", "lx"} {
		if r.Intn(4) == 0 {
			fmt.Fprintf(&g.b, "  %s %s\n", kw, g.pick())
		}
	}
	for k := 0; k < cfg.Bundles; k++ {
		g.bundle = k
		switch r.Intn(6) {
		case 0:
			g.op("  ")
		case 1:
			g.cpu()
		case 2:
			g.loop(0, "  ")
		default:
			g.fused()
		}
	}
	g.b.WriteString("}\n")
	return g.b.String()
}

// aliases declares up to three views among the n declared buffers. A
// buffer is the left side of at most one alias and its base has a smaller
// index, so the views form chains and trees, never a cycle. The offset is
// absent, 0, a whole number of sticks or any byte count, always inside
// the base's own size (0 when the base is empty).
func (g *gen) aliases(n int) {
	if n < 2 {
		return
	}
	used := map[int]bool{}
	for k := 0; k < g.r.Intn(4); k++ {
		v := 1 + g.r.Intn(n-1)
		if used[v] {
			continue
		}
		used[v] = true
		base := g.r.Intn(v)
		// Chains: prefer a base that is itself a view.
		if g.r.Intn(2) == 0 {
			for u := range v {
				if used[u] {
					base = u
					break
				}
			}
		}
		fmt.Fprintf(&g.b, "  alias b%d = b%d", v, base)
		bs := g.size[base]
		k := g.r.Intn(4)
		if g.cfg.V1 {
			k = 0
		}
		switch k {
		case 0: // no offset
		case 1:
			g.b.WriteString(" + 0")
		case 2:
			if bs >= 128 {
				fmt.Fprintf(&g.b, " + %d", 128*g.r.Int63n(bs/128))
			}
		default:
			if bs > 0 {
				fmt.Fprintf(&g.b, " + %d", g.r.Int63n(bs))
			}
		}
		g.b.WriteString("\n")
	}
}

func (g *gen) pick() string { return g.names[g.r.Intn(len(g.names))] }

// pickLocal returns the index of a name, preferring the names owned by
// the current bundle.
func (g *gen) pickLocal() int {
	nb := max(g.cfg.Bundles, 1)
	if g.r.Intn(10) < 9 && len(g.names) > g.bundle%nb {
		k := 0
		for i := g.bundle % nb; i < len(g.names); i += nb {
			k++
		}
		return g.bundle%nb + nb*g.r.Intn(k)
	}
	return g.r.Intn(len(g.names))
}

var dtypes = []struct {
	name  string
	bytes int64
}{{"f32", 4}, {"f16", 2}, {"bf16", 2}, {"f8", 1}, {"i64", 8}, {"i32", 4}, {"i16", 2}, {"i8", 1}, {"u8", 1}, {"bool", 1}}

// bufSize returns a size as written and its byte count (bundle-ir.md §2).
func (g *gen) bufSize() (string, int64) {
	switch g.r.Intn(8) {
	case 0:
		return "0", 0
	case 1:
		dt := dtypes[g.r.Intn(len(dtypes))]
		rows, cols := int64(1+g.r.Intn(4)), int64(1+g.r.Intn(300))
		return fmt.Sprintf("%s[%d, %d]", dt.name, rows, cols), rows * roundUp(cols*dt.bytes)
	default:
		n := int64(1 + g.r.Intn(8192))
		return fmt.Sprintf("%d bytes", n), roundUp(n)
	}
}

func roundUp(n int64) int64 { return (n + 127) / 128 * 128 }

func (g *gen) name(prefix string) string {
	g.node++
	return fmt.Sprintf("%s%d", prefix, g.node)
}

// ints writes one integer, or a list, as the grammar's Ints; a single
// entry is written bare or as a one-element list.
func (g *gen) ints(v []int64) string {
	if len(v) == 1 && g.r.Intn(2) == 0 {
		return fmt.Sprint(v[0])
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// amount draws a step or split entry that, multiplied by mult, stays
// within *room bytes, and takes it from *room. Entries with mult 0 (a
// loop of count 1, a split dimension of 1 core) can be anything: they
// never move the address. Whole sticks are the most common.
func (g *gen) amount(mult int64, room *int64) int64 {
	if mult == 0 {
		return 128 * int64(g.r.Intn(4))
	}
	most := *room / mult
	var v int64
	switch {
	case most == 0 || g.r.Intn(5) == 0:
		v = 0
	case most >= 128 && g.r.Intn(4) != 0:
		v = 128 * (1 + g.r.Int63n(most/128))
	default:
		v = 1 + g.r.Int63n(most)
	}
	*room -= v * mult
	return v
}

// access writes one operand of an op on cores (nil: no cores clause):
// name k, a step half the time inside loops, a split on some accesses of
// a multi-core op. Its farthest start is kept below the name's size.
func (g *gen) access(k int, cores []int64) string {
	a := g.names[k]
	room := g.size[k] - 1 // the farthest start must be below the size
	if room < 0 {
		room = 0 // a 0-byte name: every entry that counts must be 0
	}
	// The split first (it is written after the step, but the room is
	// shared).
	var split []int64
	if cores != nil && g.r.Intn(3) != 0 {
		split = make([]int64, len(cores))
		for d, s := range cores {
			split[d] = g.amount(s-1, &room)
		}
	}
	if depth := len(g.counts); depth > 0 && g.r.Intn(2) == 0 {
		if g.r.Intn(2) == 0 {
			a += " step " + fmt.Sprint(g.amount(g.counts[depth-1]-1, &room))
		} else {
			st := make([]int64, depth)
			for d := range st {
				st[d] = g.amount(g.counts[d]-1, &room)
			}
			s := make([]string, depth)
			for i, x := range st {
				s[i] = fmt.Sprint(x)
			}
			a += " step [" + strings.Join(s, ", ") + "]"
		}
	}
	if split != nil {
		a += " split " + g.ints(split)
	}
	return a
}

// accesses writes a list of one to three operands; reads may repeat a
// name with a different step. It returns the names' indices too.
func (g *gen) accesses(cores []int64, reads bool) (string, []int) {
	var parts []string
	var idx []int
	for k := 0; k <= g.r.Intn(3); k++ {
		n := g.pickLocal()
		parts = append(parts, g.access(n, cores))
		idx = append(idx, n)
		if reads && len(g.counts) > 0 && g.r.Intn(6) == 0 {
			// The same name once more: usually another step.
			parts = append(parts, g.access(n, cores))
		}
	}
	return strings.Join(parts, ", "), idx
}

func (g *gen) op(ind string) {
	fmt.Fprintf(&g.b, "%sop %s", ind, g.name("op"))
	if g.kinds != nil && g.kr.Intn(4) > 0 {
		fmt.Fprintf(&g.b, " kind %s", g.kinds[g.kr.Intn(len(g.kinds))])
	}
	var cores []int64
	k := g.r.Intn(6)
	if g.cfg.V1 {
		k = 5
	}
	switch k {
	case 0:
		cores = []int64{int64(1 + g.r.Intn(4))}
	case 1:
		cores = []int64{int64(1 + g.r.Intn(3)), int64(1 + g.r.Intn(3))}
	}
	if cores != nil {
		fmt.Fprintf(&g.b, " cores %s", g.ints(cores))
	}
	var read []int
	if g.r.Intn(5) > 0 {
		var s string
		s, read = g.accesses(cores, true)
		fmt.Fprintf(&g.b, " reads %s", s)
	}
	if g.r.Intn(5) > 0 {
		s, _ := g.accesses(cores, false)
		if len(read) > 0 && g.r.Intn(4) == 0 {
			// Read and written by the one op: a name it reads is
			// written too (storage shared with a view arises from the
			// picks themselves).
			s = g.access(read[g.r.Intn(len(read))], cores) + ", " + s
		}
		fmt.Fprintf(&g.b, " writes %s", s)
	}
	g.b.WriteString("\n")
}

func (g *gen) cpu() {
	fmt.Fprintf(&g.b, "  cpu %s", g.name("cpu"))
	if g.r.Intn(2) == 0 {
		s, _ := g.accesses(nil, false)
		fmt.Fprintf(&g.b, " reads %s", s)
	}
	if g.r.Intn(2) == 0 {
		s, _ := g.accesses(nil, false)
		fmt.Fprintf(&g.b, " writes %s", s)
	}
	g.b.WriteString("\n")
}

func (g *gen) body(depth int, ind string) {
	for k := 0; k < 1+g.r.Intn(max(g.cfg.MaxOps, 1)); k++ {
		if depth < g.cfg.MaxDepth && g.r.Intn(4) == 0 {
			g.loop(depth, ind)
		} else {
			g.op(ind)
		}
	}
}

func (g *gen) loop(depth int, ind string) {
	count := int64(1 + g.r.Intn(8))
	fmt.Fprintf(&g.b, "%sloop %s count %d {\n", ind, g.name("loop"), count)
	g.counts = append(g.counts, count)
	g.body(depth+1, ind+"  ")
	g.counts = g.counts[:len(g.counts)-1]
	fmt.Fprintf(&g.b, "%s}\n", ind)
}

func (g *gen) fused() {
	fmt.Fprintf(&g.b, "  fused %s {\n", g.name("fused"))
	g.body(0, "    ")
	g.b.WriteString("  }\n")
}
