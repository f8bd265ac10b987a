package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen"
)

// TestFileInputSameAsStdin: a regular file, which the compiler reads
// through a window, gives what the same bytes on stdin (read whole)
// give: the MLIR, or the diagnostics and exit 1.
func TestFileInputSameAsStdin(t *testing.T) {
	for _, src := range []string{small, small + "\n# trailing\n", "graph g {\n  op k writes nowhere\n}\n", "graph g { op"} {
		file := writeTemp(t, "in.bir", src)
		fcode, fout, ferr := runCLI(t, "", file)
		scode, sout, serr := runCLI(t, src, "-")
		serr = strings.ReplaceAll(serr, "<stdin>", file)
		if fcode != scode || fout != sout || ferr != serr {
			t.Errorf("%q: file: exit %d, %q; stdin: exit %d, %q", src, fcode, ferr, scode, serr)
		}
	}
}

// TestFileInputGrown: a file that grows past the limit after it was
// opened fails as a file over the limit does, at the limit.
func TestFileInputGrown(t *testing.T) {
	defer func(l int64) { inputLimit = l }(inputLimit)
	inputLimit = 1000
	file := writeTemp(t, "big.bir", small+strings.Repeat("# comment\n", 200))
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := &fileInput{f: f, name: file}
	_, err = sdscgen.CompileReader(file, in, sdscgen.Options{})
	var ierr inputError
	if !errors.As(err, &ierr) || err.Error() != file+": input is larger than the limit of 1000 bytes (2 GiB)" {
		t.Errorf("error %v", err)
	}
	if in.n != 1001 {
		t.Errorf("read %d bytes, want the limit and one", in.n)
	}
}
