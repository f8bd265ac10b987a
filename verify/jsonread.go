package verify

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// reader is a strict JSON (RFC 8259) reader over one document, written
// for the plan check instead of encoding/json, whose reflection cost more
// than the rest of the verifier together (a million buffers per plan).
// It shares no code with the planner's writer. It reads the way a
// consumer's JSON library does: string escapes decoded (\uXXXX, surrogate
// pairs; a lone surrogate or an invalid UTF-8 byte reads as U+FFFD, as in
// encoding/json), integers must be integers that fit in int64, and
// anything that is not JSON is an error. Object keys match exactly (a
// consumer in Python would not see "Graph" as "graph"). The first error
// stops the reader: every later read fails fast.
//
// The document is either all in data (src nil) or streamed from src
// through data, a window that keeps only the token being read: memory is
// bounded by the longest token, not the document. Strings are decoded
// into buffers of their own (see str), so they stay valid while data
// moves on.
type reader struct {
	src   io.Reader
	data  []byte // data[i:] is not read yet
	i     int
	base  int64 // the document offset of data[0]
	tok   int   // with src: the start of the token being read (-1: none), kept by fill
	eof   bool  // src has no more data (or failed: rerr)
	rerr  error
	depth int
	err   error
	value int64 // the document offset after the last key's colon
	// strs holds the strings read since the caller last emptied it;
	// key is the current object key.
	strs, key []byte
}

// maxDepth bounds nesting, as encoding/json does, so that hostile input
// cannot exhaust the stack.
const maxDepth = 10000

// window is the size of a streaming reader's data window (it grows only
// for a token longer than that).
const window = 128 << 10

func newStreamReader(src io.Reader) *reader {
	return &reader{src: src, data: make([]byte, 0, window), tok: -1}
}

func (r *reader) fail(format string, args ...any) {
	r.failAt(r.base+int64(r.i), format, args...)
}

// failAt is fail at document offset off.
func (r *reader) failAt(off int64, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("json: offset %d: %s", off, fmt.Sprintf(format, args...))
	}
	r.i = len(r.data)
	r.eof = true
}

// fill reads more of the document into data, keeping data[min(i, tok):],
// and reports whether there is more to read at i.
func (r *reader) fill() bool {
	if r.src == nil || r.eof {
		return false
	}
	keep := r.i
	if r.tok >= 0 && r.tok < keep {
		keep = r.tok
	}
	if keep > 0 {
		n := copy(r.data, r.data[keep:])
		r.data = r.data[:n]
		r.base += int64(keep)
		r.i -= keep
		if r.tok >= 0 {
			r.tok -= keep
		}
	}
	if len(r.data) == cap(r.data) {
		d := make([]byte, len(r.data), 2*cap(r.data)+window)
		copy(d, r.data)
		r.data = d
	}
	for empty := 0; ; empty++ {
		n, err := r.src.Read(r.data[len(r.data):cap(r.data)])
		r.data = r.data[:len(r.data)+n]
		if err != nil {
			r.eof = true
			if err != io.EOF {
				r.rerr = err
			}
			return r.i < len(r.data)
		}
		if n > 0 {
			return true
		}
		if empty == 100 {
			r.eof, r.rerr = true, io.ErrNoProgress
			return r.i < len(r.data)
		}
	}
}

// more reports whether a byte is there to read at i.
func (r *reader) more() bool { return r.i < len(r.data) || r.fill() }

// need makes n bytes readable at i where the document has them.
func (r *reader) need(n int) {
	for len(r.data)-r.i < n && r.fill() {
	}
}

// expected is the fast path of an array element (i, k): when min is not
// nil and the element is an object, it makes sure at least min(i, k)
// bytes are in data where the document has them, and when match(i, k,
// data) says how long the text it expects is (not 0), skips that text
// and reports true: the caller takes the element as read and checked.
func (r *reader) expected(min func(i, k int) int, match func(i, k int, data []byte) int, i, k int) bool {
	if min == nil || r.ws() != '{' {
		return false
	}
	r.need(min(i, k))
	n := match(i, k, r.data[r.i:])
	r.i += n
	return n > 0
}

