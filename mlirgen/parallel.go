package mlirgen

import (
	"bufio"
	"io"
	"sync"
	"sync/atomic"

	"github.com/sdscgen/sdscgen/planner"
)

// Parallel emission. The text is a sequence of pieces written in order,
// hence byte-identical to EmitAll's sequential loop; the pieces are
// printed on opt.Workers goroutines.
//
// A producer goroutine walks the bundles. Consecutive small bundles are
// batched into one piece of at least jobOps leaf ops (a fusion-off graph
// has a bundle per op), printed whole by a worker, layout included. A
// bundle of more than bigOps ops is laid out by the producer itself (the
// layout is the sequential pass that fixes every symbol, id, %addr and
// map number and marks the state at every chunkOps-th op), which prints
// the module's head and tail and hands each chunk of declChunk
// declarations and each chunk of chunkOps ops to the workers as a piece
// of its own: a chunk starts from its mark, so it prints the same bytes
// as the sequential printer at that point.
//
// The calling goroutine writes the pieces in order. A piece's text is
// handed to the writer buffer by buffer as it is printed, through a
// channel of perPiece buffers: a worker ahead of the writer waits once
// its piece holds that many, so what is printed and not yet written is
// bounded by bytes (heldBound: about flightBytes), however much text one
// op or one chunk prints. The sizes of pieces are opt's tuning.

// flightBytes is about how many bytes of text the workers may print
// ahead of the writer, all pieces together.
const flightBytes = 4 << 20

// perPiece is how many full buffers one piece may hold ahead of the
// writer: flightBytes shared by the pieces that may hold text at once
// (see heldBound), at least one.
func perPiece(workers int) int {
	return max(1, flightBytes/((max(workers, 1)+1)*bufSize)-1)
}

// heldBound is the most text printed and not yet written at any moment,
// for a printer whose lines end within its buffers (a buffer is at most
// bufSize bytes). A piece holds text only once it is in the order
// channel (the producer sends it there before a worker may take it): at
// most workers pieces wait there and one is being written, and each
// holds at most perPiece buffers in its channel. Besides those, each
// worker may hold one buffer it is blocked sending, and the writer one
// it is writing. A piece that is done printing keeps its buffers until
// it is written, so a slow writer holds workers+1 pieces' worth, not
// workers' (a bound that assumed workers pieces failed under load).
func heldBound(workers int) int64 {
	w := max(workers, 1)
	return int64((w+1)*perPiece(w)+w+1) * bufSize
}

// piece is one run of text of the output: printed by the producer (fn
// nil, its one buffer already in text), or to be printed by fn on a
// worker, at indentation indent. text carries its buffers (of about
// chunkSize bytes, from bufPool) in order and is closed at its end.
type piece struct {
	fn     func(pr *printer)
	indent int
	text   chan []byte
}

// pipeline is the out of a parallel emission's producer.
type pipeline struct {
	order chan *piece // every piece in output order
	work  chan *piece // the pieces to print
	home  *scratchList
	per   int // perPiece(workers)
	// held is how many bytes are printed and not yet written; maxHeld
	// the most it has been (what the tests check against heldBound).
	held, maxHeld atomic.Int64
	tune          *tuning
}

// bufPool holds printers' buffers of bufSize bytes, reused from piece to
// piece: text in flight costs a few of them, however much is printed.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, bufSize); return &b }}

func getBuf() []byte {
	b := bufPool.Get().(*[]byte)
	return (*b)[:0]
}

func putBuf(b []byte) {
	if cap(b) >= bufSize {
		bufPool.Put(&b)
	}
}

func (pl *pipeline) cut() *tuning          { return pl.tune }
func (pl *pipeline) scratch() *scratchList { return pl.home }

// hold counts n more bytes printed and not yet written.
func (pl *pipeline) hold(n int) {
	h := pl.held.Add(int64(n))
	for m := pl.maxHeld.Load(); h > m && !pl.maxHeld.CompareAndSwap(m, h); m = pl.maxHeld.Load() {
	}
}

// part sends what pr holds, then fn's piece.
func (pl *pipeline) part(pr *printer, fn func(pr *printer)) {
	pr.spill()
	pc := &piece{fn: fn, indent: pr.indent, text: make(chan []byte, pl.per)}
	pl.order <- pc
	pl.work <- pc
}

// Write sends a printed piece (the producer printer's text).
func (pl *pipeline) Write(b []byte) (int, error) {
	pc := &piece{text: make(chan []byte, 1)}
	pl.hold(len(b))
	pc.text <- append(getBuf(), b...)
	close(pc.text)
	pl.order <- pc
	return len(b), nil
}

func emitParallel(w io.Writer, p *planner.Result, opt Options) error {
	_, err := emitPipeline(w, p, opt)
	return err
}

// emitPipeline is emitParallel, returning also the most bytes it held
// printed and not yet written.
func emitPipeline(w io.Writer, p *planner.Result, opt Options) (maxHeld int64, err error) {
	pl := &pipeline{order: make(chan *piece, opt.Workers), work: make(chan *piece), home: new(scratchList), per: perPiece(opt.Workers), tune: opt.tuning()}
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Go(func() {
			for pc := range pl.work {
				pr := &printer{buf: getBuf(), indent: pc.indent, hand: func(b []byte) {
					pl.hold(len(b))
					pc.text <- b
				}}
				pc.fn(pr)
				pr.spill()
				putBuf(pr.buf)
				close(pc.text)
			}
		})
	}
	go func() {
		pr := newPrinter(pl)
		bs := p.Graph.Bundles
		for lo := 0; lo < len(bs); {
			if len(bs[lo].Ops) > pl.tune.bigOps {
				emitRange(pr, p, lo, lo+1, opt, pl)
				lo++
				continue
			}
			hi, ops := lo, 0
			for hi < len(bs) && ops < pl.tune.jobOps && len(bs[hi].Ops) <= pl.tune.bigOps {
				ops += len(bs[hi].Ops) + 1
				hi++
			}
			l, h := lo, hi
			pl.part(pr, func(pr *printer) { emitRange(pr, p, l, h, opt, inline{pl.home}) })
			lo = hi
		}
		pr.flush() // pl's Write does not fail
		close(pl.work)
		close(pl.order)
	}()
	for pc := range pl.order {
		for b := range pc.text {
			if err == nil && len(b) > 0 {
				_, err = w.Write(b)
			}
			pl.held.Add(-int64(len(b)))
			putBuf(b)
		}
	}
	wg.Wait()
	pl.home.done()
	if bw, ok := w.(*bufio.Writer); ok && err == nil {
		err = bw.Flush()
	}
	return pl.maxHeld.Load(), err
}
