package frontend

import (
	"github.com/sdscgen/sdscgen/internal/fresh"
	"github.com/sdscgen/sdscgen/internal/relay"
)

// The scanner on a goroutine of its own.
//
// ParseCheck is the sequential head of the tool's run, and the second
// core is idle during it: on a source held whole (ParseCheck's, or
// ParseCheckReader's when the input fits its first window, which then
// never moves), a goroutine scans the tokens a batch ahead of the parser,
// which takes them from the batches instead of scanning. The token
// stream is the scanner's either way, so every result and diagnostic is
// the same (sameAsReference holds the two equal, with tiny batches).
// A windowed source (one over a megabyte) is scanned in line as before:
// its refills move the offsets of the tokens the parser holds.

// pipeConfig says when and how the scanner runs ahead.
type pipeConfig struct {
	min     int // the smallest source scanned ahead (smaller: in line)
	batch   int // tokens per batch
	batches int // batches in flight
	first   int // tokens in the first batch, if fewer (0: batch)
	// dupAside is the fewest node names whose duplicates finish looks
	// for on a goroutine of its own (0: never; see builder.finish).
	dupAside int
	// memHook, when set (by this package's benchmarks only), is called
	// where the builder's live heap may peak (see builder.measure).
	memHook func()
}

// defaultPipe scans ahead sources of 32 KiB or more (a few hundred ops:
// below that the goroutine's start and hand-overs are not repaid), in
// batches of 8192 tokens (320 KiB; some 20 per 10k ops: the parser wakes
// the goroutine, parked on a full pipe, once per batch, which costs it a
// futex call; 4096 measured about 1 ms more on its path at 10k), the
// first of 256, for which the parser waits. Duplicate node names are
// looked for aside among 2048 or more: a few are sorted in less time
// than a goroutine takes to start.
var defaultPipe = pipeConfig{min: 32 << 10, batch: 8192, batches: 3, first: 256, dupAside: 2048}

// tokBatch is a run of tokens scanned ahead. The last batch ends with
// the EOF token and carries the scanner's lexical error.
type tokBatch struct {
	toks []token
	last bool
	err  *lexError
}

// pipe is the parser's end of the scanning goroutine.
type pipe struct {
	batches *relay.Relay[*tokBatch] // the goroutine's to the parser
	ended   chan struct{}           // closed when the goroutine has returned
	cur     *tokBatch               // the batch being read, nil before the first
	eof     token                   // the last batch's EOF, repeated past it
	done    bool                    // the last batch is read
	// pre numbers the names the goroutine scans (token.pre); the
	// goroutine's own.
	pre *preTable
}

// startPipe starts scanning p's source ahead, from the scanner's state
// (start has run), when the config says so and the source is whole;
// the names get their token.pre. It runs before the builder is made,
// whose first arrays, a few megabytes to zero, are then made while the
// goroutine scans.
func (p *parser) startPipe(cfg pipeConfig) {
	if len(p.src) < cfg.min || p.more() {
		return
	}
	q := &pipe{batches: relay.New[*tokBatch](cfg.batches), ended: make(chan struct{})}
	all := make([]token, cfg.batch*cfg.batches)
	for i := 0; i < cfg.batches; i++ {
		q.batches.Free(&tokBatch{toks: all[i*cfg.batch : (i+1)*cfg.batch : (i+1)*cfg.batch]})
	}
	s := p.scanner // the goroutine's own copy: p.scanner is not scanned again
	go q.run(&s, cfg.first)
	p.pipe = q
}