// ws skips whitespace and returns the next byte, or 0 at the end (a NUL
// byte in the data also reads as 0: use atEnd to tell). It is short
// enough to be inlined where no whitespace comes.
func (r *reader) ws() byte {
	if r.i < len(r.data) {
		if c := r.data[r.i]; c > ' ' {
			return c
		}
	}
	return r.wsSlow()
}

func (r *reader) wsSlow() byte {
	for {
		for r.i < len(r.data) {
			switch c := r.data[r.i]; c {
			case ' ', '\t', '\n', '\r':
				r.i++
			default:
				return c
			}
		}
		if !r.fill() {
			return 0
		}
	}
}

// atEnd skips whitespace and reports whether nothing follows.
func (r *reader) atEnd() bool {
	r.ws()
	return r.i >= len(r.data)
}

func (r *reader) what() string {
	if !r.more() {
		return "end of data"
	}
	return strconv.QuoteRune(rune(r.data[r.i]))
}

// lit consumes the literal word (null, true or false) or fails.
func (r *reader) lit(word string) {
	r.need(len(word))
	if len(r.data)-r.i >= len(word) && string(r.data[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return
	}
	r.fail("invalid literal, want %s", word)
}

// null consumes a null and reports whether there was one.
func (r *reader) null() bool {
	if c := r.ws(); c == 'n' {
		if r.i+4 <= len(r.data) && string(r.data[r.i:r.i+4]) == "null" {
			r.i += 4
			return true
		}
		r.lit("null")
		return r.err == nil
	}
	return false
}

// str reads a string, appended to r.strs: the result stays valid until
// the caller empties r.strs (r.strs = r.strs[:0]).
func (r *reader) str() []byte {
	start := len(r.strs)
	r.strs = r.strInto(r.strs)
	if r.err != nil {
		return nil
	}
	return r.strs[start:len(r.strs):len(r.strs)]
}

// strInto reads a string and returns dst with its decoded bytes appended.
func (r *reader) strInto(dst []byte) []byte {
	if r.ws() != '"' {
		r.fail("%s, want a string", r.what())
		return dst
	}
	r.i++
	for {
		// The plain run up to a quote, an escape, a control or a
		// non-ASCII byte.
		data, i := r.data, r.i
		for i < len(data) && plain[data[i]] {
			i++
		}
		dst = append(dst, data[r.i:i]...)
		r.i = i
		if i == len(data) {
			if !r.fill() {
				r.fail("unterminated string")
				return dst
			}
			continue
		}
		switch c := data[i]; {
		case c == '"':
			r.i++
			return dst
		case c < 0x20:
			r.fail("control character %#x in a string", c)
			return dst
		case c >= utf8.RuneSelf:
			r.need(utf8.UTFMax)
			ru, n := utf8.DecodeRune(r.data[r.i:])
			dst = utf8.AppendRune(dst, ru) // an invalid byte is U+FFFD
			r.i += n
		default:
			dst = r.escape(dst)
			if r.err != nil {
				return dst
			}
		}
	}
}

// escape decodes the escape at i (a backslash) onto dst.
func (r *reader) escape(dst []byte) []byte {
	r.need(2)
	if r.i+1 >= len(r.data) {
		r.fail("unterminated string")
		return dst
	}
	e := r.data[r.i+1]
	r.i += 2
	switch e {
	case '"', '\\', '/':
		return append(dst, e)
	case 'b':
		return append(dst, '\b')
	case 'f':
		return append(dst, '\f')
	case 'n':
		return append(dst, '\n')
	case 'r':
		return append(dst, '\r')
	case 't':
		return append(dst, '\t')
	case 'u':
		ru := r.hex4()
		if r.err != nil {
			return dst
		}
		if utf16.IsSurrogate(ru) {
			ru2 := utf8.RuneError
			r.need(2)
			if r.i+1 < len(r.data) && r.data[r.i] == '\\' && r.data[r.i+1] == 'u' {
				r.tok = r.i // keep the escape: it may stand alone
				r.i += 2
				lo := r.hex4()
				save := r.tok
				r.tok = -1
				if r.err != nil {
					return dst
				}
				if d := utf16.DecodeRune(ru, lo); d != utf8.RuneError {
					ru2 = d
				} else {
					r.i = save // not a pair: the second escape stands alone
				}
			}
			ru = ru2
		}
		return utf8.AppendRune(dst, ru)
	default:
		r.i--
		r.fail("invalid escape \\%c", e)
		return dst
	}
}

func (r *reader) hex4() rune {
	r.need(4)
	if len(r.data)-r.i < 4 {
		r.fail("short \\u escape")
		return 0
	}
	var v rune
	for _, c := range r.data[r.i : r.i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			r.fail("invalid \\u escape")
			return 0
		}
	}
	r.i += 4
	return v
}

