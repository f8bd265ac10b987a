package frontend

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types. Zero is deliberately unused so that a lexer.Token field the
// grammar did not capture (Type 0) is distinguishable from a captured one.
// They are untyped: a token holds its kind in one byte (tokKind), and
// participle sees it as the lexer.TokenType of the same value.
const (
	tokIdent = iota + 1
	tokKeyword
	tokInt
	tokPunct
	tokEOF = -1
)

// tokEOF is participle's lexer.EOF (this fails to compile otherwise).
const _ = uint(tokEOF-lexer.EOF) + uint(lexer.EOF-tokEOF)

// tokKind is a token's type: tokIdent, tokKeyword, tokInt, tokPunct or
// tokEOF.
type tokKind int8

// maxNesting is the deepest fused/loop nesting accepted. The parser
// recurses once per level, so the limit is enforced by the lexer, before any
// recursion, to keep hostile input from exhausting the stack.
const maxNesting = 255

var symbols = map[string]lexer.TokenType{
	"EOF":     lexer.EOF,
	"Ident":   tokIdent,
	"Keyword": tokKeyword,
	"Int":     tokInt,
	"Punct":   tokPunct,
}

// kwByShape maps the length, first and last letter of a word to the only
// keyword (of the table in ast.go) that has them (no two keywords share
// all three: "count" and "cores" share the first two), so that an
// ordinary name is told apart with a table load and, at worst, one
// comparison. It has room for keywords of up to 11 letters.
var kwByShape [12][26][26]kw

func init() {
	for k := kwGraph; k <= kwLast; k++ {
		w := kwText(k)
		if kwByShape[len(w)][w[0]-'a'][w[len(w)-1]-'a'] != kwNone {
			panic("frontend: two keywords of one shape: " + w)
		}
		kwByShape[len(w)][w[0]-'a'][w[len(w)-1]-'a'] = k
	}
}

// keyword returns the keyword s is, or kwNone. The reserved words are those
// of contract section 1.1; dtype names are deliberately absent: they may be
// used as names.
func keyword(s string) kw {
	if len(s) >= len(kwByShape) || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] < 'a' || s[len(s)-1] > 'z' {
		return kwNone
	}
	if k := kwByShape[len(s)][s[0]-'a'][s[len(s)-1]-'a']; k != kwNone && keywords[k].text == s {
		return k
	}
	return kwNone
}

func kwText(k kw) string { return keywords[k].text }

// keywordSlow is keyword by a search of the table row by row, for the test
// of the fast path.
func keywordSlow(s string) kw {
	for k := kwGraph; k <= kwLast; k++ {
		if keywords[k].text == s {
			return k
		}
	}
	return kwNone
}

func isKeyword(s string) bool { return keyword(s) != kwNone }

// Byte classes for the scanner's dispatch; a table lookup keeps the per-byte
// work to one load and one branch on the hot path.
const (
	cBad byte = iota
	cSpace
	cNewline
	cCR
	cHash
	cSlash
	cIdent
	cDigit
	cPunct
	cDash
)

var (
	class     [256]byte
	identPart [256]bool
)

func init() {
	for _, c := range " \t;" {
		class[c] = cSpace
	}
	class['\n'] = cNewline
	class['\r'] = cCR
	class['#'] = cHash
	class['/'] = cSlash
	class['-'] = cDash
	for _, c := range "{}:,=[]+" {
		class[c] = cPunct
	}
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			class[c] = cIdent
			identPart[c] = true
		case c >= '0' && c <= '9':
			class[c] = cDigit
			identPart[c] = true
		}
	}
	identPart['.'] = true
}

// lexDef implements participle's lexer.Definition over the scanner, for
// the reference parser (see ast.go).
type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return symbols }

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return newScanner(filename, string(b)), nil
}

func (lexDef) LexString(filename, src string) (lexer.Lexer, error) {
	return newScanner(filename, src), nil
}

func (lexDef) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	return newScanner(filename, string(src)), nil
}

// token is one scanned token, the text src[off:end]. It is the parser's
// unit of work, so it is small and free of pointers: updating it costs no
// GC write barrier.
type token struct {
	kind tokKind
	kw   kw // the keyword, when kind is tokKeyword
	// pre is, on a name scanned ahead (pipe.go), its number in
	// preTable + 1; else 0.
	pre int32
	pos Pos
	// A source is under 2 GiB (maxSource): 24 bytes a token, which the
	// batches of the scanning goroutine hold by the hundred thousand.
	off, end int32
}

