package mlirref

import (
	"fmt"
	"strings"
)

// Diff returns a short line diff of two texts: the first differing line
// with a little context, for test failure messages.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	if i == len(w) && i == len(g) {
		return "(equal)"
	}
	var b strings.Builder
	from := i - 2
	if from < 0 {
		from = 0
	}
	for k := from; k < i; k++ {
		fmt.Fprintf(&b, "  %d  %s\n", k+1, w[k])
	}
	for k := i; k < i+3; k++ {
		if k < len(w) {
			fmt.Fprintf(&b, "- %d  %s\n", k+1, w[k])
		}
	}
	for k := i; k < i+3; k++ {
		if k < len(g) {
			fmt.Fprintf(&b, "+ %d  %s\n", k+1, g[k])
		}
	}
	return b.String()
}
