package suggest_test

import (
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/suggest"
)

// TestDistance: the optimal string alignment distance, on cases worked
// by hand.
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
		{"explian", "explain", 2, 1},
		// Past 64 bytes the rows are allocated; the distance is the same.
		{strings.Repeat("a", 70) + "bc", strings.Repeat("a", 70) + "cb", 2, 1},
		{strings.Repeat("a", 70), strings.Repeat("a", 68) + "bb", 30, 2},
	} {
		if got := suggest.Distance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