// set stores a token field by field: a composite literal assigned
// through the pointer is built on the stack and copied, and the copy's
// wide loads of the narrower stores just made stall (store forwarding):
// in the scanner's hot path that was a sixth of its time.
func (t *token) set(kind tokKind, k kw, pos Pos, off, end int) {
	t.kind, t.kw, t.pos, t.off, t.end, t.pre = kind, k, pos, int32(off), int32(end), 0
}

// lexError is the first lexical error of a source.
type lexError struct {
	msg string
	pos Pos
	off int
}

// scanner tokenises one source. Token values are substrings of src, so
// scanning allocates nothing per token.
//
// It never fails outright: the first lexical error is recorded in err and
// the token stream ends there with EOF. The parser (either of them, see
// doc.go) thus sees every token before the bad byte and can report a syntax
// error that precedes it; an error at the cut itself is an artefact, and
// the lexical error is reported instead.
type scanner struct {
	src       string
	off       int
	line      int
	lineStart int // offset of the current line's first byte
	depth     int // open braces
	err       *lexError

	// in, when set, is where src comes from: src is then a window of the
	// input, refilled when a scan reaches its end (see window.go). base
	// is the input offset of src[0]; the token at offset pin and after
	// survives a refill (noPin: none), with its offsets moved by as
	// much as base.
	in   *window
	base int
	pin  int

	file string // for the participle adapter only
}

func newScanner(filename, src string) *scanner {
	s := &scanner{src: src, file: filename, line: 1, pin: noPin}
	s.start()
	return s
}

// start skips a BOM and refuses UTF-16 at the start of src.
func (s *scanner) start() {
	src := s.src
	// A BOM is an encoding marker, not text: skipping it as part of the
	// line start keeps the first column at 1 as an editor shows it.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off, s.lineStart = 3, 3
	}
	if isUTF16(src) {
		// Every byte of it would be a puzzling error of its own; name
		// the encoding instead, before the first token.
		s.err = &lexError{msg: "file is UTF-16; sdscgen reads UTF-8", pos: Pos{Line: 1, Col: 1}}
		s.off = len(src)
	}
}

// isUTF16 reports whether src looks like UTF-16 text: it starts with a
// UTF-16 byte order mark (FF FE or FE FF), or, without one, its first two
// 16-bit units are ASCII characters with a NUL high byte (either byte
// order), as every character of a .bir file saved as UTF-16 is. A NUL
// further into a UTF-8 file is an ordinary bad character.
func isUTF16(src string) bool {
	if len(src) >= 2 && (src[0] == 0xFF && src[1] == 0xFE || src[0] == 0xFE && src[1] == 0xFF) {
		return true
	}
	if len(src) < 4 {
		return false
	}
	ascii := func(c byte) bool { return c != 0 && c < 0x80 }
	le := ascii(src[0]) && src[1] == 0 && ascii(src[2]) && src[3] == 0
	be := src[0] == 0 && ascii(src[1]) && src[2] == 0 && ascii(src[3])
	return le || be
}

func (s *scanner) pos(off int) Pos {
	return Pos{Line: int32(s.line), Col: int32(off - s.lineStart + 1)}
}

func (s *scanner) fail(t *token, off int, format string, args ...any) {
	p := s.pos(off)
	s.err = &lexError{msg: fmt.Sprintf(format, args...), pos: p, off: off}
	s.off = len(s.src)
	t.set(tokEOF, kwNone, p, off, off)
}

