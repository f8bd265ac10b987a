package frontend

import (
	"strings"
	"unsafe"

	"github.com/sdscgen/sdscgen/internal/slab"
	"github.com/sdscgen/sdscgen/ir"
)

// Parse parses one .bir file. It reports at most one lexical or syntax
// error, the first in the file, preceded by an error at each keyword used
// as a name in a declaration before it (which Check would have reported,
// had the parse gone on). The File is nil when there is an error.
//
// The parser is a recursive descent over the reference grammar of ast.go,
// pulling one token at a time from the scanner (two at a keyword that may
// be a declared name), and it reports exactly what the reference parser
// reports: the differential test and FuzzParseCheck hold the two equal.
func Parse(filename string, src []byte) (*File, ErrorList) {
	if len(src) >= maxSource {
		return nil, tooBig(filename)
	}
	// One copy of the source: every name in the AST, and from there in
	// the ir.Graph, is a substring of it, and the caller keeps src.
	p := &parser{scanner: *newScanner(filename, string(src))}
	f, err := p.parse()
	if err != nil {
		return nil, p.failed(err)
	}
	return f, nil
}

// ParseCheck is Parse followed by Check, with the same results, but it
// builds no AST: the parser hands each declaration and node to the
// checker as soon as it has read it. It is the cheap way to the graph
// (sdscgen.Compile's): on a 1M-op graph an AST is several times the size
// of the source and of the graph.
//
// src is read in place, not copied, and must not be modified during the
// call; nothing returned refers to it (the graph's names are copies).
func ParseCheck(filename string, src []byte) (*ir.Graph, ErrorList) {
	if len(src) >= maxSource {
		return nil, tooBig(filename)
	}
	// The scanner and parser only slice the text; every string that
	// outlives the call is copied (the graph's name store, messages).
	return parseCheck(filename, src, defaultPipe)
}

// parseCheck is ParseCheck with the config of the scanning goroutine
// (tests make its batches tiny).
func parseCheck(filename string, src []byte, cfg pipeConfig) (*ir.Graph, ErrorList) {
	text := unsafe.String(unsafe.SliceData(src), len(src))
	p := &parser{scanner: *newScanner(filename, text)}
	p.startPipe(cfg)
	// Should the parser panic (a bug), the goroutine is not left
	// parked; the call below has stopped it on every other way out.
	defer p.stopPipe()
	p.b = newBuilder(filename, len(src))
	p.b.dupAside, p.b.memHook = cfg.dupAside, cfg.memHook
	_, err := p.parse()
	p.stopPipe()
	if err != nil {
		return nil, p.failed(err)
	}
	return p.b.finish()
}

// failed is the diagnostic list of a parse stopped by err: the keywords
// accepted as declared names before it (see parser.kwNames), then err.
func (p *parser) failed(err *Error) ErrorList {
	return append(p.kwNames[:len(p.kwNames):len(p.kwNames)], err)
}

// bail unwinds the parser at the first error, which is in parser.err.
type bail struct{}

type parser struct {
	scanner
	tok   token // the current token
	ahead token // the token after it, when hasAhead
	// hasAhead is set while ahead holds a token scanned early, which
	// only the keyword-as-name check does.
	hasAhead bool
	err      *Error
	// kwNames are the errors at the keywords accepted as declared names
	// so far (see declName). Check reports them with the other semantic
	// errors; when a syntax error stops the parse first, they are
	// reported with it (failed), so that `buffer split : 4` is an error
	// at the declaration even when the use of split stops the parse.
	kwNames ErrorList

	// pipe, when set, is the goroutine scanning ahead (pipe.go): the
	// tokens come from its batches, the current one in toks from ti on.
	pipe *pipe
	toks []token
	ti   int

	// b, when set, receives every declaration and node as it is read
	// (ParseCheck): no AST is kept, and the pieces below are scratch,
	// reused for the next construct.
	b *builder

	// What optionally could have continued the construct parsed last,
	// for the error at a token that neither continues it nor starts
	// the next (see continuation).
	after     after
	afterLeaf kw   // kwOp or kwCPU, when after is about a leaf
	afterRead bool // the leaf's last clause is `reads`

	// The AST is carved out of slabs instead of being allocated object
	// by object: a million-op graph would otherwise make millions of
	// small allocations.
	leaves   slab.Slab[Leaf]
	kinds    slab.Slab[KindClause]
	loops    slab.Slab[Loop]
	fuseds   slab.Slab[Fused]
	intLists slab.Slab[IntList]
	accs     slab.Slab[Access]
	names    slab.Slab[Name]
	nodes    slab.Slab[Node]

	// lits holds the integers of the clauses of the access or cores
	// being read (ParseCheck; see leafB).
	lits []intLit

	// The nodes of the open bodies, innermost last; a body is copied
	// out when it closes.
	nodeStack []Node
	// The buffer declarations, copied to one exact-length slice at the
	// end: they may be a million.
	buffers [][]BufferDecl
}

