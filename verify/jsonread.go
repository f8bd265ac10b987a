package verify

import (
	"fmt"
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
type reader struct {
	data  []byte
	i     int
	depth int
	err   error
}

// maxDepth bounds nesting, as encoding/json does, so that hostile input
// cannot exhaust the stack.
const maxDepth = 10000

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("json: offset %d: %s", r.i, fmt.Sprintf(format, args...))
	}
	r.i = len(r.data)
}

// ws skips whitespace and returns the next byte, or 0 at the end (a NUL
// byte in the data also reads as 0: use atEnd to tell).
func (r *reader) ws() byte {
	for r.i < len(r.data) {
		switch c := r.data[r.i]; c {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return c
		}
	}
	return 0
}

// atEnd skips whitespace and reports whether nothing follows.
func (r *reader) atEnd() bool {
	r.ws()
	return r.i >= len(r.data)
}

func (r *reader) what() string {
	if r.i >= len(r.data) {
		return "end of data"
	}
	return strconv.QuoteRune(rune(r.data[r.i]))
}

// lit consumes the literal word (null, true or false) or fails.
func (r *reader) lit(word string) {
	if len(r.data)-r.i >= len(word) && string(r.data[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return
	}
	r.fail("invalid literal, want %s", word)
}

// null consumes a null and reports whether there was one.
func (r *reader) null() bool {
	if r.ws() == 'n' {
		r.lit("null")
		return r.err == nil
	}
	return false
}

// str reads a string. The result aliases the data, or is a fresh slice
// when the string has escapes or non-ASCII bytes: it stays valid.
func (r *reader) str() []byte {
	if r.ws() != '"' {
		r.fail("%s, want a string", r.what())
		return nil
	}
	r.i++
	start := r.i
	for r.i < len(r.data) {
		c := r.data[r.i]
		switch {
		case c == '"':
			s := r.data[start:r.i]
			r.i++
			return s
		case c == '\\' || c >= utf8.RuneSelf:
			return r.slowStr(start)
		case c < 0x20:
			r.fail("control character %#x in a string", c)
			return nil
		}
		r.i++
	}
	r.fail("unterminated string")
	return nil
}

// slowStr finishes a string with escapes or non-ASCII bytes from r.i.
func (r *reader) slowStr(start int) []byte {
	b := append([]byte(nil), r.data[start:r.i]...)
	for r.i < len(r.data) {
		c := r.data[r.i]
		switch {
		case c == '"':
			r.i++
			return b
		case c < 0x20:
			r.fail("control character %#x in a string", c)
			return nil
		case c >= utf8.RuneSelf:
			ru, n := utf8.DecodeRune(r.data[r.i:])
			b = utf8.AppendRune(b, ru) // an invalid byte is U+FFFD
			r.i += n
		case c != '\\':
			b = append(b, c)
			r.i++
		default:
			if r.i+1 >= len(r.data) {
				r.fail("unterminated string")
				return nil
			}
			e := r.data[r.i+1]
			r.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				ru := r.hex4()
				if r.err != nil {
					return nil
				}
				if utf16.IsSurrogate(ru) {
					ru2 := utf8.RuneError
					if r.i+1 < len(r.data) && r.data[r.i] == '\\' && r.data[r.i+1] == 'u' {
						save := r.i
						r.i += 2
						lo := r.hex4()
						if r.err != nil {
							return nil
						}
						if d := utf16.DecodeRune(ru, lo); d != utf8.RuneError {
							ru2 = d
						} else {
							r.i = save // not a pair: the second escape stands alone
						}
					}
					ru = ru2
				}
				b = utf8.AppendRune(b, ru)
			default:
				r.i--
				r.fail("invalid escape \\%c", e)
				return nil
			}
		}
	}
	r.fail("unterminated string")
	return nil
}

func (r *reader) hex4() rune {
	if len(r.data)-r.i < 4 {
		r.fail("short \\u escape")
		return 0
	}
	v, err := strconv.ParseUint(string(r.data[r.i:r.i+4]), 16, 32)
	if err != nil {
		r.fail("invalid \\u escape")
		return 0
	}
	r.i += 4
	return rune(v)
}

// number reads a number and returns its text.
func (r *reader) number() []byte {
	start := r.i
	if r.i < len(r.data) && r.data[r.i] == '-' {
		r.i++
	}
	digits := func() int {
		n := 0
		for r.i < len(r.data) && r.data[r.i] >= '0' && r.data[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	switch {
	case r.i < len(r.data) && r.data[r.i] == '0':
		r.i++
	case digits() == 0:
		r.fail("%s, want a value", r.what())
		return nil
	}
	if r.i < len(r.data) && r.data[r.i] == '.' {
		r.i++
		if digits() == 0 {
			r.fail("%s in a number", r.what())
			return nil
		}
	}
	if r.i < len(r.data) && (r.data[r.i] == 'e' || r.data[r.i] == 'E') {
		r.i++
		if r.i < len(r.data) && (r.data[r.i] == '+' || r.data[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			r.fail("%s in a number", r.what())
			return nil
		}
	}
	return r.data[start:r.i]
}

// int reads an integer that fits in int64.
func (r *reader) int() int64 {
	if c := r.ws(); c != '-' && (c < '0' || c > '9') {
		r.fail("%s, want an integer", r.what())
		return 0
	}
	t := r.number()
	if r.err != nil {
		return 0
	}
	// Fast path: up to 18 digits cannot overflow.
	if len(t) <= 18 && t[0] != '-' {
		var v int64
		for _, c := range t {
			if c < '0' || c > '9' {
				goto slow
			}
			v = v*10 + int64(c-'0')
		}
		return v
	}
slow:
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		r.fail("number %s is not an int64", t)
		return 0
	}
	return v
}

// optInt reads an integer or null.
func (r *reader) optInt() jint {
	if r.null() {
		return jint{}
	}
	return jint{v: r.int(), ok: r.err == nil}
}

// optStr reads a string or null.
func (r *reader) optStr() jstr {
	if r.null() {
		return jstr{}
	}
	s := r.str()
	return jstr{b: s, ok: r.err == nil}
}

// object reads an object (null reads as none and returns false), calling
// member with each key; member must read the value.
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
		key := r.str()
		if r.err != nil {
			break
		}
		if r.ws() != ':' {
			r.fail("%s after an object key, want ':'", r.what())
			break
		}
		r.i++
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
		r.str()
	case 'n':
		r.lit("null")
	case 't':
		r.lit("true")
	case 'f':
		r.lit("false")
	default:
		r.number()
	}
}

// unknown fails on a key the spec does not define.
func (r *reader) unknown(key []byte) {
	r.fail("unknown field %q", key)
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
