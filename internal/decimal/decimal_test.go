package decimal

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestAppend: Append writes what strconv.AppendInt does, after whatever
// b already holds, at every digit count and its edges (each power of ten
// and the numbers beside it, where the branches change: 10^4, 10^8,
// 10^16), at the extremes of int64 and on random values of every length,
// both signs.
func TestAppend(t *testing.T) {
	vals := []int64{0, 1, 9, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	p := int64(1)
	for range 19 { // 10^0 to 10^18
		vals = append(vals, p-1, p, p+1, -p, -(p - 1), 2*p+3)
		if p <= math.MaxInt64/10 {
			vals = append(vals, 10*p-1)
		}
		p *= 10
	}
	r := rand.New(rand.NewSource(1))
	for k := 0; k < 20000; k++ {
		v := r.Int63() >> uint(r.Intn(63))
		if k&1 == 1 {
			v = -v
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		want := strconv.AppendInt([]byte("x="), v, 10)
		if got := Append([]byte("x="), v); string(got) != string(want) {
			t.Fatalf("Append(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestAppend4: every value below 10^4.
func TestAppend4(t *testing.T) {
	for u := uint64(0); u < 1e4; u++ {
		if got, want := string(Append4([]byte("x"), u)), "x"+strconv.FormatUint(u, 10); got != want {
			t.Fatalf("Append4(%d) = %q, want %q", u, got, want)
		}
	}
}
