package dsa

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
)

func TestReadErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "x.csv: error: empty input"},
		{"id,lower,upper\n", "x.csv:1: error: header has no size column"},
		{"id,lower,size\n", "x.csv:1: error: header needs lower,upper"},
		{"id,lower,upper,size,gaps\n", `x.csv:1: error: column "gaps" is not supported`},
		{"id,lower,upper,size,colour\n", `x.csv:1: error: unknown column "colour"`},
		{"id,lower,upper,size,size\n", `x.csv:1: error: column "size" appears twice`},
		{"id,lower,upper,size\n0,0,1\n", "x.csv:2: error: 3 fields, header has 4"},
		{"id,lower,upper,size\n0,0,1,x\n", `x.csv:2: error: size "x" is not an integer`},
		{"id,lower,upper,size\n0,1.5,2,1\n", `x.csv:2: error: lower "1.5" is not an integer`},
		{"id,lower,upper,size\n0,3,3,1\n", "x.csv:2: error: lower 3 is not below upper 3"},
		{"id,lower,upper,size\n0,0,3,0\n", "x.csv:2: error: size 0 is not positive"},
		{"id,lower,upper,size\n0,0,3,-4\n", "x.csv:2: error: size -4 is not positive"},
		{"id,lower,upper,size\n\na,0,3,4\na,1,2,4\n", `x.csv:4: error: duplicate id "a" (first on line 3)`},
		{"id,lower,upper,size\n,0,3,4\n", "x.csv:2: error: empty id"},
		{"id,start,end,size\n0,3,2,1\n", "x.csv:2: error: end 2 is before start 3"},
		{"id,lower,upper,size,offset\n0,0,1,1,-1\n", "x.csv:2: error: offset -1 is out of range"},
		{"id,lower,upper,size\n0,0,1,4611686018427387904\n1,0,1,4611686018427387904\n", "x.csv:3: error: sizes add up"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.in), "x.csv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Read(%q) error %v, want prefix %q", c.in, err, c.want)
		}
	}
}

