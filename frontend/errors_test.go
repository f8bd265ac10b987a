package frontend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// TestPrintCaret: with Source, each diagnostic is followed by its line
// and a caret under its column; a tab before the column is copied, a
// control character is shown as '?', a line Source does not give gets
// no caret, and Source is asked once for the shown lines only.
func TestPrintCaret(t *testing.T) {
	var l ErrorList
	l.add(ir.Position{File: "f.bir", Line: 2, Col: 5}, "two")
	l.add(ir.Position{File: "f.bir", Line: 2, Col: 7}, "two again")
	l.add(ir.Position{File: "f.bir", Line: 3, Col: 3}, "three")
	l.add(ir.Position{File: "f.bir", Line: 4, Col: 9}, "four, past the end")
	l.add(ir.Position{File: "f.bir", Line: 9, Col: 1}, "nine, not shown")
	var asked []int
	src := map[int]string{2: "\tab cd", 3: "x\x1by", 4: "short", 9: "nine"}
	var b strings.Builder
	err := l.Print(&b, PrintOptions{Limit: 4, Source: func(file string, lines []int) map[int]string {
		if file != "f.bir" {
			t.Errorf("Source asked for %q", file)
		}
		asked = lines
		out := map[int]string{}
		for _, n := range lines {
			if n != 4 { // line 4 is not at hand
				out[n] = src[n]
			}
		}
		return out
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Column 5 of "\tab cd" is 'c' (bytes: tab, a, b, space, c): the
	// caret line is a tab and three spaces. Line 3's ESC is a '?'.
	want := "f.bir:2:5: error: two\n\tab cd\n\t   ^\n" +
		"f.bir:2:7: error: two again\n\tab cd\n\t     ^\n" +
		"f.bir:3:3: error: three\nx?y\n  ^\n" +
		"f.bir:4:9: error: four, past the end\n" +
		"f.bir: too many errors (4 shown, 1 more not shown)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if !slices.Equal(asked, []int{2, 3, 4}) {
		t.Errorf("Source asked for lines %v, want [2 3 4]", asked)
	}
}

// TestCaretLongLine: a long line is cut to caretWidth bytes around the
// column, with "..." on each cut side, and the caret still under it.
func TestCaretLongLine(t *testing.T) {
	text := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	got := caret(text, 1001) // 'X'
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || lines[2] != "" {
		t.Fatalf("caret gave %q", got)
	}
	// The window starts caretWidth/2 bytes before X, after "...".
	if !strings.HasPrefix(lines[0], "...") || !strings.HasSuffix(lines[0], "...") || len(lines[0]) != caretWidth+6 {
		t.Errorf("source line %q", lines[0])
	}
	if i := strings.IndexByte(lines[1], '^'); i != 3+caretWidth/2 || lines[0][i] != 'X' {
		t.Errorf("caret at %d of %q", i, lines[1])
	}
}

// TestPrintJSON: with JSON, each diagnostic is one line holding a JSON
// object with the same file, line, column and message as the text form,
// severity "error"; the "too many errors" line is a note at line 0.
func TestPrintJSON(t *testing.T) {
	var l ErrorList
	l.add(ir.Position{File: "f.bir", Line: 2, Col: 5}, `unexpected "x", expected "}"`)
	l.add(ir.Position{File: "f.bir", Line: 3, Col: 1}, "second")
	l.add(ir.Position{File: "f.bir", Line: 4, Col: 1}, "third")
	var b strings.Builder
	if err := l.Print(&b, PrintOptions{Limit: 2, JSON: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for i, line := range lines {
		var d Diagnostic
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, line)
		}
		var want Diagnostic
		if i < 2 {
			e := l[i]
			want = Diagnostic{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Severity: "error", Message: e.Msg}
			// The same data as the text form.
			if text := fmt.Sprintf("%s:%d:%d: error: %s", d.File, d.Line, d.Col, d.Message); text != e.Error() {
				t.Errorf("line %d rebuilt as %q, text form %q", i, text, e.Error())
			}
		} else {
			want = Diagnostic{File: "f.bir", Severity: "note", Message: "too many errors (2 shown, 1 more not shown)"}
		}
		if d != want {
			t.Errorf("line %d: %+v, want %+v", i, d, want)
		}
	}
}

// TestReadLines: lines are counted as the scanner counts them (LF, CR
// LF, lone CR), the BOM is not part of line 1, a wanted line past the
// end is left out, and the last line needs no line break.
func TestReadLines(t *testing.T) {
	src := "\xEF\xBB\xBFone\ntwo\r\nthree\rfour\n\nsix"
	got, err := ReadLines(strings.NewReader(src), []int{1, 2, 3, 3, 4, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: "one", 2: "two", 3: "three", 4: "four", 5: "", 6: "six"}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// The scanner agrees on the line of each word.
	s := newScanner("", src)
	for {
		var tok token
		s.scan(&tok)
		if tok.kind == tokEOF {
			break
		}
		if w := src[tok.off:tok.end]; want[int(tok.pos.Line)] != w {
			t.Errorf("scanner puts %q on line %d, ReadLines has %q there", w, tok.pos.Line, want[int(tok.pos.Line)])
		}
	}
}
