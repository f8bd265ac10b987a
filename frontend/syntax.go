package frontend

import (
	"math"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

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
		return &Error{Pos: Pos{Line: 1, Col: 1}.In(filename), Msg: err.Error()}
	}
	ue, ok := err.(*participle.UnexpectedTokenError)
	if !ok {
		p := pe.Position()
		return &Error{Pos: refPos(p).In(p.Filename), Msg: pe.Message()}
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
	case wantSize:
		// A size missing at the end of its line is reported there (see
		// parser.decl).
		if p := prevToken(src, tok.Pos.Offset); tok.Pos.Line > p.Pos.Line {
			return &Error{Pos: afterColon(refPos(p.Pos)).In(filename), Msg: missingSize}
		}
	case `"["`:
		// Only a dtype size wants "[" alone (an Ints wants an integer
		// or "["); the error is the dtype's, which the token after it,
		// often on the next line, merely reveals.
		if p := prevToken(src, tok.Pos.Offset); p.Type == tokIdent {
			return &Error{Pos: refPos(p.Pos).In(filename), Msg: missingShape(p.Value)}
		}
	case `"}"`:
		if braceDepth(src, filename, tok.Pos.Offset) <= 1 {
			want = `a declaration, a node or "}"`
		} else {
			want = `a node or "}"`
		}
	}
	var more kwSet // the keywords that could start the next construct
	if want == `a declaration, a node or "}"` || want == `a node or "}"` {
		more = bodyKws(want == `a declaration, a node or "}"`)
		next := kwNone
		if tok.Type == tokKeyword {
			next = keyword(tok.Value)
		}
		if !tok.EOF() && !isDeclKeyword(next) {
			a, leaf, inReads := afterAt(src, tok.Pos.Offset)
			if c := continuationAt(a, leaf, inReads, next); c != "" {
				want = c
			}
		}
	}
	if want == "a name" {
		// A `kind` keyword is always followed by the kind (as a
		// declared name it is confirmed by the token after it).
		if p := prevToken(src, tok.Pos.Offset); p.Type == tokKeyword && p.Value == "kind" {
			want = wantKind
		}
	}
	if want == "a name" && tok.Type == tokKeyword {
		return &Error{Pos: refPos(tok.Pos).In(tok.Pos.Filename), Msg: keywordMsg(tok.Value)}
	}
	msg := "unexpected " + describe(tok.EOF(), tok.Value) + ", expected " + want
	if tok.Type == tokIdent {
		msg += suggestKeyword(tok.Value, want, more)
	}
	return &Error{Pos: refPos(tok.Pos).In(tok.Pos.Filename), Msg: msg}
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
		return wantSize
	case strings.HasPrefix(e, `(<int> | ("["`), strings.HasPrefix(e, "RefInts"):
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

// after says what optionally could have followed the last token of a
// complete construct. When the next token neither continues it nor starts
// another construct, the error names these continuations: "expected
// "bytes" or the end of the declaration" tells more than "expected a
// declaration, a node or "}"" after `buffer x : 4 KiB`.
type after uint8

const (
	afterNothing     after = iota // nothing optional can follow
	afterSizeInt                  // `buffer x : 4`: "bytes"
	afterListName                 // `input a`: ","
	afterAliasTarget              // `alias v = t`: "+"
	afterLeafName                 // `op a`: every leaf clause ("kind" and "cores" not on cpu)
	afterAccess                   // `reads x`: ",", every access clause, "writes"
	// afterClause + k: after the clause keyword k starts, a leaf's or an
	// access's: what follows it in the clauses' order (see keywords).
	afterClause
)

// The states after each clause.
const (
	afterKind  = afterClause + after(kwKind)  // `op a kind k`: "cores" (not on cpu), "reads", "writes"
	afterCores = afterClause + after(kwCores) // `op a cores 4`: "reads", "writes"
	afterStep  = afterClause + after(kwStep)  // `reads x step 4`: ",", "split", "writes"
	afterSplit = afterClause + after(kwSplit) // `reads x split 4`: ",", "writes"
)

// clauseAt is where a says the construct stands among its clauses: the
// role of the clauses (roleLeaf or roleAccess; roleWord when a is about
// neither) and the order of the last one read (0: none yet, right after
// the name).
func clauseAt(a after) (kwRole, int8) {
	switch {
	case a == afterLeafName:
		return roleLeaf, 0
	case a == afterAccess:
		return roleAccess, 0
	case a > afterClause && a <= afterClause+after(kwLast):
		r := keywords[kw(a-afterClause)]
		return r.role, r.order
	}
	return roleWord, 0
}