// plain[c]: byte c stands for itself in a string (not a quote, an
// escape, a control or part of a multi-byte UTF-8 sequence).
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// digits skips decimal digits and returns how many.
func (r *reader) digits() int {
	n := 0
	for r.more() && r.data[r.i] >= '0' && r.data[r.i] <= '9' {
		r.i++
		n++
	}
	return n
}

// number reads a number; its text is data[tok:i] afterwards (the caller
// resets tok).
func (r *reader) number() {
	r.tok = r.i
	if r.more() && r.data[r.i] == '-' {
		r.i++
	}
	switch {
	case r.more() && r.data[r.i] == '0':
		r.i++
	case r.digits() == 0:
		r.fail("%s, want a value", r.what())
		return
	}
	if r.more() && r.data[r.i] == '.' {
		r.i++
		if r.digits() == 0 {
			r.fail("%s in a number", r.what())
			return
		}
	}
	if r.more() && (r.data[r.i] == 'e' || r.data[r.i] == 'E') {
		r.i++
		if r.more() && (r.data[r.i] == '+' || r.data[r.i] == '-') {
			r.i++
		}
		if r.digits() == 0 {
			r.fail("%s in a number", r.what())
			return
		}
	}
}

// int reads an integer that fits in int64.
func (r *reader) int() int64 {
	if c := r.ws(); c != '-' && (c < '0' || c > '9') {
		r.fail("%s, want an integer", r.what())
		return 0
	}
	// Fast path: 1 to 18 digits (they cannot overflow), then a byte
	// already in data that cannot continue a number.
	data, i := r.data, r.i
	switch c := data[i]; {
	case c >= '1' && c <= '9':
		var v int64
		j := i
		for j < len(data) && j-i < 18 && data[j] >= '0' && data[j] <= '9' {
			v = v*10 + int64(data[j]-'0')
			j++
		}
		if j < len(data) && !isNumberByte(data[j]) {
			r.i = j
			return v
		}
	case c == '0' && i+1 < len(data) && !isNumberByte(data[i+1]):
		r.i = i + 1
		return 0
	}
	r.number()
	if r.err != nil {
		r.tok = -1
		return 0
	}
	t := r.data[r.tok:r.i]
	r.tok = -1
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		r.fail("number %s is not an int64", t)
		return 0
	}
	return v
}

// isNumberByte: c can be part of a JSON number.
func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// optInt reads an integer or null.
func (r *reader) optInt() jint {
	if r.null() {
		return jint{}
	}
	return jint{v: r.int(), ok: r.err == nil}
}

// optStr reads a string or null (see str for how long it stays valid).
func (r *reader) optStr() jstr {
	if r.null() {
		return jstr{}
	}
	s := r.str()
	return jstr{b: s, ok: r.err == nil}
}

