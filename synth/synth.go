// Package synth writes deterministic, realistic bundle IR for benchmarks:
// the shape of an LLM decoder stack after fusion and coarse tiling, at any
// size from a handful of leaf ops to millions.
//
// The same Config always produces the same bytes (the generator carries its
// own splitmix64 generator, so the output does not depend on the Go
// version's math/rand either). Generation streams: memory stays constant
// however many ops are asked for.
//
// # Shape
//
// Config.Ops leaf ops are spread evenly over Config.Bundles top-level
// bundles, in order (the first Ops%Bundles bundles get one op more):
//
//   - a bundle of one op is a standalone `op`; every tenth bundle
//     (index%10 == 9) is a bare counted `loop` (count 2..8) over its ops;
//     every other bundle is a `fused` block.
//   - inside a bundle, about one node in four opens a counted loop
//     (count 2..16, nested up to two levels inside the bundle) of 1..6 ops.
//     Accesses in loops carry a `step` (one stride, or a stride list with
//     zeros) half the time; strides are 128 B .. 64 KiB.
//   - producer/consumer chain: every op reads the value the previous op
//     wrote (across bundle boundaries too, so each bundle's last value is
//     cross-bundle) and writes a fresh buffer.
//   - fan-out: one op in four also reads one of the last 16 values.
//   - weights: one op in four reads a weight, a graph input; half of those
//     are new weights, the others reuse one of the last 64.
//   - long-lived buffers: a bundle's first value is read again by its last
//     op (live across the whole bundle), and every 64th op starts a
//     residual that the op 64 later reads.
//   - accumulators: a third of the loops own an accumulator that their
//     direct ops read and write in place (loop-carried: the back-edge rule
//     of the contract applies); it is the loop's value afterwards.
//   - sizes: log-uniform over 128 B .. 64 MiB (60% below 64 KiB, 30% below
//     4 MiB, 10% up to 64 MiB), a quarter written as dtype shapes.
//   - a few CPU fallbacks (1 + Ops/100000): top-level `cpu` nodes between
//     bundles (after the last one when there is a single bundle) that read
//     a recent value and write one that the next bundle reads.
//   - multi-core ops: one op in eight runs on `cores` 2, 4, 32 or [2, 4];
//     its writes are `split` (each core a whole-stick chunk of the
//     buffer), a third of its reads too, the others broadcast.
//   - bounds: every step and split keeps the contract's bounds rule (the
//     farthest start, largest core offset + every loop's step*(count-1),
//     stays below the accessed buffer's size); a step that would not fit
//     shrinks to the largest whole number of sticks that does, or 0.
//   - every 1000th op's value gets a view (read later through the
//     fan-out) at no offset, offset 0, a whole number of sticks or any
//     byte inside the value; every 3000th a view of that view too (a
//     chain). Every 2000th op writes through a `rename`, every 5000th
//     op's value is LX-claimed. The graph reads `x` and outputs the last
//     value.
//   - kinds (only with Config.Kinds > 0): seven ops in eight have a
//     `kind`, drawn from Config.Kinds kinds (torch-like names such as
//     aten.mm.default.f16_64x128) with a skew towards the first few, so
//     that most ops share their kind with many others, as the ops of one
//     model do; the others have none. The kinds come from a generator of
//     their own: the graph is otherwise the one without kinds, byte for
//     byte (Config.Kinds 0, the default, writes no kind at all).
//
// # Families
//
// Config.Family selects a shape family: the same generator with some of
// the knobs above turned, so that benchmarks see more than one shape. A
// knob left at its default draws nothing more from the generator, so the
// default family's graph is byte for byte the one of the versions before
// families; the others write family=NAME in the header comment.
//
//   - "default" (or ""): the shape above.
//   - "wide": after the reads above, an op reads values from the ring of
//     the last 16 until it has 4..8 reads (drawn per op), and writes
//     0..3 fresh buffers besides its value (they join the ring). Meant
//     for few bundles.
//   - "kargs": long-range reads. Every value an op writes enters a
//     uniform sample of 512 of all the values written so far (reservoir
//     sampling); after the reads above, an op reads values from that
//     sample until it has 2 or 3 reads. Late bundles thus read values
//     written hundreds of bundles earlier, and a bundle has hundreds of
//     kernel arguments.
//   - "loops": a node opens a loop one time in two instead of four, and
//     loops nest up to 4 deep in every bundle (about three ops in four
//     inside loops, steps as above).
//   - "views": six ops in eight run on `cores 4` or `cores [2, 2]`, with
//     splits as above; an op reads ring values until it has 1..8 reads;
//     every 20th op's value gets a view (as above: three in four at an
//     explicit offset), every 50th is LX-claimed, and a CPU node follows
//     every bundle but the last.
//   - "unfused": the default graph, byte for byte; the name is for the
//     benchmarks, which time it with fusion off
//     (--bundle-symbolic-args=false).
//
// Every family keeps the rules above: every buffer declared on its own
// line under its own name, steps and splits within bounds, and the graph
// parses and checks.
//
// All declarations come first, in creation order (a buffer line, then the
// input, alias, rename or lx line that concerns it, if any; the output line
// last), then the nodes: the generator runs its decisions twice from the
// same seed, printing the declarations the first time and the nodes the
// second.
package synth

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// Config selects the graph.
type Config struct {
	// Ops is the number of leaf ops, at least 1.
	Ops int
	// Bundles is the number of top-level bundles the ops are spread
	// over, 1..Ops; 0 means 1.
	Bundles int
	// Seed selects the random decisions.
	Seed uint64
	// Name is the graph name; "" means "synth". Generate writes it as
	// given: it must be a name of the language and not a keyword, as
	// frontend.CheckName tells (sdscgen synth checks --name with it).
	Name string
	// Kinds is the number of distinct op kinds; 0 means no `kind`
	// clause at all (the output of the versions before kinds).
	Kinds int
	// Family is the shape family (see Families); "" is "default".
	Family string
}

