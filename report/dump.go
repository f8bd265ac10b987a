package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// DumpCheck writes the checked graph as stable text: one line per buffer,
// group, loop, op and CPU node, in model order, with sizes in exact bytes
// and positions as LINE:COL (the file name appears once, in the header).
// An op with a `kind` shows it as kind=K after its name (one without
// shows nothing). Accesses name the buffer after renames are resolved; a
// stride list follows the buffer in brackets, then a split as
// split[...]. A group is named by its root; a view's buffer line gives
// its alias declaration and view offset, and the group's members list
// each view at its offset.
//
//	graph decoder_block  # spec.bir:9:7
//	buffer x 512 group=x  # 10:10
//	buffer t0_hi 2048 group=t0 alias=t0+2048 view_offset=2048  # 17:10
//	group t0 size=4096 members=t0,v@0,t0_hi@2048 flags=-
//	bundle mm_block fused steps=3 loops=1  # 24:9
//	  loop 0 tiles count=4 parent=-1 depth=1 steps=1..1  # 26:10
//	  op 1 mul1 loops=0 reads=t0[256],acc writes=acc  # 27:8
//	  op 2 cvt2 cores=4 loops=- reads=acc writes=ysplit[1024]  # 29:8
//	cpu sin4 reads=t0 writes=v  # 33:7
func DumpCheck(w io.Writer, g *ir.Graph) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "graph %s  # %s\n", g.Name, g.Position(g.Pos))
	for _, b := range g.Buffers.All() {
		view := ""
		if v := g.ViewOf(b); v.Alias >= 0 {
			view = fmt.Sprintf(" alias=%s+%d view_offset=%d", g.Str(g.Buffers.At(int(v.Alias)).Name), v.AliasOffset, v.ViewOffset)
		}
		fmt.Fprintf(bw, "buffer %s %d group=%s%s  # %s\n", g.Str(b.Name), b.Size, groupName(g, int(b.Group)), view, lc(b.Pos))
	}
	for gi, gr := range g.Groups {
		fmt.Fprintf(bw, "group %s size=%d members=%s flags=%s\n", groupName(g, gi), gr.Size, memberList(g, gi, ","), orDash(strings.Join(groupFlags(g.GroupClaims[gi], "input", "output", "lx"), ",")))
	}
	for _, b := range g.Bundles {
		fmt.Fprintf(bw, "bundle %s %s steps=%d loops=%d  # %s\n", b.Name, b.Kind, len(b.Ops), len(b.Loops), lc(b.Pos))
		for li, l := range b.Loops {
			fmt.Fprintf(bw, "  loop %d %s count=%d parent=%d depth=%d steps=%d..%d  # %s\n",
				li, l.Name, l.Count, l.Parent, l.Depth, l.First, l.Last, lc(l.Pos))
		}
		for step, op := range b.Ops {
			cores := ""
			if g.Cores(&op) != nil {
				cores = " cores=" + strings.Trim(strings.ReplaceAll(int64List(g.Cores(&op)), " ", ""), "[]")
			}
			if k := g.OpKind(&op); k != "" {
				cores = " kind=" + k + cores
			}
			fmt.Fprintf(bw, "  op %d %s%s loops=%s reads=%s writes=%s  # %s\n", step, g.Str(op.Name), cores,
				ints(g.OpLoops(&op)), accesses(g, g.Reads(&op)), accesses(g, g.Writes(&op)), lc(op.Pos))
		}
	}
	for _, c := range g.CPU {
		fmt.Fprintf(bw, "cpu %s reads=%s writes=%s  # %s\n", c.Name, accesses(g, g.CPUReads(&c)), accesses(g, g.CPUWrites(&c)), lc(c.Pos))
	}
	return bw.Flush()
}

