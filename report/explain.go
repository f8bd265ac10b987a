package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sdscgen/sdscgen/internal/suggest"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// UnknownNameError is Explain's answer for a name that is neither a
// buffer nor a rename source. Suggestions are the closest known names by
// edit distance (see Suggest), best first; the message names any
// look-alike non-ASCII character of Name.
type UnknownNameError struct {
	Name        string
	Graph       string
	Suggestions []string
	// Node is set when Name is a bundle, op, loop or CPU node instead.
	Node string
}

func (e *UnknownNameError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no buffer named %q in graph %s", e.Name, e.Graph)
	if e.Node != "" {
		fmt.Fprintf(&b, " (%q is %s)", e.Name, e.Node)
	}
	if len(e.Suggestions) > 0 {
		q := make([]string, len(e.Suggestions))
		for i, s := range e.Suggestions {
			q[i] = fmt.Sprintf("%q", s)
		}
		last := q[len(q)-1]
		list := last
		if len(q) > 1 {
			list = strings.Join(q[:len(q)-1], ", ") + " or " + last
		}
		fmt.Fprintf(&b, "; did you mean %s?", list)
		if note := LookAlikeNote(e.Name); note != "" {
			// Names are ASCII: a look-alike is always part of
			// what differs.
			fmt.Fprintf(&b, " (in the name, %s)", note)
		}
	}
	return b.String()
}

// Explain writes the story of one buffer: its storage group, the bundles,
// ops and CPU nodes that write and read it (with positions), its live
// range and why it has that range, the planner's decision with the
// evidence behind it and, for a pooled buffer, its offset and the buffers
// that reuse the same bytes at other times. name may be a rename source:
// it is explained as the buffer its chain ends at. A name that is no
// buffer but a bundle's explains the bundle instead: its HBM on the
// graph's timeline, the largest groups live there and why they are not
// pooled, and what pooling could still take (buffers and bundles have
// separate names; a name that is both is the buffer). A name that is an
// op's (and no bundle's) explains which SDSC file the op names and why,
// under the SDSC cache when sdscCache is set (explainop.go). An unknown name
// returns an *UnknownNameError with did-you-mean suggestions and writes
// nothing.
func Explain(w io.Writer, p *planner.Result, name string, sdscCache bool) error {
	g := p.Graph
	bufIdx := -1
	for i, b := range g.Buffers.All() {
		if g.Str(b.Name) == name {
			bufIdx = i
			break
		}
	}
	var via *ir.Rename
	if bufIdx < 0 {
		for i := range g.Renames {
			if g.Renames[i].From == name {
				via = &g.Renames[i]
				bufIdx = via.To
				break
			}
		}
	}
	if bufIdx < 0 {
		if bi := bundleIndex(p, name); bi >= 0 {
			return explainBundle(w, p, bi)
		}
		if bi, step := opIndex(p, name); bi >= 0 {
			return explainOp(w, p, bi, step, sdscCache)
		}
		return unknown(g, name)
	}

	bw := bufio.NewWriter(w)
	explainBuffer(bw, p, name, bufIdx, via)
	if err := bw.Flush(); err != nil {
		return err
	}
	// Exporters name an op after the buffer it writes: the op's story
	// follows the buffer's.
	if bi, step := opIndex(p, name); bi >= 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		return explainOp(w, p, bi, step, sdscCache)
	}
	return nil
}