// Families are the shape families Config.Family selects, in the order
// the package documentation describes them.
var Families = []string{"default", "wide", "kargs", "loops", "views", "unfused"}

// shape holds the knobs a family turns. The default family's values are
// the generator's historical constants, and a knob at its default value
// draws nothing more from the generator, so the default family's output
// is byte for byte the one of the versions before families.
type shape struct {
	// loopOdds: a node opens a loop when intn(loopOdds) == 0.
	loopOdds int
	// fusedDepth and loopDepth bound the loop nesting in a fused
	// bundle and in a bare loop bundle (the bare loop included).
	fusedDepth, loopDepth int
	// coresIn8: an op is multi-core when intn(8) < coresIn8, on one of
	// coreChoices.
	coresIn8    int
	coreChoices [][]int64
	// minReads..maxReads: ring values are added to an op's reads until
	// it has a number drawn in that range (0: no such reads).
	minReads, maxReads int
	// maxExtraWrites: an op writes 0..maxExtraWrites fresh buffers
	// besides its value.
	maxExtraWrites int
	// farReads: an op's reads are filled up to 2 or 3 from a reservoir
	// sample of every value written so far (long-range reads).
	farReads bool
	// viewEvery, lxEvery: every viewEvery-th op's value gets a view,
	// every lxEvery-th op's value is LX-claimed.
	viewEvery, lxEvery int
	// cpuPerBundle: a CPU node after every bundle but the last, instead
	// of 1 + Ops/100000 of them.
	cpuPerBundle bool
}

// shapeOf returns the knobs of family f, false if there is no such
// family.
func shapeOf(f string) (shape, bool) {
	sh := shape{loopOdds: 4, fusedDepth: 2, loopDepth: 3, coresIn8: 1,
		coreChoices: [][]int64{{2}, {4}, {32}, {2, 4}}, viewEvery: 1000, lxEvery: 5000}
	switch f {
	case "", "default", "unfused":
	case "wide":
		sh.minReads, sh.maxReads, sh.maxExtraWrites = 4, 8, 3
	case "kargs":
		sh.farReads = true
	case "loops":
		sh.loopOdds, sh.fusedDepth, sh.loopDepth = 2, 4, 4
	case "views":
		sh.coresIn8, sh.coreChoices = 6, [][]int64{{4}, {2, 2}}
		sh.minReads, sh.maxReads = 1, 8
		sh.viewEvery, sh.lxEvery, sh.cpuPerBundle = 20, 50, true
	default:
		return sh, false
	}
	return sh, true
}

