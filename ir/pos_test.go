package ir_test

import (
	"testing"
)

// TestPosition: a graph's compact positions print with the graph's file,
// and the fusion-off graph keeps that file (its bundles are the ops) and
// its operands' positions, those on another line than their op's too.
func TestPosition(t *testing.T) {
	src := "graph g {\n  buffer a : 256\n  input a\n  fused f {\n    op o1 reads a writes\n      b\n  }\n  buffer b : 128\n  output b\n}\n"
	g := checked(t, "dir/x.bir", src)
	op := g.Bundles[0].Ops[0]
	// "    op o1": the name starts at column 8 of line 5; the read of a at
	// column 17.
	if got := g.Position(op.Pos).String(); got != "dir/x.bir:5:8" {
		t.Errorf("op at %s, want dir/x.bir:5:8", got)
	}
	if got := g.Position(g.AccessPos(op.Pos, op.Accesses.Off)).String(); got != "dir/x.bir:5:17" {
		t.Errorf("read at %s, want dir/x.bir:5:17", got)
	}
	// "      b": the write is on line 6, column 7.
	u := g.Unfused()
	uop := u.Bundles[0].Ops[0]
	if got := u.Position(u.Bundles[0].Pos).String(); got != "dir/x.bir:5:8" {
		t.Errorf("unfused bundle at %s, want dir/x.bir:5:8", got)
	}
	if got := u.Position(u.AccessPos(uop.Pos, uop.Accesses.Off)).String(); got != "dir/x.bir:5:17" {
		t.Errorf("unfused read at %s, want dir/x.bir:5:17", got)
	}
	if got := u.Position(u.AccessPos(uop.Pos, uop.Accesses.Off+uop.NReads)).String(); got != "dir/x.bir:6:7" {
		t.Errorf("unfused write at %s, want dir/x.bir:6:7", got)
	}
	if got := g.Position(g.Buffers.At(1).Pos).String(); got != "dir/x.bir:8:10" {
		t.Errorf("buffer b at %s, want dir/x.bir:8:10", got)
	}
}
