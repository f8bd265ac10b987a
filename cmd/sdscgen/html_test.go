package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen"
)

// htmlOf is the view the library writes for file with opt.
func htmlOf(t *testing.T, file string, opt sdscgen.Options) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sdscgen.Compile(file, src, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestHTMLFlag: --html FILE adds the page (Result.WriteHTML's bytes) and
// leaves stdout the MLIR; --html - prints the page instead of the MLIR;
// --compare reaches the page (two allocator panels); the destinations
// that cannot work are refused before anything is written.
func TestHTMLFlag(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	_, mlir, _ := runCLI(t, "", specInput)
	page := filepath.Join(dir, "view.html")
	code, out, errs := runCLI(t, "", "--html", page, specInput)
	if code != 0 || out != mlir || errs != "" {
		t.Fatalf("--html FILE: exit %d, stderr %q, stdout changed %v", code, errs, out != mlir)
	}
	got, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	want := htmlOf(t, specInput, sdscgen.Options{})
	if string(got) != want || !strings.HasPrefix(want, "<!DOCTYPE html>") {
		t.Errorf("--html FILE wrote %d bytes, want the library's %d", len(got), len(want))
	}
	code, out, errs = runCLI(t, "", "--html", "-", specInput)
	if code != 0 || out != want || errs != "" {
		t.Errorf("--html -: exit %d, stderr %q, stdout is the page: %v", code, errs, out == want)
	}
	_, out, _ = runCLI(t, "", "--html", "-", "--compare", specInput)
	if !strings.Contains(out, `"allocators":["first-fit","best"]`) || out != htmlOf(t, specInput, sdscgen.Options{Compare: true}) {
		t.Errorf("--compare: the page does not draw first-fit and best")
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--plan", "-", "--html", "-"}, exitUsage, "--plan - and --html - cannot both write standard output"},
		{[]string{"--html", filepath.Join(dir, "missing", "v.html")}, exitBadInput, "--html: cannot create"},
		{[]string{"--html", dir}, exitBadInput, "is a directory"},
		{[]string{"-o", filepath.Join(dir, "out"), "--html", filepath.Join(dir, "out", "v.html")}, exitBadInput, "inside the -o DIR"},
	} {
		code, out, errs := runCLI(t, "", append(c.args, specInput)...)
		if code != c.code || out != "" || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit %d and %q", c.args, code, len(out), errs, c.code, c.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("a refused run wrote the -o DIR")
	}
	code, _, errs = runCLI(t, "", "explain", "--html", page, specInput, "acc")
	if code != exitUsage || !strings.Contains(errs, "--html does not apply to explain") {
		t.Errorf("explain --html: exit %d, %q", code, errs)
	}
}
