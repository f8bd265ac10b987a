package frontend

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// mustCheck parses and checks src, failing the test on any diagnostic.
func mustCheck(t *testing.T, src string) *ir.Graph {
	t.Helper()
	f, errs := Parse("t.bir", []byte(src))
	if errs != nil {
		t.Fatalf("Parse: %v", errs)
	}
	g, errs := Check(f)
	if errs != nil {
		t.Fatalf("Check: %v", errs)
	}
	if g == nil {
		t.Fatal("Check returned no graph and no errors")
	}
	return g
}

// dump renders a graph in a compact, fully deterministic text form so that
// tests can state the whole expected model at a glance.
func dump(g *ir.Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "graph %s\n", g.Name)
	for _, x := range g.Buffers.All() {
		fmt.Fprintf(&b, "buffer %s %d group=%s", g.Str(x.Name), x.Size, g.GroupKey(&g.Groups[x.Group]))
		if v := g.ViewOf(x); v.Alias >= 0 {
			fmt.Fprintf(&b, " alias=%s+%d view=%d", g.Str(g.Buffers.At(int(v.Alias)).Name), v.AliasOffset, v.ViewOffset)
		}
		b.WriteString("\n")
	}
	for gi, x := range g.Groups {
		var m []string
		for _, i := range g.Members(&x) {
			m = append(m, g.Str(g.Buffers.At(int(i)).Name))
		}
		fmt.Fprintf(&b, "group %s %d root=%s [%s]", g.GroupKey(&x), x.Size, g.Str(g.Buffers.At(int(g.Root(&x))).Name), strings.Join(m, " "))
		for _, f := range []struct {
			on   bool
			name string
		}{{g.GroupClaims[gi].Has(ir.ClaimInput), "input"}, {g.GroupClaims[gi].Has(ir.ClaimOutput), "output"}, {g.GroupClaims[gi].Has(ir.ClaimLX), "lx"}} {
			if f.on {
				b.WriteString(" " + f.name)
			}
		}
		b.WriteString("\n")
	}
	acc := func(as []ir.Access) string {
		var s []string
		for _, a := range as {
			x := g.Str(g.Buffers.At(int(a.Buffer)).Name)
			if st := g.Strides(&a); st != nil {
				x += fmt.Sprint(st)
			}
			if sp := g.Split(&a); sp != nil {
				x += fmt.Sprint("split", sp)
			}
			s = append(s, x)
		}
		return strings.Join(s, " ")
	}
	items := func(its []ir.Item) string {
		var s []string
		for _, it := range its {
			if it.Op >= 0 {
				s = append(s, fmt.Sprintf("op%d", it.Op))
			} else {
				s = append(s, fmt.Sprintf("loop%d", it.Loop))
			}
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	for _, bu := range g.Bundles {
		fmt.Fprintf(&b, "bundle %s %s body=%s\n", bu.Name, bu.Kind, items(g.BundleBody(&bu)))
		for k, l := range bu.Loops {
			fmt.Fprintf(&b, "  loop%d %s count=%d parent=%d depth=%d steps=%d..%d body=%s\n",
				k, l.Name, l.Count, l.Parent, l.Depth, l.First, l.Last, items(g.LoopBody(&l)))
		}
		for step, o := range bu.Ops {
			cores := ""
			if g.Cores(&o) != nil {
				cores = fmt.Sprintf(" cores=%v", g.Cores(&o))
			}
			if o.Kind != 0 {
				cores = fmt.Sprintf(" kind=%d:%s", o.Kind, g.OpKind(&o)) + cores
			}
			fmt.Fprintf(&b, "  op%d %s%s loops=%v reads=[%s] writes=[%s]\n", step, g.Str(o.Name), cores, g.OpLoops(&o), acc(g.Reads(&o)), acc(g.Writes(&o)))
		}
	}
	for _, c := range g.CPU {
		fmt.Fprintf(&b, "cpu %s reads=[%s] writes=[%s]\n", c.Name, acc(g.CPUReads(&c)), acc(g.CPUWrites(&c)))
	}
	return b.String()
}

func checkDump(t *testing.T, src, want string) *ir.Graph {
	t.Helper()
	g := mustCheck(t, src)
	if got := dump(g); got != want {
		t.Errorf("graph differs\ngot:\n%s\nwant:\n%s", got, want)
	}
	return g
}

// TestSpecExample checks the contract's example (testdata/valid holds it
// verbatim). By hand: x is f16[4, 64] = 4 rows of roundup(64*2, 128) =
// 512 bytes; v is a view of t0 at 0 and t0_hi one at 2048, so t0's group
// holds t0, v and t0_hi (declaration order), is named and rooted t0 and
// needs max(0+4096, 0+4096, 2048+2048) = 4096 bytes; cvt2 runs on 4 cores
// and writes y split 1024 (farthest start 3*1024 = 3072 < 4096), mul1
// reads t0 step 256 in a loop of 4 (3*256 = 768 < 4096).
func TestSpecExample(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/spec_example.bir")
	if err != nil {
		t.Fatal(err)
	}
	g := checkDump(t, string(src), `graph decoder_block
buffer x 512 group=x
buffer w 8192 group=w
buffer t0 4096 group=t0
buffer t1 4096 group=t1
buffer acc 256 group=acc
buffer y 4096 group=y
buffer v 4096 group=t0 alias=t0+0 view=0
buffer t0_hi 2048 group=t0 alias=t0+2048 view=2048
group acc 256 root=acc [acc]
group t0 4096 root=t0 [t0 v t0_hi]
group t1 4096 root=t1 [t1] lx
group w 8192 root=w [w] input
group x 512 root=x [x] input
group y 4096 root=y [y] output
bundle mm_block fused body=[op0 loop0 op2]
  loop0 tiles count=4 parent=-1 depth=1 steps=1..1 body=[op1]
  op0 mm0 loops=[] reads=[x w] writes=[t0]
  op1 mul1 loops=[0] reads=[t0[256] acc] writes=[acc]
  op2 cvt2 cores=[4] loops=[] reads=[acc] writes=[ysplit[1024]]
bundle k_loop loop body=[loop0]
  loop0 k_loop count=8 parent=-1 depth=1 steps=0..0 body=[op0]
  op0 k0 loops=[0] reads=[x v] writes=[t0]
bundle relu3 op body=[op0]
  op0 relu3 loops=[] reads=[y] writes=[t1]
cpu sin4 reads=[t0] writes=[v]
`)
	// Positions are those of the names, 1-based, in bytes.
	want := map[string]ir.Position{
		"graph":  {File: "t.bir", Line: 2, Col: 7},
		"x":      {File: "t.bir", Line: 3, Col: 10},
		"bundle": {File: "t.bir", Line: 19, Col: 9},
		"loop":   {File: "t.bir", Line: 21, Col: 10},
		"op":     {File: "t.bir", Line: 22, Col: 10},
		"access": {File: "t.bir", Line: 22, Col: 21},
		"split":  {File: "t.bir", Line: 24, Col: 38},
		"cpu":    {File: "t.bir", Line: 30, Col: 7},
	}
	got := map[string]ir.Position{
		"graph":  g.Position(g.Pos),
		"x":      g.Position(g.Buffers.At(0).Pos),
		"bundle": g.Position(g.Bundles[0].Pos),
		"loop":   g.Position(g.Bundles[0].Loops[0].Pos),
		"op":     g.Position(g.Bundles[0].Ops[1].Pos),
		"access": g.Position(g.AccessPos(g.Bundles[0].Ops[1].Pos, g.Bundles[0].Ops[1].Accesses.Off)),
		"split":  g.Position(g.AccessPos(g.Bundles[0].Ops[2].Pos, g.Bundles[0].Ops[2].Accesses.Off+g.Bundles[0].Ops[2].NReads)),
		"cpu":    g.Position(g.CPU[0].Pos),
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s position = %v, want %v", k, got[k], w)
		}
	}
	// Line 17 is `  rename acc_next -> acc` (acc is buffer 4); lines
	// 12-14 are `  input  x, w`, `  output y`, `  lx     t1`, every first
	// name at column 10 and w at 13.
	wantRenames := []ir.Rename{{From: "acc_next", Pos: ir.Pos{Line: 17, Col: 10}, To: 4}}
	if !reflect.DeepEqual(g.Renames, wantRenames) {
		t.Errorf("renames = %+v, want %+v", g.Renames, wantRenames)
	}
	wantClaims := []ir.Claim{
		{Kind: ir.ClaimInput, Buffer: 0, Pos: ir.Pos{Line: 12, Col: 10}},
		{Kind: ir.ClaimInput, Buffer: 1, Pos: ir.Pos{Line: 12, Col: 13}},
		{Kind: ir.ClaimOutput, Buffer: 5, Pos: ir.Pos{Line: 13, Col: 10}},
		{Kind: ir.ClaimLX, Buffer: 3, Pos: ir.Pos{Line: 14, Col: 10}},
	}
	if !reflect.DeepEqual(g.Claims, wantClaims) {
		t.Errorf("claims = %+v, want %+v", g.Claims, wantClaims)
	}
}

