//go:build race

package alloc

// raceEnabled: the race detector slows everything down several times,
// so wall-clock limits cannot be tested under it.
const raceEnabled = true
