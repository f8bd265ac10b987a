package mlirgen

import (
	"bytes"
	"io"
	"sync"

	"github.com/sdscgen/sdscgen/planner"
)

// Parallel emission. A bundle's module depends on the plan alone, so
// modules can be printed on several goroutines; the text is written in
// bundle order, hence byte-identical to EmitAll's sequential loop.
// Consecutive small bundles are batched into one job of at least jobOps
// leaf ops (a fusion-off graph has a bundle per op), each job printed
// into a buffer of its own; a bundle of more than directOps ops is
// printed by the calling goroutine straight to the writer, so memory
// stays bounded by the jobs in flight (opt.Workers of them ahead of the
// one being written), not by the output. Every printing goroutine takes
// its own scratch from scratchPool. (Variables for the tests only.)
var (
	jobOps    = 4096
	directOps = 1 << 15
)

type job struct {
	lo, hi int // bundles [lo, hi)
	direct bool
	done   chan *bytes.Buffer
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// jobs cuts the bundles into jobs.
func jobs(p *planner.Result) []job {
	var js []job
	bs := p.Graph.Bundles
	for lo := 0; lo < len(bs); {
		if len(bs[lo].Ops) > directOps {
			js = append(js, job{lo: lo, hi: lo + 1, direct: true})
			lo++
			continue
		}
		hi, ops := lo, 0
		for hi < len(bs) && ops < jobOps && len(bs[hi].Ops) <= directOps {
			ops += len(bs[hi].Ops) + 1
			hi++
		}
		js = append(js, job{lo: lo, hi: hi})
		lo = hi
	}
	return js
}

// emitRange prints bundles [lo, hi), each but the graph's first preceded
// by Separator.
func emitRange(pr *printer, p *planner.Result, lo, hi int, opt Options) {
	for bi := lo; bi < hi; bi++ {
		if bi > 0 {
			pr.s(Separator)
		}
		emitAny(pr, p, bi, opt)
	}
}

func emitParallel(w io.Writer, p *planner.Result, opt Options) error {
	js := jobs(p)
	next := 0 // the next job to start
	start := func(limit int) {
		for ; next < len(js) && next < limit; next++ {
			j := &js[next]
			if j.direct {
				continue
			}
			j.done = make(chan *bytes.Buffer, 1)
			go func() {
				buf := bufPool.Get().(*bytes.Buffer)
				buf.Reset()
				pr := newPrinter(buf)
				emitRange(pr, p, j.lo, j.hi, opt)
				pr.flush() // a bytes.Buffer does not fail
				j.done <- buf
			}()
		}
	}
	pr := newPrinter(w)
	for k := range js {
		start(k + 1 + opt.Workers)
		j := &js[k]
		if j.direct {
			emitRange(pr, p, j.lo, j.hi, opt)
			continue
		}
		buf := <-j.done
		pr.raw(buf.Bytes())
		bufPool.Put(buf)
	}
	return pr.flush()
}
