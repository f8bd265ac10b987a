package golden

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/internal/filetree"
	"github.com/sdscgen/sdscgen/internal/randgraph"
)

// TestDeterminism runs the same input 20 times, alternating GOMAXPROCS=1
// and 2, and requires byte-identical output every time: the whole -o tree
// (plan.json and every bundle's module) and the stdout stream, on two
// golden cases and on a bigger random graph in several modes.
func TestDeterminism(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.bir")
	src := randgraph.Generate(rand.New(rand.NewSource(20261130)),
		randgraph.Config{Buffers: 300, Bundles: 40, MaxOps: 16, MaxDepth: 3})
	if err := os.WriteFile(big, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []struct {
		name string
		args []string
	}{
		{"spec_example", []string{filepath.Join("testdata", "spec_example", "input.bir")}},
		{"spec_unfused", []string{"--bundle-symbolic-args=false", filepath.Join("testdata", "spec_example", "input.bir")}},
		{"nested_steps_generic", []string{"--generic", filepath.Join("testdata", "nested_steps", "input.bir")}},
		{"nested_steps_addresses", []string{"--emit=addresses", filepath.Join("testdata", "nested_steps", "input.bir")}},
		{"big", []string{big}},
		{"big_tight_generic_frontpool", []string{"--budget", "65536", "--generic", "--frontend-pool-allocation", big}},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			var first map[string][]byte
			var firstStream []byte
			for run := 0; run < 20; run++ {
				procs := "1"
				if run%2 == 1 {
					procs = "2"
				}
				out := filepath.Join(t.TempDir(), "out")
				exe := func(args ...string) []byte {
					cmd := exec.Command(binary, args...)
					cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GOMAXPROCS=" + procs}
					var stdout, stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					if err := cmd.Run(); err != nil {
						t.Fatalf("%v: %v\n%s", args, err, stderr.String())
					}
					return stdout.Bytes()
				}
				exe(append([]string{"-o", out}, in.args...)...)
				tree := filetree.Read(t, out)
				// The stream alternates with the tree so each run
				// exercises one process per form.
				var stream []byte
				if run%4 < 2 {
					stream = exe(in.args...)
				}
				if run == 0 {
					first, firstStream = tree, stream
					if len(tree) < 2 || len(stream) == 0 {
						t.Fatalf("too little output: %d files, %d bytes", len(tree), len(stream))
					}
					continue
				}
				if len(tree) != len(first) {
					t.Fatalf("run %d (GOMAXPROCS=%s): %d files, run 0 wrote %d", run, procs, len(tree), len(first))
				}
				for rel, data := range first {
					if !bytes.Equal(tree[rel], data) {
						t.Fatalf("run %d (GOMAXPROCS=%s): %s differs from run 0", run, procs, rel)
					}
				}
				if stream != nil && !bytes.Equal(stream, firstStream) {
					t.Fatalf("run %d (GOMAXPROCS=%s): stdout differs from run 0", run, procs)
				}
			}
		})
	}
}
