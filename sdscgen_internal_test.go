package sdscgen

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/sdscgen/sdscgen/planner"
)

// verifyInput has one pooled buffer t in bundle k (and u, pooled too).
const verifyInput = `graph g {
  buffer x : 128
  buffer t : 256
  buffer u : 256
  buffer y : 128
  input x
  output y
  fused k {
    op a reads x writes t
    op b reads t writes u
    op c reads u writes y
  }
}
`

// TestVerifyCatches: the verifier runs by default and a plan that breaks
// a rule is a *VerifyError (no Result); NoVerify lets the same plan
// through.
func TestVerifyCatches(t *testing.T) {
	if _, err := Compile("v.bir", []byte(verifyInput), Options{}); err != nil {
		t.Fatalf("clean plan: %v", err)
	}
	corruptions := map[string]func(p *planner.Result){
		// t [0,1] and u [1,2] are live together at step 1.
		"overlap": func(p *planner.Result) {
			for gi := range p.Groups {
				if p.Groups[gi].Offset > 0 {
					p.Groups[gi].Offset = 0
				}
			}
		},
		"reason": func(p *planner.Result) {
			for gi := range p.Groups {
				if p.Groups[gi].Reason == planner.GraphInput {
					p.Groups[gi].Reason = planner.NotWritten
				}
			}
		},
		"pool size": func(p *planner.Result) { p.Bundles[0].PoolSize += 128 },
	}
	for _, name := range []string{"overlap", "reason", "pool size"} {
		corrupt := testKnobs{planned: corruptions[name]}
		res, err := Compile("v.bir", []byte(verifyInput), Options{test: corrupt})
		var verr *VerifyError
		if !errors.As(err, &verr) || res != nil || !strings.HasPrefix(err.Error(), "plan verification failed: ") {
			t.Errorf("%s: result %v, error %v", name, res, err)
		}
		if _, err := Compile("v.bir", []byte(verifyInput), Options{NoVerify: true, test: corrupt}); err != nil {
			t.Errorf("%s with NoVerify: %v", name, err)
		}
	}
}