// explainBuffer writes the story of buffer bufIdx (named name, through
// the rename via when not nil): its declaration and group, who touches
// it, the decision, its live range and its placement.
func explainBuffer(bw *bufio.Writer, p *planner.Result, name string, bufIdx int, via *ir.Rename) {
	g := p.Graph
	buf := g.Buffers.At(bufIdx)
	gi := int(buf.Group)
	gr := &g.Groups[gi]
	pg := &p.Groups[gi]

	if via != nil {
		fmt.Fprintf(bw, "%s is renamed to %s (rename at %s): every reference to %s is %s.\n\n",
			name, g.Str(buf.Name), g.Position(via.Pos), name, g.Str(buf.Name))
	}
	fmt.Fprintf(bw, "buffer %s: %s (%d bytes), declared at %s\n", g.Str(buf.Name), HumanSize(buf.Size), buf.Size, g.Position(buf.Pos))
	var from []string
	for _, r := range g.Renames {
		if r.To == bufIdx {
			from = append(from, fmt.Sprintf("%s (at %s)", r.From, g.Position(r.Pos)))
		}
	}
	if len(from) > 0 {
		fmt.Fprintf(bw, "  renamed from: %s\n", strings.Join(from, ", "))
	}
	if v := viewPhrase(g, bufIdx); v != "" {
		fmt.Fprintf(bw, "  %s is %s\n", g.Str(buf.Name), v)
	}
	flags := groupFlags(g.GroupClaims[gi], "graph input", "graph output", "LX")
	fmt.Fprintf(bw, "storage group %s: %s; %s (%d bytes)", groupName(g, gi), memberList(g, gi, ", "), HumanSize(gr.Size), gr.Size)
	if len(flags) > 0 {
		fmt.Fprintf(bw, "; %s", strings.Join(flags, ", "))
	}
	bw.WriteString("\n")
	for _, c := range g.Claims {
		if b := g.Buffers.At(c.Buffer); int(b.Group) == gi {
			fmt.Fprintf(bw, "  %s %s at %s\n", g.Str(b.Name), claimPhrase[c.Kind], g.Position(c.Pos))
		}
	}

	ix := p.Index()
	writeTouchers(bw, g, ix, gi, bufIdx)
	writeDecision(bw, p, ix, gi)
	// Live range.
	if pg.Bundle < 0 {
		fmt.Fprintln(bw, "live range: none (not a pool candidate of any bundle)")
	} else {
		writeLiveRange(bw, g, p, ix, gi)
	}
	writePlacement(bw, p, bufIdx)
}

