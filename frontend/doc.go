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
// All diagnostics are *Error values positioned at 1-based line and byte
// column and printed as FILE:LINE:COL: error: MESSAGE.
//
// # Two parsers
//
// Parse (parse.go) is a hand-written recursive-descent parser. It pulls
// tokens one at a time from the scanner of lexer.go, never holding more
// than two, keeps every name as a substring of one copy of the source, and
// carves the AST out of shared chunks, so that it allocates a few hundred
// times per file rather than per token.
//
// The grammar is also written for participle in ast.go, and
// parseReference runs it. That parser is the executable reference: the
// differential test (differential_test.go) and FuzzParseCheck require the
// two to return the same AST, or the same diagnostic, for every repository
// .bir file, thousands of random graphs and their mutants, and arbitrary
// fuzzed input; syntax.go words participle's errors as Parse does. A
// change to the syntax is made to both, and the test shows they agree.
//
// Parse used to be the participle parser. It was replaced because of its
// cost at the scale the tool targets (a million ops in one bundle): on a
// 100k-op, 7 MB bundle (BenchmarkParse) it took 3.4 s of CPU, allocated
// 1.63 GB in 16 M allocations, and stored every token up front at 64 bytes
// each; on 1 M ops (67 MB) it took 38 s and 4.7 GB of peak RSS. The
// hand-written parser does the 100k-op bundle in 65-90 ms of CPU on a
// shared machine (about 35 ms of it outside the garbage collector) with
// 44 MB, the AST included, in a few hundred allocations; the 1 M-op bundle
// parses in about a second with an AST of 284 MB besides the 67 MB copy of
// the source.
package frontend