func TestReadForms(t *testing.T) {
	// Header columns in any order, CRLF line ends, a BOM, spaces, blank
	// lines; start,end is inclusive and becomes half-open.
	in := "\ufeffsize, id ,lower,upper\r\n\r\n4,b1,0,3\r\n8,b2,3,9\r\n"
	inst, err := Read(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Buffer{{"b1", 0, 3, 4, -1}, {"b2", 3, 9, 8, -1}}
	if !slices.Equal(inst.Buffers, want) || inst.HasOffsets {
		t.Fatalf("got %+v", inst)
	}
	inst, err = Read(strings.NewReader("id,start,end,size,offset\nx,0,0,5,7\n"), "y.csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Buffer{"x", 0, 1, 5, 7}); !inst.HasOffsets || inst.Buffers[0] != want {
		t.Fatalf("got %+v", inst)
	}
	// [0,3) and [3,9) touch but do not conflict.
	items := Intervals(want)
	if items[0].Conflicts(items[1]) || items[0].End != 2 || items[1].Start != 3 {
		t.Fatalf("intervals %v", items)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	bufs := []Buffer{{"a", 0, 3, 4, -1}, {"b", 2, 5, 4, -1}}
	var w bytes.Buffer
	if err := Write(&w, bufs, []int64{0, 4}); err != nil {
		t.Fatal(err)
	}
	if got, want := w.String(), "id,lower,upper,size,offset\na,0,3,4,0\nb,2,5,4,4\n"; got != want {
		t.Fatalf("Write = %q, want %q", got, want)
	}
	inst, err := Read(&w, "rt")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(Offsets(inst.Buffers), []int64{0, 4}) {
		t.Fatalf("offsets %v", Offsets(inst.Buffers))
	}
	if err := Write(&w, bufs, []int64{0}); err == nil {
		t.Fatal("Write with too few offsets succeeded")
	}
}

func TestPack(t *testing.T) {
	// a and b overlap (10 bytes), c comes alone later with 10 bytes:
	// lower bound 10. first-fit frees a's 4 bytes and b's 6 as two
	// blocks and must bump c to 10 (pool 20); best-fit merges them.
	bufs := []Buffer{{"a", 0, 3, 4, -1}, {"b", 2, 5, 6, -1}, {"c", 5, 6, 10, -1}}
	p, err := Pack(bufs, 1<<40, alloc.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	if p.LowerBound != 10 || p.PoolEnd != 20 || p.Ratio() != 2 || p.Fallbacks != 0 {
		t.Fatalf("first-fit: got %+v", p)
	}
	if p, err = Pack(bufs, 1<<40, alloc.BestFit); err != nil || p.PoolEnd != 10 || p.Ratio() != 1 {
		t.Fatalf("best-fit: got %+v, %v", p, err)
	}
	// A broken allocator is caught.
	bad := func(items []alloc.Interval, budget int64) alloc.Result {
		return alloc.Result{Offsets: make([]int64, len(items)), PoolEnd: 10}
	}
	if _, err := Pack(bufs, 1<<40, bad); err == nil {
		t.Fatal("overlapping packing accepted")
	}
	// Over capacity: fallbacks are counted, not errors.
	p, err = Pack(bufs, 6, alloc.FirstFit)
	if err != nil || p.Fallbacks == 0 {
		t.Fatalf("capacity 6: %+v, %v", p, err)
	}
}

// benchDir is ../shared/dsa-benchmarks seen from the repository root.
const benchDir = "../../shared/dsa-benchmarks"

func benchFiles(t *testing.T, sub string) []string {
	t.Helper()
	dir := filepath.Join(benchDir, sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("benchmark data not available (%v); it lives in ../shared/dsa-benchmarks next to the repository", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil || len(files) == 0 {
		t.Skipf("no CSV files in %s", dir)
	}
	return files
}

// capacityOf reads the capacity from a MiniMalloc file name
// (A.1048576.csv, a.6.solution.csv).
func capacityOf(t *testing.T, path string) int64 {
	m := regexp.MustCompile(`\.(\d+)\.`).FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return 0
	}
	c, _ := strconv.ParseInt(m[1], 10, 64)
	return c
}

// The published solutions (MiniMalloc's) must pass alloc.Check at their
// capacity: the validator and the format agree with MiniMalloc's.
func TestPublishedSolutionsValidate(t *testing.T) {
	files := append(benchFiles(t, "solutions/challenging"), benchFiles(t, "solutions/omnimalloc-small")...)
	files = append(files, benchFiles(t, "solutions/idealloc")...)
	for _, f := range files {
		inst, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !inst.HasOffsets {
			t.Fatalf("%s: no offsets", f)
		}
		items := Intervals(inst.Buffers)
		r := alloc.Result{Offsets: Offsets(inst.Buffers)}
		for i, o := range r.Offsets {
			r.PoolEnd = max(r.PoolEnd, o+items[i].Size)
		}
		budget := capacityOf(t, f)
		if budget == 0 { // idealloc/*.atLB.csv: packed at the lower bound
			budget = alloc.LowerBound(items)
		}
		if err := alloc.Check(items, budget, r); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Every instance parses; the small ones (examples, omnimalloc traps) are
// packed by best at their lower bound, which is their optimum.
func TestBenchmarksParseAndSmallOptimal(t *testing.T) {
	var files []string
	for _, sub := range []string{"challenging", "examples", "extra/omnimalloc-small", "extra/idealloc/iopddl", "extra/idealloc/somas_tensors"} {
		files = append(files, benchFiles(t, sub)...)
	}
	best := alloc.BestWith(alloc.Options{MaxNodes: 1 << 20})
	for _, f := range files {
		inst, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(inst.Buffers) > 10 {
			continue
		}
		p, err := Pack(inst.Buffers, 1<<62, best)
		if err != nil {
			t.Fatal(err)
		}
		if p.PoolEnd != p.LowerBound {
			t.Errorf("%s: best pool end %d, lower bound (and optimum) %d", f, p.PoolEnd, p.LowerBound)
		}
	}
}

// The headline target, as a decision problem: best packs every
// challenging instance within capacity 1048576 (three of them have a
// lower bound below it).
func TestChallengingFitCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, f := range benchFiles(t, "challenging") {
		inst, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := capacityOf(t, f)
		best := alloc.BestWith(alloc.Options{Goal: c})
		p, err := Pack(inst.Buffers, c, best)
		if err != nil {
			t.Fatal(err)
		}
		if p.Fallbacks > 0 || p.PoolEnd > c {
			t.Errorf("%s: %d buffers fall back, pool end %d, capacity %d", f, p.Fallbacks, p.PoolEnd, c)
		}
		t.Logf("%s: pool end %d in %v", filepath.Base(f), p.PoolEnd, p.Duration)
	}
}

// Over budget, best completes what can be completed: challenging C fits
// under 1048576 (only the search finds how), while a 2 MiB buffer added
// at a later time cannot fit at all. The big one falls back, and C's
// buffers are all placed.
func TestBestOverBudgetPartitions(t *testing.T) {
	files := benchFiles(t, "challenging")
	var path string
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "C.") {
			path = f
		}
	}
	if path == "" {
		t.Skip("challenging/C.1048576.csv not available")
	}
	inst, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var end int64
	for _, b := range inst.Buffers {
		end = max(end, b.Upper)
	}
	bufs := append(slices.Clone(inst.Buffers), Buffer{ID: "huge", Lower: end + 1, Upper: end + 2, Size: 2 << 20, Offset: -1})
	p, err := Pack(bufs, 1048576, alloc.BestWith(alloc.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Fallbacks != 1 || p.Offsets[len(bufs)-1] != -1 {
		t.Fatalf("%d fallbacks, huge at %d; want only huge to fall back", p.Fallbacks, p.Offsets[len(bufs)-1])
	}
}