func TestSizes(t *testing.T) {
	g := mustCheck(t, `graph g {
  buffer a : f16[4, 64]   // 4 rows of 128 bytes
  buffer b : f32[3, 33]   // 3 * roundup(132, 128) = 3 * 256
  buffer c : 100 bytes
  buffer d : 100
  buffer e : 0
  buffer f : 0 bytes
  buffer g : 128
  buffer h : 129
  buffer i : u8[1]
  buffer j : bool[2, 3]
  buffer k : i64[16]
  buffer l : bf16[2, 65]
  buffer m : f8[5, 0, 7]
  buffer n : i32[2, 3, 4]  // 2 * 3 * roundup(16, 128)
  buffer o : i16[0]
  buffer p : i8[128]
  buffer q : 9223372036854775680
}`)
	want := map[string]int64{
		"a": 512, "b": 768, "c": 128, "d": 128, "e": 0, "f": 0, "g": 128, "h": 256,
		"i": 128, "j": 256, "k": 128, "l": 512, "m": 0, "n": 768, "o": 0, "p": 128,
		"q": 9223372036854775680,
	}
	if g.Buffers.Len() != len(want) {
		t.Fatalf("got %d buffers", g.Buffers.Len())
	}
	for _, b := range g.Buffers.All() {
		if b.Size != want[g.Str(b.Name)] {
			t.Errorf("size of %s = %d, want %d", g.Str(b.Name), b.Size, want[g.Str(b.Name)])
		}
	}
}