// DumpPlan writes the plan as stable text, exact bytes throughout: a
// header, one line per storage group (group order, which is name order)
// with its reason, bundle, range, offset and the usage evidence, then one
// line per bundle with its candidates in allocation order.
//
//	plan decoder_block allocator=first-fit budget=15032385536 disabled=false
//	group acc size=256 reason=pooled bundle=mm_block range=1..2 offset=0 read=mm_block written=mm_block cpu-read=- cpu-written=-
//	bundle mm_block pool=256 lower=256 candidates=acc@0
func DumpPlan(w io.Writer, p *planner.Result) error {
	g := p.Graph
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "plan %s allocator=%s budget=%d disabled=%t\n", g.Name, p.Allocator, p.Budget, p.Disabled)
	for gi, pg := range p.Groups {
		gr, u := &g.Groups[gi], p.Usage(gi)
		bundle, rng, off := "-", "-", "-"
		if pg.Bundle >= 0 {
			bundle = g.Bundles[pg.Bundle].Name
			rng = fmt.Sprintf("%d..%d", pg.Start, pg.End)
		}
		if pg.Offset >= 0 {
			off = strconv.FormatInt(pg.Offset, 10)
		}
		fmt.Fprintf(bw, "group %s size=%d reason=%s bundle=%s range=%s offset=%s read=%s written=%s cpu-read=%s cpu-written=%s\n",
			groupName(g, gi), gr.Size, reasonName(pg.Reason), bundle, rng, off,
			bundleNames(g, u.ReadBy), bundleNames(g, u.WrittenBy),
			cpuNames(g, u.CPUReadBy), cpuNames(g, u.CPUWrittenBy))
	}
	for bi, pb := range p.Bundles {
		pool := "-"
		if pb.HasPool() {
			pool = strconv.FormatInt(pb.PoolSize, 10)
		}
		var cands []string
		for _, gi := range p.Candidates(bi) {
			c := groupName(g, int(gi)) + "@"
			if off := p.Groups[gi].Offset; off >= 0 {
				c += strconv.FormatInt(off, 10)
			} else {
				c += p.Groups[gi].Reason.String()
			}
			cands = append(cands, c)
		}
		fmt.Fprintf(bw, "bundle %s pool=%s lower=%s candidates=%s\n", g.Bundles[bi].Name, pool, lowerBytes(pb.LowerBound), orDash(strings.Join(cands, ",")))
	}
	return bw.Flush()
}

func lc(p ir.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// groupFlags names the declarations a group's members carry (its
// claims, ir.Graph.GroupClaims), in the words given for input, output
// and LX (dumps and explain word them differently).
func groupFlags(claims ir.ClaimSet, input, output, lx string) []string {
	var f []string
	for _, c := range [...]struct {
		k    ir.ClaimKind
		word string
	}{{ir.ClaimInput, input}, {ir.ClaimOutput, output}, {ir.ClaimLX, lx}} {
		if claims.Has(c.k) {
			f = append(f, c.word)
		}
	}
	return f
}

func ints(a []int32) string {
	s := make([]string, len(a))
	for i, x := range a {
		s[i] = strconv.Itoa(int(x))
	}
	return orDash(strings.Join(s, ","))
}

func accesses(g *ir.Graph, as []ir.Access) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = g.Str(g.Buffers.At(int(a.Buffer)).Name)
		if strides := g.Strides(&a); strides != nil {
			st := make([]string, len(strides))
			for k, x := range strides {
				st[k] = strconv.FormatInt(x, 10)
			}
			s[i] += "[" + strings.Join(st, ",") + "]"
		}
		if split := g.Split(&a); split != nil {
			s[i] += "split[" + strings.Trim(strings.ReplaceAll(int64List(split), " ", ""), "[]") + "]"
		}
	}
	return orDash(strings.Join(s, ","))
}

func bundleNames(g *ir.Graph, idx []int) string {
	s := make([]string, len(idx))
	for i, x := range idx {
		s[i] = g.Bundles[x].Name
	}
	return orDash(strings.Join(s, ","))
}

func cpuNames(g *ir.Graph, idx []int) string {
	s := make([]string, len(idx))
	for i, x := range idx {
		s[i] = g.CPU[x].Name
	}
	return orDash(strings.Join(s, ","))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
