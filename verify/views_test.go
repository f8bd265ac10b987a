package verify_test

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/verify"
)

// viewGraph is a hand-built v2 graph (built without the frontend so the
// verifier is tested on exactly these fields):
//
//	buffer x : 512; buffer t : 4096; buffer hi : 2048; buffer w : 1024
//	buffer e : 128; buffer y : 4096
//	input x; output y
//	alias hi = t + 2048; alias w = hi + 1024; alias e = t + 4096
//	fused k {
//	  op a reads x writes t
//	  loop L count 4 { op b reads hi step 256 writes w }
//	  op c cores [2, 2] reads t split [1024, 2048], e writes y
//	}
//
// The group of t, hi, w and e is named e (smallest name), rooted at t, and
// holds 4224 bytes: e's view offset 4096 + its 128 bytes. View offsets: t
// 0, hi 2048, w 3072, e 4096. Bounds: b's read of hi reaches 3*256 = 768 <
// 2048; c's read of t reaches core (1,1) at 1024+2048 = 3072 < 4096.
func viewGraph() *ir.Graph {
	g := &ir.Graph{} // holds the names and the accesses' strides and splits
	acc := g.NewAccess
	out := &ir.Graph{Name: "views",
		Buffers: ir.ChunkedOf([]ir.Buffer{
			{Name: g.AddName("x"), Size: 512, Group: 1, View: -1},
			{Name: g.AddName("t"), Size: 4096, Group: 0, View: -1},
			{Name: g.AddName("hi"), Size: 2048, Group: 0, View: 0},
			{Name: g.AddName("w"), Size: 1024, Group: 0, View: 1},
			{Name: g.AddName("e"), Size: 128, Group: 0, View: 2},
			{Name: g.AddName("y"), Size: 4096, Group: 2, View: -1},
		}...),
		Views: []ir.View{
			{Alias: 1, AliasOffset: 2048, ViewOffset: 2048},
			{Alias: 2, AliasOffset: 1024, ViewOffset: 3072},
			{Alias: 1, AliasOffset: 4096, ViewOffset: 4096},
		},
		Groups: []ir.Group{
			{Members: g.AddMembers([]int32{1, 2, 3, 4}), Size: 4224},
			{Members: g.AddMembers([]int32{0}), Size: 512},
			{Members: g.AddMembers([]int32{5}), Size: 4096},
		},
		Claims:      []ir.Claim{{Kind: ir.ClaimInput, Buffer: 0}, {Kind: ir.ClaimOutput, Buffer: 5}},
		GroupClaims: []ir.ClaimSet{0, 1 << ir.ClaimInput, 1 << ir.ClaimOutput},
		Bundles: []ir.Bundle{{Name: "k", Kind: ir.KindFused,
			Ops: []ir.Op{
				g.NewOp("a", nil, nil, []ir.Access{acc(0, nil, nil)}, []ir.Access{acc(1, nil, nil)}),
				g.NewOp("b", []int32{0}, nil, []ir.Access{acc(2, []int64{256}, nil)}, []ir.Access{acc(3, nil, nil)}),
				g.NewOp("c", nil, []int64{2, 2},
					[]ir.Access{acc(1, nil, []int64{1024, 2048}), acc(4, nil, nil)},
					[]ir.Access{acc(5, nil, nil)}),
			},
			Loops: []ir.Loop{{Name: "L", Count: 4, Parent: -1, Depth: 1, First: 1, Last: 1, Body: g.AddItems([]ir.Item{{Op: 1, Loop: -1}})}},
			Body:  g.AddItems([]ir.Item{{Op: 0, Loop: -1}, {Op: -1, Loop: 0}, {Op: 2, Loop: -1}}),
		}},
	}
	out.Names, out.Ints, out.Addressings, out.Accesses, out.LoopLists, out.MemberLists, out.Items = g.Names, g.Ints, g.Addressings, g.Accesses, g.LoopLists, g.MemberLists, g.Items
	return out
}

func planViews(t *testing.T, g *ir.Graph) *planner.Result {
	t.Helper()
	return planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
}