// TestAliasGroups: v1 had `alias q = q` here, which "changed nothing";
// with directed views (contract v2) it is a cycle, tested in
// testdata/errors/alias_cycle.bir.
func TestAliasGroups(t *testing.T) {
	checkDump(t, `graph g {
  buffer m : 256
  buffer z : 1000
  buffer c : 128
  buffer b : 4096
  buffer q : 0
  buffer solo : 10
  alias z = c      // z, c, b and m are one storage, through a chain
  alias c = b
  alias m = b
  input c          // any member's flag is the group's
  output solo, solo
  lx m
}`, `graph g
buffer m 256 group=b alias=b+0 view=0
buffer z 1024 group=b alias=c+0 view=0
buffer c 128 group=b alias=b+0 view=0
buffer b 4096 group=b
buffer q 0 group=q
buffer solo 128 group=solo
group b 4096 root=b [b m z c] input lx
group q 0 root=q [q]
group solo 128 root=solo [solo] output
`)
}

// TestRenames: references resolve through rename chains, and the graph
// records each rename (FROM's position, the buffer its chain ends at) and
// each claim after renames, in source order, with the name's position.
func TestRenames(t *testing.T) {
	g := checkDump(t, `graph g {
  buffer t : 256
  buffer p : 128   // declared, but every reference to p means t
  buffer o : 128
  rename p -> q    // chains resolve, in any order
  rename q -> t
  rename w -> o
  input p
  output w
  alias v2 = q
  buffer v2 : 128
  op a reads p, q, t writes w
  cpu c reads q writes p
}`, `graph g
buffer t 256 group=t
buffer p 128 group=p
buffer o 128 group=o
buffer v2 128 group=t alias=t+0 view=0
group o 128 root=o [o] output
group p 128 root=p [p]
group t 256 root=t [t v2] input
bundle a op body=[op0]
  op0 a loops=[] reads=[t t t] writes=[o]
cpu c reads=[t] writes=[t]
`)
	// Buffers: t 0, p 1, o 2, v2 3. Lines 5-7 are `  rename X -> Y`
	// (X at column 10); line 8 `  input p` (p at 9), line 9 `  output w`
	// (w at 10). p and q end at t, w at o; p's own declaration never
	// takes part.
	wantRenames := []ir.Rename{
		{From: "p", Pos: ir.Pos{Line: 5, Col: 10}, To: 0},
		{From: "q", Pos: ir.Pos{Line: 6, Col: 10}, To: 0},
		{From: "w", Pos: ir.Pos{Line: 7, Col: 10}, To: 2},
	}
	if !reflect.DeepEqual(g.Renames, wantRenames) {
		t.Errorf("renames = %+v, want %+v", g.Renames, wantRenames)
	}
	wantClaims := []ir.Claim{
		{Kind: ir.ClaimInput, Buffer: 0, Pos: ir.Pos{Line: 8, Col: 9}},
		{Kind: ir.ClaimOutput, Buffer: 2, Pos: ir.Pos{Line: 9, Col: 10}},
	}
	if !reflect.DeepEqual(g.Claims, wantClaims) {
		t.Errorf("claims = %+v, want %+v", g.Claims, wantClaims)
	}
	if u := g.Unfused(); !reflect.DeepEqual(u.Renames, g.Renames) || !reflect.DeepEqual(u.Claims, g.Claims) {
		t.Errorf("Unfused dropped renames or claims: %+v %+v", u.Renames, u.Claims)
	}
}

