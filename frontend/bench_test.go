package frontend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sdscgen/sdscgen/internal/cpuclock"
)

// genBundle generates one fused bundle of n leaf ops over a small rotating
// set of buffers, half of them inside counted loops with steps, which is
// the shape of a large generated graph.
func genBundle(n int) []byte {
	var b strings.Builder
	b.WriteString("graph big {\n")
	const nbuf = 1000
	for i := 0; i < nbuf; i++ {
		fmt.Fprintf(&b, "  buffer b%d : f16[4, 64]\n", i)
	}
	b.WriteString("  input b0\n  output b1\n  alias b2 = b3\n  rename r0 -> b4\n  fused blk {\n")
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "    loop l%d count 4 {\n      op o%d reads b%d step 128, b%d writes b%d\n    }\n", i, i, i%nbuf, (i+1)%nbuf, (i+7)%nbuf)
		} else {
			fmt.Fprintf(&b, "    op o%d reads b%d, r0 writes b%d // a comment\n", i, i%nbuf, (i+3)%nbuf)
		}
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

const benchOps = 100_000

// BenchmarkLex measures the scanner alone.
func BenchmarkLex(b *testing.B) {
	src := string(genBundle(benchOps))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			s := newScanner("big.bir", src)
			var t token
			for s.scan(&t); t.kind != lexer.EOF; s.scan(&t) {
			}
			if s.err != nil {
				b.Fatal(s.err.msg)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src := genBundle(benchOps)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			if _, errs := Parse("big.bir", src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

// BenchmarkParseReference is the participle parser that Parse replaced,
// at a tenth of the size: it is that slow.
func BenchmarkParseReference(b *testing.B) {
	src := genBundle(benchOps / 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			if _, errs := parseReference("big.bir", src); errs != nil {
				b.Fatal(errs)
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	src := genBundle(benchOps)
	f, errs := Parse("big.bir", src)
	if errs != nil {
		b.Fatal(errs)
	}
	b.ReportAllocs()
	cpuclock.Measure(b, func() {
		for b.Loop() {
			g, errs := Check(f)
			if errs != nil {
				b.Fatal(errs)
			}
			if len(g.Bundles[0].Ops) != benchOps {
				b.Fatalf("got %d ops", len(g.Bundles[0].Ops))
			}
		}
	})
}
