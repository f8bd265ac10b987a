package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
)

// verifyInput has one pooled buffer t in bundle k.
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

func runVerifyCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(verifyInput), &out, &errb)
	return code, out.String(), errb.String()
}

// TestVerifyFlag: --verify is on by default and stops a run whose plan
// breaks a rule with exit 3 and an internal-error message, before
// anything is written; --verify=false lets the same plan through.
func TestVerifyFlag(t *testing.T) {
	if code, _, stderr := runVerifyCLI(t, "--plan", "-", "-"); code != exitOK {
		t.Fatalf("clean run: exit %d\n%s", code, stderr)
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
	defer func() { planHook = nil }()
	for name, corrupt := range corruptions {
		t.Run(name, func(t *testing.T) {
			planHook = corrupt
			dir := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runVerifyCLI(t, "-o", dir, "-")
			if code != exitInternal {
				t.Fatalf("exit %d, want %d\n%s", code, exitInternal, stderr)
			}
			if !strings.HasPrefix(stderr, "sdscgen: internal error: plan verification failed: ") {
				t.Errorf("stderr %q", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("-o DIR was created: %v", err)
			}
			entries, _ := os.ReadDir(filepath.Dir(dir))
			if len(entries) != 0 {
				t.Errorf("stray files beside -o DIR: %v", entries)
			}
			code, _, stderr = runVerifyCLI(t, "--verify=false", "--plan", "-", "-")
			if code != exitOK {
				t.Errorf("--verify=false: exit %d\n%s", code, stderr)
			}
		})
	}
}