func TestLoopsAndSteps(t *testing.T) {
	checkDump(t, `graph g {
  buffer x : 4096
  fused f {
    op a reads x
    loop outer count 2 {
      op b reads x step 256          // one integer: the innermost loop
      loop inner count 3 {
        op c reads x step 64, x step [512, 64] writes x step [0, 0]
        loop empty count 5 { }
      }
      op d writes x
    }
    fused nested { op e reads x }     // nested fused blocks only group
    loop last count 1 { }
  }
  loop bare count 8 {
    loop deep count 2 { op k reads x step [1, 2] }
  }
}`, `graph g
buffer x 4096 group=x
group x 4096 root=x [x]
bundle f fused body=[op0 loop0 op4 loop3]
  loop0 outer count=2 parent=-1 depth=1 steps=1..3 body=[op1 loop1 op3]
  loop1 inner count=3 parent=0 depth=2 steps=2..2 body=[op2 loop2]
  loop2 empty count=5 parent=1 depth=3 steps=3..2 body=[]
  loop3 last count=1 parent=-1 depth=1 steps=5..4 body=[]
  op0 a loops=[] reads=[x] writes=[]
  op1 b loops=[0] reads=[x[256]] writes=[]
  op2 c loops=[0 1] reads=[x[0 64] x[512 64]] writes=[x[0 0]]
  op3 d loops=[0] reads=[] writes=[x]
  op4 e loops=[] reads=[x] writes=[]
bundle bare loop body=[loop0]
  loop0 bare count=8 parent=-1 depth=1 steps=0..0 body=[loop1]
  loop1 deep count=2 parent=0 depth=2 steps=0..0 body=[op0]
  op0 k loops=[0 1] reads=[x[1 2]] writes=[]
`)
}

func TestSeparatorsAndComments(t *testing.T) {
	src := "\xef\xbb\xbf# hash comment\r\ngraph f16 { buffer f16 : f16[1]; buffer bool : 4; op u8 reads f16 writes bool // slash comment\r\n" +
		"\tbuffer i64 : i64[2]; input i64 ;; }   \r\n"
	g := checkDump(t, src, `graph f16
buffer f16 128 group=f16
buffer bool 128 group=bool
buffer i64 128 group=i64
group bool 128 root=bool [bool]
group f16 128 root=f16 [f16]
group i64 128 root=i64 [i64] input
bundle u8 op body=[op0]
  op0 u8 loops=[] reads=[f16] writes=[bool]
`)
	// The BOM is not a column and CR LF ends a line.
	if p := g.Pos; p.Line != 2 || p.Col != 7 {
		t.Errorf("graph name at %v, want 2:7", p)
	}
	if p := g.Buffers.At(2).Pos; p.Line != 3 || p.Col != 9 {
		t.Errorf("i64 at %v, want 3:9", p)
	}
	bom := mustCheck(t, "\xef\xbb\xbfgraph g { }")
	if bom.Pos.Col != 7 {
		t.Errorf("graph name after BOM at column %d, want 7", bom.Pos.Col)
	}
}

func TestEmptyGraph(t *testing.T) {
	g := checkDump(t, "graph g {}", "graph g\n")
	if g.Buffers.Len()+len(g.Groups)+len(g.Bundles)+len(g.CPU) != 0 {
		t.Errorf("empty graph is not empty: %+v", g)
	}
}

// TestNestingLimit pins the nesting guard at exactly 255 levels.
func TestNestingLimit(t *testing.T) {
	nest := func(n int) string {
		var b strings.Builder
		b.WriteString("graph g { buffer x : 4\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "loop l%d count 1 { ", i)
		}
		b.WriteString("op a reads x step 8 " + strings.Repeat("} ", n) + "}")
		return b.String()
	}
	g := mustCheck(t, nest(255))
	ops := g.Bundles[0].Ops
	if len(ops) != 1 || len(g.OpLoops(&ops[0])) != 255 || g.Strides(&g.Reads(&ops[0])[0])[254] != 8 || g.Bundles[0].Loops[254].Depth != 255 {
		t.Errorf("255 levels not built as expected")
	}
	_, errs := Parse("t.bir", []byte(nest(256)))
	if len(errs) != 1 || errs[0].Msg != "nesting deeper than 255 levels" {
		t.Errorf("256 levels: got %v", errs)
	}
}

func TestErrorFormat(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list is an error")
	}
	l.add(ir.Position{File: "b.bir", Line: 1, Col: 1}, "z")
	l.add(ir.Position{File: "a.bir", Line: 2, Col: 5}, "y")
	l.add(ir.Position{File: "a.bir", Line: 2, Col: 3}, "x")
	l.add(ir.Position{File: "a.bir", Line: 2, Col: 3}, "w")
	l.add(ir.Position{File: "a.bir", Line: 1, Col: 9}, "v %d", 1)
	l.Sort()
	want := "a.bir:1:9: error: v 1\na.bir:2:3: error: w\na.bir:2:3: error: x\na.bir:2:5: error: y\nb.bir:1:1: error: z"
	if l.Err() == nil || l.Err().Error() != want {
		t.Errorf("got\n%v\nwant\n%s", l.Err(), want)
	}
}

