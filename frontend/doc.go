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
package frontend
