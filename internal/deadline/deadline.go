// Package deadline turns an opt-in wall-clock limit (--search-time) into
// the stop function that alloc's best allocator polls. It is the one place
// a planning path reads the clock, kept outside the core packages (alloc,
// planner, mlirgen) so that their output never depends on the clock unless
// the user asked for a cap.
package deadline

import "time"

// PerBundle returns an alloc.Options.Stop for a limit of d per bundle: each
// call starts a new deadline d from now and returns the function that
// reports whether it has passed. d <= 0 means no limit (nil).
func PerBundle(d time.Duration) func() func() bool {
	if d <= 0 {
		return nil
	}
	return func() func() bool {
		end := time.Now().Add(d)
		return func() bool { return !time.Now().Before(end) }
	}
}