// TestVerifyAsync: with Options.VerifyAsync, Compile returns before the
// verdict, and a rejected plan reaches no writer: each returns the
// *VerifyError and writes nothing, whether the MLIR fits in the hold
// buffer or not (hold 1 byte: printing waits for the verdict at its
// first write). An accepted plan prints the same bytes as a synchronous
// compile.
func TestVerifyAsync(t *testing.T) {
	want, err := Compile("v.bir", []byte(verifyInput), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wantMLIR, wantJSON strings.Builder
	if err := want.WriteMLIR(&wantMLIR, EmitOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := want.WritePlanJSON(&wantJSON); err != nil {
		t.Fatal(err)
	}
	for _, hold := range []int{1, 64, 4000, HoldBytes} {
		// Blocks of 7 bytes: every write spans blocks.
		knobs, block := testKnobs{hold: hold, holdBlock: 7}, 7
		if hold == HoldBytes {
			knobs, block = testKnobs{}, holdBlock // the real sizes
		}
		res, err := Compile("v.bir", []byte(verifyInput), Options{VerifyAsync: true, test: knobs})
		if err != nil {
			t.Fatal(err)
		}
		if res.hold != hold || res.holdBlock != block {
			t.Fatalf("hold %d: the Result holds %d bytes in blocks of %d, want blocks of %d", hold, res.hold, res.holdBlock, block)
		}
		var mlir, js strings.Builder
		if err := res.WriteMLIR(&mlir, EmitOptions{}); err != nil {
			t.Fatalf("hold %d: %v", hold, err)
		}
		if err := res.WritePlanJSON(&js); err != nil {
			t.Fatalf("hold %d: %v", hold, err)
		}
		if mlir.String() != wantMLIR.String() || js.String() != wantJSON.String() {
			t.Errorf("hold %d: async output differs from the synchronous one", hold)
		}
		if res.Verified() != nil {
			t.Errorf("hold %d: clean plan rejected: %v", hold, res.Verified())
		}
	}

	// A pool 128 bytes larger than the placement needs.
	larger := func(p *planner.Result) { p.Bundles[0].PoolSize += 128 }
	for _, hold := range []int{1, HoldBytes} {
		res, err := Compile("v.bir", []byte(verifyInput), Options{VerifyAsync: true, test: testKnobs{planned: larger, hold: hold}})
		if err != nil {
			t.Fatalf("VerifyAsync: Compile returned %v, want the verdict later", err)
		}
		var verr *VerifyError
		if err := res.Verified(); !errors.As(err, &verr) {
			t.Fatalf("Verified() = %v, want a *VerifyError", err)
		}
		writers := map[string]func(w *strings.Builder) error{
			"WriteMLIR":       func(w *strings.Builder) error { return res.WriteMLIR(w, EmitOptions{Generic: true}) },
			"WriteBundleMLIR": func(w *strings.Builder) error { return res.WriteBundleMLIR(w, 0, EmitOptions{}) },
			"WritePlanJSON":   func(w *strings.Builder) error { return res.WritePlanJSON(w) },
			"WriteStats":      func(w *strings.Builder) error { return res.WriteStats(w) },
			"WriteRemarks":    func(w *strings.Builder) error { return res.WriteRemarks(w, "all") },
			"Explain":         func(w *strings.Builder) error { return res.Explain(w, "t") },
			"WriteSVG":        func(w *strings.Builder) error { return res.WriteSVG(w, 0) },
			"WriteHTML":       func(w *strings.Builder) error { return res.WriteHTML(w) },
			"WriteDump plan":  func(w *strings.Builder) error { return res.WriteDump(w, "plan") },
		}
		for _, name := range []string{"WriteMLIR", "WriteBundleMLIR", "WritePlanJSON", "WriteStats", "WriteRemarks", "Explain", "WriteSVG", "WriteHTML", "WriteDump plan"} {
			var out strings.Builder
			err := writers[name](&out)
			if !errors.As(err, &verr) || out.Len() != 0 {
				t.Errorf("hold %d: %s of a rejected plan: error %v, %d bytes written", hold, name, err, out.Len())
			}
		}
	}
}

// TestHeldWaitsForRelease: with VerifyAsync, printing starts only once
// the verifier has let go of its largest records (Result.released) or
// has given its verdict, whichever comes first, so that the printer's
// per-group memory never adds to the verifier's at its peak; the bytes
// still reach the writer only after the verdict.
func TestHeldWaitsForRelease(t *testing.T) {
	for _, first := range []string{"released", "verdict"} {
		synctest.Test(t, func(t *testing.T) {
			r := &Result{verdict: make(chan struct{}), released: make(chan struct{}), hold: 64, holdBlock: 8}
			started := make(chan struct{})
			var out strings.Builder
			done := make(chan error, 1)
			go func() {
				done <- r.held(&out, func(w io.Writer) error {
					close(started)
					_, err := io.WriteString(w, "the MLIR")
					return err
				})
			}()
			synctest.Wait() // held is blocked
			select {
			case <-started:
				t.Fatalf("%s first: printing started before the verifier let go of its records or gave its verdict", first)
			default:
			}
			if first == "released" {
				close(r.released)
			} else {
				close(r.verdict)
			}
			synctest.Wait()
			select {
			case <-started:
			default:
				t.Fatalf("%s first: printing has not started", first)
			}
			if first == "released" {
				if out.Len() != 0 {
					t.Fatalf("released first: %q written before the verdict", out.String())
				}
				close(r.verdict) // accepted
			}
			if err := <-done; err != nil || out.String() != "the MLIR" {
				t.Fatalf("%s first: held returned %v, wrote %q", first, err, out.String())
			}
		})
	}
}
