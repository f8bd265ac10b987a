package frontend

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unsafe"
)

// failingReader gives src, then fails with err.
type failingReader struct {
	src string
	err error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.src == "" {
		return 0, r.err
	}
	n := copy(p, r.src)
	r.src = r.src[n:]
	return n, nil
}

const tinyGraph = "graph g {\n  buffer a : 256\n  op k writes a\n}\n"

// TestReaderReadError: a failing read is ParseCheckReader's answer,
// even when the bytes before it have a syntax error (ParseCheck of the
// whole input never gets to parse it) and when it comes after the
// graph's end.
func TestReaderReadError(t *testing.T) {
	bad := errors.New("disk on fire")
	for _, src := range []string{"", tinyGraph, "graph g { op", "graph g {\n  buffer a : 12ab\n}\n" + strings.Repeat("# pad\n", 100)} {
		for _, win := range []int{4, windowSize} {
			g, errs, err := parseCheckReader("r.bir", &failingReader{src: src, err: bad}, 0, window{size: win, limit: maxSource}, defaultPipe)
			if err != bad || g != nil || errs != nil {
				t.Errorf("%q, window %d: got graph %v, diagnostics %v, error %v; want only %v", src, win, g != nil, errs, err, bad)
			}
		}
	}
}

// TestReaderNoProgress: a reader that keeps returning nothing fails the
// parse instead of hanging it.
func TestReaderNoProgress(t *testing.T) {
	_, _, err := ParseCheckReader("r.bir", &chunkReader{src: []byte(tinyGraph), max: -1}, 0)
	if err != io.ErrNoProgress {
		t.Errorf("error %v, want io.ErrNoProgress", err)
	}
}

// TestReaderLimit: an input of limit bytes or more is refused with the
// message and position of ParseCheck's 2 GiB check, whatever else is
// wrong with it, and the reading stops at the limit; one byte less is
// parsed.
func TestReaderLimit(t *testing.T) {
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }
	const limit = 100
	for _, c := range []struct {
		src  string
		want string // "" for no diagnostic
	}{
		{pad(tinyGraph, limit-1), ""},
		{pad(tinyGraph, limit), "r.bir:1:1: error: file is 2 GiB or larger"},
		{pad(tinyGraph, 10*limit), "r.bir:1:1: error: file is 2 GiB or larger"},
		{pad("graph g { op", 10*limit), "r.bir:1:1: error: file is 2 GiB or larger"},
		// Not text: read no further than its first error.
		{pad("\x00", 10*limit), `r.bir:1:1: error: unexpected character '\x00'`},
		// The end of the file is after the padding: column 100.
		{pad("graph g { op", limit-1), "r.bir:1:100: error: unexpected end of file, expected a name"},
	} {
		for _, win := range []int{4, 64, windowSize} {
			r := &chunkReader{src: []byte(c.src)}
			g, errs, err := parseCheckReader("r.bir", r, 0, window{size: win, limit: limit}, defaultPipe)
			if err != nil || errs.Error() != c.want || (g == nil) != (c.want != "") {
				t.Errorf("%.20q (%d bytes), window %d: graph %v, diagnostics %q, error %v; want %q", c.src, len(c.src), win, g != nil, errs.Error(), err, c.want)
			}
			if read := len(c.src) - len(r.src); read > limit {
				t.Errorf("%.20q (%d bytes), window %d: read %d bytes, past the limit", c.src, len(c.src), win, read)
			}
		}
	}
}

// TestReaderLongToken: a name much longer than the window, split by the
// reader anywhere, is one name; so is a comment, and a CR LF at a
// window's end is one line break.
func TestReaderLongToken(t *testing.T) {
	long := strings.Repeat("n", 100_000)
	src := "graph g {\r\n  buffer " + long + " : 256 // " + strings.Repeat("c", 50_000) + "\r\n  op k writes " + long + "\r\n  op k writes q\r\n}\r\n"
	want, werrs := ParseCheck("r.bir", []byte(src))
	if werrs.Error() != "r.bir:4:6: error: duplicate node \"k\" (first declared at 3:6)\nr.bir:4:15: error: undeclared buffer \"q\"" {
		t.Fatalf("ParseCheck: %v", werrs)
	}
	for _, win := range []int{4, 5, 1000} {
		g, errs, err := parseCheckReader("r.bir", &chunkReader{src: []byte(src), max: 4093}, 0, window{size: win, limit: maxSource}, defaultPipe)
		if err != nil || errs.Error() != werrs.Error() || !sameGraph(g, want) {
			t.Errorf("window %d: error %v, diagnostics %v", win, err, errs)
		}
	}
}