// TestViewGraph: the correct plan of viewGraph passes both checks, and
// it pools the whole group at offset 0 with the group's 4224 bytes.
func TestViewGraph(t *testing.T) {
	g := viewGraph()
	p := planViews(t, g)
	if err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget}); err != nil {
		t.Fatal(err)
	}
	if pg := p.Groups[0]; pg.Offset != 0 || p.Bundles[0].PoolSize != 4224 {
		t.Fatalf("group e at %d, pool %d; want 0 and 4224", pg.Offset, p.Bundles[0].PoolSize)
	}
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.JSON(g, p, js.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// TestCatchesViewCorruptions: each corruption of the v2 fields, of the
// graph or of the plan JSON, is reported, with a message that names it.
func TestCatchesViewCorruptions(t *testing.T) {
	cases := []struct {
		name string
		edit func(g *ir.Graph)
		want string
	}{
		{"wrong view offset", func(g *ir.Graph) { g.EditView(g.Buffers.At(3)).ViewOffset = 2048 }, `buffer "w": view offset 2048, its alias chain to "t" gives 3072`},
		{"group too small for a view", func(g *ir.Graph) { g.Groups[0].Size = 4096 }, `group "e": size 4096, the largest view offset + size of its names is 4224`},
		{"group too small: the pooled access leaves it", func(g *ir.Graph) { g.Groups[0].Size = 4096 }, `a start of its access of "e", pool bytes 0+4096+0, is not inside its group "e"'s bytes [0, 4096)`},
		{"group too large", func(g *ir.Graph) { g.Groups[0].Size = 4352 }, `largest view offset + size of its names is 4224`},
		// A group's members are its root first (t), then its views in
		// declaration order (hi w e).
		{"view first", func(g *ir.Graph) { ms := g.Members(&g.Groups[0]); ms[0], ms[1] = ms[1], ms[0] },
			`group "e": its first member "hi" is an alias's left side, not the root`},
		{"root not first", func(g *ir.Graph) { ms := g.Members(&g.Groups[0]); ms[0], ms[1] = ms[1], ms[0] },
			`group "e": member 1, "t", is no alias's left side: a root, but not first`},
		{"root last", func(g *ir.Graph) { ms := g.Members(&g.Groups[0]); ms[0], ms[3] = ms[3], ms[0] },
			`group "e": member 3, "t", is no alias's left side: a root, but not first`},
		{"alias cycle", func(g *ir.Graph) { g.EditView(g.Buffers.At(1)).Alias = 3 }, `alias chain is a cycle`},
		{"alias into another group", func(g *ir.Graph) { g.EditView(g.Buffers.At(4)).Alias = 5 }, `buffer "e": a view of "y", which is in another group`},
		{"alias out of range", func(g *ir.Graph) { g.EditView(g.Buffers.At(3)).Alias = 9 }, `buffer "w": alias index 9 out of range`},
		{"view of no alias", func(g *ir.Graph) { g.EditView(g.Buffers.At(5)).AliasOffset = 128 }, `buffer "y": a view (index 3) of no alias`},
		{"view index out of range", func(g *ir.Graph) { g.Buffers.At(3).View = 7 }, `buffer "w": view index 7 out of range`},
		// w's chain reaches hi at 2048, so MaxInt64 more overflows.
		{"alias offset overflows", func(g *ir.Graph) { g.EditView(g.Buffers.At(3)).AliasOffset = math.MaxInt64 },
			`buffer "w": alias offset 9223372036854775807 on a chain at 2048 is negative or overflows`},
		// Ops are the tree's leaves depth-first (ir.Bundle): a tree that
		// lists c first has c where step 0 belongs.
		{"tree out of step order", func(g *ir.Graph) {
			b := &g.Bundles[0]
			body := g.BundleBody(b)
			body[0], body[2] = body[2], body[0]
		}, `bundle "k": the tree lists op "c" (step 2) where step 0 belongs`},
		// A loop inside its own body: the walk must not follow it forever.
		{"loop in its own body", func(g *ir.Graph) {
			g.Bundles[0].Loops[0].Body = g.AddItems([]ir.Item{{Op: 1, Loop: -1}, {Op: -1, Loop: 0}})
		}, `bundle "k": loop "L" appears twice in the tree`},
		{"split leaves the buffer", func(g *ir.Graph) { g.SetSplit(&g.Reads(&g.Bundles[0].Ops[2])[0], []int64{1024, 3072}) }, `its access of "t" reaches start 4096, outside the name's 4096 bytes`},
		{"step leaves the view", func(g *ir.Graph) { g.SetStrides(&g.Reads(&g.Bundles[0].Ops[1])[0], []int64{1024}) }, `its access of "hi" reaches start 3072, outside the name's 2048 bytes`},
		{"split of the wrong length", func(g *ir.Graph) { g.SetSplit(&g.Reads(&g.Bundles[0].Ops[2])[0], []int64{1024}) }, `split [1024] on an access of "t", but the op has cores [2 2]`},
		{"split without cores", func(g *ir.Graph) { g.SetSplit(&g.Writes(&g.Bundles[0].Ops[0])[0], []int64{128}) }, `split [128] on an access of "t", but the op has cores []`},
		{"zero cores", func(g *ir.Graph) { g.Bundles[0].Ops[2].Cores = g.AddInts([]int64{2, 0}) }, `cores entry 0 is below 1`},
		// viewGraph's claims: x (group 1) is an input, y (group 2) an
		// output. A group's claim set is what its members' claims give,
		// no kind more or less.
		{"claim missing from a group's set", func(g *ir.Graph) { g.GroupClaims[1] = 0 }, `group "x": claims none, its members' are input`},
		{"claim extra in a group's set", func(g *ir.Graph) { g.GroupClaims[0] = g.GroupClaims[0].With(ir.ClaimLX) }, `group "e": claims lx, its members' are none`},
		{"claim of another kind in a group's set", func(g *ir.Graph) { g.GroupClaims[2] = 1 << ir.ClaimInput }, `group "y": claims input, its members' are output`},
		{"an unknown bit in a group's set", func(g *ir.Graph) { g.GroupClaims[2] |= 1 << 7 }, `group "y": claims output,ClaimKind(7), its members' are output`},
		{"a claim the sets do not hold", func(g *ir.Graph) { g.Claims = append(g.Claims, ir.Claim{Kind: ir.ClaimLX, Buffer: 3}) },
			`group "e": claims none, its members' are lx`},
		{"no claim sets", func(g *ir.Graph) { g.GroupClaims = nil }, `0 group claim sets for 3 groups`},
		{"a claim set too many", func(g *ir.Graph) { g.GroupClaims = append(g.GroupClaims, 0) }, `4 group claim sets for 3 groups`},
		{"claim of no buffer", func(g *ir.Graph) { g.Claims[1].Buffer = 6 }, `claim 1 (output): buffer index 6 out of range`},
		{"claim of an unknown kind", func(g *ir.Graph) { g.Claims[0].Kind = 3 }, `claim 0 of "x": unknown kind 3`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := viewGraph()
			p := planViews(t, g) // planned before the corruption
			tc.edit(g)
			err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget})
			if err == nil {
				t.Fatal("corruption not detected")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("violation %q not reported; got:\n%v", tc.want, err)
			}
		})
	}
}

