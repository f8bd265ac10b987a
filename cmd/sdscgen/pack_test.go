package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/dsa"
)

// trapCSV: x [0,2) 1 byte, y [0,1) 1 byte, z [1,3) 2 bytes. At most 3
// bytes are live at once (x and z at step 1) and 3 is reachable (x at 0,
// y and z at 1), but first-fit bumps z to 2 and ends at 4.
const trapCSV = "id,lower,upper,size\nx,0,2,1\ny,0,1,1\nz,1,3,2\n"

func runPackCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = new(process).runPack(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var reportRE = regexp.MustCompile(`^pool_end=(\d+) lower_bound=(\d+) ratio=(\d+\.\d{4}) time=\S+ allocator=(\S+) buffers=(\d+)`)

func TestPackStdoutAndReport(t *testing.T) {
	code, out, errs := runPackCLI(t, trapCSV, "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkPacked(t, out, 3)
	m := reportRE.FindStringSubmatch(errs)
	if m == nil || m[1] != "3" || m[2] != "3" || m[3] != "1.0000" || m[4] != "best" || m[5] != "3" {
		t.Errorf("report %q", errs)
	}
	code, _, errs = runPackCLI(t, trapCSV, "--allocator", "first-fit", "-")
	if m := reportRE.FindStringSubmatch(errs); code != exitOK || m == nil || m[1] != "4" || m[3] != "1.3333" || m[4] != "first-fit" {
		t.Errorf("first-fit: exit %d, report %q", code, errs)
	}
}

// checkPacked parses a packed CSV and checks it: every buffer placed,
// no conflicting overlap, the given pool end.
func checkPacked(t *testing.T, csv string, poolEnd int64) {
	t.Helper()
	inst, err := dsa.Read(strings.NewReader(csv), "out")
	if err != nil {
		t.Fatalf("%v in %q", err, csv)
	}
	items := dsa.Intervals(inst.Buffers)
	r := alloc.Result{Offsets: dsa.Offsets(inst.Buffers)}
	for i, o := range r.Offsets {
		r.PoolEnd = max(r.PoolEnd, o+items[i].Size)
	}
	if err := alloc.Check(items, poolEnd, r); err != nil || r.PoolEnd != poolEnd || !inst.HasOffsets || len(items) != 3 {
		t.Fatalf("packing %q: pool end %d (want %d): %v", csv, r.PoolEnd, poolEnd, err)
	}
}

func TestPackOutputFile(t *testing.T) {
	in := writeTemp(t, "trap.csv", trapCSV)
	outPath := filepath.Join(t.TempDir(), "packed.csv")
	// Flags after the file name work too.
	code, stdout, errs := runPackCLI(t, "", in, "-o", outPath, "--allocator=size-best-fit")
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	got, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	checkPacked(t, string(got), 3)
	// No temporary files are left next to it.
	entries, _ := os.ReadDir(filepath.Dir(outPath))
	if len(entries) != 1 {
		t.Errorf("output dir holds %d entries", len(entries))
	}
}

func TestPackCapacity(t *testing.T) {
	// At capacity 3 the trap fits (best finds it) ...
	if code, _, errs := runPackCLI(t, trapCSV, "--capacity", "3", "-"); code != exitOK || !strings.Contains(errs, "capacity=3") {
		t.Errorf("capacity 3: exit %d: %s", code, errs)
	}
	// ... first-fit does not find it ...
	code, out, errs := runPackCLI(t, trapCSV, "--capacity", "3", "--allocator", "first-fit", "-")
	if code != exitBadInput || out != "" || !strings.Contains(errs, "no packing within capacity 3: first-fit found none; --allocator best searches (1 of 3 buffers do not fit)") {
		t.Errorf("first-fit capacity 3: exit %d, out %q: %s", code, out, errs)
	}
	// ... and below the lower bound nothing can, which the message says.
	code, _, errs = runPackCLI(t, trapCSV, "--capacity", "2", "-")
	if code != exitBadInput || !strings.Contains(errs, "no packing within capacity 2: 3 bytes are live at once, so none exists") {
		t.Errorf("capacity 2: exit %d: %s", code, errs)
	}
}

func TestPackErrors(t *testing.T) {
	bad := writeTemp(t, "bad.csv", "id,lower,upper,size\na,0,1,4\na,1,2,4\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "no input file"},
		{[]string{"a.csv", "b.csv"}, exitUsage, "one input file expected"},
		{[]string{"--allocator", "worst-fit", "-"}, exitUsage, `--allocator worst-fit: unknown allocator; want first-fit, best-fit, size-best-fit or best (did you mean first-fit?)`},
		{[]string{"--capacity", "-5", "-"}, exitUsage, `invalid value "-5" for flag --capacity: must not be negative`},
		{[]string{"--search-time", "0s", "-"}, exitUsage, "--search-time must be positive"},
		{[]string{"--bogus", "-"}, exitUsage, "sdscgen pack: unknown flag --bogus\nusage: sdscgen pack"},
		{[]string{bad}, exitBadInput, bad + ":3: error: duplicate id \"a\" (first on line 2)"},
		{[]string{filepath.Join(t.TempDir(), "missing.csv")}, exitBadInput, "no such file"},
		{[]string{"-o", filepath.Join(t.TempDir(), "no", "such", "dir.csv"), "-"}, exitBadInput, "no/such does not exist"},
	}
	for _, c := range cases {
		code, _, errs := runPackCLI(t, trapCSV, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("pack %v: exit %d, stderr %q; want exit %d with %q", c.args, code, errs, c.code, c.want)
		}
	}
	if code, _, _ := runPackCLI(t, "", "-h"); code != exitOK {
		t.Errorf("pack -h: exit %d", code)
	}
}