// TestViews checks the view fields on testdata/valid/views.bir, reasoned
// by hand from its alias lines: whole = base + 0, hi = base + 4096,
// q1 = hi + 1024 (view 4096+1024 = 5120), q1b = q1 + 512 (5632),
// tail = hi + 2048 (6144), late = hi_next + 0 = hi + 0 (4096). All of
// them are one group rooted at base (the only name that is no alias's left
// side), named base (the smallest name), of size max over the members of
// view + size: base 0+8192, whole 0+8192, hi 4096+4096, q1 5120+1024,
// q1b 5632+512, tail 6144+4096 = 10240, late 4096+256: 10240. solo is
// f16[2, 64] = 2 rows of 128 bytes, a group of its own.
func TestViews(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/views.bir")
	if err != nil {
		t.Fatal(err)
	}
	g := mustCheck(t, string(src))
	type view struct {
		alias    string
		off, vof int64
	}
	want := map[string]view{
		"base":  {"", 0, 0},
		"whole": {"base", 0, 0},
		"hi":    {"base", 4096, 4096},
		"q1":    {"hi", 1024, 5120},
		"q1b":   {"q1", 512, 5632},
		"tail":  {"hi", 2048, 6144},
		"late":  {"hi", 0, 4096},
		"solo":  {"", 0, 0},
	}
	if g.Buffers.Len() != len(want) {
		t.Fatalf("%d buffers", g.Buffers.Len())
	}
	for _, b := range g.Buffers.All() {
		w := want[g.Str(b.Name)]
		alias, v := "", g.ViewOf(b)
		if v.Alias >= 0 {
			alias = g.Str(g.Buffers.At(int(v.Alias)).Name)
		}
		if alias != w.alias || v.AliasOffset != w.off || v.ViewOffset != w.vof {
			t.Errorf("%s: alias %q + %d, view offset %d; want %q + %d, %d", g.Str(b.Name), alias, v.AliasOffset, v.ViewOffset, w.alias, w.off, w.vof)
		}
	}
	if len(g.Groups) != 2 {
		t.Fatalf("%d groups", len(g.Groups))
	}
	for i, w := range []struct {
		name, root string
		size       int64
		members    int
	}{{"base", "base", 10240, 7}, {"solo", "solo", 256, 1}} {
		gr := &g.Groups[i]
		root := g.Str(g.Buffers.At(int(g.Root(gr))).Name)
		if g.GroupKey(gr) != w.name || root != w.root || gr.Size != w.size || len(g.Members(gr)) != w.members {
			t.Errorf("group %d: %s root %s size %d, %d members; want %+v", i, g.GroupKey(gr), root, gr.Size, len(g.Members(gr)), w)
		}
	}
}