// TestJSONViewOffset: the JSON check requires each buffer's view_offset.
func TestJSONViewOffset(t *testing.T) {
	g := viewGraph()
	p := planViews(t, g)
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	good := js.String()
	edits := [][2]string{
		{`"name": "w", "size": 1024, "bundle": "k", "start": 0, "end": 2, "offset": 0, "view_offset": 3072`,
			`"name": "w", "size": 1024, "bundle": "k", "start": 0, "end": 2, "offset": 0, "view_offset": 2048`},
		{`"offset": 0, "view_offset": 4096`, `"offset": 0, "view_offset": null`},
		{`"offset": 0, "view_offset": 4096, `, `"offset": 0, `},
		{`"offset": null, "view_offset": 0, "reason": "graph-input"`, `"offset": null, "view_offset": 128, "reason": "graph-input"`},
		// A view shares its group's offset.
		{`"offset": 0, "view_offset": 2048`, `"offset": 2048, "view_offset": 2048`},
	}
	for _, e := range edits {
		if !strings.Contains(good, e[0]) {
			t.Fatalf("plan JSON lacks %q:\n%s", e[0], good)
		}
		bad := strings.Replace(good, e[0], e[1], 1)
		if err := verify.JSON(g, p, []byte(bad)); err == nil {
			t.Errorf("edit %q -> %q not detected", e[0], e[1])
		}
	}
}

