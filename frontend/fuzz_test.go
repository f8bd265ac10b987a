package frontend

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// FuzzParseCheck feeds arbitrary bytes through Parse and Check. Beyond not
// panicking, it requires Parse to agree with the reference parser of
// ast.go (the same AST or the same error), every diagnostic to point into
// the input, the diagnostics to be sorted, and every graph that checks
// cleanly to satisfy the invariants that package ir promises to later
// stages.
func FuzzParseCheck(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.bir", "testdata/errors/*.bir", "../golden/testdata/*/input.bir", "../examples/*.bir"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		f.Add([]byte(randgraph.Generate(r, randgraph.Default)))
		f.Add(addV2(r, []byte(randgraph.Generate(r, randgraph.Default))))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const name = "fuzz.bir"
		sameAsReference(t, name, src)
		f, errs := Parse(name, src)
		if (f == nil) == (errs == nil) {
			t.Fatalf("Parse returned file %v with errors %v", f != nil, errs)
		}
		if errs != nil {
			// One syntax error, after the keywords used as names in
			// declarations before it.
			for _, e := range errs[:len(errs)-1] {
				if !strings.HasSuffix(e.Msg, " is a keyword and cannot be used as a name") {
					t.Fatalf("Parse reported %d errors, and %v is not a keyword's", len(errs), e)
				}
			}
			checkPositions(t, src, name, errs)
			return
		}
		g, errs := Check(f)
		if (g == nil) == (errs == nil) {
			t.Fatalf("Check returned graph %v with errors %v", g != nil, errs)
		}
		if errs != nil {
			checkPositions(t, src, name, errs)
			return
		}
		checkInvariants(t, g)
	})
}

func checkPositions(t *testing.T, src []byte, name string, errs ErrorList) {
	t.Helper()
	// Lines end at LF, CR LF or a lone CR, as the scanner counts them.
	text := bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	lines := bytes.Split(bytes.ReplaceAll(text, []byte("\r"), []byte("\n")), []byte("\n"))
	if !sort.IsSorted(errs) {
		t.Errorf("errors not sorted:\n%v", errs)
	}
	for _, e := range errs {
		p := e.Pos
		if p.File != name || p.Line < 1 || p.Col < 1 || p.Line > len(lines) || p.Col > len(lines[p.Line-1])+1 {
			t.Errorf("error outside the input (%d lines): %v", len(lines), e)
		}
		if e.Msg == "" {
			t.Errorf("empty message at %v", p)
		}
	}
}
