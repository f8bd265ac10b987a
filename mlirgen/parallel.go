package mlirgen

import (
	"bufio"
	"io"
	"sync"

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
// The calling goroutine writes the pieces in order. At most opt.Workers
// pieces wait ahead of the one being written, so memory stays bounded by
// a few pieces, not by the output. The sizes are opt's tuning.

// piece is one run of text of the output: printed (done nil), or to be
// printed by fn on a worker, at indentation indent, done closed when bufs
// hold the text (in buffers of about chunkSize bytes from bufPool).
type piece struct {
	fn     func(pr *printer)
	indent int
	bufs   [][]byte
	done   chan struct{}
}

// pipeline is the out of a parallel emission's producer.
type pipeline struct {
	order chan *piece // every piece in output order
	work  chan *piece // the pieces to print
	home  *scratchList
	tune  *tuning
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

// part sends what pr holds, then fn's piece.
func (pl *pipeline) part(pr *printer, fn func(pr *printer)) {
	pr.spill()
	pc := &piece{fn: fn, indent: pr.indent, done: make(chan struct{})}
	pl.order <- pc
	pl.work <- pc
}

// Write sends a printed piece (the producer printer's text).
func (pl *pipeline) Write(b []byte) (int, error) {
	pl.order <- &piece{bufs: [][]byte{append(getBuf(), b...)}}
	return len(b), nil
}

func emitParallel(w io.Writer, p *planner.Result, opt Options) error {
	pl := &pipeline{order: make(chan *piece, opt.Workers), work: make(chan *piece), home: new(scratchList), tune: opt.tuning()}
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Go(func() {
			for pc := range pl.work {
				pr := &printer{buf: getBuf(), indent: pc.indent}
				pc.fn(pr)
				pc.bufs = append(pr.kept, pr.buf)
				close(pc.done)
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
	var err error
	for pc := range pl.order {
		if pc.done != nil {
			<-pc.done
		}
		for _, b := range pc.bufs {
			if err == nil && len(b) > 0 {
				_, err = w.Write(b)
			}
			putBuf(b)
		}
	}
	wg.Wait()
	pl.home.done()
	if bw, ok := w.(*bufio.Writer); ok && err == nil {
		err = bw.Flush()
	}
	return err
}
