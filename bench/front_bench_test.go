package bench

import (
	"bytes"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
)

// BenchmarkParseCheckReader is the command's front end on a regular file:
// frontend.ParseCheckReader with the file's size known, reading from
// memory (the source in one window up to 1 MiB, so 10k is scanned ahead
// on a goroutine; 100k and larger through the 1 MiB window, in line).
// cpu-ms/op is the process's CPU; ns/op the wall, which the second core
// lowers at 10k when it is idle.
func BenchmarkParseCheckReader(b *testing.B) {
	each(b, 0, func(b *testing.B, in *input) {
		b.SetBytes(int64(len(in.src)))
		for b.Loop() {
			g, errs, err := frontend.ParseCheckReader("synth.bir", bytes.NewReader(in.src), len(in.src))
			if errs != nil || err != nil || g == nil {
				b.Fatal(errs, err)
			}
		}
	})
}