// countingReader reads src as much at a time as asked, counting calls.
type countingReader struct {
	src   []byte
	calls int
}

func (r *countingReader) Read(p []byte) (int, error) {
	r.calls++
	n := copy(p, r.src)
	r.src = r.src[n:]
	if len(r.src) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// TestReaderSizeTooSmall: a size hint far below the input's length
// sizes only the first window. The input, 105,029 bytes, is read into a
// first window of 11 bytes (one call of Read), then into windows of 16
// KiB less the few bytes a refill keeps (105,018 / 16,384 = 6.4): 7 of
// them, so 8 calls; windows of 11 bytes would take over 9,000.
func TestReaderSizeTooSmall(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph g {\n  buffer a : 256\n") // 27 bytes
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "  op k%05d writes a\n", i) // 21 bytes
	}
	b.WriteString("}\n")
	if b.Len() != 105_029 {
		t.Fatalf("input of %d bytes", b.Len())
	}
	r := &countingReader{src: []byte(b.String())}
	g, errs, err := parseCheckReader("r.bir", r, 10, window{size: 16 << 10, limit: maxSource}, defaultPipe)
	if err != nil || errs != nil || len(g.Bundles) != 5000 {
		t.Fatalf("error %v, diagnostics %v", err, errs)
	}
	if r.calls != 8 {
		t.Errorf("%d calls of Read, want 8", r.calls)
	}
}

