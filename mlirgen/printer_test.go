package mlirgen

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestAppendInt: appendInt writes what strconv does, at every digit count
// and its edges (each power of ten and the number before it, where the
// branches change: 10^4, 10^8, 10^16), at the extremes of int64 and on
// random values of every length, after existing bytes.
func TestAppendInt(t *testing.T) {
	vals := []int64{0, 1, 9, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	p := int64(1)
	for range 19 { // 10^0 to 10^18
		vals = append(vals, p-1, p, p+1, -p, -(p - 1), 2*p+3)
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
		if got := appendInt([]byte("x="), v); string(got) != string(want) {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}
