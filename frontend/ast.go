package frontend

import "github.com/alecthomas/participle/v2/lexer"

// The AST mirrors the grammar of contract section 1.1. Names and integers
// are kept as lexer.Token values: a token carries its text and its exact
// position without a node allocation of its own, and integers stay as text
// so that Check can report a literal that does not fit in int64 at its
// position.
//
// A name that a declaration or node introduces may be a keyword when the
// token after it confirms the construct (`buffer op :`, `op loop reads`);
// the grammar accepts it and Check reports it, so that such errors come out
// together with the other semantic errors instead of stopping the parse.
// Elsewhere (references, and a keyword not so confirmed, as in `op reads x`
// where the name is missing) a keyword is a syntax error, which
// syntaxError words the same way.

// File is one parsed .bir file.
type File struct {
	Graph Graph `parser:"@@"`
}

// Graph is the `graph NAME { ... }` block. Declarations are order
// independent and kept apart from the nodes, whose order matters.
type Graph struct {
	Pos   lexer.Position
	Name  lexer.Token `parser:"'graph' ( @Ident | (?= Keyword '{') @Keyword )"`
	Nodes []Node      `parser:"'{' ( @@"`
	Decls []Decl      `parser:"    | @@ )* '}'"`
}

// Decl is one declaration; exactly one field is set.
type Decl struct {
	Buffer *BufferDecl `parser:"  @@"`
	List   *ListDecl   `parser:"| @@"`
	Alias  *AliasDecl  `parser:"| @@"`
	Rename *RenameDecl `parser:"| @@"`
}

// BufferDecl is `buffer NAME : SIZE`. The size is either Bytes (`N` or
// `N bytes`) or DType with Shape, the shape's integers interleaved with the
// separating commas.
type BufferDecl struct {
	Pos   lexer.Position
	Name  lexer.Token   `parser:"'buffer' ( @Ident | (?= Keyword ':') @Keyword ) ':'"`
	Bytes lexer.Token   `parser:"( @Int 'bytes'?"`
	DType lexer.Token   `parser:"| @Ident"`
	Shape []lexer.Token `parser:"  '[' @(Int (',' Int)*) ']' )"`
}

// ListDecl is `input`, `output` or `lx` followed by names, interleaved
// with the separating commas.
type ListDecl struct {
	Pos   lexer.Position
	Kind  string        `parser:"@('input' | 'output' | 'lx')"`
	Names []lexer.Token `parser:"@(Ident (',' Ident)*)"`
}

// AliasDecl is `alias VIEW = TARGET`.
type AliasDecl struct {
	Pos    lexer.Position
	View   lexer.Token `parser:"'alias' ( @Ident | (?= Keyword '=') @Keyword ) '='"`
	Target lexer.Token `parser:"@Ident"`
}

// RenameDecl is `rename FROM -> TO`.
type RenameDecl struct {
	Pos  lexer.Position
	From lexer.Token `parser:"'rename' ( @Ident | (?= Keyword '->') @Keyword ) '->'"`
	To   lexer.Token `parser:"@Ident"`
}

// Node is one op, cpu, fused or loop node; exactly one field is set.
type Node struct {
	Leaf  *Leaf  `parser:"  @@"`
	Fused *Fused `parser:"| @@"`
	Loop  *Loop  `parser:"| @@"`
}

// Leaf is an `op` or a `cpu` node (Kind tells which).
type Leaf struct {
	Pos    lexer.Position
	Kind   string      `parser:"@('op' | 'cpu')"`
	Name   lexer.Token `parser:"( @Ident | (?= Keyword ('reads' | 'writes')) @Keyword )"`
	Reads  []Access    `parser:"( 'reads' @@ ( ',' @@ )* )?"`
	Writes []Access    `parser:"( 'writes' @@ ( ',' @@ )* )?"`
}

// Fused is a `fused NAME { ... }` block.
type Fused struct {
	Pos  lexer.Position
	Name lexer.Token `parser:"'fused' ( @Ident | (?= Keyword '{') @Keyword )"`
	Body []Node      `parser:"'{' @@* '}'"`
}

// Loop is a `loop NAME count N { ... }` block.
type Loop struct {
	Pos   lexer.Position
	Name  lexer.Token `parser:"'loop' ( @Ident | (?= Keyword 'count') @Keyword )"`
	Count lexer.Token `parser:"'count' @Int"`
	Body  []Node      `parser:"'{' @@* '}'"`
}

// Access is one operand of a leaf node.
type Access struct {
	Pos  lexer.Position
	Name lexer.Token `parser:"@Ident"`
	Step *Step       `parser:"@@?"`
}

// Step is `step N` (Single) or `step [N, ...]` (List, integers interleaved
// with commas). Pos is that of the `step` keyword.
type Step struct {
	Pos    lexer.Position
	Single lexer.Token   `parser:"'step' ( @Int"`
	List   []lexer.Token `parser:"| '[' @(Int (',' Int)*) ']' )"`
}
