package planner

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestAppendInt: appendInt writes what strconv.AppendInt does, after
// whatever b already holds: at every power-of-ten boundary, the int64
// extremes, and random values of every magnitude.
func TestAppendInt(t *testing.T) {
	vals := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, math.MaxInt64, math.MinInt64, -1, -10}
	for p := int64(1); p <= math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1, 10*p-1)
	}
	r := rand.New(rand.NewSource(1))
	for range 10000 {
		vals = append(vals, r.Int63()>>r.Intn(63))
	}
	for _, v := range vals {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestAppendString: plain names are copied between quotes; a quote, a
// backslash and control bytes are escaped wherever they occur.
func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"":          `""`,
		"buf_0.x":   `"buf_0.x"`,
		`a"b`:       `"a\"b"`,
		`\`:         `"\\"`,
		"t\tab\x01": `"t\u0009ab\u0001"`,
		"\nx":       `"\u000ax"`,
		"é<>&":      `"é<>&"`,
	} {
		if got := string(appendString([]byte("x"), in)); got != "x"+want {
			t.Errorf("appendString(%q) = %s, want %s", in, got, want)
		}
	}
}
