package mlirgen

import (
	"bufio"
	"io"

	"github.com/sdscgen/sdscgen/internal/decimal"
)

// printer writes indented lines to a writer through a chunk buffer of its
// own: text is appended to buf (numbers formatted in place, no
// intermediate strings) and handed to the writer in writes of about
// chunkSize bytes, so memory stays bounded however large the module. A
// printer without a writer (a piece printed by a worker, parallel.go)
// hands its text on instead: each buffer it fills goes to hand, and it
// goes on in a fresh one from the pool (getBuf), so that a piece never
// grows (and copies) one buffer to its whole size.
// The first write error sticks: later text is dropped and flush reports
// it, so callers check once at the end instead of after every line.
type printer struct {
	w      io.Writer
	bw     *bufio.Writer // w, when the caller gave a bufio.Writer: flush flushes it too
	buf    []byte
	hand   func([]byte) // without w: takes each filled buffer, in order
	indent int
	err    error
}

const chunkSize = 64 << 10

// bufSize is the capacity of a printer's buffer: a chunk and the line
// that crosses its end.
const bufSize = chunkSize + 4<<10

func newPrinter(w io.Writer) *printer {
	p := &printer{w: w, buf: make([]byte, 0, bufSize)}
	if bw, ok := w.(*bufio.Writer); ok {
		p.bw = bw
	}
	return p
}

// tabs holds enough tabs for any indentation start needs at once.
const tabs = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

// start begins a line at the current indentation.
func (p *printer) start() {
	n := p.indent
	for n > len(tabs) {
		p.buf = append(p.buf, tabs...)
		n -= len(tabs)
	}
	p.buf = append(p.buf, tabs[:n]...)
}

// s appends text. It does not spill: end does, at the end of every line,
// and so do the loops that may print a line of unbounded length (lists).
func (p *printer) s(str string) { p.buf = append(p.buf, str...) }

// i appends v in decimal.
func (p *printer) i(v int64) {
	if uint64(v) < 1e4 {
		p.buf = decimal.Append4(p.buf, uint64(v))
		return
	}
	p.buf = decimal.Append(p.buf, v)
}

// end ends a line.
func (p *printer) end() {
	p.buf = append(p.buf, '\n')
	p.check()
}

// check spills the buffered text once it reaches chunkSize.
func (p *printer) check() {
	if len(p.buf) >= chunkSize {
		p.spill()
	}
}

// spill hands the buffered text to the writer, or without one to hand,
// and starts a fresh buffer.
func (p *printer) spill() {
	if p.w == nil {
		if len(p.buf) > 0 {
			p.hand(p.buf)
			p.buf = getBuf()
		}
		return
	}
	if p.err == nil && len(p.buf) > 0 {
		_, p.err = p.w.Write(p.buf)
	}
	p.buf = p.buf[:0]
}

func (p *printer) flush() error {
	p.spill()
	if p.err == nil && p.bw != nil {
		p.err = p.bw.Flush()
	}
	return p.err
}

// indexList is "index, " repeated: indexTypes copies runs of it.
var indexList = func() string {
	b := make([]byte, 0, 64*7)
	for k := 0; k < 64; k++ {
		b = append(b, "index, "...)
	}
	return string(b)
}()

// indexTypes prints n comma-separated `index` types: the type list of n
// operands or results, every value sdscgen emits being an index.
func (p *printer) indexTypes(n int) {
	for n > 0 {
		k := min(n, len(indexList)/7)
		n -= k
		if n == 0 {
			p.buf = append(p.buf, indexList[:7*k-2]...)
			return
		}
		p.buf = append(p.buf, indexList[:7*k]...)
		p.check()
	}
}