func (p *parser) parse() (f *File, err *Error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bail); !ok {
				panic(r)
			}
			f, err = nil, p.err
		}
	}()
	p.next()
	f = &File{Filename: p.file}
	p.graph(&f.Graph)
	if p.tok.kind != tokEOF {
		p.fail("unexpected " + p.describe() + " after the end of the graph")
	}
	if p.scanner.err != nil {
		p.fail("")
	}
	return f, nil
}

func (p *parser) next() {
	if p.hasAhead {
		p.tok, p.hasAhead = p.ahead, false
		return
	}
	if p.ti < len(p.toks) {
		p.tok = p.toks[p.ti]
		p.ti++
		return
	}
	if p.pipe != nil {
		p.pull(&p.tok)
		return
	}
	p.scan(&p.tok)
}

func (p *parser) peek() *token {
	if !p.hasAhead && p.pipe != nil {
		if p.ti < len(p.toks) {
			p.ahead = p.toks[p.ti]
			p.ti++
		} else {
			p.pull(&p.ahead)
		}
		p.hasAhead = true
	}
	if !p.hasAhead {
		// The current token must survive a refill of the window while
		// the next one is scanned.
		p.pin = int(p.tok.off)
		base := p.base
		p.scan(&p.ahead)
		if d := p.base - base; d != 0 {
			p.tok.off -= int32(d)
			p.tok.end -= int32(d)
		}
		p.pin = noPin
		p.hasAhead = true
	}
	return &p.ahead
}

// text is the current token's text.
func (p *parser) text() string { return p.src[p.tok.off:p.tok.end] }

// fail stops the parse with an error at the current token. If that token
// is the EOF that the scanner returns at a lexical error, the lexical
// error is the one reported: the syntax error is an artefact of the cut.
func (p *parser) fail(msg string) {
	if e := p.scanner.err; p.tok.kind == tokEOF && e != nil {
		p.err = &Error{Pos: e.pos.In(p.file), Msg: e.msg}
	} else {
		p.err = &Error{Pos: p.tok.pos.In(p.file), Msg: msg}
	}
	panic(bail{})
}

// failAt stops the parse with an error at pos, before the current token,
// unless that token is the EOF of a lexical error, which is reported
// instead (as by fail).
func (p *parser) failAt(pos Pos, msg string) {
	if p.tok.kind == tokEOF && p.scanner.err != nil {
		p.fail("")
	}
	p.err = &Error{Pos: pos.In(p.file), Msg: msg}
	panic(bail{})
}

func (p *parser) describe() string { return describe(p.tok.kind == tokEOF, p.text()) }

// unexpected fails at the current token, which is not what the grammar
// wants there. A keyword where a name belongs gets its own wording.
func (p *parser) unexpected(want string) { p.unexpectedIn(want, 0) }

// unexpectedIn is unexpected where a keyword of more could also have
// come: a name close to one of those or of the keywords want quotes gets
// a did-you-mean (see suggestKeyword).
func (p *parser) unexpectedIn(want string, more kwSet) {
	if want == "a name" && p.tok.kind == tokKeyword {
		p.fail(keywordMsg(p.text()))
	}
	msg := "unexpected " + p.describe() + ", expected " + want
	if p.tok.kind == tokIdent {
		msg += suggestKeyword(p.text(), want, more)
	}
	p.fail(msg)
}

// is reports whether the current token is the punctuation c; '-' stands
// for "->", the only one starting with it.
func (p *parser) is(c byte) bool {
	return p.tok.kind == tokPunct && p.src[p.tok.off] == c
}

func (p *parser) isKw(k kw) bool { return p.tok.kind == tokKeyword && p.tok.kw == k }