// writeTouchers lists the ops and CPU nodes that write group gi, then
// those that read it, each with its position (and the name it uses when
// not buffer bufIdx's).
func writeTouchers(bw *bufio.Writer, g *ir.Graph, ix *planner.Index, gi, bufIdx int) {
	ts, cs := ix.Touches(gi), ix.CPU(gi)
	for _, read := range []bool{false, true} {
		label := "written by:"
		if read {
			label = "read by:"
		}
		var lines []string
		for _, t := range ts {
			if t.Read == read {
				a := g.Accesses.At(int(t.Access))
				l := fmt.Sprintf("  bundle %s, step %d, op %s at %s", g.Bundles[t.Bundle].Name, t.Step, opAt(g, int(t.Bundle), int(t.Step)), touchPos(g, t))
				if int(a.Buffer) != bufIdx {
					l += ", as " + g.Str(g.Buffers.At(int(a.Buffer)).Name)
				}
				if c := coresPhrase(g, &g.Bundles[t.Bundle].Ops[t.Step], g.Split(a)); c != "" {
					l += ", " + c
				}
				lines = append(lines, l)
			}
		}
		for _, c := range cs {
			if c.Read == read {
				a := c.Access(g)
				l := fmt.Sprintf("  CPU node %s at %s", g.CPU[c.Node].Name, cpuPos(g, c))
				if int(a.Buffer) != bufIdx {
					l += ", as " + g.Str(g.Buffers.At(int(a.Buffer)).Name)
				}
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			fmt.Fprintf(bw, "%s nothing\n", label)
			continue
		}
		fmt.Fprintln(bw, label)
		for _, l := range lines {
			fmt.Fprintln(bw, l)
		}
	}
}

// writeDecision says whether group gi is pooled, and if not why, with
// the evidence.
func writeDecision(bw *bufio.Writer, p *planner.Result, ix *planner.Index, gi int) {
	g, pg := p.Graph, &p.Groups[gi]
	if pg.Reason == planner.Pooled {
		fmt.Fprintf(bw, "decision: pooled in bundle %s\n", g.Bundles[pg.Bundle].Name)
		return
	}
	fmt.Fprintf(bw, "decision: not pooled [%s]: %s\n", pg.Reason, evidence(p, ix, gi))
	if pg.Reason == planner.CrossBundle {
		u := ix.Usage(gi)
		wb := u.WrittenBy[0]
		var others []string
		for _, rb := range u.ReadBy {
			if rb != wb {
				t, _ := ix.First(gi, rb, true)
				others = append(others, fmt.Sprintf("%s (op %s at %s)", g.Bundles[rb].Name, opAt(g, rb, int(t.Step)), touchPos(g, t)))
			}
		}
		fmt.Fprintf(bw, "  bundles reading it besides its writer %s: %s\n", g.Bundles[wb].Name, strings.Join(others, ", "))
	}
}

// writePlacement writes where a pooled buffer's group sits and what
// shares its bytes, or, for one over budget, what the pool held while it
// was live.
func writePlacement(bw *bufio.Writer, p *planner.Result, bufIdx int) {
	g := p.Graph
	buf := g.Buffers.At(bufIdx)
	gi := int(buf.Group)
	gr, pg := &g.Groups[gi], &p.Groups[gi]
	switch {
	case pg.Offset >= 0:
		pb := &p.Bundles[pg.Bundle]
		fmt.Fprintf(bw, "pool: offset %d, bytes [%d, %d) of bundle %s's %s pool (%d bytes; lower bound %s)\n",
			pg.Offset, pg.Offset, pg.Offset+gr.Size, g.Bundles[pg.Bundle].Name, HumanSize(pb.PoolSize), pb.PoolSize, lowerBytes(pb.LowerBound))
		if v := g.ViewOf(buf).ViewOffset; v != 0 || buf.Size != gr.Size {
			fmt.Fprintf(bw, "  %s itself: bytes [%d, %d) (view offset %d)\n", g.Str(buf.Name), pg.Offset+v, pg.Offset+v+buf.Size, v)
		}
		shares := shareBytes(p, gi)
		if len(shares) == 0 {
			fmt.Fprintln(bw, "shares bytes with: no other buffer")
		} else {
			fmt.Fprintln(bw, "shares bytes with (at other times):")
			for _, o := range shares {
				og := &p.Groups[o]
				fmt.Fprintf(bw, "  %s: bytes [%d, %d), steps %d..%d\n", groupName(g, o), og.Offset, og.Offset+g.Groups[o].Size, og.Start, og.End)
			}
		}
	case pg.Reason == planner.OverBudget:
		live := liveWith(p, gi)
		var sum int64
		for _, o := range live {
			sum = addSat(sum, g.Groups[o].Size)
		}
		fmt.Fprintf(bw, "pooled buffers live during steps %d..%d: %d, %s (%d bytes)\n", pg.Start, pg.End, len(live), HumanSize(sum), sum)
		for k, o := range live {
			if k == 10 {
				fmt.Fprintf(bw, "  ... and %d more\n", len(live)-k)
				break
			}
			og := &p.Groups[o]
			fmt.Fprintf(bw, "  %s: bytes [%d, %d), steps %d..%d\n", groupName(g, o), og.Offset, og.Offset+g.Groups[o].Size, og.Start, og.End)
		}
	}
}

// claimPhrase says what an input, output or lx line makes of a name.
var claimPhrase = [...]string{
	ir.ClaimInput:  "declared a graph input",
	ir.ClaimOutput: "declared a graph output",
	ir.ClaimLX:     "claimed by LX",
}

// writeLiveRange explains the candidate's range: its first and last touch
// in the bundle, then each counted loop whose back-edge widens it (spec
// bundle-ir.md §3.2).
func writeLiveRange(w *bufio.Writer, g *ir.Graph, p *planner.Result, ix *planner.Index, gi int) {
	pg := &p.Groups[gi]
	b := &g.Bundles[pg.Bundle]
	first, last := -1, -1
	for _, t := range ix.Touches(gi) {
		if t.Bundle != pg.Bundle {
			continue
		}
		if first < 0 {
			first = int(t.Step)
		}
		last = int(t.Step)
	}
	fmt.Fprintf(w, "live range: steps %d..%d of bundle %s (first touch at step %d, last at step %d)\n",
		pg.Start, pg.End, b.Name, first, last)
	for li := range b.Loops {
		l := &b.Loops[li]
		fr, fw := -1, -1
		for s := int(l.First); s <= int(l.Last); s++ {
			op := &b.Ops[s]
			for _, a := range g.Reads(op) {
				if int(g.GroupOf(&a)) == gi && fr < 0 {
					fr = s
				}
			}
			for _, a := range g.Writes(op) {
				if int(g.GroupOf(&a)) == gi && fw < 0 {
					fw = s
				}
			}
		}
		if fr < 0 || (fw >= 0 && fr > fw) {
			continue
		}
		why := "read and never written inside it"
		ext := fmt.Sprintf("end = max(end, %d)", l.Last)
		if fw >= 0 {
			why = fmt.Sprintf("first read at step %d, at or before its first write at step %d", fr, fw)
			ext = fmt.Sprintf("start = min(start, %d), end = max(end, %d)", l.First, l.Last)
		}
		fmt.Fprintf(w, "  loop %s (steps %d..%d, at %s): %s; its value crosses the back-edge, so %s\n",
			l.Name, l.First, l.Last, g.Position(l.Pos), why, ext)
	}
}

// shareBytes lists the other pooled groups of gi's bundle whose bytes
// overlap gi's, by offset then name.
func shareBytes(p *planner.Result, gi int) []int {
	g := p.Graph
	pg := &p.Groups[gi]
	lo, hi := pg.Offset, pg.Offset+g.Groups[gi].Size
	var out []int
	for _, o := range p.Candidates(int(pg.Bundle)) {
		og := &p.Groups[o]
		if int(o) == gi || og.Offset < 0 {
			continue
		}
		if og.Offset < hi && lo < og.Offset+g.Groups[o].Size {
			out = append(out, int(o))
		}
	}
	sortByOffset(p, out)
	return out
}

// liveWith lists the pooled groups of gi's bundle live at a step of gi's
// range, by offset then name.
func liveWith(p *planner.Result, gi int) []int {
	pg := &p.Groups[gi]
	var out []int
	for _, o := range p.Candidates(int(pg.Bundle)) {
		og := &p.Groups[o]
		if int(o) != gi && og.Offset >= 0 && og.Start <= pg.End && pg.Start <= og.End {
			out = append(out, int(o))
		}
	}
	sortByOffset(p, out)
	return out
}

func sortByOffset(p *planner.Result, list []int) {
	sort.Slice(list, func(i, j int) bool {
		a, b := &p.Groups[list[i]], &p.Groups[list[j]]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return groupName(p.Graph, list[i]) < groupName(p.Graph, list[j])
	})
}

// unknown builds the error for a name that is not a buffer.
func unknown(g *ir.Graph, name string) error {
	e := &UnknownNameError{Name: name, Graph: g.Name}
	for _, b := range g.Bundles {
		if b.Name == name && e.Node == "" {
			e.Node = "a bundle"
		}
		for _, op := range b.Ops {
			if g.Str(op.Name) == name && e.Node == "" {
				e.Node = "an op of bundle " + b.Name
			}
		}
		for _, l := range b.Loops {
			if l.Name == name && e.Node == "" {
				e.Node = "a loop of bundle " + b.Name
			}
		}
	}
	for _, c := range g.CPU {
		if c.Name == name && e.Node == "" {
			e.Node = "a CPU node"
		}
	}
	names := make([]string, 0, g.Buffers.Len()+len(g.Renames))
	for _, b := range g.Buffers.All() {
		names = append(names, g.Str(b.Name))
	}
	for _, r := range g.Renames {
		names = append(names, r.From)
	}
	e.Suggestions = Suggest(name, names, 3)
	return e
}

// Suggest returns up to n names closest to name by edit distance
// (suggest.Distance: Levenshtein over bytes with a swap of neighbours as
// one edit; case-insensitive, look-alike characters such
// as Cyrillic 'а' U+0430 folded to the ASCII they imitate: see
// lookAlikes), best first, ties by name. A name qualifies when its
// distance is at most max(1, (len(name)+1)/3), len after folding: one
// edit for names up to 4 bytes, two up to 7, and so on.
func Suggest(name string, names []string, n int) []string {
	lname := strings.ToLower(foldLookAlikes(name))
	limit := max(1, (len(lname)+1)/3)
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, s := range names {
		if seen[s] || s == name {
			continue
		}
		seen[s] = true
		if d := suggest.Distance(lname, strings.ToLower(foldLookAlikes(s)), limit); d <= limit {
			cs = append(cs, cand{s, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}
