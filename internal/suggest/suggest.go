// Package suggest holds the edit distance behind every did-you-mean of
// sdscgen: the frontend's (a misspelt keyword or undeclared name in a
// diagnostic) and the reports' and command line's (report.Suggest: names
// for explain, flags, subcommands, allocators). Each caller keeps its own
// rule of what is close enough; the distance is this package's.
package suggest

// Distance is the optimal string alignment distance of a and b over
// bytes: Levenshtein's insertions, deletions and substitutions, plus the
// swap of two neighbours as one edit (bufefr is one edit from buffer,
// explian one from explain). It returns limit+1 as soon as the distance
// is known to exceed limit. It allocates nothing when b is at most 64
// bytes long.
func Distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// Three rows of the table: the one before last, the last, this one.
	var small [3][65]int
	var pp, prev, cur []int
	if len(b) <= 64 {
		pp, prev, cur = small[0][:], small[1][:], small[2][:]
	} else {
		pp, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, pp[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}
