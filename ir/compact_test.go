package ir_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
)

// TestOpLists: an op's lists live in the graph-wide arrays; each read
// comes back capacity capped, so appending to one op's reads cannot
// overwrite its writes or the next op's accesses.
func TestOpLists(t *testing.T) {
	g := &ir.Graph{}
	a := func(b int32) ir.Access { return ir.Access{Buffer: b} }
	o0 := g.NewOp("o0", []int32{0, 1}, []int64{2, 3}, []ir.Access{a(1), a(2)}, []ir.Access{a(3)})
	o1 := g.NewOp("o1", nil, nil, nil, []ir.Access{a(4)})
	o2 := g.NewOp("o2", nil, []int64{}, []ir.Access{a(5)}, nil)
	bufs := func(as []ir.Access) string {
		s := []int32{}
		for _, x := range as {
			s = append(s, x.Buffer)
		}
		return fmt.Sprint(s)
	}
	for _, c := range []struct {
		op                 *ir.Op
		reads, writes, all string
		loops              string
		coresNil           bool
		numCores, nrds     int
	}{
		{&o0, "[1 2]", "[3]", "[1 2 3]", "[0 1]", false, 6, 2},
		{&o1, "[]", "[4]", "[4]", "[]", true, 1, 0},
		{&o2, "[5]", "[]", "[5]", "[]", false, 1, 1},
	} {
		op := c.op
		if got := bufs(g.Reads(op)); got != c.reads {
			t.Errorf("%s reads %s, want %s", g.Str(op.Name), got, c.reads)
		}
		if got := bufs(g.Writes(op)); got != c.writes {
			t.Errorf("%s writes %s, want %s", g.Str(op.Name), got, c.writes)
		}
		if got := bufs(g.OpAccesses(op)); got != c.all {
			t.Errorf("%s accesses %s, want %s", g.Str(op.Name), got, c.all)
		}
		if got := fmt.Sprint(g.OpLoops(op)); got != c.loops {
			t.Errorf("%s loops %s, want %s", g.Str(op.Name), got, c.loops)
		}
		if (g.Cores(op) == nil) != c.coresNil || g.NumCores(op) != c.numCores {
			t.Errorf("%s cores %v (nil %v), %d cores; want nil %v, %d", g.Str(op.Name), g.Cores(op), g.Cores(op) == nil, g.NumCores(op), c.coresNil, c.numCores)
		}
		if int(op.NReads) != c.nrds {
			t.Errorf("%s has %d reads", g.Str(op.Name), op.NReads)
		}
	}
	// o1 has no reads: nil, as an op without reads had before.
	if g.Reads(&o1) != nil || g.Writes(&o2) != nil || g.OpLoops(&o1) != nil {
		t.Error("an empty list read back non-nil")
	}
	r := g.Reads(&o0)
	if cap(r) != 2 {
		t.Errorf("reads of o0 have capacity %d, want 2", cap(r))
	}
	_ = append(r, a(99))
	if g.Writes(&o0)[0].Buffer != 3 {
		t.Error("appending to o0's reads overwrote its write")
	}
	// o0's loop list [0 1] is stored after its length; the others have none.
	l := g.OpLoops(&o0)
	_ = append(l, 7)
	if fmt.Sprint(g.LoopLists) != "[2 0 1]" || cap(l) != 2 || o1.Loops != 0 {
		t.Errorf("loop list %v (cap %d) in %v", l, cap(l), g.LoopLists)
	}
}

// TestGroupMembers: a group's members come from Graph.MemberLists, its
// root is the first of them and its sort key is its smallest member
// name, whatever the declaration order.
func TestGroupMembers(t *testing.T) {
	g := &ir.Graph{}
	g.Buffers = ir.ChunkedOf([]ir.Buffer{{Name: g.AddName("t")}, {Name: g.AddName("hi")}, {Name: g.AddName("b")}, {Name: g.AddName("a")}}...)
	g1 := ir.Group{Members: g.AddMembers([]int32{0, 1, 2})}
	g2 := ir.Group{Members: g.AddMembers([]int32{3})}
	if got := fmt.Sprint(g.Members(&g1)); got != "[0 1 2]" || cap(g.Members(&g1)) != 3 {
		t.Errorf("members %s", got)
	}
	if n1, n2 := g.GroupKey(&g1), g.GroupKey(&g2); n1 != "b" || n2 != "a" {
		t.Errorf("names %q %q, want b a", n1, n2)
	}
	if r1, r2 := g.Root(&g1), g.Root(&g2); r1 != 0 || r2 != 3 {
		t.Errorf("roots %d %d, want 0 3", r1, r2)
	}
	if g.Members(&ir.Group{}) != nil || g.GroupKey(&ir.Group{}) != "" {
		t.Error("a group without members has members or a name")
	}
}

