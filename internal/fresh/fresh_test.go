package fresh

import "testing"

// big is larger than a page: Write must then touch every element.
type big struct {
	a [5000]byte
	n int
}

func checkZero[T comparable](t *testing.T, name string, s []T) {
	t.Helper()
	var zero T
	for i := range s {
		if s[i] != zero {
			t.Fatalf("%s: element %d of %d is not zero after Write", name, i, len(s))
		}
	}
}

func TestWriteLeavesZeros(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 100_000} {
		b := make([]uint8, n)
		Write(b)
		checkZero(t, "uint8", b)
		i := make([]int32, n)
		Write(i)
		checkZero(t, "int32", i)
		a := make([][3]int64, n)
		Write(a)
		checkZero(t, "[3]int64", a)
		p := make([]*int, n)
		Write(p)
		checkZero(t, "*int", p)
	}
	g := make([]big, 7)
	Write(g)
	checkZero(t, "big", g)
	Write([]struct{}(nil)) // a zero-size element must not loop forever
}

// TestWriteStep checks which elements Write stores to: the first, then
// one per page, so that every page of the slice holds one of them.
func TestWriteStep(t *testing.T) {
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
