package frontend

import (
	"fmt"
	"os"
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
	for _, x := range g.Buffers {
		fmt.Fprintf(&b, "buffer %s %d group=%s\n", x.Name, x.Size, g.Groups[x.Group].Name)
	}
	for _, x := range g.Groups {
		var m []string
		for _, i := range x.Members {
			m = append(m, g.Buffers[i].Name)
		}
		fmt.Fprintf(&b, "group %s %d [%s]", x.Name, x.Size, strings.Join(m, " "))
		for _, f := range []struct {
			on   bool
			name string
		}{{x.Input, "input"}, {x.Output, "output"}, {x.LX, "lx"}} {
			if f.on {
				b.WriteString(" " + f.name)
			}
		}
		b.WriteString("\n")
	}
	acc := func(as []ir.Access) string {
		var s []string
		for _, a := range as {
			x := g.Buffers[a.Buffer].Name
			if a.Group != g.Buffers[a.Buffer].Group {
				x += "!badgroup"
			}
			if a.Strides != nil {
				x += fmt.Sprint(a.Strides)
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
		fmt.Fprintf(&b, "bundle %s %s body=%s\n", bu.Name, bu.Kind, items(bu.Body))
		for k, l := range bu.Loops {
			fmt.Fprintf(&b, "  loop%d %s count=%d parent=%d depth=%d steps=%d..%d body=%s\n",
				k, l.Name, l.Count, l.Parent, l.Depth, l.First, l.Last, items(l.Body))
		}
		for _, o := range bu.Ops {
			fmt.Fprintf(&b, "  op%d %s loops=%v reads=[%s] writes=[%s]\n", o.Step, o.Name, o.Loops, acc(o.Reads), acc(o.Writes))
		}
	}
	for _, c := range g.CPU {
		fmt.Fprintf(&b, "cpu %s reads=[%s] writes=[%s]\n", c.Name, acc(c.Reads), acc(c.Writes))
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
buffer v 4096 group=t0
group acc 256 [acc]
group t0 4096 [t0 v]
group t1 4096 [t1] lx
group w 8192 [w] input
group x 512 [x] input
group y 4096 [y] output
bundle mm_block fused body=[op0 loop0 op2]
  loop0 tiles count=4 parent=-1 depth=1 steps=1..1 body=[op1]
  op0 mm0 loops=[] reads=[x w] writes=[t0]
  op1 mul1 loops=[0] reads=[t0[256] acc] writes=[acc]
  op2 cvt2 loops=[] reads=[acc] writes=[y]
bundle k_loop loop body=[loop0]
  loop0 k_loop count=8 parent=-1 depth=1 steps=0..0 body=[op0]
  op0 k0 loops=[0] reads=[x v] writes=[t0]
bundle relu3 op body=[op0]
  op0 relu3 loops=[] reads=[y] writes=[t1]
cpu sin4 reads=[t0] writes=[v]
`)
	// Positions are those of the names, 1-based, in bytes.
	want := map[string]ir.Pos{
		"graph":  {File: "t.bir", Line: 2, Col: 7},
		"x":      {File: "t.bir", Line: 3, Col: 10},
		"bundle": {File: "t.bir", Line: 17, Col: 9},
		"loop":   {File: "t.bir", Line: 19, Col: 10},
		"op":     {File: "t.bir", Line: 20, Col: 10},
		"access": {File: "t.bir", Line: 20, Col: 21},
		"cpu":    {File: "t.bir", Line: 28, Col: 7},
	}
	got := map[string]ir.Pos{
		"graph":  g.Pos,
		"x":      g.Buffers[0].Pos,
		"bundle": g.Bundles[0].Pos,
		"loop":   g.Bundles[0].Loops[0].Pos,
		"op":     g.Bundles[0].Ops[1].Pos,
		"access": g.Bundles[0].Ops[1].Reads[0].Pos,
		"cpu":    g.CPU[0].Pos,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s position = %v, want %v", k, got[k], w)
		}
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
	if len(g.Buffers) != len(want) {
		t.Fatalf("got %d buffers", len(g.Buffers))
	}
	for _, b := range g.Buffers {
		if b.Size != want[b.Name] {
			t.Errorf("size of %s = %d, want %d", b.Name, b.Size, want[b.Name])
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
buffer m 256 group=b
buffer z 1024 group=b
buffer c 128 group=b
buffer b 4096 group=b
buffer q 0 group=q
buffer solo 128 group=solo
group b 4096 [m z c b] input lx
group q 0 [q]
group solo 128 [solo] output
`)
}

func TestRenames(t *testing.T) {
	checkDump(t, `graph g {
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
buffer v2 128 group=t
group o 128 [o] output
group p 128 [p]
group t 256 [t v2] input
bundle a op body=[op0]
  op0 a loops=[] reads=[t t t] writes=[o]
cpu c reads=[t] writes=[t]
`)
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
group x 4096 [x]
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
group bool 128 [bool]
group f16 128 [f16]
group i64 128 [i64] input
bundle u8 op body=[op0]
  op0 u8 loops=[] reads=[f16] writes=[bool]
`)
	// The BOM is not a column and CR LF ends a line.
	if p := g.Pos; p.Line != 2 || p.Col != 7 {
		t.Errorf("graph name at %v, want 2:7", p)
	}
	if p := g.Buffers[2].Pos; p.Line != 3 || p.Col != 9 {
		t.Errorf("i64 at %v, want 3:9", p)
	}
	bom := mustCheck(t, "\xef\xbb\xbfgraph g { }")
	if bom.Pos.Col != 7 {
		t.Errorf("graph name after BOM at column %d, want 7", bom.Pos.Col)
	}
}

func TestEmptyGraph(t *testing.T) {
	g := checkDump(t, "graph g {}", "graph g\n")
	if len(g.Buffers)+len(g.Groups)+len(g.Bundles)+len(g.CPU) != 0 {
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
	if len(ops) != 1 || len(ops[0].Loops) != 255 || ops[0].Reads[0].Strides[254] != 8 || g.Bundles[0].Loops[254].Depth != 255 {
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
	l.add(ir.Pos{File: "b.bir", Line: 1, Col: 1}, "z")
	l.add(ir.Pos{File: "a.bir", Line: 2, Col: 5}, "y")
	l.add(ir.Pos{File: "a.bir", Line: 2, Col: 3}, "x")
	l.add(ir.Pos{File: "a.bir", Line: 2, Col: 3}, "w")
	l.add(ir.Pos{File: "a.bir", Line: 1, Col: 9}, "v %d", 1)
	l.Sort()
	want := "a.bir:1:9: error: v 1\na.bir:2:3: error: w\na.bir:2:3: error: x\na.bir:2:5: error: y\nb.bir:1:1: error: z"
	if l.Err() == nil || l.Err().Error() != want {
		t.Errorf("got\n%v\nwant\n%s", l.Err(), want)
	}
}