// TestLoopsAndUnfused: fused bundle f is o0; loop L1 (count 2) { loop L2
// (count 3) { o1 }; o2 }. Loops in preorder: L1 = 0, L2 = 1. L1's body
// is [loop 1, op 2], L2's is [op 1]. Unfused, each op is a bundle with
// copies of its loops: o1 gets L1 (body: loop 1) and L2 (body: op 0),
// o2 gets L1 (body: op 0).
func TestLoopsAndUnfused(t *testing.T) {
	src := "graph g {\n  buffer a : 256\n  input a\n  buffer b : 256\n  output b\n" +
		"  fused f {\n    op o0 reads a writes b\n" +
		"    loop L1 count 2 {\n      loop L2 count 3 {\n        op o1 reads a writes b\n      }\n" +
		"      op o2 reads b writes b\n    }\n  }\n}\n"
	g := checked(t, "x.bir", src)
	b := &g.Bundles[0]
	loops := func(g *ir.Graph, b *ir.Bundle) string {
		s := ""
		for _, l := range b.Loops {
			s += fmt.Sprintf("%s:%d p%d d%d %d..%d %v;", l.Name, l.Count, l.Parent, l.Depth, l.First, l.Last, g.LoopBody(&l))
		}
		return s
	}
	if got, want := loops(g, b), "L1:2 p-1 d1 1..2 [{-1 1} {2 -1}];L2:3 p0 d2 1..1 [{1 -1}];"; got != want {
		t.Errorf("loops %s, want %s", got, want)
	}
	if got := fmt.Sprint(g.BundleBody(b), g.OpLoops(&b.Ops[0]), g.OpLoops(&b.Ops[1]), g.OpLoops(&b.Ops[2])); got != "[{0 -1} {-1 0}] [] [0 1] [0]" {
		t.Errorf("body and op loops %s", got)
	}
	u := g.Unfused()
	want := []struct{ name, body, loops, opLoops string }{
		{"o0", "[{0 -1}]", "", "[]"},
		{"o1", "[{-1 0}]", "L1:2 p-1 d1 0..0 [{-1 1}];L2:3 p0 d2 0..0 [{0 -1}];", "[0 1]"},
		{"o2", "[{-1 0}]", "L1:2 p-1 d1 0..0 [{0 -1}];", "[0]"},
	}
	if len(u.Bundles) != len(want) {
		t.Fatalf("%d unfused bundles", len(u.Bundles))
	}
	for i, w := range want {
		ub := &u.Bundles[i]
		op := &ub.Ops[0]
		if ub.Name != w.name || fmt.Sprint(u.BundleBody(ub)) != w.body || loops(u, ub) != w.loops || fmt.Sprint(u.OpLoops(op)) != w.opLoops {
			t.Errorf("unfused %d: %s body %v loops %s op loops %v; want %+v", i, ub.Name, u.BundleBody(ub), loops(u, ub), u.OpLoops(op), w)
		}
		// The accesses are shared with g.
		if fmt.Sprint(u.OpAccesses(op)) != fmt.Sprint(g.OpAccesses(&b.Ops[i])) {
			t.Errorf("unfused %d: accesses %v, fused %v", i, u.OpAccesses(op), g.OpAccesses(&b.Ops[i]))
		}
	}
	// g is not modified.
	if got := fmt.Sprint(g.OpLoops(&b.Ops[1]), g.LoopBody(&b.Loops[0])); got != "[0 1] [{-1 1} {2 -1}]" {
		t.Errorf("fused graph changed: %s", got)
	}
	// Everything else is g's: a field added to Graph is carried (the
	// claim sets, say), or is listed here as the unfused graph's own.
	gv, uv := reflect.ValueOf(g).Elem(), reflect.ValueOf(u).Elem()
	for i := range gv.NumField() {
		switch name := gv.Type().Field(i).Name; name {
		case "Bundles", "LoopLists", "Items":
		default:
			if !reflect.DeepEqual(gv.Field(i).Interface(), uv.Field(i).Interface()) {
				t.Errorf("the unfused graph's %s is not the fused graph's", name)
			}
		}
	}
}