// scan stores the next token in t: EOF at the end of the input or at the
// first lexical error (and forever after). The rest of the line is in
// src whatever the token (see window): only a line break may end the
// window, and newline moves it on.
func (s *scanner) scan(t *token) {
	if s.err != nil {
		t.set(tokEOF, kwNone, s.err.pos, s.err.off, s.err.off)
		return
	}
	src := s.src
	off := s.off
	for off < len(src) {
		c := src[off]
		switch class[c] {
		case cSpace:
			// Indentation comes in runs.
			off++
			for off < len(src) && class[src[off]] == cSpace {
				off++
			}
		case cNewline:
			off = s.newline(off + 1)
			src = s.src
		case cCR:
			// CR LF is one line break, and so is a lone CR (old Mac
			// line ends): every position counts lines this way.
			off++
			if off < len(src) && src[off] == '\n' {
				off++
			}
			off = s.newline(off)
			src = s.src
		case cHash:
			off = skipLine(src, off)
		case cSlash:
			if off+1 < len(src) && src[off+1] == '/' {
				off = skipLine(src, off)
				continue
			}
			s.fail(t, off, "unexpected character '/' (comments start with // or #)")
			return
		case cIdent:
			end := nameEnd(src, off+1)
			s.off = end
			// Every keyword ends in a lower-case letter; most names
			// (t12, o7) do not, and cost no call.
			kind, k := tokKind(tokIdent), kwNone
			if e := src[end-1]; e >= 'a' && e <= 'z' {
				if k = keyword(src[off:end]); k != kwNone {
					kind = tokKeyword
				}
			}
			t.set(kind, k, s.pos(off), off, end)
			return
		case cDigit:
			end := digitsEnd(src, off+1)
			if end < len(src) && identPart[src[end]] {
				s.malformed(t, off, nameEnd(src, end))
				return
			}
			s.off = end
			t.set(tokInt, kwNone, s.pos(off), off, end)
			return
		case cPunct:
			switch c {
			case '{':
				s.depth++
				// One level is the graph's own brace.
				if s.depth > maxNesting+1 {
					s.fail(t, off, "nesting deeper than %d levels", maxNesting)
					return
				}
			case '}':
				if s.depth > 0 {
					s.depth--
				}
			}
			s.off = off + 1
			t.set(tokPunct, kwNone, s.pos(off), off, off+1)
			return
		case cDash:
			if off+1 < len(src) && src[off+1] == '>' {
				s.off = off + 2
				t.set(tokPunct, kwNone, s.pos(off), off, off+2)
				return
			}
			s.fail(t, off, "unexpected character '-' (did you mean \"->\"?)")
			return
		default:
			s.badChar(t, off)
			return
		}
	}
	s.off = off
	t.set(tokEOF, kwNone, s.pos(off), off, off)
}

// newline starts a line at off, just after a line break. When the
// window ends there, and only then, it is moved on: newline returns off
// in the window that holds the line.
func (s *scanner) newline(off int) int {
	s.line++
	s.lineStart = off
	if off == len(s.src) {
		off -= s.refill(off)
	}
	return off
}

// nameEnd returns the end of the name (or keyword) that goes on at off.
func nameEnd(src string, off int) int {
	for off < len(src) && identPart[src[off]] {
		off++
	}
	return off
}

// digitsEnd returns the end of the digits that go on at off.
func digitsEnd(src string, off int) int {
	for off < len(src) && class[src[off]] == cDigit {
		off++
	}
	return off
}

// malformed fails at the word src[off:end], digits followed by a name's
// character ("12ab" or "1.5"): an error for the whole word rather than
// silently two tokens.
func (s *scanner) malformed(t *token, off, end int) {
	s.fail(t, off, "malformed integer %s", quoteText(s.src[off:end]))
}

// badChar fails at the character at off, which no token starts with:
// an ASCII control character, or a byte that is no UTF-8, is shown
// escaped; any other character with its code point too, since it may look
// like an ASCII one (a Cyrillic 'а' U+0430 looks like 'a'). A letter or
// digit can only have been meant as (part of) a name or keyword: the error
// then says that those are ASCII.
func (s *scanner) badChar(t *token, off int) {
	r, size := utf8.DecodeRuneInString(s.src[off:])
	switch {
	case r == utf8.RuneError && size <= 1:
		s.fail(t, off, `unexpected character '\x%02x'`, s.src[off])
	case r < utf8.RuneSelf:
		s.fail(t, off, "unexpected character %q", r)
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		s.fail(t, off, `unexpected character %q (U+%04X): names are ASCII letters, digits, "_" and "."`, r, r)
	default:
		s.fail(t, off, "unexpected character %q (U+%04X)", r, r)
	}
}

// Next adapts scan to participle's lexer.Lexer for the reference parser.
func (s *scanner) Next() (lexer.Token, error) {
	var t token
	s.scan(&t)
	return lexer.Token{Type: lexer.TokenType(t.kind), Value: s.src[t.off:t.end], Pos: lexer.Position{
		Filename: s.file, Offset: int(t.off), Line: int(t.pos.Line), Column: int(t.pos.Col)}}, nil
}

// skipLine returns the offset of the line break (LF or CR) ending the
// line at off, or the end of src. The break itself is left for the caller
// so that line counting stays in one place.
func skipLine(src string, off int) int {
	end := len(src)
	if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
		end = off + i
	}
	if i := strings.IndexByte(src[off:end], '\r'); i >= 0 {
		return off + i
	}
	return end
}

// quoteText quotes source text for a message, shortening it so that a
// pathological multi-megabyte word cannot flood the terminal.
func quoteText(s string) string {
	const max = 256
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