// Generate writes the graph cfg describes to w.
func Generate(w io.Writer, cfg Config) error {
	if cfg.Ops < 1 {
		return errors.New("synth: Ops must be at least 1")
	}
	if cfg.Bundles == 0 {
		cfg.Bundles = 1
	}
	if cfg.Bundles < 0 || cfg.Bundles > cfg.Ops {
		return errors.New("synth: Bundles must be between 1 and Ops")
	}
	if cfg.Name == "" {
		cfg.Name = "synth"
	}
	if cfg.Kinds < 0 {
		return errors.New("synth: Kinds must not be negative")
	}
	sh, ok := shapeOf(cfg.Family)
	if !ok {
		return errors.New("synth: unknown Family " + strconv.Quote(cfg.Family))
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	g := &gen{cfg: cfg, sh: sh, w: bw}
	g.s("// generated by sdscgen synth: ops=")
	g.i(int64(cfg.Ops))
	g.s(" bundles=")
	g.i(int64(cfg.Bundles))
	g.s(" seed=")
	g.b = strconv.AppendUint(g.b, cfg.Seed, 10)
	if cfg.Kinds > 0 {
		g.s(" kinds=")
		g.i(int64(cfg.Kinds))
	}
	if cfg.Family != "" && cfg.Family != "default" && cfg.Family != "unfused" {
		g.s(" family=")
		g.s(cfg.Family)
	}
	g.s("\ngraph ")
	g.s(cfg.Name)
	g.s(" {\n")
	g.run(true)
	g.run(false)
	g.s("}\n")
	g.flush()
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

// ref names a buffer: a one-letter prefix and a number, with its byte
// size (rounded to sticks), which bounds the steps and splits of its
// accesses.
type ref struct {
	p    byte
	id   int32
	size int64
}

var none = ref{}

const (
	ringSize   = 16
	weightPool = 64
	residEvery = 64
	// farPool is the size of the kargs family's reservoir sample.
	farPool = 512
)

type gen struct {
	cfg Config
	sh  shape
	w   *bufio.Writer
	b   []byte
	err error

	// decl is true in the declaration pass, false in the node pass.
	decl bool
	rng  uint64
	// krng draws the kinds (Config.Kinds > 0), apart from rng so that
	// they change nothing else.
	krng uint64

	nbuf, nop, nloop, ncpu int32
	cur                    ref
	ring                   [ringSize]ref
	nring                  int
	weights                [weightPool]ref
	nweights               int
	resid                  ref
	long                   ref // the bundle's first value
	opInBundle             int
	maxDepth               int  // loop nesting allowed in this bundle
	pending                ref  // a CPU node's value the next op reads
	carry                  ref  // a loop's last value the next op reads
	accUsed                bool // the current loop's accumulator was updated
	// counts[d] is the count of the enclosing loop at depth d+1.
	counts [4]int64
	// cores is the current op's cores list (nil: one core).
	cores []int64
	// naccess counts the accesses written (both passes), so that an op
	// knows how many reads it has.
	naccess int
	// far is the kargs family's reservoir sample of the values written
	// so far (nfar values seen).
	far  [farPool]ref
	nfar int
}

func (g *gen) next() uint64 {
	g.rng += 0x9e3779b97f4a7c15
	z := g.rng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (g *gen) intn(n int) int { return int(g.next() % uint64(n)) }

// kindn returns a number in [0, n) from the kinds' generator.
func (g *gen) kindn(n int) int {
	g.krng += 0x9e3779b97f4a7c15
	z := g.krng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int((z ^ (z >> 31)) % uint64(n))
}

// kindOps are the operations the kinds name.
var kindOps = []string{"aten.mm.default", "aten.add.Tensor", "aten.mul.Tensor", "aten.relu.default",
	"aten._softmax.default", "aten.native_layer_norm.default", "aten.gelu.default", "aten.bmm.default"}

// kind writes ` kind K` for an op, or nothing (one op in eight). Kind k
// is operation k mod 8 on f16 tensors of a shape drawn from k / 8, so
// that every k names its own kind; smaller k are drawn more often.
func (g *gen) kind() {
	if g.cfg.Kinds == 0 || g.kindn(8) == 0 {
		return
	}
	k := g.kindn(1 + g.kindn(g.cfg.Kinds))
	v := int64(k / len(kindOps))
	g.s(" kind ")
	g.s(kindOps[k%len(kindOps)])
	g.s(".f16_")
	g.i(64 << (v % 4))
	g.s("x")
	g.i(128 << (v / 4 % 6))
	if v >= 24 {
		g.s("_")
		g.i(v / 24)
	}
}

func (g *gen) flush() {
	if g.err == nil && len(g.b) > 0 {
		_, g.err = g.w.Write(g.b)
	}
	g.b = g.b[:0]
}

func (g *gen) s(s string) {
	g.b = append(g.b, s...)
	if len(g.b) > 32<<10 {
		g.flush()
	}
}

func (g *gen) i(v int64) { g.b = strconv.AppendInt(g.b, v, 10) }

func (g *gen) name(r ref) {
	g.b = append(g.b, r.p)
	g.b = strconv.AppendInt(g.b, int64(r.id), 10)
}

// Declaration-pass and node-pass writers: exactly one pass prints.
func (g *gen) ds(s string) {
	if g.decl {
		g.s(s)
	}
}
func (g *gen) dname(r ref) {
	if g.decl {
		g.name(r)
	}
}
func (g *gen) ns(s string) {
	if !g.decl {
		g.s(s)
	}
}
func (g *gen) ni(v int64) {
	if !g.decl {
		g.i(v)
	}
}
func (g *gen) nname(r ref) {
	if !g.decl {
		g.name(r)
	}
}

// run makes every decision of the graph, printing one pass.
func (g *gen) run(decl bool) {
	g.decl = decl
	g.rng = g.cfg.Seed
	g.krng = g.cfg.Seed ^ 0x6b696e6473 // "kinds"
	g.nbuf, g.nop, g.nloop, g.ncpu = 0, 0, 0, 0
	g.nring, g.nweights, g.nfar = 0, 0, 0
	g.resid, g.pending, g.carry, g.long = none, none, none, none
	g.cur = ref{'x', 0, 64 * 4096 * 2}
	g.ds("  buffer x0 : f16[64, 4096]\n  input x0\n")

	nb := g.cfg.Bundles
	ncpu := 1 + g.cfg.Ops/100000
	if g.sh.cpuPerBundle {
		ncpu = max(nb-1, 1)
	}
	cpuAt := func(c int) int { // the bundle a CPU node follows
		if nb == 1 {
			return 0
		}
		return (c + 1) * nb / (ncpu + 1)
	}
	c := 0
	for k := 0; k < nb; k++ {
		n := g.cfg.Ops / nb
		if k < g.cfg.Ops%nb {
			n++
		}
		g.bundle(k, n)
		for c < ncpu && cpuAt(c) <= k {
			g.cpu()
			c++
		}
	}
	g.ds("  output ")
	g.dname(g.cur)
	g.ds("\n")
}

// newBuf declares a fresh buffer with prefix p.
func (g *gen) newBuf(p byte) ref {
	r := ref{p: p, id: g.nbuf}
	g.nbuf++
	r.size = g.declare(r)
	return r
}

// declare declares r with a random size and returns its byte count.
func (g *gen) declare(r ref) int64 {
	size := g.size()
	shape := g.intn(4) == 0
	// f16[R, C]: R rows of roundup(2*C, 128) = 2*C bytes (C >= 64).
	cols := int64(64) << (size % 4 * 2) // 64, 256, 1024, 4096
	rows := max(1, size/(2*cols))
	bytes := (size + 127) &^ 127
	if shape {
		bytes = rows * 2 * cols
	}
	if !g.decl {
		return bytes
	}
	g.s("  buffer ")
	g.name(r)
	g.s(" : ")
	if shape {
		g.s("f16[")
		g.i(rows)
		g.s(", ")
		g.i(cols)
		g.s("]\n")
		return bytes
	}
	g.i(size)
	g.s("\n")
	return bytes
}

// size draws a byte size, log-uniform in bands, from 128 B to 64 MiB.
func (g *gen) size() int64 {
	var lo, hi int // exponents
	switch v := g.intn(10); {
	case v < 6:
		lo, hi = 7, 16 // 128 B .. 64 KiB
	case v < 9:
		lo, hi = 16, 22 // .. 4 MiB
	default:
		lo, hi = 22, 26 // .. 64 MiB
	}
	e := lo + g.intn(hi-lo)
	s := int64(1)<<e + int64(g.next()%(uint64(1)<<e))
	s = min(s, 64<<20)
	// Most tensors are whole sticks; some are not (rounded by the tool).
	if g.intn(4) != 0 {
		s = s &^ 127
	}
	return max(s, 128)
}

func (g *gen) push(r ref) {
	g.ring[g.nring%ringSize] = r
	g.nring++
}

func (g *gen) bundle(k, n int) {
	g.opInBundle = 0
	switch {
	case n == 1:
		g.op(0, "  ", none, n)
	case k%10 == 9:
		g.maxDepth = g.sh.loopDepth
		g.ns("  loop lb")
		g.ni(int64(k))
		g.ns(" count ")
		g.counts[0] = int64(2 + g.intn(7))
		g.ni(g.counts[0])
		g.ns(" {\n")
		g.body(n, 1, "    ", none, n)
		g.ns("  }\n")
	default:
		g.maxDepth = g.sh.fusedDepth
		g.ns("  fused blk")
		g.ni(int64(k))
		g.ns(" {\n")
		g.body(n, 0, "    ", none, n)
		g.ns("  }\n")
	}
}

// body writes n leaf ops at loop depth depth; acc is the enclosing loop's
// accumulator, if any; total is the bundle's op count.
func (g *gen) body(n, depth int, ind string, acc ref, total int) {
	for n > 0 {
		if depth < g.maxDepth && n >= 2 && g.intn(g.sh.loopOdds) == 0 {
			m := 1 + g.intn(min(n, 6))
			g.loop(m, depth, ind, total)
			n -= m
			continue
		}
		g.op(depth, ind, acc, total)
		n--
	}
}

func (g *gen) loop(n, depth int, ind string, total int) {
	id := g.nloop
	g.nloop++
	count := 2 + g.intn(15)
	acc := none
	if g.intn(3) == 0 {
		acc = g.newBuf('a')
	}
	g.ns(ind)
	g.ns("loop l")
	g.ni(int64(id))
	g.ns(" count ")
	g.ni(int64(count))
	g.ns(" {\n")
	g.counts[depth] = int64(count)
	outerUsed := g.accUsed
	g.accUsed = false
	g.body(n, depth+1, ind+"  ", acc, total)
	used := g.accUsed
	g.accUsed = outerUsed
	g.ns(ind)
	g.ns("}\n")
	// An accumulator no direct op of the loop updated stays unused.
	if used {
		// The loop's value is its accumulator; its last op's value is
		// read once more by the next op so that it is not dead.
		g.carry = g.cur
		g.cur = acc
		g.push(acc)
	}
}

// access writes one operand, with a step half the time inside loops and,
// on an op with cores, a split on every write and on a third of the
// reads (the others are broadcast). Steps and splits keep the bounds rule
// of the contract: the split gives each core a whole-stick chunk of the
// buffer (chunk*(cores-1) < size), and each step is shrunk, to a smaller
// whole number of sticks or 0, until every loop's step*(count-1) plus the
// cores' span stays below the buffer's size.
func (g *gen) access(r ref, depth int, first *bool, write bool) {
	if !*first {
		g.ns(", ")
	}
	*first = false
	g.naccess++
	g.nname(r)
	room := max(r.size-1, 0) // the farthest start must stay below size
	var split [2]int64
	nsplit := 0
	if g.cores != nil && (write || g.intn(3) == 0) {
		n := int64(1)
		for _, c := range g.cores {
			n *= c
		}
		chunk := (r.size / n) &^ 127
		unit := chunk
		for d, c := range g.cores {
			split[d] = unit
			unit *= c
		}
		nsplit = len(g.cores)
		room -= chunk * (n - 1) // the last core's offset
	}
	defer g.writeSplit(split[:nsplit])
	if depth == 0 || g.intn(2) == 0 {
		return
	}
	if depth == 1 || g.intn(2) == 0 {
		g.ns(" step ")
		g.ni(g.fit(g.stride(), depth-1, &room))
		return
	}
	g.ns(" step [")
	for d := 0; d < depth; d++ {
		if d > 0 {
			g.ns(", ")
		}
		s := int64(0)
		if g.intn(3) != 0 {
			s = g.fit(g.stride(), d, &room)
		}
		g.ni(s)
	}
	g.ns("]")
}

// writeSplit writes the split clause of an access, if any.
func (g *gen) writeSplit(split []int64) {
	switch len(split) {
	case 0:
		return
	case 1:
		g.ns(" split ")
		g.ni(split[0])
		return
	}
	g.ns(" split [")
	for d, b := range split {
		if d > 0 {
			g.ns(", ")
		}
		g.ni(b)
	}
	g.ns("]")
}

// fit shrinks stride s of the loop at depth d+1 until s*(count-1) fits
// in *room (to the largest whole number of sticks that does, possibly 0),
// and takes that from *room.
func (g *gen) fit(s int64, d int, room *int64) int64 {
	m := g.counts[d] - 1
	if s*m > *room {
		s = (*room / m) &^ 127
	}
	*room -= s * m
	return s
}

func (g *gen) stride() int64 { return 128 << g.intn(10) }

// alias declares v as a view of base: at no offset, at offset 0, at a
// whole number of sticks or at any byte inside base.
func (g *gen) alias(v, base ref) {
	k := g.intn(4)
	var off uint64
	switch k {
	case 1:
		off = g.next() % uint64(base.size/128) * 128
	case 2:
		off = g.next() % uint64(base.size)
	}
	g.ds("  alias ")
	g.dname(v)
	g.ds(" = ")
	g.dname(base)
	if k != 0 && g.decl {
		g.s(" + ")
		g.b = strconv.AppendUint(g.b, off, 10)
	}
	g.ds("\n")
}

// op writes one leaf op.
func (g *gen) op(depth int, ind string, acc ref, total int) {
	id := g.nop
	g.nop++
	k := g.opInBundle
	g.opInBundle++

	g.ns(ind)
	g.ns("op o")
	g.ni(int64(id))
	if !g.decl {
		g.kind()
	}
	g.cores = nil
	if g.intn(8) < g.sh.coresIn8 {
		g.cores = g.sh.coreChoices[g.intn(len(g.sh.coreChoices))]
		g.ns(" cores ")
		if len(g.cores) == 1 {
			g.ni(g.cores[0])
		} else {
			g.ns("[")
			g.ni(g.cores[0])
			g.ns(", ")
			g.ni(g.cores[1])
			g.ns("]")
		}
	}
	g.ns(" reads ")
	first := true
	reads0 := g.naccess
	g.access(g.cur, depth, &first, false)
	if g.pending != none {
		g.access(g.pending, depth, &first, false)
		g.pending = none
	}
	if g.carry != none {
		g.access(g.carry, depth, &first, false)
		g.carry = none
	}
	if g.intn(4) == 0 && g.nring > 1 {
		back := 1 + g.intn(min(g.nring, ringSize)-1)
		g.access(g.ring[(g.nring-1-back)%ringSize], depth, &first, false)
	}
	if g.intn(4) == 0 {
		var w ref
		if g.nweights == 0 || g.intn(2) == 0 {
			w = g.newBuf('w')
			g.ds("  input ")
			g.dname(w)
			g.ds("\n")
			g.weights[g.nweights%weightPool] = w
			g.nweights++
		} else {
			w = g.weights[g.intn(min(g.nweights, weightPool))]
		}
		g.access(w, depth, &first, false)
	}
	if k%residEvery == 0 {
		if g.resid != none {
			g.access(g.resid, depth, &first, false)
		}
	}
	if k == total-1 && total > 2 {
		g.access(g.long, depth, &first, false)
	}
	// The loop's first direct op always updates the accumulator.
	useAcc := acc != none && (g.intn(2) == 0 || !g.accUsed)
	g.accUsed = g.accUsed || useAcc
	if useAcc {
		g.access(acc, depth, &first, false)
	}
	g.moreReads(depth, &first, reads0)

	// The value written.
	var out ref
	switch {
	case id%2000 == 1999:
		// An in-place update written through a rename.
		out = g.newBuf('t')
		g.ds("  rename n")
		if g.decl {
			g.i(int64(out.id))
		}
		g.ds(" -> ")
		g.dname(out)
		g.ds("\n")
	default:
		out = g.newBuf('t')
	}
	g.ns(" writes ")
	first = true
	if id%2000 == 1999 {
		g.access(ref{'n', out.id, out.size}, depth, &first, true)
	} else {
		g.access(out, depth, &first, true)
	}
	if useAcc {
		g.access(acc, depth, &first, true)
	}
	if g.sh.maxExtraWrites > 0 {
		for range g.intn(g.sh.maxExtraWrites + 1) {
			x := g.newBuf('t')
			g.access(x, depth, &first, true)
			g.push(x)
		}
	}
	g.ns("\n")

	if id%int32(g.sh.lxEvery) == int32(g.sh.lxEvery)-1 {
		g.ds("  lx ")
		g.dname(out)
		g.ds("\n")
	}
	if id%int32(g.sh.viewEvery) == int32(g.sh.viewEvery)-1 {
		v := g.newBuf('v')
		g.alias(v, out)
		g.push(v)
		if id%3000 == 2999 {
			// A chain: a view of the view.
			w := g.newBuf('v')
			g.alias(w, v)
			g.push(w)
		}
	}
	g.cores = nil
	if k%residEvery == 0 {
		g.resid = out
	}
	if k == 0 {
		g.long = out
	}
	g.cur = out
	g.push(out)
	if g.sh.farReads {
		g.sample(out)
	}
}

// moreReads adds the reads of the families with more of them than the
// default: ring values up to a drawn count (wide, views), or values from
// the whole graph's past up to 2 or 3 reads (kargs). reads0 is g.naccess
// before the op's first read.
func (g *gen) moreReads(depth int, first *bool, reads0 int) {
	if g.sh.maxReads > 0 && g.nring > 1 {
		want := g.sh.minReads + g.intn(g.sh.maxReads-g.sh.minReads+1)
		for g.naccess-reads0 < want {
			back := 1 + g.intn(min(g.nring, ringSize)-1)
			g.access(g.ring[(g.nring-1-back)%ringSize], depth, first, false)
		}
	}
	if g.sh.farReads && g.nfar > 0 {
		want := 2 + g.intn(2)
		for g.naccess-reads0 < want {
			g.access(g.far[g.intn(min(g.nfar, farPool))], depth, first, false)
		}
	}
}

// sample keeps a uniform sample of every value written (reservoir
// sampling): the kargs family's long-range reads come from it, so that an
// op late in the graph reads values written hundreds of bundles earlier.
func (g *gen) sample(r ref) {
	if g.nfar < farPool {
		g.far[g.nfar] = r
	} else if j := g.intn(g.nfar + 1); j < farPool {
		g.far[j] = r
	}
	g.nfar++
}

// cpu writes a top-level CPU fallback node.
func (g *gen) cpu() {
	id := g.ncpu
	g.ncpu++
	g.ns("  cpu c")
	g.ni(int64(id))
	g.ns(" reads ")
	first := true
	// Not the current value: that one may end up the graph output.
	src := g.cur
	if g.nring > 1 {
		src = g.ring[(g.nring-1-1-g.intn(min(g.nring, ringSize)-1))%ringSize]
	}
	g.access(src, 0, &first, false)
	out := g.newBuf('h')
	g.ns(" writes ")
	first = true
	g.access(out, 0, &first, false)
	g.ns("\n")
	g.pending = out
}