// chainGraph is one fused bundle of n ops: op i reads b_i and writes
// b_(i+1), and every 16th op also writes a long-lived buffer l_k that the
// last op reads, so the bundle has n-1 short-lived and n/16 long-lived
// candidates of varied sizes (the free list grows long and fragmented).
func chainGraph(n int) *ir.Graph {
	g := &ir.Graph{Name: "chain"}
	addBuf := func(name string, size int64) int {
		i := int32(g.Buffers.Len())
		g.Buffers.Append(ir.Buffer{Name: g.AddName(name), Size: size, Group: i, View: -1})
		g.Groups = append(g.Groups, ir.Group{Members: g.AddMembers([]int32{i}), Size: size})
		g.GroupClaims = append(g.GroupClaims, 0)
		return int(i)
	}
	a := func(i int) ir.Access { return ir.Access{Buffer: int32(i)} }
	b := ir.Bundle{Name: "k", Kind: ir.KindFused}
	var body []ir.Item
	chain := make([]int, n+1)
	for i := range chain {
		chain[i] = addBuf(fmt.Sprintf("b%06d", i), 128*int64(1+(i*7919)%37))
	}
	var long []ir.Access
	for i := 0; i < n; i++ {
		reads, writes := []ir.Access{a(chain[i])}, []ir.Access{a(chain[i+1])}
		if i%16 == 5 && i < n-1 {
			l := addBuf(fmt.Sprintf("l%06d", i), 128*int64(1+(i*31)%13))
			writes = append(writes, a(l))
			long = append(long, a(l))
		}
		if i == n-1 {
			reads = append(reads, long...)
		}
		b.Ops = append(b.Ops, g.NewOp(fmt.Sprintf("o%d", i), nil, nil, reads, writes))
		body = append(body, ir.Item{Op: int32(i), Loop: -1})
	}
	b.Body = g.AddItems(body)
	g.Bundles = []ir.Bundle{b}
	// Groups are ordered by name.
	order := make([]int, len(g.Groups))
	for i := range order {
		order[i] = i
	}
	g.Claims = []ir.Claim{{Kind: ir.ClaimInput, Buffer: chain[0]}, {Kind: ir.ClaimOutput, Buffer: chain[n]}}
	g.GroupClaims[chain[0]] = 1 << ir.ClaimInput
	g.GroupClaims[chain[n]] = 1 << ir.ClaimOutput
	return sortGroups(g)
}

// sortGroups reorders g's groups by name and fixes the indices.
func sortGroups(g *ir.Graph) *ir.Graph {
	idx := make([]int, len(g.Groups))
	for i := range idx {
		idx[i] = i
	}
	sortInts(idx, func(x, y int) bool { return g.GroupKey(&g.Groups[x]) < g.GroupKey(&g.Groups[y]) })
	newOf := make([]int32, len(idx))
	groups := make([]ir.Group, len(idx))
	claims := make([]ir.ClaimSet, len(idx))
	for k, old := range idx {
		newOf[old] = int32(k)
		groups[k], claims[k] = g.Groups[old], g.GroupClaims[old]
	}
	g.Groups, g.GroupClaims = groups, claims
	for _, b := range g.Buffers.All() {
		b.Group = newOf[b.Group]
	}
	return g
}

// TestReplayAtScale: the first-fit replay runs on a bundle with more than
// 32,768 candidates (the old cap) and still catches a placement that is
// legal but not first-fit's: the last-placed candidate moved to the pool
// end, the pool grown to match. Every allocator-independent rule holds
// for that placement (no overlap, pool size = highest end, under the
// budget), so only the replay can report it; under another allocator's
// name the same plan passes.
func TestReplayAtScale(t *testing.T) {
	g := chainGraph(40000)
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	cands := p.Candidates(0)
	if len(cands) <= 1<<15 {
		t.Fatalf("only %d candidates", len(cands))
	}
	start := time.Now()
	if err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d candidates verified in %v", len(cands), time.Since(start))
	last := cands[len(cands)-1]
	p.Groups[last].Offset = p.Bundles[0].PoolSize
	p.Bundles[0].PoolSize += g.Groups[last].Size
	err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget})
	if err == nil || !strings.Contains(err.Error(), "first-fit places it at") {
		t.Fatalf("moved offset not caught by the replay: %v", err)
	}
	p.Allocator = "someone-else"
	if err := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget}); err != nil {
		t.Fatalf("a legal placement under another allocator: %v", err)
	}
}

