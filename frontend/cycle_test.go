package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongCycleMessages: a cycle of many names is reported with its
// first maxListed names and a count of the rest, not one line as long
// as the input; a name longer than maxListedName bytes is shortened.
func TestLongCycleMessages(t *testing.T) {
	const n = 1000
	var b strings.Builder
	b.WriteString("graph g {\n  buffer x : 128\n")
	for i := range n {
		fmt.Fprintf(&b, "  buffer a%d : 128\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "  alias a%d = a%d\n", i, (i+1)%n)
	}
	for i := range n {
		fmt.Fprintf(&b, "  rename r%d -> r%d\n", i, (i+1)%n)
	}
	b.WriteString("  op o reads x writes x\n}\n")
	_, errs := ParseCheck("c.bir", []byte(b.String()))
	// The alias lines start at line 1003, the renames at 2003; each is
	// reported at its first line: "  alias " is 8 bytes, "  rename " 9.
	want := "c.bir:1003:9: error: alias cycle: a0 -> a1 -> a2 -> a3 -> a4 -> a5 -> a6 -> a7 -> a8 -> a9 -> ... and 990 more -> a0\n" +
		"c.bir:2003:10: error: rename cycle: r0 -> r1 -> r2 -> r3 -> r4 -> r5 -> r6 -> r7 -> r8 -> r9 -> ... and 990 more -> r0"
	if errs.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", errs.Error(), want)
	}

	long := strings.Repeat("n", 1000)
	src := "graph g {\n  buffer " + long + " : 128\n  alias " + long + " = " + long + "\n  op o writes " + long + "\n}\n"
	_, errs = ParseCheck("c.bir", []byte(src))
	short := long[:maxListedName] + "..."
	if want := "c.bir:3:9: error: alias cycle: " + short + " -> " + short; errs.Error() != want {
		t.Errorf("a long name: got %.200q..., want %.200q...", errs.Error(), want)
	}
}
