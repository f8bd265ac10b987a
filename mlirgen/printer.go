package mlirgen

import (
	"bufio"
	"io"
)

// printer writes indented lines to a writer through a chunk buffer of its
// own: text is appended to buf (numbers formatted in place, no
// intermediate strings) and handed to the writer in writes of about
// chunkSize bytes, so memory stays bounded however large the module. A
// printer without a writer (a piece printed by a worker, parallel.go)
// keeps its text instead: each buffer it fills goes to kept, and it goes
// on in a fresh one from the pool (getBuf), so that a piece never grows
// (and copies) one buffer to its whole size.
// The first write error sticks: later text is dropped and flush reports
// it, so callers check once at the end instead of after every line.
type printer struct {
	w      io.Writer
	bw     *bufio.Writer // w, when the caller gave a bufio.Writer: flush flushes it too
	buf    []byte
	kept   [][]byte // without w: the filled buffers, in order
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
		p.buf = append4(p.buf, uint64(v))
		return
	}
	p.buf = appendInt(p.buf, v)
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

// spill hands the buffered text to the writer, or without one keeps it
// and starts a fresh buffer.
func (p *printer) spill() {
	if p.w == nil {
		if len(p.buf) > 0 {
			p.kept = append(p.kept, p.buf)
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

// digits2 holds the two-digit decimal strings 00 to 99.
const digits2 = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// appendInt appends v in decimal, as strconv.AppendInt(b, v, 10) does,
// without a loop up to 16 digits: the values of an emission are nearly
// all below 10^4 (SSA numbers, ids, maps) or 10^10 (pool addresses).
func appendInt(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		b = append(b, '-')
		u = -u
	}
	switch {
	case u < 1e4:
		return append4(b, u)
	case u < 1e8:
		return append4x(append4(b, u/1e4), u%1e4)
	case u < 1e16:
		hi, lo := u/1e8, u%1e8
		if hi < 1e4 {
			b = append4(b, hi)
		} else {
			b = append4x(append4(b, hi/1e4), hi%1e4)
		}
		return append4x(append4x(b, lo/1e4), lo%1e4)
	}
	return appendLong(b, u)
}

// append4 appends u < 10^4 in decimal.
func append4(b []byte, u uint64) []byte {
	if u < 100 {
		if u < 10 {
			return append(b, byte('0'+u))
		}
		return append(b, digits2[2*u], digits2[2*u+1])
	}
	q, r := u/100, 2*(u%100)
	if q < 10 {
		return append(b, byte('0'+q), digits2[r], digits2[r+1])
	}
	return append(b, digits2[2*q], digits2[2*q+1], digits2[r], digits2[r+1])
}

// append4x appends u < 10^4 as exactly four digits.
func append4x(b []byte, u uint64) []byte {
	q, r := 2*(u/100), 2*(u%100)
	return append(b, digits2[q], digits2[q+1], digits2[r], digits2[r+1])
}

// appendLong appends u in decimal, two digits at a time.
func appendLong(b []byte, u uint64) []byte {
	var d [20]byte
	i := len(d)
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		i -= 2
		d[i], d[i+1] = digits2[r], digits2[r+1]
		u = q
	}
	if u >= 10 {
		i -= 2
		d[i], d[i+1] = digits2[2*u], digits2[2*u+1]
	} else {
		i--
		d[i] = byte('0' + u)
	}
	return append(b, d[i:]...)
}
