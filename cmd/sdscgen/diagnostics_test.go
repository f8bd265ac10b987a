package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
)

// Two undeclared names, on lines 3 (after a tab) and 4.
const twoErrors = "graph g {\n\tbuffer in0 : 4\n\top a reads inn0 writes in0\n  op b reads q writes in0\n}\n"

// TestCaret: --caret=always shows each diagnostic's source line and a
// caret under its column (a tab before it copied); auto, on a standard
// error that is no terminal, and never show only the diagnostic lines.
func TestCaret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bir")
	if err := os.WriteFile(path, []byte(twoErrors), 0o644); err != nil {
		t.Fatal(err)
	}
	// "\top a reads " is 12 bytes, so inn0 is at column 13: the caret
	// line is the tab and 11 spaces; "  op b reads " is 13 bytes.
	diag1 := path + `:3:13: error: undeclared buffer "inn0"; did you mean "in0"?` + "\n"
	diag2 := path + `:4:14: error: undeclared buffer "q"` + "\n"
	plain := diag1 + diag2
	withCaret := diag1 + "\top a reads inn0 writes in0\n\t" + strings.Repeat(" ", 11) + "^\n" +
		diag2 + "  op b reads q writes in0\n" + strings.Repeat(" ", 13) + "^\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, plain},
		{[]string{"--caret=auto"}, plain},
		{[]string{"--caret", "never"}, plain},
		{[]string{"--caret=always"}, withCaret},
	} {
		code, out, errs := runCLI(t, "", append(c.args, path)...)
		if code != exitBadInput || out != "" || errs != c.want {
			t.Errorf("%q: exit %d, stdout %q, stderr\n%s\nwant\n%s", c.args, code, out, errs, c.want)
		}
	}
	// Standard input that is a regular file is read again from its
	// start; a pipe (here a strings.Reader) cannot be, and gets none.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errb strings.Builder
	code := run([]string{"--caret=always", "-"}, f, &out, &errb)
	if want := strings.ReplaceAll(withCaret, path, "<stdin>"); code != exitBadInput || errb.String() != want {
		t.Errorf("stdin file: exit %d, stderr\n%s\nwant\n%s", code, errb.String(), want)
	}
	code, _, errs := runCLI(t, twoErrors, "--caret=always", "-")
	if want := strings.ReplaceAll(plain, path, "<stdin>"); code != exitBadInput || errs != want {
		t.Errorf("stdin pipe: exit %d, stderr\n%s\nwant\n%s", code, errs, want)
	}
	code, _, errs = runCLI(t, "", "--caret=alway", path)
	if want := "sdscgen: --caret=alway: want auto, always or never (did you mean always?)\n"; code != exitUsage || errs != want {
		t.Errorf("bad --caret: exit %d, stderr %q, want %q", code, errs, want)
	}
}

// decodeLines parses every line of s as a frontend.Diagnostic, refusing
// unknown fields.
func decodeLines(t *testing.T, s string) []frontend.Diagnostic {
	t.Helper()
	var ds []frontend.Diagnostic
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		var d frontend.Diagnostic
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		ds = append(ds, d)
	}
	return ds
}

// TestDiagnosticsJSON: --diagnostics-format=json writes each error of
// the input as one JSON object per line carrying what the text form
// does (rebuilt from the fields, it is the text line), the "too many
// errors" line as a note, and a file that cannot be read as an error
// without a position.
func TestDiagnosticsJSON(t *testing.T) {
	_, _, text := runCLI(t, twoErrors, "-")
	code, out, errs := runCLI(t, twoErrors, "--diagnostics-format=json", "--caret=always", "-")
	if code != exitBadInput || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	ds := decodeLines(t, errs)
	var rebuilt strings.Builder
	for _, d := range ds {
		if d.Severity != "error" {
			t.Errorf("severity %q", d.Severity)
		}
		fmt.Fprintf(&rebuilt, "%s:%d:%d: error: %s\n", d.File, d.Line, d.Col, d.Message)
	}
	if rebuilt.String() != text {
		t.Errorf("JSON rebuilt as\n%s\ntext form\n%s", rebuilt.String(), text)
	}
	_, _, errs = runCLI(t, twoErrors, "--diagnostics-format=json", "--error-limit=1", "-")
	ds = decodeLines(t, errs)
	if want := (frontend.Diagnostic{File: "<stdin>", Severity: "note", Message: "too many errors (1 shown, 1 more not shown)"}); len(ds) != 2 || ds[1] != want {
		t.Errorf("limit 1: %+v, want the first error then %+v", ds, want)
	}
	missing := filepath.Join(t.TempDir(), "none.bir")
	code, _, errs = runCLI(t, "", "--diagnostics-format=json", missing)
	ds = decodeLines(t, errs)
	if code != exitBadInput || len(ds) != 1 || ds[0].File != missing || ds[0].Line != 0 || ds[0].Severity != "error" || !strings.Contains(ds[0].Message, "no such file") {
		t.Errorf("missing file: exit %d, %+v", code, ds)
	}
	code, _, errs = runCLI(t, "", "--diagnostics-format=jsn", missing)
	if want := "sdscgen: --diagnostics-format=jsn: want text or json (did you mean json?)\n"; code != exitUsage || errs != want {
		t.Errorf("bad format: exit %d, stderr %q, want %q", code, errs, want)
	}
}

// TestRemarksJSON: with --diagnostics-format=json, --remarks writes the
// same remarks as JSON lines of severity "remark", one per text line,
// with the same file, position and message.
func TestRemarksJSON(t *testing.T) {
	src, err := os.ReadFile("../../examples/small.bir")
	if err != nil {
		t.Fatal(err)
	}
	_, _, text := runCLI(t, string(src), "--remarks", "all", "--plan", os.DevNull, "-")
	code, _, errs := runCLI(t, string(src), "--remarks", "all", "--plan", os.DevNull, "--diagnostics-format=json", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ds := decodeLines(t, errs)
	// small.bir declares eight buffers: one remark each.
	if len(ds) != 8 {
		t.Fatalf("%d remarks, want 8:\n%s", len(ds), errs)
	}
	var rebuilt strings.Builder
	for _, d := range ds {
		if d.Severity != "remark" || d.Line == 0 {
			t.Errorf("%+v", d)
		}
		fmt.Fprintf(&rebuilt, "%s:%d:%d: remark: %s\n", d.File, d.Line, d.Col, d.Message)
	}
	if rebuilt.String() != text {
		t.Errorf("JSON rebuilt as\n%s\ntext form\n%s", rebuilt.String(), text)
	}
}
