package alloc

import (
	"math"
	"slices"
	"sort"
)

// timeline is the time axis of a set of intervals, compressed to
// positions: position p stands for the steps [times[p], times[p+1]), over
// which no interval starts or ends, so every interval covers a contiguous
// run of positions and two intervals conflict exactly when their runs
// meet. The heuristics and the search of best work on positions, which
// keeps them independent of how large the step numbers are.
type timeline struct {
	times  []int   // distinct starts and ends+1, increasing
	lo, hi []int32 // per item: covered positions [lo, hi)
	load   []int64 // per position: bytes live
}

func newTimeline(items []Interval) *timeline {
	ts := make([]int, 0, 2*len(items))
	for _, it := range items {
		ts = append(ts, it.Start, it.End+1)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	tl := &timeline{times: ts, lo: make([]int32, len(items)), hi: make([]int32, len(items))}
	npos := max(len(ts)-1, 0)
	diff := make([]int64, npos+1)
	for i, it := range items {
		l := sort.SearchInts(ts, it.Start)
		h := sort.SearchInts(ts, it.End+1)
		tl.lo[i], tl.hi[i] = int32(l), int32(h)
		diff[l] += it.Size
		diff[h] -= it.Size
	}
	tl.load = make([]int64, npos)
	var cur int64
	for p := 0; p < npos; p++ {
		cur += diff[p]
		tl.load[p] = cur
	}
	return tl
}

// lowerBound is the most bytes live at any position: LowerBound.
func (tl *timeline) lowerBound() int64 {
	var lb int64
	for _, l := range tl.load {
		lb = max(lb, l)
	}
	return lb
}

// partitions groups the items into static partitions: runs of positions
// with no live range crossing from one run to the next, so each group can
// be packed on its own. It returns the groups (item indices, ascending)
// in time order and each item's group.
func (tl *timeline) partitions() ([][]int, []int32) {
	P := tl.positions()
	// cross[p] counts the live ranges spanning the boundary p|p+1.
	cross := make([]int32, P+1)
	for i := range tl.lo {
		if tl.hi[i]-tl.lo[i] > 1 {
			cross[tl.lo[i]]++
			cross[tl.hi[i]-1]--
		}
	}
	group := make([]int32, P)
	var run int32
	k := int32(0)
	for p := 0; p < P; p++ {
		group[p] = k
		run += cross[p]
		if run == 0 {
			k++
		}
	}
	// Positions nobody covers make empty groups: renumber the others.
	used := make([]int32, k+1)
	for i := range tl.lo {
		used[group[tl.lo[i]]] = 1
	}
	for g, next := 0, int32(0); g < len(used); g++ {
		if used[g] == 1 {
			used[g] = next
			next++
		} else {
			used[g] = -1
		}
	}
	partOf := make([]int32, len(tl.lo))
	var parts [][]int
	for i := range tl.lo {
		g := used[group[tl.lo[i]]]
		partOf[i] = g
		for int(g) >= len(parts) {
			parts = append(parts, nil)
		}
		parts[g] = append(parts[g], i)
	}
	return parts, partOf
}

// positions is the number of positions.
func (tl *timeline) positions() int { return len(tl.load) }

// maxLoad returns, per item, the most bytes live at any position it
// covers: MiniMalloc's "total" preordering key (how crowded the busiest
// moment of its life is).
func (tl *timeline) maxLoad() []int64 {
	sp := newSparseMax(tl.load)
	out := make([]int64, len(tl.lo))
	for i := range out {
		out[i] = sp.query(int(tl.lo[i]), int(tl.hi[i]))
	}
	return out
}

// sparseMax answers range-max queries over a fixed array in O(1).
type sparseMax struct{ t [][]int64 }

func newSparseMax(a []int64) *sparseMax {
	s := &sparseMax{t: [][]int64{slices.Clone(a)}}
	for k := 1; 1<<k <= len(a); k++ {
		prev := s.t[k-1]
		cur := make([]int64, len(a)-(1<<k)+1)
		for i := range cur {
			cur[i] = max(prev[i], prev[i+(1<<(k-1))])
		}
		s.t = append(s.t, cur)
	}
	return s
}

// query returns max a[l:r] (r > l).
func (s *sparseMax) query(l, r int) int64 {
	k := 0
	for 1<<(k+1) <= r-l {
		k++
	}
	return max(s.t[k][l], s.t[k][r-(1<<k)])
}

// mulSat is a*b for non-negative a and b, saturating at MaxInt64: areas
// (size × lifetime) only order buffers, and must not wrap around on
// extreme inputs.
func mulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