// zeros is an input of NULs without end, counting the bytes read; past
// max it fails the read, so that a reader that does not stop is caught
// without reading gigabytes.
type zeros struct{ n, max int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n >= z.max {
		return 0, errors.New("read far past the first window")
	}
	p = p[:min(int64(len(p)), z.max-z.n)]
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// TestReaderStopsAtBinary: input that is not text (a NUL byte) is not
// read to its end after its first lexical error, as text is (to find
// whether it is 2 GiB or longer): a stream of NULs without end gives the
// error at 1:1 once the first window (windowSize bytes: no size hint)
// is read, not after 2 GiB. Text with a NUL further in stops there too.
func TestReaderStopsAtBinary(t *testing.T) {
	z := &zeros{max: 64 << 20}
	g, errs, err := ParseCheckReader("r.bir", z, 0)
	if want := `r.bir:1:1: error: unexpected character '\x00'`; err != nil || g != nil || errs.Error() != want {
		t.Errorf("graph %v, diagnostics %q, error %v; want %q", g != nil, errs.Error(), err, want)
	}
	if z.n > windowSize {
		t.Errorf("read %d bytes; want at most the first window's %d", z.n, windowSize)
	}
	// A NUL after some text, in a later window: the read stops with
	// the window that holds it.
	text := "graph g {\n  buffer a : 256\n  op k writes a\n" + strings.Repeat("# pad\n", 1000) // 6,043 bytes
	r := io.MultiReader(strings.NewReader(text), &zeros{max: 64 << 20})
	var n int64
	counted := readFunc(func(p []byte) (int, error) {
		k, err := r.Read(p)
		n += int64(k)
		return k, err
	})
	_, errs, err = parseCheckReader("r.bir", counted, 0, window{size: 4 << 10, limit: maxSource}, defaultPipe)
	if want := `r.bir:1004:1: error: unexpected character '\x00'`; err != nil || errs.Error() != want {
		t.Errorf("text then NULs: diagnostics %q, error %v; want %q", errs.Error(), err, want)
	}
	// Windows of 4 KiB: the NUL at byte 6,043 is in the second.
	if n > 8<<10 {
		t.Errorf("text then NULs: read %d bytes; want at most two windows of 4 KiB", n)
	}
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

// TestWindowLines: the windows of an input, read a few bytes at a time,
// are the input cut just after line breaks: every window but the last
// ends with an LF, or with a CR not followed by an LF (so a CR LF is
// never split), and holds at least one whole line, which grows the
// window past its size for a long line.
func TestWindowLines(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, src := range []string{
		"ab\ncd\r\nef\rgh\n",
		"a\r\n\r\n\r\r\n\n" + long + "\r\n" + long + "\rz",
		"no final newline",
		long + "\n" + long,
		"\r\r\r\r\r\r\r\r\n",
	} {
		for _, win := range []int{4, 5, 16} {
			for chunk := 1; chunk <= 7; chunk++ {
				w := &window{r: &chunkReader{src: []byte(src), max: chunk}, size: win, limit: maxSource}
				got := []string{w.first(win)}
				for !w.done {
					got = append(got, w.next(""))
				}
				if all := strings.Join(got, ""); all != src {
					t.Fatalf("%q, window %d, chunks of %d: windows %q, not the input", src, win, chunk, got)
				}
				for i, g := range got[:len(got)-1] {
					end := g[len(g)-1]
					if g == "" || end != '\n' && end != '\r' || end == '\r' && got[i+1] != "" && got[i+1][0] == '\n' {
						t.Errorf("%q, window %d, chunks of %d: window %d of %q does not end after a line break", src, win, chunk, i, got)
					}
				}
			}
		}
	}
}

// TestReaderLines: ParseCheckReader through windows of a few bytes,
// read a few bytes at a time, gives ParseCheck's result on the inputs
// whose lines the windows cut: a line longer than the window (many
// tokens), no final newline, CR LF and lone CR line ends, a NUL inside a
// comment (text: the reading goes on), and UTF-16 whose first line is a
// single byte (the whole first window is looked at).
func TestReaderLines(t *testing.T) {
	var reads strings.Builder
	for i := 0; i < 300; i++ {
		reads.WriteString(", a")
	}
	long := "graph g {\n  buffer a : 256\n  op k reads a" + reads.String() + " writes a\n}\n"
	for _, c := range []struct {
		src, want string
	}{
		{long, ""},
		{tinyGraph[:len(tinyGraph)-1], ""},
		{strings.ReplaceAll(tinyGraph, "\n", "\r\n"), ""},
		{strings.ReplaceAll(tinyGraph, "\n", "\r"), ""},
		{"graph g {\r\n  buffer a : 256\r\n  op k writes q\r\n}", `r.bir:3:15: error: undeclared buffer "q"`},
		{"# a NUL \x00 in a comment\n" + tinyGraph, ""},
		{"// a NUL \x00 in a comment\n" + tinyGraph, ""},
		{"\n\x00g\x00r\x00", "r.bir:1:1: error: file is UTF-16; sdscgen reads UTF-8"},
		{"graph g {\n  op k\x00 writes a\n}\n", `r.bir:2:7: error: unexpected character '\x00'`},
	} {
		want, werrs := ParseCheck("r.bir", []byte(c.src))
		if werrs.Error() != c.want {
			t.Fatalf("%.30q: ParseCheck: %q, want %q", c.src, werrs.Error(), c.want)
		}
		for _, win := range []int{4, 5, 64} {
			for chunk := 0; chunk <= 3; chunk++ {
				g, errs, err := parseCheckReader("r.bir", &chunkReader{src: []byte(c.src), max: chunk, seed: win}, 0, window{size: win, limit: maxSource}, defaultPipe)
				if err != nil || errs.Error() != c.want || !sameGraph(g, want) {
					t.Errorf("%.30q, window %d, chunks of %d: error %v, diagnostics %q; want %q", c.src, win, chunk, err, errs.Error(), c.want)
				}
			}
		}
	}
}

// TestWindowRelease: the scanner's last window moved off is written
// again, as the window after the next refill, only once the parser has
// released it, and a window moved off before it never is (a statement
// spanning three windows may still hold names of both). The windows'
// text, read before each is written again, is still the input.
func TestWindowRelease(t *testing.T) {
	src := strings.Repeat("a line of text\n", 40)
	w := &window{r: strings.NewReader(src), size: 32, limit: maxSource, poison: true}
	data := func(s string) *byte { return unsafe.StringData(s) }
	var text strings.Builder
	keep := func(s string) string { text.WriteString(s); return s }
	a := keep(w.first(32))
	b := keep(w.next(""))
	c := keep(w.next(""))
	if data(c) == data(a) || data(c) == data(b) {
		t.Fatal("a window moved off was written again before any release")
	}
	w.release()
	if b[0] != 0xff {
		t.Errorf("release did not poison the window it freed: %q", b)
	}
	if a[0] != 'a' {
		t.Errorf("release poisoned the window moved off before the last: %q", a)
	}
	d := keep(w.next(""))
	if data(d) != data(b) {
		t.Error("the window after a release was not written into the released one")
	}
	e := keep(w.next(""))
	if data(e) == data(c) || data(e) == data(b) || data(e) == data(a) {
		t.Error("a window was written again without a release since it was moved off")
	}
	w.release()
	w.release() // nothing retired since: no effect
	if f := keep(w.next("")); data(f) != data(d) {
		t.Error("the window after the second release was not written into the one it released")
	}
	for !w.done {
		keep(w.next(""))
		w.release()
	}
	if text.String() != src {
		t.Errorf("the windows' text is not the input:\n%q", text.String())
	}
}