// clausesAfter appends to words the quoted clause keywords of role r that
// may come after the one of the given order, in the grammar's order;
// those of an op only are left out on a cpu node (op false).
func clausesAfter(words []string, r kwRole, order int8, op bool) []string {
	for o := int(order) + 1; o <= math.MaxInt8; o++ {
		for k := kwGraph; k <= kwLast; k++ {
			if c := keywords[k]; c.role == r && int(c.order) == o && (op || !c.opOnly) {
				words = append(words, `"`+c.text+`"`)
			}
		}
	}
	return words
}

// continuation words what could have continued the construct that ended
// as a says: "" when nothing could. leaf is kwOp or kwCPU for a leaf's
// continuations, and inReads says that its last clause is `reads` (so
// `writes` may follow). The words are those the contract's grammar
// allows, which has no `cores` on a cpu node; a clause's are derived from
// the table of keywords, where the clauses have their order.
func continuation(a after, leaf kw, inReads bool) string {
	var words []string
	what := "the declaration"
	switch role, order := clauseAt(a); {
	case a == afterSizeInt:
		words = []string{`"bytes"`}
	case a == afterListName:
		words = []string{`","`}
	case a == afterAliasTarget:
		words = []string{`"+"`}
	case role == roleLeaf:
		words = clausesAfter(words, roleLeaf, order, leaf == kwOp)
	case role == roleAccess:
		words = append(words, `","`)
		words = clausesAfter(words, roleAccess, order, leaf == kwOp)
		if inReads {
			words = clausesAfter(words, roleLeaf, keywords[kwReads].order, leaf == kwOp)
		}
	default:
		return ""
	}
	if a >= afterLeafName {
		what = "the op"
		if leaf == kwCPU {
			what = "the cpu node"
		}
	}
	return strings.Join(words, ", ") + " or the end of " + what
}

// continuationAt is continuation for an error at a token that is the
// keyword next (kwNone: not a keyword). A `kind` later in an op than
// right after its name gets a word on where it belongs: the order of
// the clauses is fixed.
func continuationAt(a after, leaf kw, inReads bool, next kw) string {
	c := continuation(a, leaf, inReads)
	if role, order := clauseAt(a); c != "" && next == kwKind && leaf == kwOp &&
		(role == roleLeaf && order > keywords[kwKind].order || role == roleAccess) {
		c += ` ("kind" comes right after the op's name)`
	}
	return c
}

// wantKind is what a syntax error after a `kind` keyword expected.
const wantKind = "a kind (a name such as aten.relu.default)"

// isDeclKeyword reports whether k starts a declaration.
func isDeclKeyword(k kw) bool { return keywords[k].role == roleDecl }

// wantSize is what a syntax error after a buffer's ":" expected.
const wantSize = "a size (an integer or a dtype shape such as f16[4, 64])"

// missingSize is the error at a buffer's ":" that ends its line.
const missingSize = `missing size after ":" (an integer or a dtype shape such as f16[4, 64])`

// afterColon is the position just after the ":" at colon.
func afterColon(colon Pos) Pos { return Pos{Line: colon.Line, Col: colon.Col + 1} }

// missingShape is the error at a dtype size that no "[" follows.
func missingShape(dtype string) string {
	return "missing shape after " + quoteText(dtype) + " (a size is an integer or a dtype shape such as f16[4, 64])"
}

// afterAt re-reads the tokens of src before offset, a prefix the
// reference parser accepted, and returns what could have continued the
// construct they end with (see after). It is the reference parser's
// counterpart of the state Parse keeps as it goes: a small automaton over
// the token stream that knows where a declared name stands (which may be
// a keyword), which construct and clause it is in and whether an Ints is
// open. What a clause keyword takes (a name, Ints) and what may follow
// it come from the table of keywords, as for Parse.
//
// It stays apart from the parser on purpose: participle reports only the
// token it stopped at and the grammar fragment it wanted there, not the
// state it was in, so the reference path recovers that state from the
// tokens alone, independently of Parse. Their agreement is the
// differential test's (every error message, continuations included, of
// both parsers on the error files, the random graphs' mutants and the
// fuzzed inputs).
func afterAt(src string, offset int) (a after, leaf kw, inReads bool) {
	s := newScanner("", src)
	st := afterState{src: src}
	for {
		var t token
		s.scan(&t)
		if t.kind == tokEOF || int(t.off) >= offset {
			return st.a, st.leaf, st.inReads
		}
		st.step(t)
	}
}

