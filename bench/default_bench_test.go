package bench

import (
	"bytes"
	"io"
	"testing"

	"github.com/sdscgen/sdscgen"
)

// BenchmarkDefault is the library's share of the default command
// (`sdscgen --generic FILE.bir > OUT`): CompileReader with the verifier
// asynchronous, as the CLI runs it, then WriteMLIR in generic form, which
// waits for the verdict. Only process start and the file system are
// left out; wall time per op is the figure the 10k latency target
// bounds, cpu-ms/op what it costs.
func BenchmarkDefault(b *testing.B) {
	each(b, 0, func(b *testing.B, in *input) {
		for b.Loop() {
			res, err := sdscgen.CompileReader("synth.bir", bytes.NewReader(in.src), sdscgen.Options{VerifyAsync: true})
			if err != nil {
				b.Fatal(err)
			}
			if err := res.WriteMLIR(io.Discard, sdscgen.EmitOptions{Generic: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
