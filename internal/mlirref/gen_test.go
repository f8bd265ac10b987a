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
