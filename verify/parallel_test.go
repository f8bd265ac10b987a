package verify

import (
	"fmt"
	"testing"
)

// TestForChunks: the chunks cover [0, n) in order, whatever the number of
// workers, and a panic in a worker reaches the caller (where a recover,
// such as the command's, sees it) instead of ending the process.
func TestForChunks(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		c := &checker{opt: Options{Workers: workers}}
		chunks := c.forChunks(1000, func(i int) int { return i % 13 }, 1, func(_ *scratch, out []checker, lo, hi int) {
			for i := lo; i < hi; i++ {
				out[0].fail("index %d", i)
			}
		})
		c.mergeList(chunks, 0)
		if c.err.Total != 1000 || len(c.err.Violations) != maxReported || c.err.Violations[maxReported-1] != fmt.Sprintf("index %d", maxReported-1) {
			t.Fatalf("%d workers: %d violations, first %v", workers, c.err.Total, c.err.Violations)
		}
		if workers > 1 && len(chunks) < 2*workers {
			t.Fatalf("%d workers: only %d chunks", workers, len(chunks))
		}
	}
	got := func() (r any) {
		defer func() { r = recover() }()
		c := &checker{opt: Options{Workers: 3}}
		c.forChunks(100, nil, 1, func(_ *scratch, _ []checker, lo, hi int) {
			if lo <= 50 && 50 < hi {
				panic("bug at 50")
			}
		})
		return nil
	}()
	if got != "bug at 50" {
		t.Fatalf("recovered %v", got)
	}
}