// take returns the current token as a Name and moves past it.
func (p *parser) take() Name {
	n := Name{Value: p.src[p.tok.off:p.tok.end], Pos: p.tok.pos}
	p.next()
	return n
}

// punct consumes the punctuation c ("->" is '-').
func (p *parser) punct(c byte) {
	if !p.is(c) {
		want := `"` + string(c) + `"`
		if c == '-' {
			want = `"->"`
		}
		p.unexpected(want)
	}
	p.next()
}

// kwSet is a set of keywords, one bit per kw.
type kwSet uint32

func kws(ks ...kw) kwSet {
	var s kwSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// declName consumes the name that a declaration or node introduces. It
// may be a keyword when the token after it continues the construct (see
// ast.go): the punctuation c, or else (c == 0) one of the keywords in set.
func (p *parser) declName(c byte, set kwSet) Name {
	switch p.tok.kind {
	case tokIdent:
	case tokKeyword:
		a := p.peek()
		if c != 0 && a.kind == tokPunct && p.src[a.off] == c ||
			c == 0 && a.kind == tokKeyword && set&(1<<a.kw) != 0 {
			p.kwNames.add(p.tok.pos.In(p.file), "%s", keywordMsg(p.text()))
			break
		}
		p.unexpected("a name")
	default:
		p.unexpected("a name")
	}
	return p.take()
}

// refName consumes a name that refers to something. It may be a keyword
// when the token after it is one of puncts or a keyword in set, or one
// that ends the construct (see ast.go: then the keyword cannot be the
// start of what follows a missing name). decl says that the name is part
// of a declaration (a list, an alias's target, a rename's), where such a
// keyword is an error reported with a later syntax error (see kwNames);
// in an access it is only an error when no buffer has that name.
func (p *parser) refName(puncts string, set kwSet, decl bool) Name {
	switch p.tok.kind {
	case tokIdent:
	case tokKeyword:
		a := p.peek()
		if a.kind == tokPunct && (p.src[a.off] == '}' || strings.IndexByte(puncts, p.src[a.off]) >= 0) ||
			a.kind == tokKeyword && (set|endKws)&(1<<a.kw) != 0 {
			if decl {
				p.kwNames.add(p.tok.pos.In(p.file), "%s", keywordMsg(p.text()))
			}
			break
		}
		p.unexpected("a name")
	default:
		p.unexpected("a name")
	}
	return p.take()
}

// endKws are the keywords that start a declaration or a node: one after a
// keyword where a name is referred to confirms the keyword as the name.
var endKws = kwsWith(roleNode) | kwsWith(roleDecl)

// accessEnd are the keywords that may follow an access's name: its
// clauses, and the leaf's clauses after `reads` (`writes`).
var accessEnd = kwsWith(roleAccess) | leafClausesAfter(kwReads)

// leafClausesAfter is the set of the leaf clauses after clause k.
func leafClausesAfter(k kw) kwSet {
	var s kwSet
	for c := kwGraph; c <= kwLast; c++ {
		if keywords[c].role == roleLeaf && keywords[c].order > keywords[k].order {
			s |= 1 << c
		}
	}
	return s
}

func (p *parser) integer() Name {
	if p.tok.kind != tokInt {
		p.unexpected("an integer")
	}
	return p.take()
}

// ints consumes the Ints after a `step`, `split` or `cores` keyword,
// which is the current token.
func (p *parser) ints() *IntList {
	l := p.intLists.One()
	l.Pos = p.tok.pos
	p.next()
	switch {
	case p.tok.kind == tokInt:
		start := p.names.Mark()
		p.names.Push(&start, p.take())
		l.Ints = p.names.Cut(start)
	case p.is('['):
		l.List = true
		l.Ints = p.intList()
	default:
		p.unexpected(`an integer or "["`)
	}
	return l
}

// intList consumes `[N, ...]`.
func (p *parser) intList() []Name {
	p.punct('[')
	start := p.names.Mark()
	p.names.Push(&start, p.integer())
	for p.is(',') {
		p.next()
		p.names.Push(&start, p.integer())
	}
	p.punct(']')
	return p.names.Cut(start)
}

func (p *parser) graph(g *Graph) {
	if !p.isKw(kwGraph) {
		p.unexpected(`"graph"`)
	}
	p.next()
	g.Name = p.declName('{', 0)
	if p.b != nil {
		p.b.graphName(g.Name)
		// The builder has its copy; the name would keep the parser's
		// first window alive (ParseCheckReader).
		g.Name = Name{}
	}
	p.punct('{')
	g.Nodes = p.body(g)
	n := 0
	for _, c := range p.buffers {
		n += len(c)
	}
	if n > 0 {
		g.Buffers = make([]BufferDecl, 0, n)
		for _, c := range p.buffers {
			g.Buffers = append(g.Buffers, c...)
		}
	}
	p.buffers = nil
}

// body parses the nodes of a block up to and including its "}". g is nil
// inside fused and loop blocks, where declarations are not allowed.
func (p *parser) body(g *Graph) []Node {
	base := len(p.nodeStack)
	p.after = afterNothing
	for p.tok.kind == tokKeyword {
		if p.b != nil {
			// The builder has copied what it keeps of the statements
			// before: the windows they came from may be written again.
			p.release()
		}
		var n Node
		switch p.tok.kw {
		case kwOp, kwCPU:
			if p.b != nil {
				p.leafB()
				continue
			}
			n.Leaf = p.leaf()
		case kwFused:
			if n.Fused = p.fused(); n.Fused == nil {
				continue
			}
		case kwLoop:
			if n.Loop = p.loop(); n.Loop == nil {
				continue
			}
		case kwBuffer, kwInput, kwOutput, kwLX, kwAlias, kwRename:
			if g == nil {
				p.notInBody(g)
			}
			p.decl(g)
			continue
		default:
			p.notInBody(g)
		}
		if len(p.nodeStack) == cap(p.nodeStack) {
			// Double: append grows a large slice by a quarter, which
			// for a million nodes allocates five times their size.
			s := make([]Node, len(p.nodeStack), 2*cap(p.nodeStack)+64)
			copy(s, p.nodeStack)
			p.nodeStack = s
		}
		p.nodeStack = append(p.nodeStack, n)
	}
	p.bodyEnd(g)
	list := p.nodes.CopyOf(p.nodeStack[base:])
	clear(p.nodeStack[base:]) // drop the pointers
	p.nodeStack = p.nodeStack[:base]
	return list
}

// bodyEnd consumes the "}" that must end a body here.
func (p *parser) bodyEnd(g *Graph) {
	if !p.is('}') {
		p.notInBody(g)
	}
	p.next()
	p.after = afterNothing
}

// notInBody fails at a token that cannot come next in a body. Unless it
// is the end of the file or a declaration where none is allowed, the
// error says what could have continued the construct before it.
func (p *parser) notInBody(g *Graph) {
	if p.tok.kind != tokEOF && !(p.tok.kind == tokKeyword && isDeclKeyword(p.tok.kw)) {
		next := kwNone
		if p.tok.kind == tokKeyword {
			next = p.tok.kw
		}
		if want := continuationAt(p.after, p.afterLeaf, p.afterRead, next); want != "" {
			p.unexpectedIn(want, bodyKws(g != nil))
		}
	}
	if g != nil {
		p.unexpectedIn(`a declaration, a node or "}"`, bodyKws(true))
	}
	p.unexpectedIn(`a node or "}"`, bodyKws(false))
}

func (p *parser) leaf() *Leaf {
	l := p.leaves.One()
	l.Pos = p.tok.pos
	l.Kind = "op"
	if p.tok.kw == kwCPU {
		l.Kind = "cpu"
	}
	leafKw := p.tok.kw
	p.next()
	l.Name = p.declName(0, leafClauses)
	p.after, p.afterLeaf, p.afterRead = afterLeafName, leafKw, false
	if p.isKw(kwKind) {
		k := p.kinds.One()
		k.Pos = p.tok.pos
		k.Name = p.kindName()
		l.OpKind = k
		p.after = afterKind
	}
	if p.isKw(kwCores) {
		l.Cores = p.ints()
		p.after = afterCores
	}
	for last := int8(0); p.isAttr(last); {
		k := p.tok.kw
		last = keywords[k].order
		a := Attr{Pos: p.tok.pos, Word: kwText(k)}
		p.next()
		a.Value = p.integer()
		l.Attrs = append(l.Attrs, a)
		p.after = afterClause + after(k)
	}
	if p.isKw(kwReads) {
		p.next()
		p.afterRead = true
		l.Reads = p.accesses()
	}
	if p.isKw(kwWrites) {
		p.next()
		p.afterRead = false
		l.Writes = p.accesses()
	}
	return l
}

// isAttr reports whether the current token is an attribute's keyword
// (see keywords) that may come after the clause of order last.
func (p *parser) isAttr(last int8) bool {
	return p.tok.kind == tokKeyword && keywords[p.tok.kw].arg == argInt && keywords[p.tok.kw].order > last
}

// leafClauses are the keywords that may follow a leaf's name, which
// confirm a keyword before them as the name (see declName).
var leafClauses = kwsWith(roleLeaf)

// kindName consumes a `kind` keyword, the current token, and returns the
// kind after it, which must be a name (a keyword is not one).
func (p *parser) kindName() Name {
	p.next()
	if p.tok.kind != tokIdent {
		p.fail("unexpected " + p.describe() + ", expected " + wantKind)
	}
	return p.take()
}

// accesses parses `ACCESS {, ACCESS}`.
func (p *parser) accesses() []Access {
	start := p.accs.Mark()
	for {
		a := Access{Name: p.refName(",", accessEnd, false)}
		p.after = afterAccess
		if p.isKw(kwStep) {
			a.Step = p.ints()
			p.after = afterStep
		}
		if p.isKw(kwSplit) {
			a.Split = p.ints()
			p.after = afterSplit
		}
		p.accs.Push(&start, a)
		if !p.is(',') {
			break
		}
		p.next()
	}
	return p.accs.Cut(start)
}

// leafB is leaf for ParseCheck: it hands the leaf to the builder piece
// by piece as it is read (the name, the cores, each access), with the
// clauses' integers parsed into lits, which holds no pointers: no AST,
// and no scratch that the garbage collector has to see.
func (p *parser) leafB() {
	pos := p.tok.pos
	leafKw := p.tok.kw
	p.next()
	name := p.declName(0, leafClauses)
	p.after, p.afterLeaf, p.afterRead = afterLeafName, leafKw, false
	p.b.leafStart(leafKw == kwCPU, pos, name)
	if p.isKw(kwKind) {
		kpos := p.tok.pos
		k := p.kindName()
		p.after = afterKind
		p.b.leafKind(kpos, k)
	}
	if p.isKw(kwCores) {
		p.lits = p.lits[:0]
		c := p.intsB()
		p.after = afterCores
		p.b.leafCores(c)
	}
	for last := int8(0); p.isAttr(last); {
		k, kpos := p.tok.kw, p.tok.pos
		last = keywords[k].order
		p.next()
		v := p.lit()
		p.after = afterClause + after(k)
		p.b.leafAttr(k, kpos, v)
	}
	if p.isKw(kwReads) {
		p.next()
		p.afterRead = true
		p.accessesB()
	}
	if p.isKw(kwWrites) {
		p.next()
		p.afterRead = false
		p.b.writes()
		p.accessesB()
	}
	p.b.leafEnd()
}

// accessesB is accesses for ParseCheck (see leafB).
func (p *parser) accessesB() {
	for {
		pre := p.tok.pre
		name := p.refName(",", accessEnd, false)
		p.after = afterAccess
		p.lits = p.lits[:0]
		var step, split ints
		if p.isKw(kwStep) {
			step = p.intsB()
			p.after = afterStep
		}
		if p.isKw(kwSplit) {
			split = p.intsB()
			p.after = afterSplit
		}
		p.b.access(name, pre, step, split)
		if !p.is(',') {
			break
		}
		p.next()
	}
}

// intsB is ints for ParseCheck: the clause's integers are parsed and
// appended to lits, which its result shares until lits is emptied.
func (p *parser) intsB() ints {
	l := ints{set: true, pos: p.tok.pos}
	p.next()
	start := len(p.lits)
	switch {
	case p.tok.kind == tokInt:
		p.lits = append(p.lits, p.lit())
	case p.is('['):
		l.list = true
		p.next()
		p.lits = append(p.lits, p.lit())
		for p.is(',') {
			p.next()
			p.lits = append(p.lits, p.lit())
		}
		p.punct(']')
	default:
		p.unexpected(`an integer or "["`)
	}
	l.ints = p.lits[start:len(p.lits):len(p.lits)]
	return l
}

// lit consumes an integer literal, as integer does, and parses it.
func (p *parser) lit() intLit {
	if p.tok.kind != tokInt {
		p.unexpected("an integer")
	}
	n, ok := parseInt(p.text())
	t := intLit{n: n, ok: ok, pos: p.tok.pos}
	p.next()
	return t
}

// fused parses a fused block; nil when it went to p.b.
func (p *parser) fused() *Fused {
	p.next()
	name := p.declName('{', 0)
	p.punct('{')
	if p.b != nil {
		p.b.openFused(name)
		p.body(nil)
		p.b.close()
		return nil
	}
	f := p.fuseds.One()
	f.Name = name
	f.Body = p.body(nil)
	return f
}

// loop parses a loop block; nil when it went to p.b.
func (p *parser) loop() *Loop {
	p.next()
	name := p.declName(0, kws(kwCount))
	if !p.isKw(kwCount) {
		p.unexpected(`"count"`)
	}
	p.next()
	count := p.integer()
	p.punct('{')
	if p.b != nil {
		p.b.openLoop(name, count)
		p.body(nil)
		p.b.close()
		return nil
	}
	l := p.loops.One()
	l.Name, l.Count = name, count
	l.Body = p.body(nil)
	return l
}

func (p *parser) decl(g *Graph) {
	pos := p.tok.pos
	switch p.tok.kw {
	case kwBuffer:
		p.next()
		var b BufferDecl
		pre := p.tok.pre
		b.Name = p.declName(':', 0)
		// The name is looked up once its size is parsed: its slot in
		// the name table is loaded meanwhile (builder.prefetch).
		var hash uint64
		if p.b != nil {
			hash = p.b.prefetch(b.Name.Value, pre)
		}
		colon := p.tok.pos
		p.punct(':')
		switch p.tok.kind {
		case tokInt:
			b.Size = p.take()
			p.after = afterSizeInt
			if p.isKw(kwBytes) {
				p.next()
				p.after = afterNothing
			}
		case tokIdent:
			b.Size = p.take()
			if !p.is('[') {
				// Reported at the dtype, not at the next token,
				// which is often on the next line.
				p.failAt(b.Size.Pos, missingShape(b.Size.Value))
			}
			b.Shape = p.intList()
			p.after = afterNothing
		default:
			if p.tok.pos.Line > colon.Line {
				// The size is missing, not misspelt: say so where it
				// belongs, not at the next line's token.
				p.failAt(afterColon(colon), missingSize)
			}
			p.unexpected(wantSize)
		}
		if p.b != nil {
			p.b.buffer(&b, pre, hash)
			p.names.Reset()
			return
		}
		if k := len(p.buffers) - 1; k < 0 || len(p.buffers[k]) == cap(p.buffers[k]) {
			p.buffers = append(p.buffers, make([]BufferDecl, 0, min(16<<min(len(p.buffers), 8), slab.DefaultMax)))
		}
		k := len(p.buffers) - 1
		p.buffers[k] = append(p.buffers[k], b)
	case kwAlias:
		a := AliasDecl{Pos: pos}
		p.next()
		a.View = p.declName('=', 0)
		p.punct('=')
		a.Target = p.refName("+", 0, true)
		p.after = afterAliasTarget
		if p.is('+') {
			p.next()
			a.Offset = p.integer()
			p.after = afterNothing
		}
		if p.b != nil {
			p.b.alias(&a)
			return
		}
		ap := new(AliasDecl)
		*ap = a
		g.Decls = append(g.Decls, Decl{Alias: ap})
	case kwRename:
		p.next()
		from := p.declName('-', 0)
		p.punct('-')
		to := p.refName("", 0, true)
		p.after = afterNothing
		if p.b != nil {
			p.b.rename(from, to)
			return
		}
		g.Decls = append(g.Decls, Decl{Rename: &RenameDecl{Pos: pos, From: from, To: to}})
	default:
		kind := p.tok.kw
		p.next()
		start := p.names.Mark()
		p.names.Push(&start, p.refName(",", 0, true))
		for p.is(',') {
			p.next()
			p.names.Push(&start, p.refName(",", 0, true))
		}
		names := p.names.Cut(start)
		p.after = afterListName
		if p.b != nil {
			p.b.list(kwText(kind), names)
			p.names.Reset()
			return
		}
		g.Decls = append(g.Decls, Decl{List: &ListDecl{Pos: pos, Kind: kwText(kind), Names: names}})
	}
}
