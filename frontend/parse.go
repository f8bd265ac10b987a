package frontend

import (
	"math"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

func init() {
	// participle refuses a repetition of more than a million items, but one
	// fused block of a generated graph legitimately holds more leaf ops than
	// that. Only this package uses participle, so lifting the global limit
	// has no effect elsewhere.
	participle.MaxIterations = math.MaxInt
}

// The grammar is LL(1) apart from the keyword-as-name alternatives, which
// use non-consuming lookahead groups. Lookahead 0 makes participle commit to
// a branch as soon as it consumed a token, so a syntax error is reported at
// the first token that does not fit instead of at the start of the
// enclosing construct.
var parser = participle.MustBuild[File](participle.Lexer(lexDef{}), participle.UseLookahead(0))

// Parse parses one .bir file. It reports at most one error: the first
// lexical or syntax error in the file. The File is nil when there is one.
func Parse(filename string, src []byte) (*File, ErrorList) {
	text := string(src)
	s := newScanner(filename, text)
	peek, err := lexer.Upgrade(s)
	if err != nil { // the scanner never fails; keep the contract anyway
		return nil, ErrorList{{Pos: irPos(s.pos(s.off)), Msg: err.Error()}}
	}
	f, err := parser.ParseFromLexer(peek, participle.AllowTrailing(true))
	var syn *Error
	if err != nil {
		syn = syntaxError(err, text, filename)
	} else if t := peek.Peek(); !t.EOF() {
		syn = &Error{Pos: irPos(t.Pos), Msg: "unexpected " + describe(t) + " after the end of the graph"}
	}
	var lex *Error
	if s.err != nil {
		lex = &Error{Pos: irPos(s.err.Pos), Msg: s.err.Msg}
	}
	switch {
	case syn == nil && lex == nil:
		return f, nil
	case syn == nil:
		return nil, ErrorList{lex}
	case lex == nil:
		return nil, ErrorList{syn}
	}
	// The parser saw the token stream only up to the lexical error, where
	// it ended with EOF; a syntax error before that point is genuine and
	// comes first, one at that point is an artefact of the cut.
	if syn.Pos.Line < lex.Pos.Line || syn.Pos.Line == lex.Pos.Line && syn.Pos.Col < lex.Pos.Col {
		return nil, ErrorList{syn}
	}
	return nil, ErrorList{lex}
}
