package alloc

import "time"

// Options tunes the allocators that have knobs; the zero value means the
// defaults. Allocators without knobs ignore it.
type Options struct {
	// SearchTime, when positive, also bounds best's wall time: an opt-in
	// cap that makes the result depend on machine speed and load. 0 (the
	// default) means no clock at all: the result depends only on the
	// input and MaxNodes.
	SearchTime time.Duration
	// Goal makes best stop as soon as its pool end is at most Goal (a
	// decision problem, like MiniMalloc's --capacity); 0 means the lower
	// bound, below which no packing exists anyway.
	Goal int64
	// MaxNodes caps the work of best's complete search, counted in search
	// nodes; 0 means DefaultMaxNodes. It is what bounds best by default,
	// so that the result does not depend on machine speed or load.
	MaxNodes int64
}

// DefaultMaxNodes is best's search effort when Options.MaxNodes is 0.
const DefaultMaxNodes = 1 << 18
