package mlirref

import (
	"fmt"
	"math/rand"
	"strings"
)

// symbolGraph writes one valid v2 graph that stresses the symbol rules:
// a few storages (roots r0..), each with views at small offsets (multiples
// of 64, so sums of view and core offsets collide often, and some
// unaligned), one fused bundle
// with a loop or two, ops on 1-4 cores reading and writing several of the
// names with splits and steps that stay inside each name's size.
func symbolGraph(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("graph s {\n")
	type name struct {
		id   string
		size int64
	}
	var names []name
	nroots := 1 + r.Intn(3)
	for i := 0; i < nroots; i++ {
		size := int64(128 * (8 + r.Intn(24)))
		id := fmt.Sprintf("r%d", i)
		fmt.Fprintf(&b, "  buffer %s : %d\n", id, size)
		names = append(names, name{id, size})
		nviews := r.Intn(4)
		for k := 0; k < nviews; k++ {
			vid := fmt.Sprintf("r%dv%d", i, k)
			vsize := int64(128 * (2 + r.Intn(8)))
			fmt.Fprintf(&b, "  buffer %s : %d\n", vid, vsize)
			base := id
			if k > 0 && r.Intn(3) == 0 {
				base = fmt.Sprintf("r%dv%d", i, k-1) // a chain
			}
			switch r.Intn(4) {
			case 0:
				fmt.Fprintf(&b, "  alias %s = %s\n", vid, base)
			case 1: // unaligned: sums of offsets of different args can meet
				fmt.Fprintf(&b, "  alias %s = %s + %d\n", vid, base, 1+r.Intn(200))
			default:
				fmt.Fprintf(&b, "  alias %s = %s + %d\n", vid, base, 64*(1+r.Intn(8)))
			}
			names = append(names, name{vid, vsize})
		}
	}
	// Roles: r0 is an input, the last root an output when there are
	// two or more; an lx root sometimes.
	b.WriteString("  input r0\n")
	if nroots > 1 {
		fmt.Fprintf(&b, "  output r%d\n", nroots-1)
	}
	if nroots > 2 && r.Intn(2) == 0 {
		b.WriteString("  lx r1\n")
	}
	access := func(n name, depth int, cores []int64, counts []int64) string {
		s := n.id
		var far int64
		var steps []int64
		if depth > 0 && r.Intn(2) == 0 {
			for d := 0; d < depth; d++ {
				st := int64(0)
				if r.Intn(3) > 0 {
					st = int64(64 * (1 + r.Intn(3)))
				}
				steps = append(steps, st)
				far += st * (counts[d] - 1)
			}
		}
		var split []int64
		if len(cores) > 0 && r.Intn(3) > 0 {
			for _, c := range cores {
				sp := int64(64 * r.Intn(4))
				if r.Intn(5) == 0 {
					sp = int64(1 + r.Intn(100)) // unaligned
				}
				split = append(split, sp)
				far += sp * (c - 1)
			}
		}
		if far != 0 && far >= n.size {
			return s // drop both: a broadcast, untiled access
		}
		if steps != nil {
			s += " step " + ints(steps)
		}
		if split != nil {
			s += " split " + ints(split)
		}
		return s
	}
	b.WriteString("  fused f {\n")
	nops := 0
	var body func(indent string, depth int, counts []int64)
	body = func(indent string, depth int, counts []int64) {
		items := 1 + r.Intn(3)
		for i := 0; i < items; i++ {
			if depth < 2 && r.Intn(4) == 0 {
				c := int64(2 + r.Intn(2))
				fmt.Fprintf(&b, "%sloop l%d count %d {\n", indent, nops, c)
				nops++
				body(indent+"  ", depth+1, append(append([]int64{}, counts...), c))
				fmt.Fprintf(&b, "%s}\n", indent)
				continue
			}
			var cores []int64
			switch r.Intn(4) {
			case 1:
				cores = []int64{int64(2 + r.Intn(3))}
			case 2:
				cores = []int64{2, 2}
			}
			line := fmt.Sprintf("%sop o%d", indent, nops)
			nops++
			if cores != nil {
				line += " cores " + ints(cores)
			}
			var reads, writes []string
			for k := r.Intn(4); k > 0; k-- {
				reads = append(reads, access(names[r.Intn(len(names))], depth, cores, counts))
			}
			for k := r.Intn(3); k > 0; k-- {
				writes = append(writes, access(names[r.Intn(len(names))], depth, cores, counts))
			}
			if len(reads) > 0 {
				line += " reads " + strings.Join(reads, ", ")
			}
			if len(writes) > 0 {
				line += " writes " + strings.Join(writes, ", ")
			}
			b.WriteString(line + "\n")
		}
	}
	body("    ", 0, nil)
	b.WriteString("  }\n}\n")
	return b.String()
}

