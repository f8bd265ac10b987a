package dsa

import (
	"fmt"
	"time"

	"github.com/sdscgen/sdscgen/alloc"
)

// Packed is the outcome of Pack.
type Packed struct {
	alloc.Result
	// LowerBound is the most bytes live at once (alloc.LowerBound): no
	// packing has a smaller pool end.
	LowerBound int64
	// Duration is the allocator's wall time (conversion and the lower
	// bound excluded, validation excluded).
	Duration time.Duration
	// Fallbacks counts buffers that got no offset (over the capacity).
	Fallbacks int
}

// Ratio is pool_end / lower bound (1 when both are 0).
func (p Packed) Ratio() float64 {
	if p.LowerBound == 0 {
		if p.PoolEnd == 0 {
			return 1
		}
		return 0
	}
	return float64(p.PoolEnd) / float64(p.LowerBound)
}

// Pack places the buffers with fn under capacity (the allocator's budget)
// and validates the result with alloc.Check, so a wrong allocator is an
// error rather than a silently bad CSV. Buffers that do not fit get
// offset -1 and are counted in Fallbacks; deciding whether that is a
// failure is the caller's business.
func Pack(bufs []Buffer, capacity int64, fn alloc.Func) (Packed, error) {
	items := Intervals(bufs)
	p := Packed{LowerBound: alloc.LowerBound(items)}
	t0 := time.Now()
	p.Result = fn(items, capacity)
	p.Duration = time.Since(t0)
	if err := alloc.Check(items, capacity, p.Result); err != nil {
		return p, fmt.Errorf("allocator produced an invalid packing: %v", err)
	}
	for _, o := range p.Offsets {
		if o < 0 {
			p.Fallbacks++
		}
	}
	return p, nil
}
