package report_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// golden reads an input of the end-to-end cases.
func golden(t testing.TB, name string) (string, []byte) {
	t.Helper()
	path := filepath.Join("..", "golden", "testdata", name, "input.bir")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return name + ".bir", src
}

func check(t testing.TB, file string, src []byte) *ir.Graph {
	t.Helper()
	f, errs := frontend.Parse(file, src)
	if len(errs) > 0 {
		t.Fatalf("parse: %v", errs)
	}
	g, errs := frontend.Check(f)
	if len(errs) > 0 {
		t.Fatalf("check: %v", errs)
	}
	return g
}

func plan(t testing.TB, name string, budget int64) *planner.Result {
	t.Helper()
	file, src := golden(t, name)
	g := check(t, file, src)
	return planner.Plan(g, planner.Options{Budget: budget})
}

func TestHumanSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {128, "128 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {4096, "4.0 KiB"},
		{1536, "1.5 KiB"}, {1048575, "1.0 MiB"}, {1 << 20, "1.0 MiB"}, {planner.DefaultBudget, "14.0 GiB"},
		{15 << 30, "15.0 GiB"}, {1 << 40, "1.0 TiB"},
	} {
		if got := report.HumanSize(c.n); got != c.want {
			t.Errorf("HumanSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestStatsSpecExample pins the whole report for the contract's example:
// column alignment, human sizes, the ratio and share columns, the dash for
// bundles without a pool and per-bundle fallbacks by reason.
//
// Groups: x (512) and w (8192) inputs, t0 (4096, with its view v) read by
// the CPU node sin4, t1 (4096) LX, acc (256) pooled in mm_block, y (4096)
// an output. Positions mm_block 0, k_loop 1, relu3 2, sin4 3: x, w, t0 and
// y are live everywhere (y from its first touch, 0; t0 from 0 to sin4),
// 16896 bytes, and mm_block's pool adds 256 at 0: peak 17152 there. acc
// alone at 0 without pooling, or the one pool resident everywhere, gives
// 17152 too, so neither saves anything.
// Bytes outside the pools: mm_block touches x, w (8704, graph-input), y
// (4096, graph-output) and t0 (4096, cpu-read): 16896; k_loop x (512) and
// t0 through v (4096): 4608; relu3 y (4096) and t1 (4096, lx): 8192.
// Every total is its column's sum: 3 graph-input touches (9216 bytes), 2
// graph-output (8192), 1 lx (4096), 2 cpu-read (8192), 29696 in all. No
// op has a kind, so every op names a file of its own: sdsc files = steps,
// none reusing.
func TestStatsSpecExample(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	var b bytes.Buffer
	if err := report.Stats(&b, p, true); err != nil {
		t.Fatal(err)
	}
	want := `graph decoder_block: 7 buffers in 6 storage groups, 3 bundles; allocator first-fit, budget 14.0 GiB (15032385536 bytes) per bundle
footprint: peak 16.8 KiB (17152 bytes) at bundle mm_block (position 0 of 4)
  no pooling 16.8 KiB (17152 bytes): pooling saves 0 B (0.0%); resident pools 16.8 KiB (17152 bytes): per-bundle pools save 0 B (0.0%)
bundle    steps  sdsc files  reusing  candidates  pooled  pool size  lower bound  ratio  budget  fallbacks
mm_block      3           3        0           1       1      256 B        256 B   1.00   <0.1%  graph-input 2, graph-output 1, cpu-read 1
k_loop        1           1        0           0       0          —          0 B      —       —  graph-input 1, cpu-read 1
relu3         1           1        0           0       0          —          0 B      —       —  graph-output 1, lx 1
----------------------------------------------------------------------------------------------------------
total         5           5        0           1       1      256 B        256 B   1.00   <0.1%  graph-input 3, graph-output 2, lx 1, cpu-read 2

bytes outside the pools  graph-input  graph-output    lx  cpu-read  outside pool  pooled groups  pool size
mm_block                        8704          4096     0      4096         16896            256        256
k_loop                           512             0     0      4096          4608              0          0
relu3                              0          4096  4096         0          8192              0          0
----------------------------------------------------------------------------------------------------------
total                           9216          8192  4096      8192         29696            256        256
`
	if got := b.String(); got != want {
		t.Errorf("stats:\n%s\nwant:\n%s", got, want)
	}
}

// statsTables splits a Stats report into its two tables' lines (header
// first, the rule left out).
func statsTables(t *testing.T, out string) (counts, bytes []string) {
	t.Helper()
	first, second, ok := strings.Cut(out, "\n\n")
	if !ok {
		t.Fatalf("one table only:\n%s", out)
	}
	for _, l := range strings.Split(first, "\n")[3:] {
		if !strings.HasPrefix(l, "---") {
			counts = append(counts, l)
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(second, "\n"), "\n") {
		if !strings.HasPrefix(l, "---") {
			bytes = append(bytes, l)
		}
	}
	return counts, bytes
}

// TestStatsReasons checks the numbers of a bundle with an over-budget
// fallback: pool below the lower bound, the ratio, the budget share; the
// row of the groups no bundle touches (the unused one); and that every
// total, counts and bytes, is the sum of its column.
func TestStatsReasons(t *testing.T) {
	p := plan(t, "reasons", 4096)
	var b bytes.Buffer
	report.Stats(&b, p, true)
	counts, byteLines := statsTables(t, b.String())
	row := func(lines []string, name string) []string {
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == name {
				return f
			}
		}
		t.Fatalf("no row %s in\n%s", name, b.String())
		return nil
	}
	b0 := strings.Join(row(counts, "b0"), " ")
	// No kinds: sdsc files = steps, 0 reusing.
	if want := "b0 3 3 0 2 1 2.0 KiB 6.0 KiB 0.33 50.0% graph-input 1, graph-output 1, lx 1, cpu-read 1, not-written 1, not-read 1, multi-writer 1, cross-bundle 1, zero-size 1, over-budget 1"; b0 != want {
		t.Errorf("b0 row:\n%s\nwant\n%s", b0, want)
	}
	b1 := strings.Join(row(counts, "b1"), " ")
	if want := "b1 2 2 0 0 0 — 0 B — — graph-output 1, not-written 1, multi-writer 1, cross-bundle 1"; b1 != want {
		t.Errorf("b1 row:\n%s\nwant\n%s", b1, want)
	}
	if nb := strings.Join(row(counts, "(no"), " "); nb != "(no bundle) unused 1" {
		t.Errorf("no-bundle row: %s", nb)
	}
	// b0's 1 and b1's 1 of graph-output, not-written, multi-writer and
	// cross-bundle make 2; the unused group only the no-bundle row has.
	total := strings.Join(row(counts, "total"), " ")
	if want := "total 5 5 0 2 1 2.0 KiB 6.0 KiB 0.33 50.0% graph-input 1, graph-output 2, lx 1, cpu-read 1, unused 1, not-written 2, not-read 1, multi-writer 2, cross-bundle 2, zero-size 1, over-budget 1"; total != want {
		t.Errorf("total row:\n%s\nwant\n%s", total, want)
	}
	// The bytes table: every numeric column of the total is the sum of
	// the rows, and every row's "outside pool" the sum of its reasons.
	header := strings.Split(byteLines[0], "  ")
	var cols []string
	for _, h := range header {
		if h = strings.TrimSpace(h); h != "" {
			cols = append(cols, h)
		}
	}
	reasons := len(cols) - 4 // less the name, outside pool, pooled groups, pool size
	sums := make([]int64, len(cols))
	for _, l := range byteLines[1 : len(byteLines)-1] {
		f := strings.Fields(strings.Replace(l, "(no bundle)", "(no_bundle)", 1))
		var own int64
		for c := 1; c < len(f); c++ {
			n, err := strconv.ParseInt(f[c], 10, 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			sums[c] += n
			if c <= reasons {
				own += n
			} else if c == reasons+1 && n != own {
				t.Errorf("row %q: outside pool %d, its reasons sum to %d", l, n, own)
			}
		}
	}
	tf := strings.Fields(byteLines[len(byteLines)-1])
	for c := 1; c < len(tf); c++ {
		if n, _ := strconv.ParseInt(tf[c], 10, 64); n != sums[c] {
			t.Errorf("bytes total of %s is %d, the rows sum to %d", cols[c], n, sums[c])
		}
	}
	// Every numeric column is right-aligned: the header's column ends
	// where every row's value ends.
	header0 := counts[0]
	for _, col := range []string{"steps", "sdsc files", "reusing", "candidates", "pooled", "pool size", "lower bound", "ratio", "budget"} {
		end := strings.Index(header0, col) + len(col)
		for _, l := range counts[1:] {
			if strings.HasPrefix(l, "(no bundle)") {
				continue
			}
			r := []rune(l)
			endR := len([]rune(header0[:end]))
			if endR > len(r) || r[endR-1] == ' ' || (endR < len(r) && r[endR] != ' ') {
				t.Errorf("column %q not right-aligned in %q (header %q)", col, l, header0)
			}
		}
	}
}

func explain(t *testing.T, p *planner.Result, name string) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.Explain(&b, p, name, true); err != nil {
		t.Fatalf("Explain(%s): %v", name, err)
	}
	return b.String()
}

func wantLines(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

// TestExplainPooledThroughRename explains a buffer by a rename source:
// the rename, the writers and readers with their positions, the live range
// with the loop back-edge that shapes it, and the pool placement.
func TestExplainPooledThroughRename(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	got := explain(t, p, "acc_next")
	wantLines(t, got,
		"acc_next is renamed to acc (rename at spec_example.bir:22:10)",
		"buffer acc: 256 B (256 bytes), declared at spec_example.bir:14:10\n",
		"  renamed from: acc_next (at spec_example.bir:22:10)\n",
		"written by:\n  bundle mm_block, step 1, op mul1 at spec_example.bir:27:45\n",
		"read by:\n  bundle mm_block, step 1, op mul1 at spec_example.bir:27:34\n  bundle mm_block, step 2, op cvt2 at spec_example.bir:29:19\n",
		"decision: pooled in bundle mm_block\n",
		"live range: steps 1..2 of bundle mm_block (first touch at step 1, last at step 2)\n",
		"  loop tiles (steps 1..1, at spec_example.bir:26:10): first read at step 1, at or before its first write at step 1",
		"pool: offset 0, bytes [0, 256) of bundle mm_block's 256 B pool",
		"shares bytes with: no other buffer\n",
	)
}

// TestExplainClaims: a group held by input/output/lx lines names each
// line, one per listed name, in source order. spec_example's lines 18-20
// are `  input  x, w`, `  output y`, `  lx     t1` (names from column 10,
// w at 13).
func TestExplainClaims(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	wantLines(t, explain(t, p, "x"),
		"storage group x: x; 512 B (512 bytes); graph input\n  x declared a graph input at spec_example.bir:18:10\nwritten by:")
	wantLines(t, explain(t, p, "w"), "; graph input\n  w declared a graph input at spec_example.bir:18:13\nwritten by:")
	wantLines(t, explain(t, p, "y"), "; graph output\n  y declared a graph output at spec_example.bir:19:10\nwritten by:")
	wantLines(t, explain(t, p, "t1"), "; LX\n  t1 claimed by LX at spec_example.bir:20:10\nwritten by:")
	// acc is claimed by nothing: no claim line.
	if got := explain(t, p, "acc"); strings.Contains(got, "declared a graph") || strings.Contains(got, "claimed by") {
		t.Errorf("acc has a claim line:\n%s", got)
	}

	// Claims on any member of the group count, each named as the
	// buffer it resolves to: r is renamed to v (line 5, column 10),
	// and v is a view of t. Line 6 `  output r` (r at 10), line 7
	// `  input t` (t at 9), line 8 `  lx v, t` (v at 6, t at 9).
	g := check(t, "c.bir", []byte(`graph c {
  buffer t : 256
  buffer v : 128
  alias v = t + 128
  rename r -> v
  output r
  input t
  lx v, t
  op a reads t writes v
}
`))
	p = planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	claims := "  v declared a graph output at c.bir:6:10\n" +
		"  t declared a graph input at c.bir:7:9\n" +
		"  v claimed by LX at c.bir:8:6\n" +
		"  t claimed by LX at c.bir:8:9\n" +
		"written by:"
	wantLines(t, explain(t, p, "t"), "storage group t: t, v@128; 256 B (256 bytes); graph input, graph output, LX\n"+claims)
	wantLines(t, explain(t, p, "r"),
		"r is renamed to v (rename at c.bir:5:10): every reference to r is v.\n",
		"  renamed from: r (at c.bir:5:10)\n", "; graph input, graph output, LX\n"+claims)
}

// TestExplainAlias: an alias is explained with its storage group and the
// group's decision, including the CPU reader that causes it.
func TestExplainAlias(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	got := explain(t, p, "v")
	wantLines(t, got,
		"  v is a view of t0's storage\n",
		"storage group t0: t0, v@0; 4.0 KiB (4096 bytes)\n",
		"  CPU node sin4 at spec_example.bir:35:18, as t0\n", // sin4 reads t0, writes v
		"decision: not pooled [cpu-read]: CPU node sin4 reads it at spec_example.bir:35:18\n",
		"live range: none (not a pool candidate of any bundle)\n",
	)
}

// TestExplainReasons checks the evidence line of every reason code of the
// reasons case.
func TestExplainReasons(t *testing.T) {
	p := plan(t, "reasons", 4096)
	for name, want := range map[string]string{
		"in_":     "decision: not pooled [graph-input]: its storage holds a graph input",
		"out_":    "decision: not pooled [graph-output]",
		"scratch": "decision: not pooled [lx]",
		"cpu_r":   "decision: not pooled [cpu-read]: CPU node c0 reads it at reasons.bir:41:16",
		"idle":    "decision: not pooled [unused]: no node reads or writes it",
		"ro":      "decision: not pooled [not-written]: no bundle writes it; bundle b0 only reads it (op s0 at reasons.bir:37:22)",
		"cpuw":    "decision: not pooled [not-written]: no bundle writes it (only CPU node c0, at reasons.bir:41:29)",
		"wo":      "decision: not pooled [not-read]: no node reads it; bundle b0 writes it (op s0 at reasons.bir:37:44)",
		"mw":      "decision: not pooled [multi-writer]: written by 2 bundles: b0 (op s0 at reasons.bir:37:48), b1 (op s3 at reasons.bir:43:33)",
		"xb":      "decision: not pooled [cross-bundle]: written by bundle b0 (op s1 at reasons.bir:38:40) but read by bundle b1 (op s3 at reasons.bir:43:17)",
		"empty":   "decision: not pooled [zero-size]: its size is 0 bytes",
		"big":     "decision: not pooled [over-budget]: in bundle b0 (steps 1..2) the allocator could not place 4.0 KiB under the budget of 4.0 KiB (pool size 2.0 KiB, lower bound 6.0 KiB)",
		"tmp":     "decision: pooled in bundle b0",
	} {
		wantLines(t, explain(t, p, name), want)
	}
	wantLines(t, explain(t, p, "xb"), "  bundles reading it besides its writer b0: b1 (op s3 at reasons.bir:43:17)\n")
	wantLines(t, explain(t, p, "big"), "pooled buffers live during steps 1..2: 1, 2.0 KiB (2048 bytes)\n  tmp: bytes [0, 2048), steps 0..1\n")
}

// TestExplainSharesBytes: q reuses p's bytes after p died (offset_dedup).
func TestExplainSharesBytes(t *testing.T) {
	p := plan(t, "offset_dedup", planner.DefaultBudget)
	wantLines(t, explain(t, p, "p"), "pool: offset 0, bytes [0, 512)", "shares bytes with (at other times):\n  q: bytes [0, 512), steps 2..3\n")
	wantLines(t, explain(t, p, "q"), "shares bytes with (at other times):\n  p: bytes [0, 512), steps 0..1\n")
	wantLines(t, explain(t, p, "r"), "pool: offset 512, bytes [512, 768)", "shares bytes with: no other buffer\n")
}

// TestExplainUnknown: an unknown name is an *UnknownNameError with
// suggestions from buffer names and rename sources, and nothing written.
func TestExplainUnknown(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	for _, c := range []struct {
		name, msg string
	}{
		{"acc_nxt", `no buffer named "acc_nxt" in graph decoder_block; did you mean "acc_next"?`},
		{"ac", `no buffer named "ac" in graph decoder_block; did you mean "acc"?`},
		{"T0", `no buffer named "T0" in graph decoder_block; did you mean "t0" or "t1"?`},
		{"sin4", `no buffer named "sin4" in graph decoder_block ("sin4" is a CPU node)`},
		{"zzzzzz", `no buffer named "zzzzzz" in graph decoder_block`},
		// Look-alikes (names are ASCII): Cyrillic a (U+0430) in "acc"
		// is distance 0 from acc once folded, so it is suggested and
		// the message says which character is not what it seems.
		{"\u0430cc", "no buffer named \"\u0430cc\" in graph decoder_block; did you mean \"acc\"? (in the name, \"\u0430\" is U+0430, a non-ASCII look-alike of \"a\")"},
		// Greek capital tau: folds to T0, then case-insensitive t0
		// (distance 0) before t1 (distance 1), as for "T0" above.
		{"\u03a40", "no buffer named \"\u03a40\" in graph decoder_block; did you mean \"t0\" or \"t1\"? (in the name, \"\u03a4\" is U+03A4, a non-ASCII look-alike of \"T\")"},
		// Fullwidth n and a typo (one letter dropped): acc_nxt, one
		// edit from the rename source acc_next.
		{"acc_\uff4ext", "no buffer named \"acc_\uff4ext\" in graph decoder_block; did you mean \"acc_next\"? (in the name, \"\uff4e\" is U+FF4E, a non-ASCII look-alike of \"n\")"},
		// Two look-alikes, the repeated one listed once: Cyrillic
		// a, c, c fold to acc.
		{"\u0430\u0441\u0441", "no buffer named \"\u0430\u0441\u0441\" in graph decoder_block; did you mean \"acc\"? (in the name, \"\u0430\" is U+0430, a non-ASCII look-alike of \"a\"; \"\u0441\" is U+0441, a non-ASCII look-alike of \"c\")"},
	} {
		var b bytes.Buffer
		err := report.Explain(&b, p, c.name, true)
		var unk *report.UnknownNameError
		if !errors.As(err, &unk) {
			t.Fatalf("%s: err = %v, want *UnknownNameError", c.name, err)
		}
		if err.Error() != c.msg {
			t.Errorf("%s:\n got %s\nwant %s", c.name, err, c.msg)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %q", c.name, b.String())
		}
	}
}

// TestExplainBundle: a bundle's name explains the bundle. In the
// contract's example the positions are mm_block 0, k_loop 1, relu3 2 and
// the CPU node sin4 3. At k_loop the standalone groups are the inputs w
// (8192) and x (512), t0 (4096, read by sin4 at 3, written at 0) and the
// output y (4096, first touched at 0): 16896 bytes, and k_loop has no
// pool. The peak is mm_block's 16896 + its 256-byte pool = 17152. Largest
// first, ties by name: w, t0, y, x. k_loop reads x (%arg_0) and v, a view
// of t0 (%arg_1); w and y it does not touch. Nothing is over budget and
// there is no pool to tighten; what is live is out of a pool's reach:
// graph-input 8704, graph-output 4096, cpu-read 4096.
func TestExplainBundle(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	got := explain(t, p, "k_loop")
	wantLines(t, got,
		"bundle k_loop: loop, 1 step, declared at spec_example.bir:31:8; position 1 of 4 in the graph\n",
		"HBM at its position: 16.5 KiB (16896 bytes) = 16.5 KiB (16896 bytes) standalone + 0 B (0 bytes) pool\n",
		"  the graph's peak is 16.8 KiB (17152 bytes) at mm_block (position 0)\n",
		"pool: none (no candidate)\n",
		"standalone groups live here: 4 groups, 16.5 KiB (16896 bytes)\n",
		"  w: 8.0 KiB (8192 bytes) [graph-input]: its storage holds a graph input, allocated outside any bundle; not touched by this bundle, live to the end as a graph input or output\n",
		"  t0: 4.0 KiB (4096 bytes) [cpu-read]: CPU node sin4 reads it at ",
		"; kernel argument %arg_1\n  y: 4.0 KiB (4096 bytes) [graph-output]",
		"  x: 512 B (512 bytes) [graph-input]: its storage holds a graph input, allocated outside any bundle; kernel argument %arg_0\n",
		"  a tighter placement: 0 B (0 bytes)",
		"  a larger budget: 0 groups, 0 B (0 bytes)",
		"  out of reach of a per-bundle pool (bytes live here by reason): graph-input 8704, graph-output 4096, cpu-read 4096\n",
	)
	// mm_block pools acc (256 bytes) and is the peak.
	wantLines(t, explain(t, p, "mm_block"),
		"HBM at its position: 16.8 KiB (17152 bytes) = 16.5 KiB (16896 bytes) standalone + 256 B (256 bytes) pool\n  this is the graph's peak\n",
		"pool: 256 B (256 bytes) for 1 pooled group of 256 B (256 bytes); lower bound 256 B (256 bytes)\n",
	)
	// A tight budget: in the reasons case b0's pool (2 KiB) is a third of
	// its lower bound and one 4 KiB candidate is over budget.
	wantLines(t, explain(t, plan(t, "reasons", 4096), "b0"),
		"  a larger budget: 1 group, 4.0 KiB (4096 bytes) (the over-budget candidates, standalone now)\n")
}

func TestSuggest(t *testing.T) {
	names := []string{"tmp", "tmp1", "tmp2", "residual", "x"}
	if got := fmt.Sprint(report.Suggest("tmp3", names, 3)); got != "[tmp tmp1 tmp2]" {
		t.Errorf("Suggest(tmp3) = %s", got)
	}
	if got := fmt.Sprint(report.Suggest("residaul", names, 3)); got != "[residual]" {
		t.Errorf("Suggest(residaul) = %s", got)
	}
	if got := report.Suggest("qqq", names, 3); len(got) != 0 {
		t.Errorf("Suggest(qqq) = %v", got)
	}
	// Cyrillic er (U+0440) for p: tmp is distance 0 once folded, tmp1
	// and tmp2 distance 1, as for "tmp3". Unfolded, "tm\u0440" is 4
	// bytes, two edits from tmp (limit 1): no suggestion.
	if got := fmt.Sprint(report.Suggest("tm\u0440", names, 3)); got != "[tmp tmp1 tmp2]" {
		t.Errorf("Suggest(tm\u0440) = %s", got)
	}
	// Fullwidth letters throughout: "ｒｅｓｉｄａｕｌ" folds to residaul.
	if got := fmt.Sprint(report.Suggest("\uff52\uff45\uff53\uff49\uff44\uff41\uff55\uff4c", names, 3)); got != "[residual]" {
		t.Errorf("Suggest(fullwidth residaul) = %s", got)
	}
	// A non-ASCII letter that is no look-alike (Cyrillic zhe) stays
	// two bytes: "\u0436" is no closer to x than before.
	if got := report.Suggest("\u0436\u0436", names, 3); len(got) != 0 {
		t.Errorf("Suggest(\u0436\u0436) = %v", got)
	}
}

// TestRemarks checks every mode on the reasons case: one line per selected
// buffer at its declaration, in declaration order, with the reason code.
func TestRemarks(t *testing.T) {
	p := plan(t, "reasons", 4096)
	g := p.Graph
	for _, mode := range []string{"missed", "passed", "all"} {
		m, err := report.ParseRemarkMode(mode)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		report.Remarks(&b, p, m)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		var want []ir.Buffer
		for _, buf := range g.Buffers.All() {
			pooled := p.Groups[buf.Group].Reason == planner.Pooled
			if mode == "all" || pooled == (mode == "passed") {
				want = append(want, *buf)
			}
		}
		if len(lines) != len(want) {
			t.Fatalf("%s: %d remarks, want %d:\n%s", mode, len(lines), len(want), b.String())
		}
		for k, buf := range want {
			prefix := fmt.Sprintf("%s: remark: %s ", p.Graph.Position(buf.Pos), g.Str(buf.Name))
			if !strings.HasPrefix(lines[k], prefix) {
				t.Errorf("%s: line %d = %q, want prefix %q", mode, k, lines[k], prefix)
			}
			r := p.Groups[buf.Group].Reason
			if r == planner.Pooled {
				if !strings.Contains(lines[k], " pooled in bundle b0 at offset ") {
					t.Errorf("%s: %q does not say where it is pooled", mode, lines[k])
				}
			} else if !strings.Contains(lines[k], " not pooled ["+r.String()+"]: ") {
				t.Errorf("%s: %q lacks reason %s", mode, lines[k], r)
			}
		}
	}
	if _, err := report.ParseRemarkMode("some"); err == nil {
		t.Error("ParseRemarkMode accepted an unknown mode")
	}
	want := "reasons.bir:30:10: remark: big not pooled [over-budget]: in bundle b0 (steps 1..2) the allocator could not place 4.0 KiB under the budget of 4.0 KiB (pool size 2.0 KiB, lower bound 6.0 KiB)\n"
	var b bytes.Buffer
	report.Remarks(&b, p, report.RemarksMissed)
	if !strings.Contains(b.String(), want) {
		t.Errorf("missed remarks lack\n%s\nin\n%s", want, b.String())
	}
}

// TestRemarksAlias: each alias gets its own remark naming its storage.
func TestRemarksAlias(t *testing.T) {
	p := plan(t, "alias_rename", planner.DefaultBudget)
	var b bytes.Buffer
	report.Remarks(&b, p, report.RemarksAll)
	wantLines(t, b.String(),
		": remark: view (a view of base's storage) pooled in bundle b0 at offset 0 (2.0 KiB), live at steps 0..1\n",
		": remark: shared (a view of far's storage) not pooled [cross-bundle]: written by bundle b0",
	)
}

// TestDumps pins both dumps of the contract's example.
func TestDumps(t *testing.T) {
	p := plan(t, "spec_example", planner.DefaultBudget)
	var b bytes.Buffer
	report.DumpCheck(&b, p.Graph)
	want := `graph decoder_block  # spec_example.bir:9:7
buffer x 512 group=x  # 10:10
buffer w 8192 group=w  # 11:10
buffer t0 4096 group=t0  # 12:10
buffer t1 4096 group=t1  # 13:10
buffer acc 256 group=acc  # 14:10
buffer y 4096 group=y  # 15:10
buffer v 4096 group=t0 alias=t0+0 view_offset=0  # 16:10
group acc size=256 members=acc flags=-
group t0 size=4096 members=t0,v@0 flags=-
group t1 size=4096 members=t1 flags=lx
group w size=8192 members=w flags=input
group x size=512 members=x flags=input
group y size=4096 members=y flags=output
bundle mm_block fused steps=3 loops=1  # 24:9
  loop 0 tiles count=4 parent=-1 depth=1 steps=1..1  # 26:10
  op 0 mm0 loops=- reads=x,w writes=t0  # 25:8
  op 1 mul1 loops=0 reads=t0[256],acc writes=acc  # 27:10
  op 2 cvt2 loops=- reads=acc writes=y  # 29:8
bundle k_loop loop steps=1 loops=1  # 31:8
  loop 0 k_loop count=8 parent=-1 depth=1 steps=0..0  # 31:8
  op 0 k0 loops=0 reads=x,v writes=t0  # 32:8
bundle relu3 op steps=1 loops=0  # 34:6
  op 0 relu3 loops=- reads=y writes=t1  # 34:6
cpu sin4 reads=t0 writes=v  # 35:7
`
	if b.String() != want {
		t.Errorf("DumpCheck:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	report.DumpPlan(&b, p)
	want = `plan decoder_block allocator=first-fit budget=15032385536 disabled=false
group acc size=256 reason=pooled bundle=mm_block range=1..2 offset=0 read=mm_block written=mm_block cpu-read=- cpu-written=-
group t0 size=4096 reason=cpu-read bundle=- range=- offset=- read=mm_block,k_loop written=mm_block,k_loop cpu-read=sin4 cpu-written=sin4
group t1 size=4096 reason=lx bundle=- range=- offset=- read=- written=relu3 cpu-read=- cpu-written=-
group w size=8192 reason=graph-input bundle=- range=- offset=- read=mm_block written=- cpu-read=- cpu-written=-
group x size=512 reason=graph-input bundle=- range=- offset=- read=mm_block,k_loop written=- cpu-read=- cpu-written=-
group y size=4096 reason=graph-output bundle=- range=- offset=- read=relu3 written=mm_block cpu-read=- cpu-written=-
bundle mm_block pool=256 lower=256 candidates=acc@0
bundle k_loop pool=- lower=0 candidates=-
bundle relu3 pool=- lower=0 candidates=-
`
	if b.String() != want {
		t.Errorf("DumpPlan:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestDumpPlanOverBudget: a candidate that fell back shows its reason in
// the candidate list and keeps its bundle and range.
func TestDumpPlanOverBudget(t *testing.T) {
	p := plan(t, "reasons", 4096)
	var b bytes.Buffer
	report.DumpPlan(&b, p)
	wantLines(t, b.String(),
		"group big size=4096 reason=over-budget bundle=b0 range=1..2 offset=- read=b0 written=b0 cpu-read=- cpu-written=-\n",
		"bundle b0 pool=2048 lower=6144 candidates=tmp@0,big@over-budget\n",
		"bundle b1 pool=- lower=0 candidates=-\n",
	)
}

// TestStatsDisabledAndEmptyBundle: with planning off every touched group
// is a `disabled` fallback and the header says so; a bundle without ops
// has a row of zeros and dashes.
func TestStatsDisabledAndEmptyBundle(t *testing.T) {
	g := check(t, "e.bir", []byte("graph e {\n buffer a : 128\n fused f {}\n fused g { op o writes a\n op p reads a }\n}\n"))
	p := planner.Plan(g, planner.Options{Disabled: true, Budget: planner.DefaultBudget})
	var b bytes.Buffer
	report.Stats(&b, p, true)
	wantLines(t, b.String(),
		"graph e: 1 buffer in 1 storage group, 2 bundles; pool planning off, budget 14.0 GiB (15032385536 bytes) per bundle\n",
		"\nf           0           0        0           0       0          —          0 B      —       —  -\n",
		"\ng           2           2        0           0       0          —          0 B      —       —  disabled 1\n",
		"\ntotal       2           2        0           0       0        0 B          0 B      —       —  disabled 1\n",
	)
	// The memory maps of both bundles are valid and empty.
	for bi := range g.Bundles {
		var svg bytes.Buffer
		report.SVG(&svg, p, bi)
		if doc := parseSVG(t, svg.Bytes()); len(doc.rects) != 0 {
			t.Errorf("bundle %d: %d rectangles with planning off", bi, len(doc.rects))
		}
		if !strings.Contains(svg.String(), ">no pooled buffers</text>") {
			t.Errorf("bundle %d: no 'no pooled buffers' note", bi)
		}
	}
}

// qkvSrc is a fused projection whose output is sliced into views: q at
// the start of qkv, k 1024 bytes in, kt 512 bytes into k (1536 into qkv).
// The group's smallest name is k, its root qkv; it holds 3072 bytes (the
// largest view offset + size: qkv's own 3072) and is pooled at offset 0
// for steps 0..2. attn runs on 2x2 cores: its read of q is split by
// [256, 512] (farthest core at 768 < 1024), its read of k is broadcast.
const qkvSrc = `graph attn {
  buffer x : 1024
  buffer qkv : 3072
  buffer k : 1024
  buffer q : 1024
  buffer kt : 512
  buffer y : 4096
  input x
  output y
  alias q = qkv
  alias k = qkv + 1024
  alias kt = k + 512
  fused blk {
    op proj reads x writes qkv
    op attn cores [2, 2] reads q split [256, 512], k writes y split [1024, 2048]
    op t reads kt writes y
  }
}
`

// TestRootNames: reports call a storage group by its root (qkv), not by
// its smallest name (k), and show each view with its offset.
func TestRootNames(t *testing.T) {
	g := check(t, "qkv.bir", []byte(qkvSrc))
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var b bytes.Buffer
	report.DumpPlan(&b, p)
	wantLines(t, b.String(),
		"group qkv size=3072 reason=pooled bundle=blk range=0..2 offset=0 read=blk written=blk cpu-read=- cpu-written=-\n",
		"bundle blk pool=3072 lower=3072 candidates=qkv@0\n")
	b.Reset()
	report.DumpCheck(&b, g)
	wantLines(t, b.String(),
		"buffer k 1024 group=qkv alias=qkv+1024 view_offset=1024  # 4:10\n",
		"buffer kt 512 group=qkv alias=k+512 view_offset=1536  # 6:10\n",
		"group qkv size=3072 members=qkv,k@1024,q@0,kt@1536 flags=-\n",
		"  op 1 attn cores=2,2 loops=- reads=qsplit[256,512],k writes=ysplit[1024,2048]  # 15:8\n")
	b.Reset()
	report.Remarks(&b, p, report.RemarksAll)
	wantLines(t, b.String(),
		"qkv.bir:3:10: remark: qkv pooled in bundle blk at offset 0 (3.0 KiB), live at steps 0..2\n",
		"qkv.bir:4:10: remark: k (a view 1024 bytes into qkv's storage) pooled in bundle blk at offset 0 (3.0 KiB), live at steps 0..2\n",
		"qkv.bir:5:10: remark: q (a view of qkv's storage) pooled",
	)
	got := explain(t, p, "kt")
	wantLines(t, got,
		"buffer kt: 512 B (512 bytes), declared at qkv.bir:6:10\n  kt is a view 1536 bytes into qkv's storage\n",
		"storage group qkv: qkv, k@1024, q@0, kt@1536; 3.0 KiB (3072 bytes)\n",
		"written by:\n  bundle blk, step 0, op proj at qkv.bir:14:28, as qkv\n",
		"  bundle blk, step 1, op attn at qkv.bir:15:32, as q, on 4 cores [2, 2], split [256, 512]\n",
		"  bundle blk, step 1, op attn at qkv.bir:15:52, as k, on 4 cores [2, 2], broadcast\n",
		"  bundle blk, step 2, op t at qkv.bir:16:16\n",
		"pool: offset 0, bytes [0, 3072) of bundle blk's 3.0 KiB pool (3072 bytes; lower bound 3072)\n  kt itself: bytes [1536, 2048) (view offset 1536)\n",
	)
	if strings.Contains(got, "storage group k") {
		t.Errorf("the group is called by its smallest name:\n%s", got)
	}
	b.Reset()
	report.SVG(&b, p, 0)
	if !strings.Contains(b.String(), `data-buffer="qkv"`) || strings.Contains(b.String(), `data-buffer="k"`) {
		t.Errorf("SVG does not name the rectangle qkv:\n%s", b.String())
	}
}

// TestStatsSaturated: lower bounds and totals past MaxInt64 are shown as
// limits, never as wrapped numbers. Each bundle writes three 2^62-byte
// buffers that are live together (3*2^62 bytes: the lower bound saturates
// at MaxInt64, "≥8.0 EiB"); with the largest budget one of them bumps to
// offset 0 (pool 2^62 = 4.0 EiB, half the budget) and two fall back. The
// bundle's ratio 2^62/MaxInt64 = 0.50 is only an upper limit, since the
// true lower bound is larger. The total pool 2*2^62 saturates too, so the
// total ratio is unknown (—).
func TestStatsSaturated(t *testing.T) {
	g := check(t, "big.bir", []byte(`graph big {
  buffer x : 128
  buffer y : 128
  buffer z : 128
  buffer a : 4611686018427387904
  buffer b : 4611686018427387904
  buffer c : 4611686018427387904
  buffer d : 4611686018427387904
  buffer e : 4611686018427387904
  buffer f : 4611686018427387904
  input x
  output y, z
  fused k1 { op w1 reads x writes a, b, c
             op r1 reads a, b, c writes y }
  fused k2 { op w2 reads x writes d, e, f
             op r2 reads d, e, f writes z }
}`))
	p := planner.Plan(g, planner.Options{Budget: math.MaxInt64})
	var b bytes.Buffer
	if err := report.Stats(&b, p, true); err != nil {
		t.Fatal(err)
	}
	counts, byteLines := statsTables(t, b.String())
	rows, brows := map[string]string{}, map[string]string{}
	for _, l := range counts {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = strings.Join(f, " ")
		}
	}
	for _, l := range byteLines {
		if f := strings.Fields(l); len(f) > 0 {
			brows[f[0]] = strings.Join(f, " ")
		}
	}
	// The total row sums the rows: x, read by both bundles, counts twice.
	// No kinds: every op a file of its own.
	for name, want := range map[string]string{
		"k1":    "k1 2 2 0 3 1 4.0 EiB ≥8.0 EiB ≤0.50 50.0% graph-input 1, graph-output 1, over-budget 2",
		"k2":    "k2 2 2 0 3 1 4.0 EiB ≥8.0 EiB ≤0.50 50.0% graph-input 1, graph-output 1, over-budget 2",
		"total": "total 4 4 0 6 2 ≥8.0 EiB ≥8.0 EiB — 50.0% graph-input 2, graph-output 2, over-budget 4",
	} {
		if rows[name] != want {
			t.Errorf("row %s:\n%s\nwant\n%s", name, rows[name], want)
		}
	}
	// Bytes: x and y (128 each), two 2^62-byte fallbacks (2^63: past
	// MaxInt64), the pooled 2^62 and a pool of 2^62.
	for name, want := range map[string]string{
		"k1":    "k1 128 128 ≥9223372036854775807 ≥9223372036854775807 4611686018427387904 4611686018427387904",
		"total": "total 256 256 ≥9223372036854775807 ≥9223372036854775807 ≥9223372036854775807 ≥9223372036854775807",
	} {
		if brows[name] != want {
			t.Errorf("bytes row %s:\n%s\nwant\n%s", name, brows[name], want)
		}
	}
	b.Reset()
	report.DumpPlan(&b, p)
	wantLines(t, b.String(), "bundle k1 pool=4611686018427387904 lower=≥9223372036854775807 candidates=a@0,b@over-budget,c@over-budget\n")
}
