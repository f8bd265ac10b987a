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
		r      Reason
		u      touches
		gr     ir.Group
		claims ir.ClaimSet
	}
	for _, disabled := range []bool{false, true} {
		first := map[int]seen{}
		bundles := []int32{-1, 0, 1, 7}
		for bits := range 1 << 6 {
			for _, reader := range bundles {
				for _, writer := range bundles {
					for claims := range ir.ClaimSet(1 << (ir.ClaimLX + 1)) {
						for _, size := range []int64{0, 1, 4096} {
							// bits: two bits of readers, two of writers
							// (each 0, 1 or 2, and 3, which no group has),
							// then the two CPU flags.
							u := touches{reader: reader, writer: writer,
								readers: uint8(bits & 3), writers: uint8(bits >> 2 & 3),
								cpuRead: bits&16 != 0, cpuWritten: bits&32 != 0}
							gr := ir.Group{Size: size}
							r := reasonFor(&gr, claims, &u, disabled)
							k := reasonKey(&gr, claims, &u)
							if k < 0 || k >= 1<<reasonKeyBits {
								t.Fatalf("key %d out of range", k)
							}
							if s, ok := first[k]; !ok {
								first[k] = seen{r, u, gr, claims}
							} else if s.r != r {
								t.Fatalf("key %d: %+v %+v claims %v gives %s, %+v %+v claims %v gave %s", k, u, gr, claims, r, s.u, s.gr, s.claims, s.r)
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
	one := touches{reader: 3, writer: 3, readers: 1, writers: 1}
	two := one
	two.readers = 2
	cases := []struct {
		u        touches
		size     int64
		disabled bool
		want     Reason
	}{
		{one, 64, false, Pooled},
		{two, 64, false, CrossBundle},
		{touches{reader: -1, writer: 3, writers: 1}, 64, false, NotRead},
		{one, 0, false, ZeroSize},
		{one, 64, true, Disabled},
	}
	for _, c := range cases {
		gr := ir.Group{Size: c.size}
		if got := reasonFor(&gr, 0, &c.u, c.disabled); got != c.want {
			t.Errorf("%+v size %d disabled %v: %s, want %s", c.u, c.size, c.disabled, got, c.want)
		}
	}
}
