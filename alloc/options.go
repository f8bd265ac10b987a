package alloc

// Options tunes the allocators that have knobs; the zero value means the
// defaults. Allocators without knobs ignore it.
type Options struct {
	// Stop, when set, is called once per bundle as best starts and
	// returns the function best then polls (between members, and every
	// 256 search nodes); once it reports true, any member or search still
	// to run is abandoned. This is how a caller adds an opt-in wall-clock
	// cap (internal/deadline): alloc itself never reads the clock. nil
	// (the default) means no such limit, so the result depends only on
	// the input and MaxNodes.
	Stop func() func() bool
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
