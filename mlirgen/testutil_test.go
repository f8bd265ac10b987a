package mlirgen

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// editor sets the v2 fields (views at offsets, cores, splits) on a graph
// checked from v1 text, which cannot spell them yet.
type editor struct {
	t testing.TB
	g *ir.Graph
}

func (e *editor) buffer(name string) int {
	for k, b := range e.g.Buffers.All() {
		if e.g.Str(b.Name) == name {
			return k
		}
	}
	e.t.Fatalf("no buffer %s", name)
	return -1
}

// view puts name at byte off of its group's storage and regrows the
// group's size (largest view offset + size over its members).
func (e *editor) view(name string, off int64) {
	b := e.g.Buffers.At(e.buffer(name))
	e.g.EditView(b).ViewOffset = off
	gr := &e.g.Groups[b.Group]
	gr.Size = 0
	for _, m := range e.g.Members(gr) {
		mb := e.g.Buffers.At(int(m))
		gr.Size = max(gr.Size, e.g.ViewOf(mb).ViewOffset+mb.Size)
	}
}

func (e *editor) op(name string) *ir.Op {
	for b := range e.g.Bundles {
		for k := range e.g.Bundles[b].Ops {
			if op := &e.g.Bundles[b].Ops[k]; e.g.Str(op.Name) == name {
				return op
			}
		}
	}
	e.t.Fatalf("no op %s", name)
	return nil
}

func (e *editor) cores(op string, cores ...int64) { e.op(op).Cores = e.g.AddInts(cores) }

// kind sets the v3 `kind` of each op named.
func (e *editor) kind(k string, ops ...string) {
	for _, op := range ops {
		e.op(op).Kind = e.g.InternKind(k)
	}
}

// split sets the split of op's k-th access in operand order (reads, then
// writes).
func (e *editor) split(op string, k int, split ...int64) {
	o := e.op(op)
	if k < len(e.g.Reads(o)) {
		e.g.SetSplit(&e.g.Reads(o)[k], split)
	} else {
		e.g.SetSplit(&e.g.Writes(o)[k-len(e.g.Reads(o))], split)
	}
}

// build checks v1 text, applies edit and plans with the default budget.
func build(t testing.TB, src string, edit func(e *editor)) *planner.Result {
	t.Helper()
	f, errs := frontend.Parse("test.bir", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if edit != nil {
		edit(&editor{t, g})
	}
	return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
}

// emitText is bundle bi's module.
func emitText(t testing.TB, p *planner.Result, bi int, opt Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Emit(&buf, p, bi, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// lines joins lines with "\n" after each: expected texts are written one
// line per argument, with tabs spelled out as "\t".
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func diffText(t testing.TB, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := 0; k < max(len(g), len(w)); k++ {
		var gl, wl string
		if k < len(g) {
			gl = g[k]
		}
		if k < len(w) {
			wl = w[k]
		}
		if gl != wl {
			t.Fatalf("line %d:\n got  %q\n want %q\nwhole output:\n%s", k+1, gl, wl, got)
		}
	}
}
