package mlirgen

import (
	"bufio"
	"io"
	"strconv"
)

// printer writes indented lines to a writer through a chunk buffer of its
// own: text is appended to buf (numbers formatted in place, no
// intermediate strings) and handed to the writer in writes of about
// chunkSize bytes, so memory stays bounded however large the module.
// The first write error sticks: later text is dropped and flush reports
// it, so callers check once at the end instead of after every line.
type printer struct {
	w      io.Writer
	bw     *bufio.Writer // w, when the caller gave a bufio.Writer: flush flushes it too
	buf    []byte
	indent int
	err    error
}

const chunkSize = 64 << 10

func newPrinter(w io.Writer) *printer {
	p := &printer{w: w, buf: make([]byte, 0, chunkSize+4<<10)}
	if bw, ok := w.(*bufio.Writer); ok {
		p.bw = bw
	}
	return p
}

// start begins a line at the current indentation.
func (p *printer) start() {
	for i := 0; i < p.indent; i++ {
		p.buf = append(p.buf, '\t')
	}
}

func (p *printer) s(str string) {
	p.buf = append(p.buf, str...)
	if len(p.buf) >= chunkSize {
		p.spill()
	}
}

func (p *printer) i(v int64) { p.buf = strconv.AppendInt(p.buf, v, 10) }

func (p *printer) end() { p.s("\n") }

// spill hands the buffered text to the writer.
func (p *printer) spill() {
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

// indexTypes prints n comma-separated `index` types: the type list of n
// operands or results, every value sdscgen emits being an index.
func (p *printer) indexTypes(n int) {
	for k := 0; k < n; k++ {
		if k > 0 {
			p.s(", ")
		}
		p.s("index")
	}
}
