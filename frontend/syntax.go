package frontend

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/sdscgen/sdscgen/ir"
)

func irPos(filename string, p Pos) ir.Pos {
	return ir.Pos{File: filename, Line: int(p.Line), Col: int(p.Column)}
}

func lexPos(p lexer.Position) ir.Pos {
	return ir.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// describe words the token a syntax error is at.
func describe(eof bool, value string) string {
	if eof {
		return "end of file"
	}
	return quoteText(value)
}

func keywordMsg(name string) string {
	return quoteText(name) + " is a keyword and cannot be used as a name"
}

// syntaxError rewrites an error of the reference parser (ast.go) into the
// diagnostic that the hand-written parser reports for the same input.
// participle describes what it expected as an EBNF fragment of the grammar
// ("(<ident> ("," <ident>)*)"); users need the first thing that could have
// come next ("a name"). With lookahead 0 (see parser) the error always sits
// at the first token that could not be matched, so only the head of the
// fragment matters.
func syntaxError(err error, src string, filename string) *Error {
	pe, ok := err.(participle.Error)
	if !ok {
		return &Error{Pos: ir.Pos{File: filename, Line: 1, Col: 1}, Msg: err.Error()}
	}
	ue, ok := err.(*participle.UnexpectedTokenError)
	if !ok {
		return &Error{Pos: lexPos(pe.Position()), Msg: pe.Message()}
	}
	tok := &ue.Unexpected
	want := expected(ue)
	switch want {
	case "":
		// Only two places fail without saying what they expected: the
		// root, when the file does not start with "graph", and the
		// keyword-as-name alternatives, whose lookahead failed.
		if tok.Pos.Offset == firstTokenOffset(src) {
			want = `"graph"`
		} else {
			want = "a name"
		}
	case `"}"`:
		if braceDepth(src, filename, tok.Pos.Offset) <= 1 {
			want = `a declaration, a node or "}"`
		} else {
			want = `a node or "}"`
		}
	}
	if want == "a name" && tok.Type == tokKeyword {
		return &Error{Pos: lexPos(tok.Pos), Msg: keywordMsg(tok.Value)}
	}
	return &Error{Pos: lexPos(tok.Pos), Msg: "unexpected " + describe(tok.EOF(), tok.Value) + ", expected " + want}
}

// expected maps the head of participle's expectation to words.
func expected(ue *participle.UnexpectedTokenError) string {
	m := ue.Message()
	i := strings.Index(m, " (expected ")
	if i < 0 {
		return ""
	}
	e := strings.TrimSuffix(m[i+len(" (expected "):], ")")
	switch {
	case strings.HasPrefix(e, `((<int> "bytes"?) | (<ident>`):
		return `a size (an integer or a dtype shape such as f16[4, 64])`
	case strings.HasPrefix(e, `(<int> | ("["`):
		return `an integer or "["`
	}
	e = strings.TrimLeft(e, "(")
	switch {
	case strings.HasPrefix(e, "<ident>"), strings.HasPrefix(e, "RefAccess"):
		return "a name"
	case strings.HasPrefix(e, "<int>"):
		return "an integer"
	case strings.HasPrefix(e, "RefNode"):
		return `a node or "}"`
	case strings.HasPrefix(e, "RefDecl"):
		return `a declaration, a node or "}"`
	case strings.HasPrefix(e, `"`):
		if j := strings.IndexByte(e[1:], '"'); j >= 0 {
			return e[:j+2]
		}
	}
	return e
}

func firstTokenOffset(src string) int {
	t, _ := newScanner("", src).Next()
	return t.Pos.Offset
}

// braceDepth counts the braces open before offset, telling a graph body
// (depth 1) from a fused or loop body. A brace at offset itself does not
// count: a stray "{" in the graph body is still in the graph body.
func braceDepth(src, filename string, offset int) int {
	s := newScanner(filename, src)
	for {
		depth := s.depth
		t, _ := s.Next()
		if t.EOF() || t.Pos.Offset >= offset {
			return depth
		}
	}
}
