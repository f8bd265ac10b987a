// Package frontend turns bundle-IR text (.bir, see the contract's section 1)
// into the checked model of package ir.
//
// It works in two phases. Parse lexes and parses one file into an AST whose
// every node, name and access carries its source position; it stops at the
// first lexical or syntax error, because a parser that guesses past a broken
// token stream mostly reports noise. Check then applies the meaning rules of
// the contract (names, renames, aliases, sizes, loops and steps) to a
// syntactically valid AST, collects every violation it finds and, only when
// there are none, builds the *ir.Graph that the later stages trust without
// re-validating.
//
// ParseCheck does both at once without an AST, and is what the tool uses:
// the parser hands every declaration and node to the checker (build.go) as
// soon as it has read it (a leaf node piece by piece: its name, its kind,
// its cores, each access, with the integers parsed into scratch that holds no
// pointers), and the checker builds the graph as it goes. On a source held
// whole of 32 KiB or more, the scanner runs on a goroutine of its own a
// batch of tokens ahead of the parser, and numbers the distinct names
// (but nodes' and kinds', never looked up so), so that the checker finds a name seen
// before with one load (pipe.go); the
// duplicate node names are looked for on another goroutine during the rest
// of finish. Both goroutines have ended when ParseCheck returns, and the
// results are the same as in line (the differential test runs both). Its
// results are those of Parse followed by Check, for every input. The
// checker is the one home of the meaning rules: Check feeds it the
// constructs of an AST in source order, ParseCheck feeds it straight from
// the parser. ParseCheckReader, what the tool uses on a file, is
// ParseCheck reading from an io.Reader through a window of about a
// megabyte (window.go): the source is never held whole, and no goroutine
// numbers its names ahead, so a name is a lookup in the name table, whose
// first slot is a cache miss in a graph's table; the checker prefetches
// that slot when the parser takes the name and looks it up when the op or
// the buffer declaration ends (builder.prefetch). Declarations and
// nodes may come in any order, so the checker resolves a reference on
// sight only when its buffer is already declared; the rest, the bounds of
// an access that need the buffer's size, the renames, the aliases, the
// claims and the groups wait for the end of the graph.
// Diagnostics are sorted by position and message in the end, so the order
// in which they are found does not show.
//
// All diagnostics are *Error values positioned at 1-based line and byte
// column and printed as FILE:LINE:COL: error: MESSAGE. Lines end at LF,
// CR LF or a lone CR (old Mac files); a UTF-8 BOM is skipped and is not a
// column. A file that starts with a UTF-16 byte order mark, or whose first
// two characters are ASCII with a NUL high byte, is reported once at 1:1
// as UTF-16 rather than byte by byte.
//
// # What Check enforces
//
// Beyond names, renames, sizes, loops and steps (contract v1), Check
// applies the v2 rules of contract section 1.2 and fills the v2 fields of
// package ir:
//
//   - Aliases are directed views. `alias v = t + OFF` (OFF 0 without
//     `+`) records v's View (in Graph.Views): Alias = t, AliasOffset =
//     OFF. Both sides go through the renames, as every reference does
//     (and as in v1): after `rename a -> v`, `alias a = t` makes v a
//     view of t. A name may be the left side of one alias only (the
//     second line is reported and ignored); an alias cycle, `alias a =
//     a` included, is reported once, at its first line in the source. A
//     group's root is its one name that is no alias's left side; a
//     view's ViewOffset is the sum of the offsets on its chain to the
//     root; Group.Size is the largest ViewOffset + Size of its names. A
//     sum or an end beyond int64 is an error at the alias line that
//     causes it.
//   - `cores N` or `cores [s0, ...]` on an op: every entry at least 1,
//     their product at most ir.MaxCores. The parser accepts `cores` on a
//     cpu node too (its name lookahead is shared with op), so that Check
//     reports it positioned at the keyword, with the other errors.
//   - `split` on an access: only on an op with cores, one entry per cores
//     entry.
//   - `kind K` on an op (contract v3): the builder numbers the distinct
//     kinds from 1 in order of first appearance into Graph.Kinds
//     (Kinds[0] is "", nil when no op has a kind) and sets Op.Kind (0
//     without one), so that two ops have equal Kind exactly when they
//     have the same K. A kind met recently costs one comparison (a small
//     cache in front of a map). As with cores, the parser accepts `kind`
//     on a cpu node and Check reports it at the keyword.
//   - Bounds: an access with a step or a split must start every core and
//     iteration at byte 0 or inside the accessed name's own size: its
//     largest core offset, sum_d (s_d-1)*b_d, plus sum over its loops of
//     stride*(count-1). Overflow is an error too. Nothing is checked on
//     an access whose step, split, cores or loop count already has an
//     error.
//
// # Syntax errors
//
// A syntax error names what would have fitted. At a token that neither
// continues the construct before it nor starts another, that is the
// construct's optional continuations (`unexpected "KiB", expected "bytes"
// or the end of the declaration`; after an access: ",", "step", "split",
// "writes"), as the contract's grammar allows them (so no "kind" and no
// "cores" after a cpu node's name); a `kind` met after an op's cores or
// accesses gets a word on where it belongs, and what must follow `kind`
// is "a kind" (a name). A dtype size without its shape is reported at the
// dtype, not at the token after it, which is often on the next line.
//
// # Two parsers
//
// Parse (parse.go) is a hand-written recursive-descent parser. It pulls
// tokens one at a time from the scanner of lexer.go, never holding more
// than two, keeps every name as a substring of one copy of the source, and
// carves the AST out of shared slabs (internal/slab), so that it allocates
// a few hundred times per file rather than per token. ParseCheck runs the
// same parser with the checker attached: the slabs are then scratch,
// reused for the
// next construct, and the source is read in place, not copied (every name
// the graph keeps is copied into the graph's name store, ir.NameStore).
//
// The grammar is also written for participle in ast.go, and
// parseReference runs it. That parser is the executable reference: the
// differential test (differential_test.go) and FuzzParseCheck require the
// two to return the same AST, or the same diagnostic, for every repository
// .bir file, thousands of random graphs and their mutants, and arbitrary
// fuzzed input, and ParseCheck to return the graph, or the diagnostics,
// that Check returns for the reference parser's AST; syntax.go words
// participle's errors as Parse does. A change to the syntax is made to
// both, and the test shows they agree. What both know of the keywords
// comes from one table in ast.go, beside the grammar: each keyword's
// role, and for a clause its place in its construct's order and what it
// takes, from which the parser's sets of keywords, the did-you-mean
// candidates and the continuations' words are derived (an op attribute,
// `WORD N`, needs only its row and its grammar rule in this package; see
// docs/contributing.md). The
// continuations named in an error are found by each parser on its own:
// Parse records them as it goes, the reference re-reads the tokens
// before the error (afterAt, which reads what each clause takes from the
// table); their wording (continuation) is shared. The random graphs of the
// differential test are rewritten to v2 syntax (addV2) because
// internal/randgraph writes v1.
//
// Parse used to be the participle parser. It was replaced because of its
// cost at the scale the tool targets (a million ops in one bundle): it
// allocated per token and stored every token up front, where the
// hand-written parser allocates a few hundred times per file. The
// measured figures of both, and of what follows, are in BENCHMARKS.md
// ("The frontend's costs"); they are kept there only, so that this page
// does not go stale as the code gets faster.
//
// # Cost at scale
//
// ParseCheck holds no AST: its live heap peaks a little above the source
// and the graph it returns, whose names are copied out of the source
// (BenchmarkParseCheck1Mx1000 and BenchmarkPeakHeap1Mx1000 measure it on
// the 1M-op graph of 1,000 bundles that scripts/bench.sh makes). The name
// table (only buffer and rename names: node names are checked for
// duplicates by sorting them once) is freed before the groups are built.
// What remains is mostly the scanner, the name table's cache misses (one
// random probe per name), and the garbage collector marking the graph.
// That marking is kept small by the graph's layout (see ir.Op): an op
// holds no list of its own, only spans into graph-wide arrays that hold
// no pointers, and its name, like a buffer's, is an ir.Name into the
// graph's name store (a few hundred 64 KiB blocks), so the collector
// follows no pointer per op or buffer: their arrays are never scanned.
package frontend
