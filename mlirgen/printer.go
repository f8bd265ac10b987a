package mlirgen

import (
	"bufio"
	"io"
	"strconv"
)

// printer writes indented lines to a buffered writer. The first write
// error sticks: later writes are dropped and Flush reports it, so callers
// check once at the end instead of after every line.
type printer struct {
	w      *bufio.Writer
	indent int
	err    error
	num    [24]byte
}

func newPrinter(w io.Writer) *printer {
	if bw, ok := w.(*bufio.Writer); ok {
		return &printer{w: bw}
	}
	return &printer{w: bufio.NewWriterSize(w, 64<<10)}
}

// start begins a line at the current indentation.
func (p *printer) start() {
	for i := 0; i < p.indent; i++ {
		p.s("  ")
	}
}

func (p *printer) s(str string) {
	if p.err == nil {
		_, p.err = p.w.WriteString(str)
	}
}

func (p *printer) i(v int64) {
	if p.err == nil {
		_, p.err = p.w.Write(strconv.AppendInt(p.num[:0], v, 10))
	}
}

func (p *printer) end() { p.s("\n") }

func (p *printer) flush() error {
	if p.err == nil {
		p.err = p.w.Flush()
	}
	return p.err
}
