package frontend

import (
	"math"
	"sync"

	"github.com/sdscgen/sdscgen/ir"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The AST mirrors the grammar of contract section 1.1. Names and integers
// are Name values: the text (a substring of the source, never a copy) and a
// compact position. Integers stay as text so that Check can report a
// literal that does not fit in int64 at its position.
//
// A name that a declaration or node introduces may be a keyword when the
// token after it confirms the construct (`buffer op :`, `op loop reads`);
// the parser accepts it and Check reports it, so that such errors come out
// together with the other semantic errors instead of stopping the parse.
// So may a name that refers to something, when the token after it could
// follow a name there (`,`, `}`, a clause, the keyword starting the next
// declaration or node), which the keyword starting what follows a missing
// name (`reads writes x`) cannot. In a declaration (an input, output or lx
// list, an alias's or rename's target) Check reports it; in an access only
// when no buffer has that name: the declaration is the error. Should a
// syntax error stop the parse, the parser reports the keywords of the
// declarations before it with it. Elsewhere (a keyword not so confirmed,
// as in `op reads x` where the name is missing) a keyword is a syntax
// error, worded the same way.
//
// The representation is sized for a million-op graph with a million
// buffers: no per-token allocation, 8-byte positions without the file name
// (File holds it once), buffer declarations stored by value apart from the
// other declarations, and no position that nothing reads or that merely
// repeats its first token's.

// Pos is ir.Pos, the one position type of the pipeline: the scanner's
// tokens, the AST and the graph carry the same value, so a position goes
// from the text to the graph unconverted and prints, with its file, by
// ir.Pos.In or ir.Graph.Position.
type Pos = ir.Pos

// Name is a name or an integer literal as written.
type Name struct {
	Value string
	Pos   Pos
}

// File is one parsed .bir file.
type File struct {
	Filename string
	Graph    Graph
}

// Graph is the `graph NAME { ... }` block. Declarations are order
// independent and kept apart from the nodes, whose order matters; buffer
// declarations, by far the most numerous, are kept apart from the others.
// Each list is in source order.
type Graph struct {
	Name    Name
	Buffers []BufferDecl
	Decls   []Decl
	Nodes   []Node
}

// Decl is one declaration other than a buffer's; exactly one field is set.
type Decl struct {
	List   *ListDecl
	Alias  *AliasDecl
	Rename *RenameDecl
}

// BufferDecl is `buffer NAME : SIZE`. Size is the byte count (`N` or
// `N bytes`) when Shape is nil, else the dtype of the shape `DTYPE[N, ...]`
// whose integers Shape holds.
type BufferDecl struct {
	Name  Name
	Size  Name
	Shape []Name
}

// ListDecl is `input`, `output` or `lx` (Kind) followed by names.
type ListDecl struct {
	Pos   Pos
	Kind  string
	Names []Name
}

// AliasDecl is `alias VIEW = TARGET` or `alias VIEW = TARGET + OFFSET`;
// Offset is the zero Name without `+`.
type AliasDecl struct {
	Pos    Pos
	View   Name
	Target Name
	Offset Name
}

// RenameDecl is `rename FROM -> TO`.
type RenameDecl struct {
	Pos  Pos
	From Name
	To   Name
}

// Node is one op, cpu, fused or loop node; exactly one field is set.
type Node struct {
	Leaf  *Leaf
	Fused *Fused
	Loop  *Loop
}

// Leaf is an `op` or a `cpu` node (Kind tells which). OpKind is its
// `kind` clause and Cores its `cores` clause, each nil without one. The
// parser accepts both on a cpu node too, so that Check reports them with
// the other semantic errors.
type Leaf struct {
	Pos    Pos    // of the keyword
	Kind   string // "op" or "cpu"
	Name   Name
	OpKind *KindClause
	Cores  *IntList
	Attrs  []Attr // its attributes, in order; nil without any
	Reads  []Access
	Writes []Access
}

// Attr is an attribute of a leaf (see keywords): `WORD N`.
type Attr struct {
	Pos   Pos    // of the keyword
	Word  string // the keyword
	Value Name   // the integer as written
}

// KindClause is `kind K` on a leaf: Pos is that of the keyword, Name the
// kind K as written.
type KindClause struct {
	Pos  Pos
	Name Name
}

// Fused is a `fused NAME { ... }` block.
type Fused struct {
	Name Name
	Body []Node
}

// Loop is a `loop NAME count N { ... }` block.
type Loop struct {
	Name  Name
	Count Name
	Body  []Node
}

// Access is one operand of a leaf node; it starts at Name.Pos. Step and
// Split are its `step` and `split` clauses, nil when absent.
type Access struct {
	Name  Name
	Step  *IntList
	Split *IntList
}

// IntList is the Ints of the grammar after a `step`, `split` or `cores`
// keyword: one integer (in Ints, List false) or a bracketed list (List,
// the integers in Ints). Pos is that of the keyword.
type IntList struct {
	Pos  Pos
	List bool
	Ints []Name
}

// build hands the leaf to the builder through its one way in for a leaf,
// the parser's (see parser.leafB): its pieces in source order. It is how
// Check, and so the reference grammar's AST, reaches the builder.
func (l *Leaf) build(b *builder) {
	b.leafStart(l.Kind == "cpu", l.Pos, l.Name)
	if l.OpKind != nil {
		b.leafKind(l.OpKind.Pos, l.OpKind.Name)
	}
	if l.Cores != nil {
		b.leafCores(astInts(l.Cores))
	}
	for _, a := range l.Attrs {
		n, ok := parseInt(a.Value.Value)
		b.leafAttr(keyword(a.Word), a.Pos, intLit{n: n, ok: ok, pos: a.Value.Pos})
	}
	for i := range l.Reads {
		a := &l.Reads[i]
		b.access(a.Name, 0, astInts(a.Step), astInts(a.Split))
	}
	b.writes()
	for i := range l.Writes {
		a := &l.Writes[i]
		b.access(a.Name, 0, astInts(a.Step), astInts(a.Split))
	}
	b.leafEnd()
}

// kw identifies a keyword, so that the parser switches on a small integer
// instead of comparing strings. The constants are the rows of keywords.
type kw uint8

const (
	kwNone kw = iota
	kwGraph
	kwBuffer
	kwBytes
	kwInput
	kwOutput
	kwLX
	kwAlias
	kwRename
	kwOp
	kwCPU
	kwFused
	kwLoop
	kwCount
	kwReads
	kwWrites
	kwStep
	kwCores
	kwSplit
	kwKind

	kwLast = kwKind
)

// kwRole says where a keyword stands in the grammar.
type kwRole uint8

const (
	roleWord   kwRole = iota // read at one place of one construct: graph, bytes, count
	roleDecl                 // starts a declaration (in the graph's body only)
	roleNode                 // starts a node (in any body)
	roleLeaf                 // a clause of an op or cpu node
	roleAccess               // a clause of an access
)

// kwArg is what a clause keyword takes.
type kwArg uint8

const (
	argNone     kwArg = iota
	argName           // a name: `kind K`
	argInts           // an integer or a bracketed list: `cores [2, 4]`
	argAccesses       // accesses: `reads x, y`
	argInt            // one integer: an attribute (see keywordRow.set)
)

// keywordRow is one row of keywords.
type keywordRow struct {
	text string
	role kwRole
	arg  kwArg // of a clause
	// For a clause (roleLeaf, roleAccess): its place among the clauses
	// of its construct, from 1, which is the grammar's fixed order, and
	// whether the contract allows it on an op only (not on a cpu node).
	order  int8
	opOnly bool
	// set stores the value of an attribute in its op. An attribute is a
	// leaf clause `WORD N` (arg argInt, opOnly, its order between
	// cores's and reads's) that the op carries to a field of ir.Op: the
	// hand-written parser, the builder (leafAttr), the expected-token
	// messages and the check (only on an op; N an int64) read all they
	// need of it from its row. The reference grammar has its rule in
	// refLeaf (a field of its own type, WORD @Int) and convert moves it
	// to Leaf.Attrs. There is none yet: docs/contributing.md walks
	// through adding one.
	set func(o *ir.Op, n int64)
}

// keywords is the one table of the reserved words, those of the grammar
// below, in the order of the contract's list (docs/bundle-ir.md, section
// 2.1; TestKeywordsDocumented holds the two equal): row k is keyword k.
// Everything else the frontend knows of keywords is derived from it: the
// scanner's lookup (keyword in lexer.go), kwText and isKeyword, the sets
// of keywords that start a declaration or a node (isDeclKeyword, endKws,
// bodyKws, and so the did-you-mean candidates), the clauses that may
// follow a leaf's or an access's name (leafClauses, accessEnd), what a
// clause takes and what may follow it in an error's expected tokens
// (afterAt, continuation). The participle grammar's tags, literal
// strings, are held to it by TestGrammarKeywords. It sits here, with the
// grammar, so that a new clause is one row, its field in the AST and its
// rule below.
var keywords = [kwLast + 1]keywordRow{
	kwGraph:  {text: "graph"},
	kwBuffer: {text: "buffer", role: roleDecl},
	kwBytes:  {text: "bytes"},
	kwInput:  {text: "input", role: roleDecl},
	kwOutput: {text: "output", role: roleDecl},
	kwLX:     {text: "lx", role: roleDecl},
	kwAlias:  {text: "alias", role: roleDecl},
	kwRename: {text: "rename", role: roleDecl},
	kwOp:     {text: "op", role: roleNode},
	kwCPU:    {text: "cpu", role: roleNode},
	kwFused:  {text: "fused", role: roleNode},
	kwLoop:   {text: "loop", role: roleNode},
	kwCount:  {text: "count"},
	kwReads:  {text: "reads", role: roleLeaf, arg: argAccesses, order: 10},
	kwWrites: {text: "writes", role: roleLeaf, arg: argAccesses, order: 11},
	kwStep:   {text: "step", role: roleAccess, arg: argInts, order: 1},
	kwCores:  {text: "cores", role: roleLeaf, arg: argInts, order: 2, opOnly: true},
	kwSplit:  {text: "split", role: roleAccess, arg: argInts, order: 2},
	kwKind:   {text: "kind", role: roleLeaf, arg: argName, order: 1, opOnly: true},
}

// kwsWith is the set of the keywords of role r.
func kwsWith(r kwRole) kwSet {
	var s kwSet
	for k := kwGraph; k <= kwLast; k++ {
		if keywords[k].role == r {
			s |= 1 << k
		}
	}
	return s
}

// The reference grammar.
//
// What follows is the grammar of contract section 1.1 written for
// participle, and parseReference, which runs it. It is not used to parse
// .bir files: participle needs about 160 allocations and 16 KB per op and
// keeps every token (see doc.go for the figures). It is the executable
// specification the hand-written parser of parse.go is held equal to: the
// differential test and FuzzParseCheck require both to produce the same
// AST, or the same error, on every input. A change to the syntax is made
// here first and then mirrored in parse.go, except an op attribute's,
// which parse.go reads from its row in keywords.

type refFile struct {
	Graph refGraph `parser:"@@"`
}

type refGraph struct {
	Pos   lexer.Position
	Name  lexer.Token `parser:"'graph' ( @Ident | (?= Keyword '{') @Keyword )"`
	Nodes []refNode   `parser:"'{' ( @@"`
	Decls []refDecl   `parser:"    | @@ )* '}'"`
}

type refDecl struct {
	Buffer *refBufferDecl `parser:"  @@"`
	List   *refListDecl   `parser:"| @@"`
	Alias  *refAliasDecl  `parser:"| @@"`
	Rename *refRenameDecl `parser:"| @@"`
}

// The shape's integers are captured interleaved with the separating commas.
type refBufferDecl struct {
	Pos   lexer.Position
	Name  lexer.Token   `parser:"'buffer' ( @Ident | (?= Keyword ':') @Keyword ) ':'"`
	Bytes lexer.Token   `parser:"( @Int 'bytes'?"`
	DType lexer.Token   `parser:"| @Ident"`
	Shape []lexer.Token `parser:"  '[' @(Int (',' Int)*) ']' )"`
}

type refListDecl struct {
	Pos   lexer.Position
	Kind  string        `parser:"@('input' | 'output' | 'lx')"`
	Names []refListName `parser:"@@ (',' @@)*"`
}

// A name that refers to something may be a keyword when the token after
// it continues the construct or ends it (`}`, or a keyword starting a
// declaration or a node), which a keyword after a missing name cannot
// do: `input x, op` then `}` names op, `input x,` then `op a ...` misses
// a name.
type refListName struct {
	Name lexer.Token `parser:"( @Ident | (?= Keyword (',' | '}' | 'op' | 'cpu' | 'fused' | 'loop' | 'buffer' | 'input' | 'output' | 'lx' | 'alias' | 'rename')) @Keyword )"`
}

type refAliasDecl struct {
	Pos    lexer.Position
	View   lexer.Token `parser:"'alias' ( @Ident | (?= Keyword '=') @Keyword ) '='"`
	Target lexer.Token `parser:"( @Ident | (?= Keyword ('+' | '}' | 'op' | 'cpu' | 'fused' | 'loop' | 'buffer' | 'input' | 'output' | 'lx' | 'alias' | 'rename')) @Keyword )"`
	Offset lexer.Token `parser:"( '+' @Int )?"`
}

type refRenameDecl struct {
	Pos  lexer.Position
	From lexer.Token `parser:"'rename' ( @Ident | (?= Keyword '->') @Keyword ) '->'"`
	To   lexer.Token `parser:"( @Ident | (?= Keyword ('}' | 'op' | 'cpu' | 'fused' | 'loop' | 'buffer' | 'input' | 'output' | 'lx' | 'alias' | 'rename')) @Keyword )"`
}

type refNode struct {
	Leaf  *refLeaf  `parser:"  @@"`
	Fused *refFused `parser:"| @@"`
	Loop  *refLoop  `parser:"| @@"`
}

// The contract's grammar has no `kind`, no `cores` and no attribute on a
// cpu node; this one accepts them there, for Check to report (see Leaf).
// An attribute (see keywords) is a field of its own type, between Cores
// and Reads, whose rule is its word and @Int; convert moves it to
// Leaf.Attrs.
type refLeaf struct {
	Pos    lexer.Position
	Kind   string      `parser:"@('op' | 'cpu')"`
	Name   lexer.Token `parser:"( @Ident | (?= Keyword ('kind' | 'cores' | 'reads' | 'writes')) @Keyword )"`
	OpKind *refKind    `parser:"@@?"`
	Cores  *refCores   `parser:"@@?"`
	Reads  []refAccess `parser:"( 'reads' @@ ( ',' @@ )* )?"`
	Writes []refAccess `parser:"( 'writes' @@ ( ',' @@ )* )?"`
}

// refKind is the `kind` clause; its Ident is never a keyword.
type refKind struct {
	Pos  lexer.Position
	Name lexer.Token `parser:"'kind' @Ident"`
}

type refCores struct {
	Pos  lexer.Position
	Ints refInts `parser:"'cores' @@"`
}

type refFused struct {
	Pos  lexer.Position
	Name lexer.Token `parser:"'fused' ( @Ident | (?= Keyword '{') @Keyword )"`
	Body []refNode   `parser:"'{' @@* '}'"`
}

type refLoop struct {
	Pos   lexer.Position
	Name  lexer.Token `parser:"'loop' ( @Ident | (?= Keyword 'count') @Keyword )"`
	Count lexer.Token `parser:"'count' @Int"`
	Body  []refNode   `parser:"'{' @@* '}'"`
}

type refAccess struct {
	Pos   lexer.Position
	Name  lexer.Token `parser:"( @Ident | (?= Keyword (',' | 'step' | 'split' | 'writes' | '}' | 'op' | 'cpu' | 'fused' | 'loop' | 'buffer' | 'input' | 'output' | 'lx' | 'alias' | 'rename')) @Keyword )"`
	Step  *refStep    `parser:"@@?"`
	Split *refSplit   `parser:"@@?"`
}

type refStep struct {
	Pos  lexer.Position
	Ints refInts `parser:"'step' @@"`
}

type refSplit struct {
	Pos  lexer.Position
	Ints refInts `parser:"'split' @@"`
}

// refInts is the grammar's Ints.
type refInts struct {
	Single lexer.Token   `parser:"  @Int"`
	List   []lexer.Token `parser:"| '[' @(Int (',' Int)*) ']'"`
}

// The grammar is LL(1) apart from the keyword-as-name alternatives, which
// use non-consuming lookahead groups. Lookahead 0 makes participle commit to
// a branch as soon as it consumed a token, so a syntax error is reported at
// the first token that does not fit instead of at the start of the
// enclosing construct. It is built on first use: the tool never runs it.
var refParser = sync.OnceValue(func() *participle.Parser[refFile] {
	// participle refuses a repetition of more than a million items, but
	// one fused block of a generated graph legitimately holds more leaf
	// ops than that. Only this package uses participle, so lifting the
	// global limit has no effect elsewhere.
	participle.MaxIterations = math.MaxInt
	return participle.MustBuild[refFile](participle.Lexer(lexDef{}), participle.UseLookahead(0))
})

// parseReference parses src with the reference grammar. It has Parse's
// contract and, by the differential test, its results.
func parseReference(filename string, src []byte) (*File, ErrorList) {
	text := string(src)
	s := newScanner(filename, text)
	peek, err := lexer.Upgrade(s)
	if err != nil { // the scanner never fails; keep the contract anyway
		return nil, ErrorList{{Pos: s.pos(s.off).In(filename), Msg: err.Error()}}
	}
	rf, err := refParser().ParseFromLexer(peek, participle.AllowTrailing(true))
	var syn *Error
	if err != nil {
		syn = syntaxError(err, text, filename)
	} else if t := peek.Peek(); !t.EOF() {
		syn = &Error{Pos: refPos(t.Pos).In(t.Pos.Filename), Msg: "unexpected " + describe(t.EOF(), t.Value) + " after the end of the graph"}
	}
	var lex *Error
	if s.err != nil {
		lex = &Error{Pos: s.err.pos.In(filename), Msg: s.err.msg}
	}
	if syn == nil && lex == nil {
		return rf.convert(filename), nil
	}
	e := syn
	switch {
	case syn == nil:
		e = lex
	case lex == nil:
	case isEOFError(err), !(syn.Pos.Line < lex.Pos.Line || syn.Pos.Line == lex.Pos.Line && syn.Pos.Col < lex.Pos.Col):
		// The parser saw the token stream only up to the lexical
		// error, where it ended with EOF; a syntax error before that
		// point is genuine and comes first, one at that point is an
		// artefact of the cut, even when it is reported at an earlier
		// token (a dtype without its shape).
		e = lex
	}
	return nil, append(keywordNamesBefore(filename, text, e.Pos), e)
}

func isEOFError(err error) bool {
	ue, ok := err.(*participle.UnexpectedTokenError)
	return ok && ue.Unexpected.EOF()
}

// keywordNamesBefore returns the errors at the keywords used as names in
// declarations before pos, where the parse stopped: Parse reports them
// with the syntax error (Check would have, had the parse gone on).
//
// It derives them from the tokens alone. Before the error every keyword
// is either a keyword or a name the grammar accepted: a keyword the
// lookahead of a name refuses is the syntax error itself, at pos, so the
// lookahead needs no checking here. A keyword is a name when the token
// before it is a ",", "=" or "->", or a keyword (itself no name: in `op
// cpu reads`, reads is a clause) that a name follows. It is in a
// declaration after graph, buffer, alias, rename, op, cpu, fused, loop,
// input, output, lx, "=" (an alias's target), "->" (a rename's) and a ","
// of an input, output or lx list; the other names are accesses (after
// reads, writes and their commas).
func keywordNamesBefore(filename, text string, pos ir.Position) ErrorList {
	var errs ErrorList
	s := newScanner(filename, text)
	var prev token
	prevName := false // prev is a name
	inList := false   // in the names of an input, output or lx list
	for {
		var t token
		s.scan(&t)
		if t.kind == tokEOF || int(t.pos.Line) > pos.Line || int(t.pos.Line) == pos.Line && int(t.pos.Col) >= pos.Col {
			return errs
		}
		name := t.kind == tokIdent
		if t.kind == tokKeyword {
			decl := false
			switch {
			case prev.kind == tokPunct:
				switch text[prev.off] {
				case ',':
					name, decl = true, inList
				case '=', '-':
					name, decl = true, true
				}
			case prev.kind == tokKeyword && !prevName:
				switch r := keywords[prev.kw]; {
				case prev.kw == kwGraph, r.role == roleDecl, r.role == roleNode:
					name, decl = true, true
				case r.arg == argAccesses:
					name = true
				}
			}
			if decl {
				errs.add(t.pos.In(filename), "%s", keywordMsg(text[t.off:t.end]))
			}
		}
		comma := t.kind == tokPunct && text[t.off] == ','
		inList = inList && (name || comma) || t.kind == tokKeyword && !name && (t.kw == kwInput || t.kw == kwOutput || t.kw == kwLX)
		prev, prevName = t, name
	}
}

// convert turns the reference AST into the production AST. It drops what
// carries no information (the filename and offset of every position, the
// commas captured in integer and name lists, the position of an access,
// which must be its name's) and what nothing reads (the position of the
// keyword starting a graph, buffer, fused or loop; all the others are
// kept), so that the comparison of the two parsers stays exact.
func (f *refFile) convert(filename string) *File {
	g := &f.Graph
	out := &File{Filename: filename, Graph: Graph{Name: refName(g.Name)}}
	out.Graph.Nodes = refNodes(g.Nodes)
	for _, d := range g.Decls {
		var c Decl
		switch {
		case d.Buffer != nil:
			b := d.Buffer
			c := BufferDecl{Name: refName(b.Name), Size: refName(b.Bytes)}
			if b.DType.Type != 0 {
				c.Size, c.Shape = refName(b.DType), intTokens(b.Shape)
			}
			out.Graph.Buffers = append(out.Graph.Buffers, c)
			continue
		case d.List != nil:
			l := &ListDecl{Pos: refPos(d.List.Pos), Kind: d.List.Kind}
			for _, t := range d.List.Names {
				l.Names = append(l.Names, refName(t.Name))
			}
			c.List = l
		case d.Alias != nil:
			c.Alias = &AliasDecl{Pos: refPos(d.Alias.Pos), View: refName(d.Alias.View), Target: refName(d.Alias.Target),
				Offset: refName(d.Alias.Offset)}
		case d.Rename != nil:
			c.Rename = &RenameDecl{Pos: refPos(d.Rename.Pos), From: refName(d.Rename.From), To: refName(d.Rename.To)}
		}
		out.Graph.Decls = append(out.Graph.Decls, c)
	}
	return out
}

func refNodes(nodes []refNode) []Node {
	var out []Node
	for _, n := range nodes {
		var c Node
		switch {
		case n.Leaf != nil:
			l := n.Leaf
			c.Leaf = &Leaf{Pos: refPos(l.Pos), Kind: l.Kind, Name: refName(l.Name),
				Reads: refAccesses(l.Reads), Writes: refAccesses(l.Writes)}
			if l.OpKind != nil {
				c.Leaf.OpKind = &KindClause{Pos: refPos(l.OpKind.Pos), Name: refName(l.OpKind.Name)}
			}
			if l.Cores != nil {
				c.Leaf.Cores = l.Cores.Ints.convert(l.Cores.Pos)
			}
		case n.Fused != nil:
			c.Fused = &Fused{Name: refName(n.Fused.Name), Body: refNodes(n.Fused.Body)}
		case n.Loop != nil:
			l := n.Loop
			c.Loop = &Loop{Name: refName(l.Name), Count: refName(l.Count), Body: refNodes(l.Body)}
		}
		out = append(out, c)
	}
	return out
}

func refAccesses(as []refAccess) []Access {
	var out []Access
	for _, a := range as {
		if a.Pos != a.Name.Pos {
			panic("reference parser: access position is not its name's")
		}
		c := Access{Name: refName(a.Name)}
		if s := a.Step; s != nil {
			c.Step = s.Ints.convert(s.Pos)
		}
		if s := a.Split; s != nil {
			c.Split = s.Ints.convert(s.Pos)
		}
		out = append(out, c)
	}
	return out
}

// convert turns Ints after a keyword at pos into an IntList.
func (r *refInts) convert(pos lexer.Position) *IntList {
	if r.Single.Type != 0 {
		return &IntList{Pos: refPos(pos), Ints: []Name{refName(r.Single)}}
	}
	return &IntList{Pos: refPos(pos), List: true, Ints: intTokens(r.List)}
}

// intTokens keeps the integers of a list captured with its commas.
func intTokens(ts []lexer.Token) []Name {
	var out []Name
	for _, t := range ts {
		if t.Type == tokInt {
			out = append(out, refName(t))
		}
	}
	return out
}

// refPos is a position of participle's lexer as the AST and the graph
// hold it: the one place its lexer.Position enters (the scanner hands it
// positions the other way, in lexer.go's Next).
func refPos(p lexer.Position) Pos { return Pos{Line: int32(p.Line), Col: int32(p.Column)} }

func refName(t lexer.Token) Name {
	if t.Type == 0 { // not captured
		return Name{}
	}
	return Name{Value: t.Value, Pos: refPos(t.Pos)}
}
