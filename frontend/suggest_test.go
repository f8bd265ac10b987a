package frontend

import (
	"fmt"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"buffer", "buffer", 2, 0},
		{"bufer", "buffer", 2, 1},  // one deletion
		{"bufefr", "buffer", 2, 1}, // one swap of neighbours
		{"raeds", "reads", 2, 1},
		{"opp", "op", 2, 1},
		{"kitten", "sitting", 3, 3}, // k->s, e->i, +g
		{"kitten", "sitting", 2, 3}, // over the limit: limit+1
		{"x", "xyzw", 2, 3},         // lengths 3 apart: limit+1 at once
		{"", "ab", 2, 2},
		{"ca", "abc", 3, 3}, // OSA: a swap is not followed by an insertion
	} {
		if got := distance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

func TestSuggestKeyword(t *testing.T) {
	for _, c := range []struct {
		word, want string
		more       kwSet
		out        string
	}{
		{"bufer", `a declaration, a node or "}"`, bodyKws(true), `; did you mean "buffer"?`},
		{"bufer", `a node or "}"`, bodyKws(false), ""}, // no declaration in a block
		{"Buffer", "", declKws, `; did you mean "buffer"?`},
		{"cpy", "", stmtKws, `; did you mean "cpu"?`},
		{"ip", "", stmtKws, ""}, // one edit, but half of two bytes
		{"stpe", `"step", "split"`, 0, `; did you mean "step"?`},
		{"x", `","`, 0, ""},
	} {
		if got := suggestKeyword(c.word, c.want, c.more); got != c.out {
			t.Errorf("suggestKeyword(%q, %q) = %q, want %q", c.word, c.want, got, c.out)
		}
	}
}

// TestSuggestNamesBounded: only the first maxNameSuggestions undeclared
// names, in position order, get a did-you-mean, whatever their number.
func TestSuggestNamesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph g {\n")
	const n = maxNameSuggestions + 5
	for i := range n {
		fmt.Fprintf(&b, "  buffer buffer%03d : 4\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "  op o%d writes bufer%03d\n", i, i) // one edit
	}
	b.WriteString("}\n")
	_, errs := ParseCheck("s.bir", []byte(b.String()))
	if len(errs) != n {
		t.Fatalf("%d errors, want %d:\n%v", len(errs), n, errs)
	}
	for i, e := range errs {
		want := fmt.Sprintf("undeclared buffer \"bufer%03d\"", i)
		if i < maxNameSuggestions {
			want += fmt.Sprintf("; did you mean \"buffer%03d\"?", i)
		}
		if e.Msg != want {
			t.Errorf("error %d: %s, want %s", i, e.Msg, want)
		}
	}
}