// TestOverlapAtScale: on the same bundle of more than 40,000 candidates
// (ranked by a radix sort, held in a free list many levels deep), a
// long-lived candidate moved onto the bytes of a short-lived one it is
// live with is reported as an overlap, naming both, under an allocator
// that is not replayed; with one worker and with four alike.
func TestOverlapAtScale(t *testing.T) {
	g := chainGraph(40000)
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	p.Allocator = "someone-else"
	// l000005 is written by op 5 and read by the last op, so it is live
	// with b000006, written by op 5 and read by op 6.
	find := func(name string) int {
		for gi := range g.Groups {
			if g.GroupKey(&g.Groups[gi]) == name {
				return gi
			}
		}
		t.Fatalf("no group %s", name)
		return -1
	}
	l, b := find("l000005"), find("b000006")
	if p.Groups[l].Offset < 0 || p.Groups[b].Offset < 0 {
		t.Fatalf("l000005 or b000006 not pooled")
	}
	p.Groups[l].Offset = p.Groups[b].Offset
	one := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget})
	if one == nil || !strings.Contains(one.Error(), "overlaps") ||
		!strings.Contains(one.Error(), `"l000005"`) || !strings.Contains(one.Error(), `"b000006"`) {
		t.Fatalf("overlap not reported: %v", one)
	}
	if four := verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget, Workers: 4}); four == nil || four.Error() != one.Error() {
		t.Fatalf("four workers: %v", four)
	}
}

func sortInts(a []int, less func(x, y int) bool) {
	sort.Slice(a, func(i, j int) bool { return less(a[i], a[j]) })
}

// withPositions gives viewGraph's operands positions as the frontend
// records them (ir.Graph.AccessCols): a column + 1 on its node's line,
// or 0 and a position kept aside, as for accesses 2 (b's read, on line
// 8) and 5 (c's second read, past the largest column kept).
func withPositions(g *ir.Graph) {
	g.AccessCols = ir.ChunkedOf[uint16](11, 19, 0, 25, 13, 0, 30)
	g.AccessPositions = []ir.AccessPosition{
		{Access: 2, Pos: ir.Pos{Line: 8, Col: 3}},
		{Access: 5, Pos: ir.Pos{Line: 9, Col: ir.MaxAccessCol + 1}},
	}
}

// TestOperandPositions: viewGraph with its operands' positions verifies,
// and reads them as recorded; without them, every operand reads as its
// node's position.
func TestOperandPositions(t *testing.T) {
	g := viewGraph()
	node := ir.Pos{Line: 9, Col: 6}
	for i := range int32(7) {
		if got := g.AccessPos(node, i); got != node {
			t.Errorf("access %d without positions: at %v, want its node's %v", i, got, node)
		}
	}
	withPositions(g)
	if err := verify.Plan(g, planViews(t, g), verify.Options{Budget: planner.DefaultBudget}); err != nil {
		t.Fatal(err)
	}
	var got []ir.Pos
	for i := range int32(7) {
		got = append(got, g.AccessPos(node, i))
	}
	want := "[{9 10} {9 18} {8 3} {9 24} {9 12} {9 65535} {9 29}]"
	if fmt.Sprint(got) != want {
		t.Errorf("positions %v, want %s", got, want)
	}
}

