package frontend

import (
	"fmt"
	"strings"
	"testing"
)

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
