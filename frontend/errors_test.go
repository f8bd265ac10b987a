package frontend

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// TestErrorFiles runs Parse and Check on every testdata/errors/*.bir file
// and compares the complete diagnostic list (every error, its order, line,
// column and message) with the expectations written in the file.
//
// An expectation is a comment of one of these two forms, anywhere on a line:
//
//	// ERROR COL: MESSAGE         an error at column COL of this line
//	// ERROR LINE:COL: MESSAGE    an error at line LINE, column COL
//
// (`#` works in place of `//`). MESSAGE runs to the end of the line and must
// match exactly; a trailing CR is ignored. A line holds at most one comment,
// so a second error on the same line, or an error on a line that cannot
// hold a comment (end of file, binary junk), is written in the LINE:COL form
// on some other line. Files that cannot hold a comment at all (the empty
// file) have a side file NAME.bir.errors with one "LINE:COL: MESSAGE" per
// line. Columns count bytes from 1; a UTF-8 BOM is not counted.
//
// The expected list is sorted by position and compared with the returned
// ErrorList as is, so the test also checks that diagnostics come out sorted.
func TestErrorFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 35 {
		t.Fatalf("only %d error files", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := expectations(t, file, src)
			if len(want) == 0 {
				t.Fatal("no expectations in file")
			}
			errs := parseAndCheck(file, src)
			var got []string
			for _, e := range errs {
				if e.Pos.File != file {
					t.Errorf("error %q has file %q", e, e.Pos.File)
				}
				if prefix := fmt.Sprintf("%s:%d:%d: error: ", file, e.Pos.Line, e.Pos.Col); !strings.HasPrefix(e.Error(), prefix) {
					t.Errorf("error text %q does not start with %q", e.Error(), prefix)
				}
				got = append(got, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics differ\ngot:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}

// parseAndCheck runs both phases the way the tool does.
func parseAndCheck(file string, src []byte) ErrorList {
	f, errs := Parse(file, src)
	if errs != nil {
		return errs
	}
	_, errs = Check(f)
	return errs
}

var annotation = regexp.MustCompile(`(?://|#) ERROR (?:(\d+):)?(\d+): (.*)$`)

func expectations(t *testing.T, file string, src []byte) []string {
	t.Helper()
	var list ErrorList
	lines := bytes.Split(src, []byte("\n"))
	for i, line := range lines {
		m := annotation.FindSubmatch(bytes.TrimSuffix(line, []byte("\r")))
		if m == nil {
			continue
		}
		ln := i + 1
		if len(m[1]) > 0 {
			ln, _ = strconv.Atoi(string(m[1]))
		}
		col, _ := strconv.Atoi(string(m[2]))
		list = append(list, &Error{Pos: ir.Position{Line: ln, Col: col}, Msg: string(m[3])})
	}
	if side, err := os.ReadFile(file + ".errors"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(side))
		for sc.Scan() {
			var ln, col int
			var msg string
			if _, err := fmt.Sscanf(sc.Text(), "%d:%d:", &ln, &col); err != nil {
				t.Fatalf("bad line in %s.errors: %q", file, sc.Text())
			}
			msg = sc.Text()[strings.Index(sc.Text(), ": ")+2:]
			list = append(list, &Error{Pos: ir.Position{Line: ln, Col: col}, Msg: msg})
		}
	}
	list.Sort()
	var out []string
	for _, e := range list {
		out = append(out, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
	}
	return out
}

// TestPrintLimit: Print shows at most Limit diagnostics, then one line
// with the number shown and the number left out; Limit 0, or a list no
// longer than the limit, prints every diagnostic and no such line.
func TestPrintLimit(t *testing.T) {
	var l ErrorList
	for i := 1; i <= 5; i++ {
		l.add(ir.Position{File: "f.bir", Line: i, Col: 2}, "e%d", i)
	}
	lines := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "f.bir:%d:2: error: e%d\n", i, i)
		}
		return b.String()
	}
	for _, c := range []struct {
		limit int
		want  string
	}{
		{0, lines(5)},
		{5, lines(5)},
		{6, lines(5)},
		{4, lines(4) + "f.bir: too many errors (4 shown, 1 more not shown)\n"},
		{1, lines(1) + "f.bir: too many errors (1 shown, 4 more not shown)\n"},
	} {
		var b strings.Builder
		if err := l.Print(&b, PrintOptions{Limit: c.limit}); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("limit %d: got\n%s\nwant\n%s", c.limit, b.String(), c.want)
		}
	}
}
