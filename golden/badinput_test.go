package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// errorAnnotation is the frontend's expectation comment (see
// frontend/errors_test.go): "// ERROR COL: MSG" on the line it is about,
// or "// ERROR LINE:COL: MSG" anywhere.
var errorAnnotation = regexp.MustCompile(`(?://|#) ERROR (?:(\d+):)?(\d+): (.*)$`)

type diag struct {
	line, col int
	msg       string
}

// annotatedErrors reads a frontend error file's expectations, including
// its NAME.bir.errors side file, sorted by position then message.
func annotatedErrors(t *testing.T, file string, src []byte) []diag {
	var out []diag
	for i, line := range bytes.Split(src, []byte("\n")) {
		m := errorAnnotation.FindSubmatch(bytes.TrimSuffix(line, []byte("\r")))
		if m == nil {
			continue
		}
		d := diag{line: i + 1, msg: string(m[3])}
		if len(m[1]) > 0 {
			d.line, _ = strconv.Atoi(string(m[1]))
		}
		d.col, _ = strconv.Atoi(string(m[2]))
		out = append(out, d)
	}
	if side, err := os.ReadFile(file + ".errors"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(side))
		for sc.Scan() {
			var d diag
			if _, err := fmt.Sscanf(sc.Text(), "%d:%d:", &d.line, &d.col); err != nil {
				t.Fatalf("bad line in %s.errors: %q", file, sc.Text())
			}
			d.msg = sc.Text()[strings.Index(sc.Text(), ": ")+2:]
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if a.col != b.col {
			return a.col < b.col
		}
		return a.msg < b.msg
	})
	return out
}

// snapshot returns every file under dir (and dir's parent's entries, to
// catch stray temporaries beside it) with its bytes and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	parent := filepath.Dir(dir)
	err := filepath.WalkDir(parent, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(parent, path)
		val := info.Mode().String()
		if !d.IsDir() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			val += " " + string(data)
		}
		out[rel] = val
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBadInputCLI runs the built binary on every annotated malformed input
// of the frontend (frontend/testdata/errors, reused in place) with -o into
// a pre-populated directory: the run must exit 1, print exactly the
// annotated diagnostics as FILE:LINE:COL: error: MSG lines on stderr and
// nothing on stdout, and leave the directory and its parent byte-for-byte
// as they were.
func TestBadInputCLI(t *testing.T) {
	files, err := filepath.Glob("../frontend/testdata/errors/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("only %d malformed inputs under frontend/testdata/errors", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := annotatedErrors(t, file, src)
			if len(want) == 0 {
				t.Fatal("no annotated diagnostics")
			}
			var wantText strings.Builder
			for _, d := range want {
				fmt.Fprintf(&wantText, "%s:%d:%d: error: %s\n", file, d.line, d.col, d.msg)
			}

			parent := t.TempDir()
			out := filepath.Join(parent, "out")
			if err := os.MkdirAll(filepath.Join(out, "old_bundle"), 0o755); err != nil {
				t.Fatal(err)
			}
			for rel, data := range map[string]string{
				"plan.json":              "{\"previous\": true}\n",
				"old_bundle/bundle.mlir": "module {}\n",
			} {
				if err := os.WriteFile(filepath.Join(out, rel), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, out)

			for _, extra := range [][]string{{"-o", out}, {"-o", out, "--plan", filepath.Join(out, "plan.json")}, {"--generic", "--emit=addresses", "-o", out}} {
				args := append(append([]string{}, extra...), file)
				cmd := exec.Command(binary, args...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := -1
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err == nil {
					code = 0
				}
				if code != 1 {
					t.Errorf("%v: exit %d, want 1 (%v)", args, code, err)
				}
				if stdout.Len() != 0 {
					t.Errorf("%v: stdout not empty:\n%s", args, stdout.String())
				}
				if stderr.String() != wantText.String() {
					t.Errorf("%v: stderr\n%s\nwant\n%s", args, stderr.String(), wantText.String())
				}
				after := snapshot(t, out)
				if fmt.Sprint(after) != fmt.Sprint(before) {
					var diff []string
					for k, v := range after {
						if before[k] != v {
							diff = append(diff, k)
						}
					}
					for k := range before {
						if _, ok := after[k]; !ok {
							diff = append(diff, k+" (removed)")
						}
					}
					sort.Strings(diff)
					t.Errorf("%v: output directory changed: %v", args, diff)
				}
			}
		})
	}
}

// TestHostileCLI: issue 10's hostile command lines, through the built
// binary: each exits with the status it should (2 only for bad usage),
// says what is wrong, and writes nothing it should not.
func TestHostileCLI(t *testing.T) {
	in := filepath.Join("testdata", "spec_example", "input.bir")
	root := t.TempDir()
	base := filepath.Join(root, "w") // snapshot walks it whole
	os.Mkdir(base, 0o755)
	foreign := filepath.Join(base, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine\n"), 0o644)
	dangling := filepath.Join(root, "dangling")
	os.Symlink("nowhere", dangling)
	longCSV := filepath.Join(base, "long.csv")
	os.WriteFile(longCSV, []byte("id,lower,upper,size\na,0,1,"+strings.Repeat("7", 17<<20)+"\n"), 0o644)
	hugeCSV := filepath.Join(base, "huge.csv")
	os.WriteFile(hugeCSV, []byte("id,lower,upper,size\na,0,1,9223372036854775807\n"), 0o644)
	before := snapshot(t, foreign)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--budget", "0x10000", in}, 2, `invalid value "0x10000" for flag --budget: want a decimal integer`},
		{[]string{"--segment-size=-9223372036854775808", "--reserve=1", in}, 2, "must not be negative"},
		{[]string{"--segment-size=100", "--reserve=200", in}, 2, "--reserve 200 is larger than --segment-size 100"},
		{[]string{"explain", in, ""}, 2, "the buffer name is empty"},
		{[]string{"--explain", "", in}, 2, "--explain needs a buffer name"},
		{[]string{"-o", foreign, in}, 1, "notes.txt, and no plan.json of an earlier run; not replacing it (remove it, or pass --force"},
		{[]string{"-o", dangling, in}, 1, "is a symbolic link to nowhere, which does not exist"},
		{[]string{"pack", longCSV}, 1, longCSV + ":2: error: line is longer than 16777216 bytes"},
		{[]string{"pack", hugeCSV}, 1, hugeCSV + ":2: error: size 9223372036854775807 is larger than the maximum 4611686018427387904"},
		{[]string{"pack", "--capacity", "010", hugeCSV}, 1, "is larger than the maximum"},
	} {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != c.code || stdout.Len() != 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q; want exit %d and %q", c.args, code, stdout.Len(), stderr.String(), c.code, c.want)
		}
	}
	if after := snapshot(t, foreign); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("hostile runs changed %s", base)
	}
	// Leading zeros are decimal, as in .bir.
	a, _ := exec.Command(binary, "--budget", "065536", "--plan", "-", in).Output()
	b, _ := exec.Command(binary, "--budget", "65536", "--plan", "-", in).Output()
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("--budget 065536 differs from --budget 65536")
	}
}