// TestCores checks the multi-core fields on testdata/valid/cores.bir.
// Core c's offset is sum_d i_d*split[d] with i_d = (c / (s0*...*s(d-1)))
// mod s_d, the first dimension fastest:
//   - one, cores [4], split [4096]: core c at c*4096: 0 4096 8192 12288;
//     w is broadcast (no split): 0 for every core.
//   - two, cores [2, 4], split [8192, 2048]: i0 = c mod 2, i1 = c/2:
//     c=0 0, 1 8192, 2 2048, 3 8192+2048 = 10240, 4 4096, 5 12288,
//     6 6144, 7 8192+6144 = 14336.
//   - rw, cores [2, 2]: reads z split [1024, 0]: 0 1024 0 1024; writes z
//     split [0, 512]: 0 0 512 512; zv broadcast.
//   - single, cores [1], split [9999]: the one core is at 0.
func TestCores(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/cores.bir")
	if err != nil {
		t.Fatal(err)
	}
	g := mustCheck(t, string(src))
	type acc struct {
		read  bool
		index int
		split []int64
		offs  []int64
	}
	cases := []struct {
		bundle, op string
		cores      []int64
		accs       []acc
	}{
		{"mc", "one", []int64{4}, []acc{
			{true, 0, []int64{4096}, []int64{0, 4096, 8192, 12288}},
			{true, 1, nil, []int64{0, 0, 0, 0}},
			{false, 0, []int64{4096}, []int64{0, 4096, 8192, 12288}},
		}},
		{"mc", "two", []int64{2, 4}, []acc{
			{true, 0, []int64{8192, 2048}, []int64{0, 8192, 2048, 10240, 4096, 12288, 6144, 14336}},
			{false, 0, nil, []int64{0, 0, 0, 0, 0, 0, 0, 0}},
		}},
		{"mc", "rw", []int64{2, 2}, []acc{
			{true, 0, []int64{1024, 0}, []int64{0, 1024, 0, 1024}},
			{true, 1, nil, []int64{0, 0, 0, 0}},
			{false, 0, []int64{0, 512}, []int64{0, 0, 512, 512}},
		}},
		{"mc", "twice", nil, []acc{
			{true, 0, nil, []int64{0}},
			{true, 1, nil, []int64{0}},
		}},
		{"single", "single", []int64{1}, []acc{
			{true, 0, []int64{9999}, []int64{0}},
		}},
	}
	for _, c := range cases {
		var op *ir.Op
		for i := range g.Bundles {
			for j := range g.Bundles[i].Ops {
				if g.Bundles[i].Name == c.bundle && g.Str(g.Bundles[i].Ops[j].Name) == c.op {
					op = &g.Bundles[i].Ops[j]
				}
			}
		}
		if op == nil {
			t.Fatalf("no op %s in %s", c.op, c.bundle)
		}
		if fmt.Sprint(g.Cores(op)) != fmt.Sprint(c.cores) || (g.Cores(op) == nil) != (c.cores == nil) {
			t.Errorf("%s: cores %v, want %v", c.op, g.Cores(op), c.cores)
		}
		if n := g.NumCores(op); n != len(c.accs[0].offs) {
			t.Errorf("%s: %d cores, want %d", c.op, n, len(c.accs[0].offs))
		}
		for _, a := range c.accs {
			list := g.Writes(op)
			if a.read {
				list = g.Reads(op)
			}
			x := list[a.index]
			if sp := g.Split(&x); fmt.Sprint(sp) != fmt.Sprint(a.split) || (sp == nil) != (a.split == nil) {
				t.Errorf("%s access %d: split %v, want %v", c.op, a.index, sp, a.split)
			}
			for core, want := range a.offs {
				if got := g.CoreOffset(&x, g.Cores(op), core); got != want {
					t.Errorf("%s access %d core %d: offset %d, want %d", c.op, a.index, core, got, want)
				}
			}
		}
	}
	// twice reads x with two different steps: both kept, in order.
	tw := g.Bundles[0].Ops[3]
	if g.Str(tw.Name) != "twice" || fmt.Sprint(g.Strides(&g.Reads(&tw)[0]), g.Strides(&g.Reads(&tw)[1])) != "[4096] [8192]" || g.Reads(&tw)[0].Buffer != g.Reads(&tw)[1].Buffer {
		t.Errorf("twice: %+v", g.Reads(&tw))
	}
	// rw reads z and zv and writes z: one storage, two names.
	rw := g.Bundles[0].Ops[2]
	if g.GroupOf(&g.Reads(&rw)[0]) != g.GroupOf(&g.Reads(&rw)[1]) || g.GroupOf(&g.Reads(&rw)[0]) != g.GroupOf(&g.Writes(&rw)[0]) || g.Reads(&rw)[0].Buffer == g.Reads(&rw)[1].Buffer {
		t.Errorf("rw: accesses not one storage under two names: %+v %+v", g.Reads(&rw), g.Writes(&rw))
	}
}

// TestKinds checks Op.Kind and Graph.Kinds on testdata/valid/kinds.bir:
// the kinds are numbered from 1 in order of first appearance (relu in
// the first op, add in the third, the dtype name f16 in the loop), an op
// without a kind has 0, and Kinds[0] is "". Both paths agree (the
// differential test compares whole graphs); ParseCheck is checked here.
func TestKinds(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/kinds.bir")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*ir.Graph{mustCheck(t, string(src)), mustParseCheck(t, src)} {
		want := []string{"", "aten.relu.default.f16_8x64x56x56", "aten.add.Tensor", "f16", "_x.1"}
		if !reflect.DeepEqual(g.Kinds, want) {
			t.Errorf("Kinds = %q, want %q", g.Kinds, want)
		}
		got := map[string]int32{}
		for _, b := range g.Bundles {
			for i := range b.Ops {
				got[g.Str(b.Ops[i].Name)] = b.Ops[i].Kind
			}
		}
		wantOps := map[string]int32{"relu0": 1, "relu1": 1, "add2": 2, "plain3": 0, "t4": 3, "relu5": 1, "odd6": 4, "alone": 0}
		if !reflect.DeepEqual(got, wantOps) {
			t.Errorf("op kinds = %v, want %v", got, wantOps)
		}
		// Fusion off: every op its own bundle, with its kind.
		u := g.Unfused()
		for _, b := range u.Bundles {
			want := ""
			if k := wantOps[u.Str(b.Ops[0].Name)]; k > 0 {
				want = g.Kinds[k]
			}
			if got := u.OpKind(&b.Ops[0]); got != want {
				t.Errorf("unfused %s: kind %q, want %q", b.Name, got, want)
			}
		}
	}
	// Without any kind, Kinds stays nil.
	if g := mustCheck(t, "graph g { buffer x : 4 op a reads x }"); g.Kinds != nil || g.Bundles[0].Ops[0].Kind != 0 {
		t.Errorf("no kinds: Kinds %q, Kind %d", g.Kinds, g.Bundles[0].Ops[0].Kind)
	}
}

