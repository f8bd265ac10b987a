package fresh

import "testing"

// big is larger than a page (5,008 bytes): touch must then write every
// element. An array, not a struct of fields no test reads.
type big [626]int64

func checkZero[T comparable](t *testing.T, name string, s []T, n int) {
	t.Helper()
	if len(s) != n || cap(s) < n {
		t.Fatalf("%s: Make(%d) has length %d, capacity %d", name, n, len(s), cap(s))
	}
	var zero T
	for i := range s {
		if s[i] != zero {
			t.Fatalf("%s: element %d of %d is not zero", name, i, len(s))
		}
	}
}

func TestMakeLeavesZeros(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 100_000} {
		checkZero(t, "uint8", Make[uint8](n), n)
		checkZero(t, "int32", Make[int32](n), n)
		checkZero(t, "[3]int64", Make[[3]int64](n), n)
		checkZero(t, "*int", Make[*int](n), n)
	}
	checkZero(t, "big", Make[big](7), 7)
	checkZero(t, "struct{}", Make[struct{}](5), 5) // a zero-size element must not loop forever
}

// TestTouchStep checks which elements touch stores to: the first, then
// one per page, so that every page of the slice holds one of them.
func TestTouchStep(t *testing.T) {
	for _, c := range []struct {
		size, step int
	}{{1, 4096}, {4, 1024}, {24, 170}, {5008, 1}} {
		if got := step(c.size); got != c.step {
			t.Errorf("step(%d) = %d, want %d", c.size, got, c.step)
		}
		// Elements k*step lie at most step*size <= pageSize bytes
		// apart, so no page between them is skipped.
		if c.step*c.size > pageSize && c.step != 1 {
			t.Errorf("size %d: a step of %d elements skips pages", c.size, c.step)
		}
	}
}