// TestCatchesListCorruptions: a list reference of the compact graph
// (ir.Span, ir.IntsRef, Op.Loops, a CPUNode's Span) that leaves its
// graph-wide array, a buffer's or op's ir.Name that leaves the graph's
// name store, and operand positions that are not as ir.Graph.AccessCols
// says, is a violation naming it, never a panic: the
// graph may be built by hand (ir.Graph.NewOp) and the verifier is what
// checks it.
func TestCatchesListCorruptions(t *testing.T) {
	cases := []struct {
		name string
		edit func(g *ir.Graph)
		want string
	}{
		// viewGraph's accesses: a 2 (0-1), b 2 (2-3), c 3 (4-6).
		{"accesses past the array", func(g *ir.Graph) { g.Bundles[0].Ops[1].Accesses.Off = 6 },
			`bundle "k": op "b": accesses [6, +2) outside the graph's 7`},
		// Sixty more accesses do not fit in the first chunk (of 64):
		// they start a second at 7; a span over 5-8 is in both.
		{"accesses across two chunks", func(g *ir.Graph) {
			g.AddAccesses(make([]ir.Access, 60), nil)
			g.Bundles[0].Ops[0].Accesses = ir.Span{Off: 5, Len: 4}
		}, `bundle "k": op "a": accesses [5, +4) outside the graph's 67 or across two of its chunks`},
		{"more reads than accesses", func(g *ir.Graph) { g.Bundles[0].Ops[0].NReads = 9 }, `bundle "k": op "a": 9 reads among 2 accesses`},
		{"negative access span", func(g *ir.Graph) { g.Bundles[0].Ops[0].Accesses.Len = -1 }, `bundle "k": op "a": accesses [0, +-1) outside the graph's 7`},
		{"loop list past the array", func(g *ir.Graph) { g.Bundles[0].Ops[0].Loops = int32(len(g.LoopLists) + 5) },
			`bundle "k": op "a": loop list at 7 outside the graph's 2 loop-list entries`},
		{"cores past the ints", func(g *ir.Graph) { g.Bundles[0].Ops[2].Cores = ir.IntsRef(len(g.Ints) + 3) }, `bundle "k": op "c": cores list at`},
		{"strides past the ints", func(g *ir.Graph) {
			g.Reads(&g.Bundles[0].Ops[1])[0].Addressing = g.AddAddressing(ir.Addressing{Strides: ir.IntsRef(len(g.Ints))})
		}, `bundle "k": op "b": strides list at`},
		// viewGraph's three addressings: the zero pair, b's read's step
		// and c's read's split.
		{"addressing past the array", func(g *ir.Graph) { g.Reads(&g.Bundles[0].Ops[1])[0].Addressing = int32(len(g.Addressings)) },
			`bundle "k": op "b": operand addressing 3 outside the graph's 3`},
		{"negative addressing", func(g *ir.Graph) { g.Reads(&g.Bundles[0].Ops[1])[0].Addressing = -1 },
			`bundle "k": op "b": operand addressing -1 outside the graph's 3`},
		// Where the operands are written (ir.Graph.AccessCols): viewGraph
		// has no columns; withPositions gives its 7 accesses columns,
		// but for accesses 2 and 5, kept aside.
		{"fewer operand columns than accesses", func(g *ir.Graph) { g.AccessCols = ir.ChunkedOf[uint16](11, 14) },
			`2 operand columns for the graph's 7 accesses`},
		{"more operand columns than accesses", func(g *ir.Graph) { withPositions(g); g.AccessCols.Append(4) },
			`8 operand columns for the graph's 7 accesses`},
		{"kept position without columns", func(g *ir.Graph) {
			g.AccessPositions = []ir.AccessPosition{{Access: 0, Pos: ir.Pos{Line: 3, Col: 1}}}
		}, `operand position 0 kept aside names access 0, outside the graph's 0 operand columns`},
		{"kept position past the columns", func(g *ir.Graph) {
			withPositions(g)
			g.AccessPositions = append(g.AccessPositions, ir.AccessPosition{Access: 7})
		}, `operand position 2 kept aside names access 7, outside the graph's 7 operand columns`},
		{"kept position of a negative access", func(g *ir.Graph) { withPositions(g); g.AccessPositions[0].Access = math.MinInt32 },
			`operand position 0 kept aside names access -2147483648, outside the graph's 7 operand columns`},
		{"kept positions out of order", func(g *ir.Graph) {
			withPositions(g)
			g.AccessPositions[0], g.AccessPositions[1] = g.AccessPositions[1], g.AccessPositions[0]
		}, `operand position 1 kept aside names access 2, not after access 5`},
		{"one access kept twice", func(g *ir.Graph) { withPositions(g); g.AccessPositions[1].Access = 2 },
			`operand position 1 kept aside names access 2, not after access 2`},
		{"kept position of an operand with a column", func(g *ir.Graph) { withPositions(g); g.AccessPositions[1].Access = 4 },
			`operand position 1 kept aside names access 4, whose column entry is 13, not 0`},
		{"split with a negative length", func(g *ir.Graph) {
			ref := g.AddInts([]int64{128, 128})
			g.Ints[ref-1] = -4
			a := &g.Reads(&g.Bundles[0].Ops[2])[0]
			a.Addressing = g.AddAddressing(ir.Addressing{Strides: g.AddressingOf(a).Strides, Split: ref})
		}, `bundle "k": op "c": split list at`},
		{"members past the array", func(g *ir.Graph) { g.Groups[1].Members.Off = int32(len(g.MemberLists)) }, `group 1: members [6, +1) outside the graph's 6 member entries`},
		{"loop body past the items", func(g *ir.Graph) { g.Bundles[0].Loops[0].Body.Len = 5 }, `bundle "k": loop "L": body [0, +5) outside the graph's 4 items`},
		{"bundle body past the items", func(g *ir.Graph) { g.Bundles[0].Body.Off = 2 }, `bundle "k": body [2, +3) outside the graph's 4 items`},
		// A CPU node locates its accesses as an op does.
		{"cpu accesses past the array", func(g *ir.Graph) {
			g.CPU = append(g.CPU, ir.CPUNode{Name: "h", Accesses: ir.Span{Off: 6, Len: 2}})
		}, `cpu "h": accesses [6, +2) outside the graph's 7`},
		{"cpu with more reads than accesses", func(g *ir.Graph) {
			g.CPU = append(g.CPU, ir.CPUNode{Name: "h", NReads: 3, Accesses: ir.Span{Off: 0, Len: 2}})
		}, `cpu "h": 3 reads among 2 accesses`},
		// viewGraph's names are one block of 4 KiB (the default first
		// block: no SizeFirst) holding the 10 bytes of x t hi w e y a
		// b c, in that order. A name in a block the store does not
		// have makes Graph.Str panic indexing the blocks (the verifier
		// reads a buffer's name only for a message, so without the
		// check this one would pass unseen);
		{"buffer name in a block past the store", func(g *ir.Graph) {
			g.Buffers.At(1).Name = ir.Name{Off: 5 * ir.NameBlock, Len: 1}
		}, `buffer 1: name [327680, +1) outside the graph's names`},
		// one that ends past its block's array makes it panic slicing
		// the block (an op's name is read to check its accesses);
		{"op name past its block's array", func(g *ir.Graph) { g.Bundles[0].Ops[1].Name = ir.Name{Off: 9, Len: 1 << 20} },
			`bundle "k": op at step 1: name [9, +1048576) outside the graph's names`},
		// one past the 10 stored bytes but inside the block's array
		// (c at 9, four bytes more) reads bytes never stored, without
		// a panic.
		{"buffer name past the stored bytes", func(g *ir.Graph) { g.Buffers.At(5).Name = ir.Name{Off: 9, Len: 5} },
			`buffer 5: name [9, +5) outside the graph's names`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := viewGraph()
			p := planViews(t, g) // planned before the corruption
			tc.edit(g)
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("verify.Plan panicked: %v", r)
					}
				}()
				err = verify.Plan(g, p, verify.Options{Budget: planner.DefaultBudget})
			}()
			if err == nil {
				t.Fatal("corruption not detected")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("violation %q not reported; got:\n%v", tc.want, err)
			}
		})
	}
}

// TestEmptyGroupStopsTheChecks: a group without members has no root (the
// first member) for the JSON check to name the group by: the verifier
// reports it and goes no further, even with the empty span at the end
// of the member array, where there is no first member to read.
func TestEmptyGroupStopsTheChecks(t *testing.T) {
	g := viewGraph()
	p := planViews(t, g)
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	g.Groups[1].Members = ir.Span{Off: int32(len(g.MemberLists))}
	var planErr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("verify.PlanAndJSON panicked: %v", r)
			}
		}()
		planErr, _ = verify.PlanAndJSON(g, p, verify.Options{Budget: planner.DefaultBudget}, bytes.NewReader(js.Bytes()))
	}()
	if planErr == nil || !strings.Contains(planErr.Error(), `group 1 ("") has no members`) {
		t.Fatalf("an empty group not reported; got:\n%v", planErr)
	}
}
