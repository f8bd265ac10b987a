package frontend

import (
	"bytes"
	"io"
	"math"
	"unsafe"

	"github.com/sdscgen/sdscgen/ir"
)

// windowSize is the size of ParseCheckReader's window on its input;
// unknownFirst that of the first window on an input of unknown size.
const (
	windowSize   = 1 << 20
	unknownFirst = 64 << 10
)

// maxSource is the length at which an input is refused: positions are
// 32-bit.
const maxSource = math.MaxInt32

// noPin is scanner.pin when no token is pinned.
const noPin = math.MaxInt

// window is the input of a scanner that reads from an io.Reader
// (ParseCheckReader): the scanner's src is then a window of it, which
// the scanner moves on (refill) when it reaches its end.
//
// The invariant, which keeps the scanner free of window handling: a
// window ends just after a line break, or at the end of the input. A
// line is thus never split between two windows: wherever scan starts a
// token, the rest of its line is in src, with its line break (a CR at
// the end of a window is never the first half of a CR LF), so that no
// token, comment or CR LF reaches the end of a window. The bytes read
// after a window's last line break wait in rest for the next window; a
// line longer than a window gets a larger one, up to the input's limit.
// scan therefore reaches the end of a window only just after a line
// break, and moves it on there (scanner.newline), the only place it
// does.
//
// The one exception is input that is not text, which ParseCheckReader
// reads no further than its first lexical error: a window ends anywhere
// after a NUL byte outside a comment (no '#' or '/' before it on its
// line), since scan stops with an error at it, or before it. That also
// gives the first window the four bytes by which scanner.start knows
// UTF-16 (isUTF16): without a byte order mark, two of them are NULs
// with no '#' or '/' before; with one, its two bytes are no line break.
//
// A window is not written to while the parser may still read a string
// of it (the windows are unsafe.Strings of their buffers, which Go
// allows to be written again only once no such string is read). The
// names the parser takes from a window (substrings of it) are read
// until the builder has copied them, which it has done by the end of
// each declaration or node: the parser calls release at the start of
// each (parser.body), and only then may a window the scanner has moved
// off (retired) be written again, as the next window (spare). A run
// thus reads its input through two windows, not one new window per
// megabyte of it (the source's size in garbage, each page of it a fresh
// page for the kernel to fault in): on the views family, some 45,000
// fewer page faults and 0.78 x the command's CPU (BENCHMARKS.md, "a
// fourth full run"). A statement longer than two windows retires more:
// all but the last are left to the garbage collector, as each window
// was before. The differential test and the fuzzer overwrite a window
// as soon as it is released (poison), so that a string read after its
// release changes their result.
type window struct {
	r     io.Reader
	size  int    // the capacity of a new window
	limit int64  // maxSource; tests lower it
	n     int64  // bytes read
	rest  []byte // read after the window's last line break
	done  bool   // r has ended, failed, or given limit bytes
	err   error  // the read error, when r failed
	// tooBig is set when r gave limit bytes: the input is 2 GiB or
	// larger.
	tooBig  bool
	cur     []byte // the current window's buffer
	retired []byte // the last window moved off, until release
	spare   []byte // a window free to be written (release)
	// poison makes release overwrite the windows it frees, so that a
	// test reading a string of one after it fails at once (tests).
	poison bool
}

// first returns the first window, of capacity n if its lines fit.
func (w *window) first(n int) string {
	return w.lines(make([]byte, 0, n), 0)
}

// next returns the window after one that ended just after a line
// break: keep (the old window's last bytes, which the scanner still
// needs), rest, and at least one whole line after them.
func (w *window) next(keep string) string {
	w.retired = w.cur
	need := max(w.size, 2*(len(keep)+len(w.rest)), 4)
	buf := w.spare[:0]
	w.spare = nil
	if cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	buf = append(append(buf, keep...), w.rest...)
	return w.lines(buf, len(keep))
}

// lines reads into buf until it holds a line break at from or after
// (growing buf for a long line), or the input ends, and returns the
// window that ends after its last line break, keeping the bytes after it
// in rest. The line that starts at from is not text if it holds a NUL
// outside a comment (see window): the window then ends where the reading
// does.
func (w *window) lines(buf []byte, from int) string {
	line := from
	for {
		buf = w.fill(buf)
		end := len(buf)
		if !w.done {
			end = lastBreak(buf, from)
			if end < 0 && !notText(buf[line:]) {
				// No whole line yet: a larger window, up to the
				// limit. The search goes on from the last byte,
				// which may be a CR before an LF.
				from = max(len(buf)-1, from)
				grown := make([]byte, len(buf), len(buf)+int(min(int64(max(len(buf), 4)), w.limit-w.n)))
				copy(grown, buf)
				buf = grown
				continue
			}
			if end < 0 || notText(buf[end:]) {
				end = len(buf)
			}
		}
		w.rest, w.cur = buf[end:], buf
		return unsafe.String(unsafe.SliceData(buf), end)
	}
}

// lastBreak returns the offset just after the last line break in
// buf[from:] that is whole: not a CR at the end of buf, whose LF may be
// still unread. It returns -1 if there is none.
func lastBreak(buf []byte, from int) int {
	n := len(buf)
	if n > from && buf[n-1] == '\n' {
		return n
	}
	// Lines are short: the search from the end stops within one.
	for i := n - 2; i >= from; i-- {
		if c := buf[i]; c == '\n' || c == '\r' {
			return i + 1
		}
	}
	return -1
}

// notText reports whether the start of a line, line, holds a NUL byte
// before any '#' or '/': scan stops with an error at that NUL if not
// before (only a comment may hold one).
func notText(line []byte) bool {
	i := bytes.IndexByte(line, 0)
	return i >= 0 && bytes.IndexAny(line[:i], "#/") < 0
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

// release says that no string of a retired window is read any more:
// the last one becomes the spare, which the next window is written into
// when it is large enough (see window); the others, of a statement
// longer than two windows, are the collector's.
func (w *window) release() {
	r := w.retired
	if r == nil {
		return
	}
	if w.poison {
		r = r[:cap(r)]
		for i := range r {
			r[i] = 0xff
		}
	}
	w.retired, w.spare = nil, r
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

// more reports whether there is input beyond the window: in rest or
// unread (rest is empty once the input has ended).
func (s *scanner) more() bool { return s.in != nil && !s.in.done }

// release tells the window, if any, that the parser is between two
// statements (see window).
func (s *scanner) release() {
	if s.in != nil {
		s.in.release()
	}
}

// refill moves the window on when scan has reached its end, at off
// just after a line break, unless the input ends there. The new window
// starts at off, or at the pinned token (pin) if that starts earlier; it
// returns by how much the offsets into it decrease, and moves lineStart,
// base and pin by as much (the caller moves its own offsets).
func (s *scanner) refill(off int) int {
	if !s.more() {
		return 0
	}
	keep := min(off, s.pin)
	s.src = s.in.next(s.src[keep:])
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
	switch {
	case size > 0 && size < first:
		// The whole input in one window, and a byte to see its end;
		// should it be longer, the next windows are of full size.
		first = size + 1
	case size <= 0:
		// Of unknown size (a pipe): a first window of unknownFirst, so
		// that a small input does not allocate and clear a whole
		// window (a real model's graph, 90-290 KB, then takes a second
		// one); the next ones are of full size.
		first = min(first, unknownFirst)
	}
	p := &parser{}
	p.scanner = scanner{src: w.first(max(first, 4)), file: filename, line: 1, in: w, pin: noPin}
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