// run is the scanning goroutine: it fills free batches until the EOF,
// or until the parser stops it.
func (q *pipe) run(s *scanner, first int) {
	defer close(q.ended)
	q.pre = newPreTable(s.src)
	// noBuffer is set after a keyword whose name names no buffer
	// (namesNoBuffer): a node's, which the builder never looks up (see
	// builder.node), or a kind, which it interns on its own
	// (builder.internKind). That name is not numbered (its pre stays 0,
	// which internPre would take as a name to intern by its text): half
	// the distinct names of a generated graph.
	noBuffer := false
	for {
		b, ok := q.batches.Get()
		if !ok {
			return // the parser is done
		}
		toks := b.toks[:cap(b.toks)]
		if first > 0 {
			// The parser waits for the first batch: a short one
			// starts it sooner.
			toks, first = toks[:min(first, len(toks))], 0
		}
		n := 0
		for n < len(toks) {
			t := &toks[n]
			s.scan(t)
			if t.kind == tokIdent && !noBuffer {
				// Off the parser's path: the builder looks most
				// names (buffers and operands) up by this number.
				t.pre = q.pre.number(int(t.off), int(t.end))
			}
			noBuffer = t.kind == tokKeyword && namesNoBuffer(t.kw)
			n++
			if t.kind == tokEOF {
				b.last, b.err = true, s.err
				break
			}
		}
		b.toks = toks[:n]
		if !q.batches.Put(b) || b.last {
			return
		}
	}
}

// pull stores the next token in t from the batches (p.pipe is set and
// p.toks is used up).
func (p *parser) pull(t *token) {
	q := p.pipe
	if q.done {
		*t = q.eof
		return
	}
	if q.cur != nil {
		q.batches.Free(q.cur)
	}
	b, _ := q.batches.Next() // never closed: the last batch says so
	q.cur = b
	if b.last {
		// The EOF is in this batch: the lexical error, if any, is
		// the parser's to report from now on (see fail).
		q.done, q.eof = true, b.toks[len(b.toks)-1]
		p.scanner.err = b.err
	}
	p.toks, p.ti = b.toks, 1
	*t = b.toks[0]
}

// stopPipe stops the scanning goroutine, if any, and waits for it to
// return; once stopped, it does nothing.
func (p *parser) stopPipe() {
	if q := p.pipe; q != nil {
		q.batches.Stop()
		<-q.ended
		p.pipe, p.toks = nil, nil
	}
}

// preTable numbers the distinct names of a source held whole, in order of
// first appearance from 1, for the scanning goroutine, which alone uses
// it: the builder maps the numbers to its own name ids (internPre). A
// name is kept as its first occurrence's offset and length in the
// source, with the low bits of its hash.
type preTable struct {
	src string
	hasher
	slots []int32  // number; 0: empty
	recs  []preRec // by number - 1
}

type preRec struct{ off, n, hash uint32 }

// newPreTable returns a table for src's names, sized for a name per 40
// bytes (see newBuilder).
func newPreTable(src string) *preTable {
	n := 1 << 10
	for 3*n < 4*(len(src)/40) && n < 1<<26 {
		n *= 2
	}
	return &preTable{src: src, hasher: newHasher(), slots: fresh.Make[int32](n), recs: make([]preRec, 0, 3*n/4)}
}

// number returns the number of the name src[off:end].
func (t *preTable) number(off, end int) int32 {
	s := t.src[off:end]
	h := uint32(t.hash(s))
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			t.recs = append(t.recs, preRec{off: uint32(off), n: uint32(len(s)), hash: h})
			v = int32(len(t.recs))
			t.slots[i] = v
			if 4*len(t.recs) >= 3*len(t.slots) {
				t.grow()
			}
			return v
		}
		if r := &t.recs[v-1]; r.hash == h && t.src[r.off:r.off+r.n] == s {
			return v
		}
	}
}

// grow doubles the slots.
func (t *preTable) grow() {
	t.slots = fresh.Make[int32](2 * len(t.slots))
	mask := uint32(len(t.slots) - 1)
	for k, r := range t.recs {
		i := r.hash & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(k + 1)
	}
}

// namesNoBuffer reports whether the name after keyword k names no
// buffer, as the keywords table says: the node a node keyword declares,
// or the name a clause takes (`kind K`).
func namesNoBuffer(k kw) bool {
	return keywords[k].role == roleNode || keywords[k].arg == argName
}