// TestKindsMany interns more kinds than the builder's cache of recent
// kinds holds, in an order that revisits them, through both paths: two
// ops have the same Kind exactly when they have the same kind.
func TestKindsMany(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph g {\n  buffer x : 4096\n  fused f {\n")
	var kinds []string
	for i := 0; i < 3000; i++ {
		// 300 kinds, many of one length and last byte.
		k := fmt.Sprintf("aten.op%d.f16_%dx8", (i*7919)%300, (i*31)%5)
		kinds = append(kinds, k)
		fmt.Fprintf(&b, "    op o%d kind %s reads x\n", i, k)
	}
	b.WriteString("  }\n}\n")
	src := []byte(b.String())
	for _, g := range []*ir.Graph{mustCheck(t, string(src)), mustParseCheck(t, src)} {
		ops := g.Bundles[0].Ops
		first := map[string]int32{}
		for i, k := range kinds {
			if g.OpKind(&ops[i]) != k {
				t.Fatalf("op %d: kind %q, want %q", i, g.OpKind(&ops[i]), k)
			}
			if f, ok := first[k]; ok && f != ops[i].Kind {
				t.Fatalf("op %d: kind %q is %d, and %d before", i, k, ops[i].Kind, f)
			}
			first[k] = ops[i].Kind
		}
		if len(g.Kinds) != len(first)+1 {
			t.Errorf("%d kinds for %d distinct", len(g.Kinds)-1, len(first))
		}
	}
}

// TestOperandsOnOtherLines: an operand is a column on its node's line
// (Graph.AccessCols, as the column + 1) unless it is written on another
// line, whose position is kept aside (Graph.AccessPositions, with its
// access's index, in source order); both paths build the same. Line 5
// is `  op o reads a,`: o at column 6, a at 14; b is on line 6 at column
// 3, c on line 7 at 10; line 8 is `  cpu k reads c writes`: k at 7, c
// at 15, and d on line 9 at column 1.
func TestOperandsOnOtherLines(t *testing.T) {
	src := "graph g {\n  buffer a : 128; buffer b : 128\n  buffer c : 128; buffer d : 128\n  input a, b\n  op o reads a,\n  b writes\n         c\n  cpu k reads c writes\nd\n}\n"
	for _, g := range []*ir.Graph{mustCheck(t, src), mustParseCheck(t, []byte(src))} {
		op, cpu := &g.Bundles[0].Ops[0], &g.CPU[0]
		var got []string
		for i := range int32(g.Accesses.Len()) {
			at := op.Pos
			if i >= 3 {
				at = cpu.Pos
			}
			got = append(got, g.Position(g.AccessPos(at, i)).String())
		}
		want := "[t.bir:5:14 t.bir:6:3 t.bir:7:10 t.bir:8:15 t.bir:9:1]"
		if fmt.Sprint(got) != want {
			t.Errorf("operands at %v, want %s", got, want)
		}
		if got := fmt.Sprint(g.AccessCols.Slice(0, int32(g.AccessCols.Len()))); got != "[15 0 0 16 0]" {
			t.Errorf("columns %s, want [15 0 0 16 0]", got)
		}
		if fmt.Sprint(g.AccessPositions) != "[{1 {6 3}} {2 {7 10}} {4 {9 1}}]" {
			t.Errorf("positions kept aside %v, want [{1 {6 3}} {2 {7 10}} {4 {9 1}}]", g.AccessPositions)
		}
	}
}

// TestOperandDiagnosticsOnOtherLines: the diagnostics of operands
// written on another line than their node's name are at the operands,
// a misplaced cpu node's too, on both paths. Line 5 is `     nope
// writes` (nope at column 6, undeclared); line 6 `   t split` (t at 4:
// split 256 on 2 cores reaches byte 256 of t's 256); line 8 `  fused f {
// cpu k reads` (cpu at 13); line 9 `    gone }` (gone at 5, undeclared).
func TestOperandDiagnosticsOnOtherLines(t *testing.T) {
	src := "graph g {\n  buffer a : 128; buffer t : 256\n  input a\n  op o cores 2 reads a,\n     nope writes\n   t split\n  256\n  fused f { cpu k reads\n    gone }\n}\n"
	want := `t.bir:5:6: error: undeclared buffer "nope"
t.bir:6:4: error: access to "t" reaches byte offset 256 but "t" is 256 bytes
t.bir:8:13: error: cpu node "k" must be at the top level
t.bir:9:5: error: undeclared buffer "gone"`
	for _, got := range checkErrorsBothWays(t, src) {
		if got.Err() == nil || got.Err().Error() != want {
			t.Errorf("got\n%v\nwant\n%s", got.Err(), want)
		}
	}
}

// TestOperandsPastLongColumns: an operand's column is kept in 2 bytes
// (ir.Graph.AccessCols) up to ir.MaxAccessCol, 65,534; one further
// along its node's line has its position kept aside, as one on another
// line does, and its diagnostics and position are the same either way.
// Each op's line is `  op N reads ` (13 bytes: the first
// operand at column 14) and then k operands `a, ` (3 bytes each), so
// that the name after them is at column 14+3k, and its write 9 bytes
// further (` writes `): on line 4, u (k = 21,840) at 65,534, the last
// column kept, and its write at 65,543; on line 5, after one more
// space, v at 65,535, the first kept aside, and its write at 65,544; on
// line 6, w (k = 30,000) at 90,014, whose write z is on line 7 at
// column 12 (`    writes z`). A misplaced cpu node's operand y, after
// `  fused f { cpu k reads ` (24 bytes) and 22,000 operands, is at
// column 66,025. Kept aside are o's write, v and p's write, and of op
// q's the 8,159 operands a from k = 21,841 (column 65,537) on, w and z:
// 8,164. The same on the AST path (Parse, then Check), ParseCheck's and
// the command's (parseCheckReader).
func TestOperandsPastLongColumns(t *testing.T) {
	line := func(op, pad string, k int, name, writes string) string {
		return "  op " + op + " reads " + strings.Repeat("a, ", k) + pad + name + writes + "\n"
	}
	head := "graph g {\n  buffer a : 128\n  input a\n"
	valid := head + line("o", "", 21840, "a", " writes a") + line("p", " ", 21840, "a", " writes a") +
		line("q", "", 30000, "a", "\n    writes a") + "}\n"
	// The command's path reads the source through a window, here of 64
	// bytes: the long lines cross many.
	reader := func(src string) (*ir.Graph, ErrorList) {
		g, errs, err := parseCheckReader("t.bir", strings.NewReader(src), len(src), window{size: 64, limit: maxSource}, defaultPipe)
		if err != nil {
			t.Fatal(err)
		}
		return g, errs
	}
	viaReader, errs := reader(valid)
	if errs != nil {
		t.Fatalf("parseCheckReader: %v", errs)
	}
	for _, g := range []*ir.Graph{mustCheck(t, valid), mustParseCheck(t, []byte(valid)), viaReader} {
		var got []string
		for _, b := range g.Bundles {
			op := &b.Ops[0]
			last := op.Accesses.Off + op.NReads - 1
			for _, i := range []int32{last, last + 1} {
				got = append(got, g.Position(g.AccessPos(op.Pos, i)).String())
			}
		}
		want := "[t.bir:4:65534 t.bir:4:65543 t.bir:5:65535 t.bir:5:65544 t.bir:6:90014 t.bir:7:12]"
		if fmt.Sprint(got) != want {
			t.Errorf("operands at %v, want %s", got, want)
		}
		if len(g.AccessPositions) != 8164 {
			t.Errorf("%d positions kept aside, want 8164", len(g.AccessPositions))
		}
		checkOperandPositions(t, g)
	}
	src := head + line("o", "", 21840, "u", " writes a") + line("p", " ", 21840, "v", " writes a") +
		line("q", "", 30000, "w", "\n    writes z") +
		"  fused f { cpu k reads " + strings.Repeat("a, ", 22000) + "y }\n}\n"
	want := `t.bir:4:65534: error: undeclared buffer "u"
t.bir:5:65535: error: undeclared buffer "v"
t.bir:6:90014: error: undeclared buffer "w"
t.bir:7:12: error: undeclared buffer "z"
t.bir:8:13: error: cpu node "k" must be at the top level
t.bir:8:66025: error: undeclared buffer "y"`
	_, readerErrs := reader(src)
	for _, got := range append(checkErrorsBothWays(t, src), readerErrs) {
		if got.Err() == nil || got.Err().Error() != want {
			t.Errorf("got\n%v\nwant\n%s", got.Err(), want)
		}
	}
}

// checkErrorsBothWays returns the diagnostics of src (which parses) on
// the AST path (Parse, then Check) and ParseCheck's.
func checkErrorsBothWays(t *testing.T, src string) []ErrorList {
	t.Helper()
	f, errs := Parse("t.bir", []byte(src))
	if errs != nil {
		t.Fatalf("Parse: %v", errs)
	}
	_, checkErrs := Check(f)
	_, parseCheckErrs := ParseCheck("t.bir", []byte(src))
	return []ErrorList{checkErrs, parseCheckErrs}
}

// mustParseCheck is mustCheck through ParseCheck.
func mustParseCheck(t *testing.T, src []byte) *ir.Graph {
	t.Helper()
	g, errs := ParseCheck("t.bir", src)
	if errs != nil {
		t.Fatalf("ParseCheck: %v", errs)
	}
	return g
}
