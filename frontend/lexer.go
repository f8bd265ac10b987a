package frontend

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types. Zero is deliberately unused so that a lexer.Token field the
// grammar did not capture (Type 0) is distinguishable from a captured one.
const (
	tokIdent lexer.TokenType = iota + 1
	tokKeyword
	tokInt
	tokPunct
)

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

// isKeyword reports whether s is reserved (contract section 1.1). Dtype names
// are deliberately absent: they may be used as names.
func isKeyword(s string) bool {
	switch s {
	case "graph", "buffer", "bytes", "input", "output", "lx", "alias", "rename",
		"op", "cpu", "fused", "loop", "count", "reads", "writes", "step":
		return true
	}
	return false
}

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
	for _, c := range "{}:,=[]" {
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

// lexDef implements participle's lexer.Definition with a hand-written
// scanner: participle's regexp lexers are far too slow for the 50 MB inputs
// the tool must handle.
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

// scanner tokenises one source. Token values are substrings of src, so
// scanning allocates nothing per token.
//
// It never returns an error to participle: participle would discard every
// token scanned so far, and with them the chance to report a syntax error
// that precedes the bad byte. Instead the first lexical error is recorded in
// err and the token stream ends there with EOF; Parse then reports
// whichever of the two errors comes first in the file.
type scanner struct {
	src       string
	file      string
	off       int
	line      int
	lineStart int // offset of the current line's first byte
	depth     int // open braces
	err       *lexer.Error
}

func newScanner(filename, src string) *scanner {
	s := &scanner{src: src, file: filename, line: 1}
	// A BOM is an encoding marker, not text: skipping it as part of the
	// line start keeps the first column at 1 as an editor shows it.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off, s.lineStart = 3, 3
	}
	return s
}

func (s *scanner) pos(off int) lexer.Position {
	return lexer.Position{Filename: s.file, Offset: off, Line: s.line, Column: off - s.lineStart + 1}
}

func (s *scanner) fail(off int, format string, args ...any) (lexer.Token, error) {
	p := s.pos(off)
	s.err = &lexer.Error{Msg: fmt.Sprintf(format, args...), Pos: p}
	s.off = len(s.src)
	return lexer.Token{Type: lexer.EOF, Pos: p}, nil
}

func (s *scanner) Next() (lexer.Token, error) {
	if s.err != nil {
		return lexer.Token{Type: lexer.EOF, Pos: s.err.Pos}, nil
	}
	src := s.src
	off := s.off
	for off < len(src) {
		c := src[off]
		switch class[c] {
		case cSpace:
			off++
			continue
		case cNewline:
			off++
			s.line++
			s.lineStart = off
			continue
		case cCR:
			if off+1 < len(src) && src[off+1] == '\n' {
				off += 2
				s.line++
				s.lineStart = off
				continue
			}
			return s.fail(off, "unexpected character %q", '\r')
		case cHash:
			off = skipLine(src, off)
			continue
		case cSlash:
			if off+1 < len(src) && src[off+1] == '/' {
				off = skipLine(src, off)
				continue
			}
			return s.fail(off, "unexpected character '/' (comments start with // or #)")
		case cIdent:
			start := off
			off++
			for off < len(src) && identPart[src[off]] {
				off++
			}
			s.off = off
			v := src[start:off]
			t := tokIdent
			if isKeyword(v) {
				t = tokKeyword
			}
			return lexer.Token{Type: t, Value: v, Pos: s.pos(start)}, nil
		case cDigit:
			start := off
			off++
			for off < len(src) && class[src[off]] == cDigit {
				off++
			}
			if off < len(src) && identPart[src[off]] {
				// "12ab" or "1.5": reject the whole word rather than
				// silently splitting it into two tokens.
				for off < len(src) && identPart[src[off]] {
					off++
				}
				return s.fail(start, "malformed integer %s", quoteText(src[start:off]))
			}
			s.off = off
			return lexer.Token{Type: tokInt, Value: src[start:off], Pos: s.pos(start)}, nil
		case cPunct:
			switch c {
			case '{':
				s.depth++
				// One level is the graph's own brace.
				if s.depth > maxNesting+1 {
					return s.fail(off, "nesting deeper than %d levels", maxNesting)
				}
			case '}':
				if s.depth > 0 {
					s.depth--
				}
			}
			s.off = off + 1
			return lexer.Token{Type: tokPunct, Value: src[off : off+1], Pos: s.pos(off)}, nil
		case cDash:
			if off+1 < len(src) && src[off+1] == '>' {
				s.off = off + 2
				return lexer.Token{Type: tokPunct, Value: src[off : off+2], Pos: s.pos(off)}, nil
			}
			return s.fail(off, "unexpected character '-' (did you mean \"->\"?)")
		default:
			r, size := utf8.DecodeRuneInString(src[off:])
			if r == utf8.RuneError && size <= 1 {
				return s.fail(off, `unexpected character '\x%02x'`, c)
			}
			return s.fail(off, "unexpected character %q", r)
		}
	}
	s.off = off
	return lexer.Token{Type: lexer.EOF, Pos: s.pos(off)}, nil
}

// skipLine returns the offset of the newline ending the line at off (or
// the end of src). The newline itself is left for the caller so that line
// counting stays in one place.
func skipLine(src string, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	return off
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