// ints prints one Int or a list, as the grammar's Ints.
func ints(v []int64) string {
	if len(v) == 1 {
		return fmt.Sprint(v[0])
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// cacheGraph writes one valid v3 graph aimed at the sdsc_cache: ops that
// repeat an earlier op's kind and structure with small changes, so that
// hits and near misses are both common. A few roots (r0 an input, the
// last an output, r1 sometimes LX, the others intermediates that get
// pooled when a bundle writes and reads them), each with views at
// colliding offsets; two fused bundles (files never cross a bundle) and a
// standalone op. Half the ops repeat an earlier template of their bundle:
// the same kind, the same cores under another spelling (none, 1 and [1];
// 2 and [2]), the same read and write counts, each access to a name of
// the same root (the same name or a view: the symbol table shape may
// change), with the split kept or (rarely) dropped and new split values,
// at any loop depth with new steps. The rest are fresh: a kind from a
// small set or none, cores from a list that holds [2, 1], [1, 1] and
// [1, 2].
func cacheGraph(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("graph c {\n")
	type name struct {
		id   string
		root int
		size int64
	}
	var names []name
	byRoot := map[int][]int{} // root -> indices into names
	nroots := 2 + r.Intn(4)
	for i := 0; i < nroots; i++ {
		size := int64(128 * (8 + r.Intn(24)))
		id := fmt.Sprintf("r%d", i)
		fmt.Fprintf(&b, "  buffer %s : %d\n", id, size)
		byRoot[i] = append(byRoot[i], len(names))
		names = append(names, name{id, i, size})
		for k := r.Intn(4); k > 0; k-- {
			vid := fmt.Sprintf("r%dv%d", i, k)
			vsize := int64(128 * (1 + r.Intn(6)))
			fmt.Fprintf(&b, "  buffer %s : %d\n", vid, vsize)
			switch r.Intn(4) {
			case 0:
				fmt.Fprintf(&b, "  alias %s = %s\n", vid, id)
			case 1:
				fmt.Fprintf(&b, "  alias %s = %s + %d\n", vid, id, 1+r.Intn(200))
			default:
				fmt.Fprintf(&b, "  alias %s = %s + %d\n", vid, id, 128*r.Intn(4))
			}
			byRoot[i] = append(byRoot[i], len(names))
			names = append(names, name{vid, i, vsize})
		}
	}
	b.WriteString("  input r0\n")
	fmt.Fprintf(&b, "  output r%d\n", nroots-1)
	if nroots > 2 && r.Intn(2) == 0 {
		b.WriteString("  lx r1\n")
	}

	type slot struct {
		root  int
		split bool
	}
	type template struct {
		kind          string
		cores         []int64 // nil: no clause
		reads, writes []slot
	}
	spell := func(cores []int64) string {
		switch {
		case cores == nil || len(cores) == 1 && cores[0] == 1:
			return []string{"", " cores 1", " cores [1]"}[r.Intn(3)]
		case len(cores) == 1:
			if r.Intn(2) == 0 {
				return fmt.Sprintf(" cores [%d]", cores[0])
			}
			return fmt.Sprintf(" cores %d", cores[0])
		}
		return " cores " + ints(cores)
	}
	// access writes one operand: a name of the slot's root, with steps
	// for the enclosing loops and the split when the slot has one, both
	// inside the name's size.
	access := func(s slot, cores []int64, counts []int64) string {
		n := names[byRoot[s.root][r.Intn(len(byRoot[s.root]))]]
		var far int64
		var steps []int64
		if len(counts) > 0 && r.Intn(2) == 0 {
			for _, c := range counts {
				st := int64(0)
				if r.Intn(3) > 0 {
					st = int64(64 * (1 + r.Intn(2)))
				}
				steps = append(steps, st)
				far += st * (c - 1)
			}
		}
		var split []int64
		if s.split && len(cores) > 0 {
			for _, c := range cores {
				sp := int64(64 * r.Intn(3))
				if r.Intn(6) == 0 {
					sp = int64(1 + r.Intn(60))
				}
				split = append(split, sp)
				far += sp * (c - 1)
			}
		}
		if far != 0 && far >= n.size {
			steps = nil // keep the split if it fits alone
			far = 0
			for d, c := range cores {
				if split != nil {
					far += split[d] * (c - 1)
				}
			}
			if far != 0 && far >= n.size {
				split = make([]int64, len(cores)) // split 0: still a split
			}
		}
		out := n.id
		if steps != nil {
			out += " step " + ints(steps)
		}
		if split != nil {
			out += " split " + ints(split)
		}
		return out
	}
	coreChoices := [][]int64{nil, nil, {1}, {2}, {2}, {3}, {2, 2}, {2, 1}, {1, 1}, {1, 2}}
	kinds := []string{"", "relu", "add", "mm"}
	nops := 0
	bundle := func(head string, top bool) {
		var made []template
		op := func(indent string, counts []int64) {
			var t template
			if len(made) > 0 && r.Intn(2) == 0 {
				t = made[r.Intn(len(made))]
				if r.Intn(8) == 0 { // a near miss: one split dropped or added
					t.reads = append([]slot{}, t.reads...)
					if len(t.reads) > 0 {
						t.reads[0].split = !t.reads[0].split
					}
				}
			} else {
				t.kind = kinds[r.Intn(len(kinds))]
				t.cores = coreChoices[r.Intn(len(coreChoices))]
				for k := r.Intn(4); k > 0; k-- {
					t.reads = append(t.reads, slot{r.Intn(nroots), r.Intn(2) == 0})
				}
				for k := r.Intn(3); k > 0; k-- {
					t.writes = append(t.writes, slot{r.Intn(nroots), r.Intn(2) == 0})
				}
				made = append(made, t)
			}
			line := fmt.Sprintf("%sop o%d", indent, nops)
			nops++
			if t.kind != "" {
				line += " kind " + t.kind
			}
			spelled := spell(t.cores)
			line += spelled
			cores := t.cores
			if spelled == "" {
				cores = nil // no clause: no split either
			} else if cores == nil {
				cores = []int64{1}
			}
			var reads, writes []string
			for _, s := range t.reads {
				reads = append(reads, access(s, cores, counts))
			}
			for _, s := range t.writes {
				writes = append(writes, access(s, cores, counts))
			}
			if len(reads) > 0 {
				line += " reads " + strings.Join(reads, ", ")
			}
			if len(writes) > 0 {
				line += " writes " + strings.Join(writes, ", ")
			}
			b.WriteString(line + "\n")
		}
		if top {
			op("  ", nil)
			return
		}
		fmt.Fprintf(&b, "  %s {\n", head)
		var body func(indent string, depth int, counts []int64)
		body = func(indent string, depth int, counts []int64) {
			for i := 1 + r.Intn(4); i > 0; i-- {
				if depth < 2 && r.Intn(4) == 0 {
					c := int64(2 + r.Intn(2))
					fmt.Fprintf(&b, "%sloop l%d count %d {\n", indent, nops, c)
					nops++
					body(indent+"  ", depth+1, append(append([]int64{}, counts...), c))
					fmt.Fprintf(&b, "%s}\n", indent)
					continue
				}
				op(indent, counts)
			}
		}
		body("    ", 0, nil)
		b.WriteString("  }\n")
	}
	bundle("fused f", false)
	bundle("", true)
	bundle("fused g", false)
	b.WriteString("}\n")
	return b.String()
}
