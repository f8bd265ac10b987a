package frontend

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestPrefix8(t *testing.T) {
	for _, c := range []struct {
		s    string
		want uint64
	}{
		{"", 0},
		{"a", 0x61 << 56},
		{"t12", 0x74_31_32 << 40},
		{"abcdefgh", 0x6162636465666768},
		{"abcdefghij", 0x6162636465666768}, // only the first 8 bytes
		{"\xff", 0xff << 56},
	} {
		if got := prefix8(c.s); got != c.want {
			t.Errorf("prefix8(%q) = %#x, want %#x", c.s, got, c.want)
		}
	}
}

// TestSortByPrefix checks the radix sort against a stable sort by the
// whole name: names that share their first 8 bytes, names of every
// length, duplicates (whose source order must stay) and a digit
// position shared by all keys (a skipped pass).
func TestSortByPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 100, 3000} {
		names := make([]string, n)
		for i := range names {
			var sb strings.Builder
			sb.WriteString([]string{"t", "w", "longprefix_", "a"}[r.IntN(4)])
			for k := r.IntN(6); k > 0; k-- {
				sb.WriteByte("0189az_."[r.IntN(8)])
			}
			names[i] = sb.String()
		}
		keys := make([]prefixKey, n)
		for i, s := range names {
			keys[i] = prefixKey{prefix8(s), int32(i)}
		}
		cmp := func(a, b prefixKey) int { return strings.Compare(names[a.k], names[b.k]) }
		want := slices.Clone(keys)
		slices.SortStableFunc(want, cmp)
		got := sortByPrefix(keys, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: sortByPrefix differs from a stable sort by name", n)
		}
	}
}