// TestUnfusedSharesLoopCopies: fused bundle f is loop L1 (count 2) {
// o1; o2; loop L2 (count 3) { o3; o4 }; o5 }; o6. Unfused, the copies of
// an op's loops depend only on its loops, so the ops of one loop body,
// one after the other, share them: o1 and o2 one copy of L1, o3 and o4
// one of L1 and L2 (a copy per op was 21 MB of the 191 MB the default
// family's million ops took unfused). o5's loops are not o4's: a copy of its
// own, the same as o1's; o6 has none.
func TestUnfusedSharesLoopCopies(t *testing.T) {
	src := "graph g {\n  buffer a : 256\n  input a\n  buffer b : 256\n  output b\n" +
		"  fused f {\n    loop L1 count 2 {\n      op o1 reads a writes b\n      op o2 reads b writes b\n" +
		"      loop L2 count 3 {\n        op o3 reads a writes b\n        op o4 reads b writes b\n      }\n" +
		"      op o5 reads b writes b\n    }\n    op o6 reads b writes b\n  }\n}\n"
	u := checked(t, "x.bir", src).Unfused()
	loops := func(b *ir.Bundle) string {
		s := ""
		for _, l := range b.Loops {
			s += fmt.Sprintf("%s:%d p%d d%d %d..%d %v;", l.Name, l.Count, l.Parent, l.Depth, l.First, l.Last, u.LoopBody(&l))
		}
		return s
	}
	l1 := "L1:2 p-1 d1 0..0 [{0 -1}];"
	l12 := "L1:2 p-1 d1 0..0 [{-1 1}];L2:3 p0 d2 0..0 [{0 -1}];"
	want := []string{l1, l1, l12, l12, l1, ""}
	if len(u.Bundles) != len(want) {
		t.Fatalf("%d unfused bundles", len(u.Bundles))
	}
	for i, w := range want {
		if got := loops(&u.Bundles[i]); got != w {
			t.Errorf("unfused %s: loops %s, want %s", u.Bundles[i].Name, got, w)
		}
	}
	same := func(i, j int) bool { return &u.Bundles[i].Loops[0] == &u.Bundles[j].Loops[0] }
	if !same(0, 1) || !same(2, 3) {
		t.Errorf("o1 and o2 share their loops' copies: %t; o3 and o4: %t; want both", same(0, 1), same(2, 3))
	}
	if cap(u.Bundles[0].Loops) != 1 || cap(u.Bundles[2].Loops) != 2 {
		t.Errorf("shared copies of capacity %d and %d, want 1 and 2 (capped)", cap(u.Bundles[0].Loops), cap(u.Bundles[2].Loops))
	}
}

// TestCPUNodeLists: a CPU node's operands live in Graph.Accesses as an
// op's do, in text order with the ops' (o0's two, then h's three, then
// o1's two), read back capacity capped; the fusion-off graph shares them.
func TestCPUNodeLists(t *testing.T) {
	src := "graph g {\n  buffer a : 256\n  input a\n  buffer b : 256\n  buffer c : 128\n  output c\n" +
		"  op o0 reads a writes b\n  cpu h reads b, a writes c\n  op o1 reads c writes b\n}\n"
	g := checked(t, "x.bir", src)
	names := func(as []ir.Access) string {
		s := []string{}
		for _, x := range as {
			s = append(s, g.Str(g.Buffers.At(int(x.Buffer)).Name))
		}
		return fmt.Sprint(s)
	}
	h := &g.CPU[0]
	if h.Accesses != (ir.Span{Off: 2, Len: 3}) || h.NReads != 2 {
		t.Errorf("cpu h: accesses %+v, %d reads; want {2 3}, 2", h.Accesses, h.NReads)
	}
	if got := names(g.Accesses.Slice(0, int32(g.Accesses.Len()))); got != "[a b b a c c b]" {
		t.Errorf("graph accesses %s, want [a b b a c c b]", got)
	}
	if r, w, all := names(g.CPUReads(h)), names(g.CPUWrites(h)), names(g.CPUAccesses(h)); r != "[b a]" || w != "[c]" || all != "[b a c]" {
		t.Errorf("cpu h reads %s writes %s all %s; want [b a] [c] [b a c]", r, w, all)
	}
	// "  cpu h reads b": two spaces, "cpu " (3-6), "h " (7-8), "reads "
	// (9-14): the read of b is at line 8, column 15.
	if got := g.Position(g.AccessPos(h.Pos, h.Accesses.Off)).String(); got != "x.bir:8:15" {
		t.Errorf("cpu h's read of b at %s, want x.bir:8:15", got)
	}
	r := g.CPUReads(h)
	if cap(r) != 2 {
		t.Errorf("reads of h have capacity %d, want 2", cap(r))
	}
	_ = append(r, ir.Access{Buffer: 0})
	if names(g.CPUWrites(h)) != "[c]" {
		t.Error("appending to h's reads overwrote its write")
	}
	u := g.Unfused()
	if got := names(u.CPUAccesses(&u.CPU[0])); got != "[b a c]" {
		t.Errorf("unfused cpu h accesses %s, want [b a c]", got)
	}
	// Built by hand: no reads, one write.
	hg := &ir.Graph{}
	c := hg.NewCPUNode("k", nil, []ir.Access{{Buffer: 4}})
	if hg.CPUReads(&c) != nil || len(hg.CPUWrites(&c)) != 1 || hg.CPUWrites(&c)[0].Buffer != 4 {
		t.Errorf("hand-built cpu node: reads %v writes %v", hg.CPUReads(&c), hg.CPUWrites(&c))
	}
}

// checked is src (named file) parsed and checked by the reference path,
// failing the test on any diagnostic.
func checked(t *testing.T, file, src string) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse(file, []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if errs != nil {
		t.Fatal(errs)
	}
	return g
}
