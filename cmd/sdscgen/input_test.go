package main

import (
	"bytes"
	"errors"
	"os"
	"slices"
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
	file := writeTemp(t, "big.bir", small+strings.Repeat("# comment\n", 200))
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := &fileInput{r: f, f: f, name: file, limit: 1000}
	_, err = sdscgen.CompileReader(file, in, sdscgen.Options{})
	var ierr inputError
	if !errors.As(err, &ierr) || err.Error() != file+": input is larger than the limit of 1000 bytes (2 GiB)" {
		t.Errorf("error %v", err)
	}
	if in.n != 1001 {
		t.Errorf("read %d bytes, want the limit and one", in.n)
	}
}

// TestStdinNotHeldWhole: input from a stream (stdin, a FIFO, a device)
// goes through the compiler's window as a file does: an endless stream
// of NULs (/dev/zero) is an error at 1:1 once the first window (1 MiB)
// is read, not after the 2 GiB limit, and the stream is never held
// whole.
func TestStdinNotHeldWhole(t *testing.T) {
	z := &endless{max: 64 << 20}
	var out, errs bytes.Buffer
	code := run([]string{"-"}, z, &out, &errs)
	if want := "<stdin>:1:1: error: unexpected character '\\x00'\n"; code != exitBadInput || errs.String() != want {
		t.Errorf("exit %d, stderr %q; want exit %d, %q", code, errs.String(), exitBadInput, want)
	}
	// The first window and the last read's buffer at most.
	if z.n > 2<<20 {
		t.Errorf("read %d bytes of NULs; want at most 2 MiB", z.n)
	}
}

// TestStreamGrew: a stream tells how much it has given at 4 MiB, at
// each doubling from there, and at its end (gcTuner.input follows it): 20 MiB
// read in 1 MiB reads calls at 4, 8 and 16 MiB, then at 20 MiB.
func TestStreamGrew(t *testing.T) {
	const mib = 1 << 20
	var got []int
	in := &fileInput{r: bytes.NewReader(make([]byte, 20*mib)), name: "s", limit: maxInput, grew: func(n int) { got = append(got, n/mib) }}
	buf := make([]byte, mib)
	for {
		if _, err := in.Read(buf); err != nil {
			break
		}
	}
	if want := []int{4, 8, 16, 20}; !slices.Equal(got, want) {
		t.Errorf("grew at %v MiB, want %v", got, want)
	}
}
