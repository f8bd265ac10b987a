package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sdscgen/sdscgen/mlirgen"
	"github.com/sdscgen/sdscgen/planner"
)

// opIndex finds the op called name: its bundle and step, or -1, -1.
func opIndex(p *planner.Result, name string) (bi, step int) {
	for bi := range p.Graph.Bundles {
		for k := range p.Graph.Bundles[bi].Ops {
			if p.Graph.Str(p.Graph.Bundles[bi].Ops[k].Name) == name {
				return bi, k
			}
		}
	}
	return -1, -1
}

// explainOp writes which SDSC file the op at step of bundle bi names and
// why (docs/bundle-ir.md 4.5.1): the file it shares and the op that
// compiled it, or, for an op with a file of its own, the first rule of
// the SDSC cache in which it differs from the nearest earlier op of its
// kind (mlirgen.SDSCWhy).
func explainOp(w io.Writer, p *planner.Result, bi, step int, cache bool) error {
	g := p.Graph
	b := &g.Bundles[bi]
	op := &b.Ops[step]
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "op %s: step %d of bundle %s, declared at %s\n", g.Str(op.Name), step, b.Name, g.Position(op.Pos))
	if k := g.OpKind(op); k != "" {
		fmt.Fprintf(bw, "  kind %s\n", k)
	} else {
		fmt.Fprintf(bw, "  no kind\n")
	}
	fmt.Fprintf(bw, "  %s, %s on %s\n", count(len(g.Reads(op)), "read"), count(len(g.Writes(op)), "write"), count(g.NumCores(op), "core"))
	u := mlirgen.SDSCFiles(p, bi, cache)[step]
	switch {
	case !cache:
		fmt.Fprintf(bw, "SDSC file sdsc_%d.json: its own (the SDSC cache is off: every op compiles its own file)\n", u.File)
	case int(u.First) != step:
		first := &b.Ops[u.First]
		fmt.Fprintf(bw, "SDSC file sdsc_%d.json: shared with %s (step %d), which compiled it: the same kind, cores, read and write counts, storage per access and symbol table shape\n",
			u.File, g.Str(first.Name), u.First)
		fmt.Fprintf(bw, "  its execute prints %s's file and symbol ids; its operands, declarations and applies are its own\n", g.Str(first.Name))
	default:
		why, _ := mlirgen.SDSCWhy(p, bi, step)
		fmt.Fprintf(bw, "SDSC file sdsc_%d.json: its own: %s\n", u.File, why)
	}
	return bw.Flush()
}
