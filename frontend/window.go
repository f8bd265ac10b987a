package frontend

import (
	"io"
	"math"
	"unsafe"

	"github.com/sdscgen/sdscgen/ir"
)

// windowSize is the size of ParseCheckReader's window on its input.
const windowSize = 1 << 20

// maxSource is the length at which an input is refused: positions are
// 32-bit.
const maxSource = math.MaxInt32

// noPin is scanner.pin when no token is pinned.
const noPin = math.MaxInt

// window is the input of a scanner that reads from an io.Reader
// (ParseCheckReader): the scanner's src is then a window of it, which
// the scanner moves on when a scan reaches its end (refill). A token, a
// comment or a line break that reaches the end is scanned again from
// its start in the next window, which keeps the bytes from there on; so
// no token ever spans two windows, and a token longer than a window gets
// a larger one.
//
// A window is never written to once scanned: a refill starts a new one.
// The names the parser has taken from the old one (substrings of it) stay
// valid until the builder has copied them, and the old window is garbage
// once they are gone.
type window struct {
	r     io.Reader
	size  int   // the capacity of a new window
	limit int64 // maxSource; tests lower it
	n     int64 // bytes read
	done  bool  // r has ended, failed, or given limit bytes
	err   error // the read error, when r failed
	// tooBig is set when r gave limit bytes: the input is 2 GiB or
	// larger.
	tooBig bool
}

// fill reads into buf up to its capacity, or until the input ends.
func (w *window) fill(buf []byte) []byte {
	idle := 0
	for len(buf) < cap(buf) && !w.done {
		p := buf[len(buf):cap(buf)]
		if rest := w.limit - w.n; int64(len(p)) > rest {
			p = p[:rest]
		}
		n, err := w.r.Read(p)
		buf = buf[:len(buf)+n]
		w.n += int64(n)
		switch {
		case err != nil && err != io.EOF:
			w.done, w.err = true, err
		case w.n >= w.limit:
			// Whether or not the input ends here: ParseCheck refuses
			// a source of limit bytes.
			w.done, w.tooBig = true, true
		case err == io.EOF:
			w.done = true
		case n == 0:
			// As bufio: a reader that keeps returning nothing is
			// broken, not slow.
			if idle++; idle >= 100 {
				w.done, w.err = true, io.ErrNoProgress
			}
		default:
			idle = 0
		}
	}
	return buf
}

// drain reads the rest of the input, so that a read error or an input
// too large is found after a syntax error as before one.
func (w *window) drain() {
	if w.done {
		return
	}
	buf := make([]byte, 0, min(w.size, 64<<10))
	for !w.done {
		w.fill(buf)
	}
}

// more reports whether there is input beyond the window.
func (s *scanner) more() bool { return s.in != nil && !s.in.done }

// refill moves the window on. The new window starts at keep, or at the
// pinned token (pin) if that starts earlier; it returns by how much the
// offsets into it decrease, and moves lineStart, base and pin by as much
// (the caller moves its own offsets).
func (s *scanner) refill(keep int) int {
	keep = min(keep, s.pin)
	tail := len(s.src) - keep
	buf := make([]byte, tail, max(s.in.size, 2*tail, 4))
	copy(buf, s.src[keep:])
	buf = s.in.fill(buf)
	s.src = unsafe.String(unsafe.SliceData(buf), len(buf))
	s.lineStart -= keep
	s.base += keep
	if s.pin != noPin {
		s.pin -= keep
	}
	return keep
}

// ParseCheckReader is ParseCheck reading the source from r, with the
// same results; size is about how long the input is (0: unknown), which
// only sizes its arrays. It reads r through a window of about a
// megabyte instead of holding the whole source, and to its end even
// after a syntax error, so that it reports what ParseCheck of the whole
// input would (an input of 2 GiB or more is refused, whatever its
// errors). The one exception is input that is not text: after a
// lexical error at a NUL byte (or on UTF-16), it reads no further and
// reports that error, even when the input is 2 GiB or longer. A failing
// read returns the read's error, and no graph or diagnostics.
func ParseCheckReader(filename string, r io.Reader, size int) (*ir.Graph, ErrorList, error) {
	return parseCheckReader(filename, r, size, window{size: windowSize, limit: maxSource}, defaultPipe)
}

// parseCheckReader is ParseCheckReader with the window's size and limit
// in w and the config of the scanning goroutine (tests make them tiny).
func parseCheckReader(filename string, r io.Reader, size int, win window, pipe pipeConfig) (*ir.Graph, ErrorList, error) {
	w := &win
	w.r = r
	first := w.size
	if size > 0 && size < first {
		// The whole input in one window, and a byte to see its end;
		// should it be longer, the next windows are of full size.
		first = size + 1
	}
	buf := w.fill(make([]byte, 0, max(first, 4)))
	p := &parser{}
	p.scanner = scanner{src: unsafe.String(unsafe.SliceData(buf), len(buf)), file: filename, line: 1, in: w, pin: noPin}
	p.start()
	p.startPipe(pipe)
	defer p.stopPipe() // on a panic (see parseCheck)
	p.b = newBuilder(filename, size)
	p.b.dupAside, p.b.memHook = pipe.dupAside, pipe.memHook
	_, perr := p.parse()
	p.stopPipe()
	binary := p.binary()
	if !binary {
		w.drain()
	}
	switch {
	case w.err != nil:
		return nil, nil, w.err
	case binary && perr != nil:
		// Whether the window reached the limit or not.
		return nil, p.failed(perr), nil
	case w.tooBig:
		return nil, tooBig(filename), nil
	case perr != nil:
		return nil, p.failed(perr), nil
	}
	g, errs := p.b.finish()
	return g, errs, nil
}

// binary reports whether the scanner stopped at a NUL byte, or at the
// start of a UTF-16 file: the input is not text (a device such as
// /dev/zero, a binary file), and reading on, perhaps gigabytes, would
// only find whether it is 2 GiB or longer. Only the scanner in line can
// have stopped in a window (a source scanned ahead is whole).
func (p *parser) binary() bool {
	s := &p.scanner
	e := s.err
	if e == nil {
		return false
	}
	return e.off < len(s.src) && s.src[e.off] == 0 || s.base == 0 && e.off == 0 && isUTF16(s.src)
}

// tooBig is the diagnostic for an input of 2 GiB or more.
func tooBig(filename string) ErrorList {
	return ErrorList{{Pos: ir.Pos{Line: 1, Col: 1}.In(filename), Msg: "file is 2 GiB or larger"}}
}