// object reads an object (null reads as none and returns false), calling
// member with each key; member must read the value. The key is valid
// until member reads the value.
func (r *reader) object(member func(key []byte)) bool {
	if r.null() {
		return false
	}
	if r.ws() != '{' {
		r.fail("%s, want an object", r.what())
		return false
	}
	if r.depth++; r.depth > maxDepth {
		r.fail("nested too deeply")
		return false
	}
	r.i++
	if r.ws() == '}' {
		r.i++
		r.depth--
		return true
	}
	for r.err == nil {
		key := r.objectKey()
		if r.err != nil {
			break
		}
		member(key)
		switch r.ws() {
		case ',':
			r.i++
		case '}':
			r.i++
			r.depth--
			return true
		default:
			r.fail("%s after an object member, want ',' or '}'", r.what())
		}
	}
	return false
}

// objectKey reads a key and the colon after it. The key is a slice of
// data when it is plain and the colon follows at once (no copy), else
// r.key; either way it is valid until the next read.
func (r *reader) objectKey() []byte {
	// In place: a space, the key, the colon and a space, where there
	// are (the layout of planner.WriteJSON, and of most writers).
	data, i := r.data, r.i
	if i < len(data) && data[i] == ' ' {
		i++
	}
	if i < len(data) && data[i] == '"' {
		j := i + 1
		for j < len(data) && plain[data[j]] {
			j++
		}
		if j+2 < len(data) && data[j] == '"' && data[j+1] == ':' {
			r.i = j + 2
			r.value = r.base + int64(r.i)
			if data[j+2] == ' ' {
				r.i++
			}
			return data[i+1 : j]
		}
	}
	r.key = r.strInto(r.key[:0])
	if r.err != nil {
		return nil
	}
	if r.ws() != ':' {
		r.fail("%s after an object key, want ':'", r.what())
		return nil
	}
	r.i++
	r.value = r.base + int64(r.i)
	return r.key
}

// array reads an array (null reads as none and returns false), calling
// elem with each index; elem must read the element.
func (r *reader) array(elem func(i int)) bool {
	if r.null() {
		return false
	}
	if r.ws() != '[' {
		r.fail("%s, want an array", r.what())
		return false
	}
	if r.depth++; r.depth > maxDepth {
		r.fail("nested too deeply")
		return false
	}
	r.i++
	if r.ws() == ']' {
		r.i++
		r.depth--
		return true
	}
	for n := 0; r.err == nil; n++ {
		elem(n)
		switch r.ws() {
		case ',':
			r.i++
		case ']':
			r.i++
			r.depth--
			return true
		default:
			r.fail("%s after an array element, want ',' or ']'", r.what())
		}
	}
	return false
}

// skip reads any value.
func (r *reader) skip() {
	switch r.ws() {
	case '{':
		r.object(func([]byte) { r.skip() })
	case '[':
		r.array(func(int) { r.skip() })
	case '"':
		r.strs = r.strInto(r.strs[:0])
	case 'n':
		r.lit("null")
	case 't':
		r.lit("true")
	case 'f':
		r.lit("false")
	default:
		r.number()
		r.tok = -1
	}
}

// unknown fails on a key the spec does not define (at its colon's end,
// however much whitespace has been read).
func (r *reader) unknown(key []byte) {
	r.failAt(r.value, "unknown field %q", key)
}

// jstr and jint are an optional string or integer: ok is false for null
// or a missing key.
type jstr struct {
	b  []byte
	ok bool
}

type jint struct {
	v  int64
	ok bool
}

func (s jstr) is(want string) bool { return s.ok && string(s.b) == want }
func (v jint) is(want int64) bool  { return v.ok && v.v == want }

func (s jstr) String() string {
	if !s.ok {
		return "null"
	}
	return strconv.Quote(string(s.b))
}

func (v jint) String() string {
	if !v.ok {
		return "null"
	}
	return strconv.FormatInt(v.v, 10)
}