// afterState is afterAt's automaton: what the tokens so far leave open.
type afterState struct {
	src      string
	a        after // what may follow the last token
	leaf     kw    // the leaf (op or cpu) whose name was read last
	inReads  bool  // its accesses so far are reads
	kind     kw    // keyword of the construct being read
	nameNext bool  // the next token is the name kind declares
	nameOf   kw    // the next token is the name this clause keyword takes
	intsOf   kw    // the Ints after this keyword is being read
	inList   bool  // inside that Ints' brackets
	prev     token // the previous token
	prevName bool  // it is a name
}

// punct is t's punctuation byte, or 0.
func (st *afterState) punct(t token) byte {
	if t.kind == tokPunct {
		return st.src[t.off]
	}
	return 0
}

// isRef reports whether keyword token t stands where a name that refers
// to something does: after a ",", "=" or "->", or after a keyword that
// names follow (see keywordNamesBefore).
func (st *afterState) isRef(t token) bool {
	if t.kind != tokKeyword || st.intsOf != kwNone || st.nameNext || st.nameOf != kwNone {
		return false
	}
	switch st.punct(st.prev) {
	case ',', '=', '-':
		return true
	}
	p := st.prev
	return p.kind == tokKeyword && !st.prevName && (p.kw == kwInput || p.kw == kwOutput || p.kw == kwLX || p.kw == kwReads || p.kw == kwWrites)
}

// step moves the automaton past token t.
func (st *afterState) step(t token) {
	punct, prevPunct := st.punct(t), st.punct(st.prev)
	ref := st.isRef(t)
	st.prevName = st.nameNext || ref || t.kind == tokIdent
	st.prev = t
	switch {
	case st.nameNext:
		st.nameNext = false
		st.a = afterNothing
		if st.kind == kwOp || st.kind == kwCPU {
			st.a, st.leaf, st.inReads = afterLeafName, st.kind, false
		}
	case st.nameOf != kwNone:
		st.a = afterClause + after(st.nameOf)
		st.nameOf = kwNone
	case st.intsOf != kwNone:
		st.ints(punct)
	case t.kind == tokKeyword && !ref:
		st.keyword(t.kw)
	case t.kind == tokIdent || ref:
		st.a = afterNothing
		switch st.kind {
		case kwInput, kwOutput, kwLX:
			st.a = afterListName
		case kwAlias:
			if prevPunct == '=' {
				st.a = afterAliasTarget
			}
		case kwOp, kwCPU:
			st.a = afterAccess
		}
	case t.kind == tokInt:
		st.a = afterNothing
		if st.kind == kwBuffer && prevPunct == ':' {
			st.a = afterSizeInt
		}
	default:
		st.a = afterNothing
	}
}

// ints moves past a token (punctuation punct) of the Ints of a clause.
func (st *afterState) ints(punct byte) {
	if punct == '[' {
		st.inList = true
		return
	}
	if st.inList && punct != ']' {
		return
	}
	st.inList = false
	st.a = afterClause + after(st.intsOf)
	st.intsOf = kwNone
}

// keyword moves past keyword k where it is not a name.
func (st *afterState) keyword(k kw) {
	st.a = afterNothing
	switch k {
	case kwGraph, kwBuffer, kwAlias, kwRename, kwFused, kwLoop, kwOp, kwCPU:
		st.kind, st.nameNext = k, true
	case kwInput, kwOutput, kwLX:
		st.kind = k
	case kwReads:
		st.inReads = true
	case kwWrites:
		st.inReads = false
	default:
		// A clause takes what the table says.
		switch keywords[k].arg {
		case argInts, argInt:
			st.intsOf = k
		case argName:
			st.nameOf = k
		}
	}
}

// prevToken returns the last token of src before offset.
func prevToken(src string, offset int) lexer.Token {
	s := newScanner("", src)
	var last lexer.Token
	for {
		t, _ := s.Next()
		if t.EOF() || t.Pos.Offset >= offset {
			return last
		}
		last = t
	}
}
