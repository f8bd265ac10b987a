package frontend

import (
	"strings"

	"github.com/sdscgen/sdscgen/internal/suggest"
)

// Did-you-mean suggestions for the diagnostics: a word that is no keyword
// where a keyword was expected (bufer for buffer), and a name that is not
// declared where a declared one is close (t12 for t21). They are computed
// only on the error path.

// closeEnough reports whether a word of n bytes at distance d from a
// candidate is likely a misspelling of it: at most two edits, and fewer
// than half its length (so that "ip" is no misspelling of "op").
func closeEnough(d, n int) bool { return d <= 2 && 2*d < n }

// better reports whether candidate c at distance d beats the best so far
// (best at bestD; "" is none): the nearest wins, then the first in byte
// order, so that the suggestion does not depend on declaration order.
func better(c string, d int, best string, bestD int) bool {
	return best == "" || d < bestD || d == bestD && c < best
}

// stmtKws are the keywords that start a node, in any body, and declKws
// those that start a declaration, in the graph's body only.
var (
	stmtKws = kwsWith(roleNode)
	declKws = kwsWith(roleDecl)
)

// bodyKws are the keywords that may start what comes next in a body: the
// graph's (graph) or a fused or loop block's.
func bodyKws(graph bool) kwSet {
	if graph {
		return stmtKws | declKws
	}
	return stmtKws
}

// suggestKeyword words the did-you-mean of a syntax error at the word
// (a name, not a keyword) where want was expected: the keyword nearest to
// it, compared in lower case, among those want quotes and those in more
// (what could start the next node or declaration). It returns `; did you
// mean "KW"?`, or "" when no keyword is close (see closeEnough).
func suggestKeyword(word, want string, more kwSet) string {
	lw := strings.ToLower(word)
	best, bestD := "", 0
	consider := func(k string) {
		if d := suggest.Distance(lw, k, 2); closeEnough(d, len(word)) && better(k, d, best, bestD) {
			best, bestD = k, d
		}
	}
	// The quoted words of want: "kind", "cores", "reads" ...
	parts := strings.Split(want, `"`)
	for i := 1; i < len(parts); i += 2 {
		if keyword(parts[i]) != kwNone {
			consider(parts[i])
		}
	}
	for k := kwGraph; k <= kwLast; k++ {
		if more&(1<<k) != 0 {
			consider(kwText(k))
		}
	}
	if best == "" {
		return ""
	}
	return `; did you mean "` + best + `"?`
}

// maxNameSuggestions is the number of errors at an undeclared name, the
// first in order, that get a did-you-mean: each costs a pass over every
// declared name, and only the first errors are shown by default (see
// DefaultErrorLimit), so that a million undeclared names cost 20 passes,
// not a million.
const maxNameSuggestions = DefaultErrorLimit

// suggestNames adds to the first maxNameSuggestions errors at an
// undeclared name (an access's, a list's, an alias's or a rename's
// target), in the order they are reported in, the declared name nearest
// to theirs (a buffer or a rename's source) when one is close enough
// (see closeEnough): `undeclared buffer "t12"; did you mean "t21"?`. The
// names are compared in one pass over the table, which must still be
// there: finish calls it once every name is resolved.
func (b *builder) suggestNames() {
	type target struct {
		e     *Error
		word  string
		best  string
		bestD int
	}
	var errs ErrorList
	for _, e := range b.errs {
		if e.undeclared != 0 {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		return
	}
	// The first in the order they will be reported in: a sorted copy
	// (the list is sorted once complete).
	errs.Sort()
	var ts []target
	for _, e := range errs[:min(len(errs), maxNameSuggestions)] {
		ts = append(ts, target{e: e, word: b.names.name(e.undeclared - 1)})
	}
	t := b.names
	for id := int32(0); id < int32(t.n); id++ {
		en := t.entry(id)
		if en.buf < 0 && en.ren < 0 {
			continue // not declared: an undeclared name itself
		}
		n := int(en.ref.Len)
		var c string // the candidate, read only when some word is near its length
		for i := range ts {
			w := &ts[i]
			if d := len(w.word) - n; d > 2 || d < -2 || len(w.word) < 3 {
				continue
			}
			if c == "" {
				c = t.name(id)
			}
			if d := suggest.Distance(w.word, c, 2); closeEnough(d, len(w.word)) && better(c, d, w.best, w.bestD) {
				w.best, w.bestD = c, d
			}
		}
	}
	for _, w := range ts {
		if w.best != "" {
			w.e.Msg += `; did you mean "` + w.best + `"?`
		}
	}
}
