package planner

import (
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// TestReasonKey: groups and touches with one reasonKey get one reason
// from reasonFor, over every combination of what the rules read (counts,
// CPU flags, first reader and writer among several bundles, claims,
// sizes), with planning on and off; and a few keys' reasons by hand.
func TestReasonKey(t *testing.T) {
	type seen struct {
		r  Reason
		pg Group
		gr ir.Group
	}
	for _, disabled := range []bool{false, true} {
		first := map[int]seen{}
		bundles := []int32{-1, 0, 1, 7}
		for bits := range 1 << 6 {
			for _, reader := range bundles {
				for _, writer := range bundles {
					for claims := range 8 {
						for _, size := range []int64{0, 1, 4096} {
							pg := Group{Start: reader, End: writer, Reason: Reason(bits)}
							gr := ir.Group{Size: size, Input: claims&1 != 0, Output: claims&2 != 0, LX: claims&4 != 0}
							u := touchesOf(&pg)
							r := reasonFor(&gr, &u, disabled)
							k := reasonKey(&gr, &pg)
							if k < 0 || k >= 1<<reasonKeyBits {
								t.Fatalf("key %d out of range", k)
							}
							if s, ok := first[k]; !ok {
								first[k] = seen{r, pg, gr}
							} else if s.r != r {
								t.Fatalf("key %d: %+v %+v gives %s, %+v %+v gave %s", k, pg, gr, r, s.pg, s.gr, s.r)
							}
						}
					}
				}
			}
		}
	}
	// By hand: read and written by bundle 3 alone, 64 bytes: pooled;
	// the same read by a second bundle too: cross-bundle; with no
	// reader: not-read; with planning off: disabled.
	one := Reason(1<<readersShift | 1<<writersShift)
	cases := []struct {
		pg       Group
		size     int64
		disabled bool
		want     Reason
	}{
		{Group{Start: 3, End: 3, Reason: one}, 64, false, Pooled},
		{Group{Start: 3, End: 3, Reason: one + 1<<readersShift}, 64, false, CrossBundle},
		{Group{Start: -1, End: 3, Reason: 1 << writersShift}, 64, false, NotRead},
		{Group{Start: 3, End: 3, Reason: one}, 0, false, ZeroSize},
		{Group{Start: 3, End: 3, Reason: one}, 64, true, Disabled},
	}
	for _, c := range cases {
		gr := ir.Group{Size: c.size}
		u := touchesOf(&c.pg)
		if got := reasonFor(&gr, &u, c.disabled); got != c.want {
			t.Errorf("%+v size %d disabled %v: %s, want %s", c.pg, c.size, c.disabled, got, c.want)
		}
	}
}
