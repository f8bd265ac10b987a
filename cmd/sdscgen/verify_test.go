package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen"
)

// TestVerifyFailureExit: a plan the library's verifier rejects (its own
// test, TestVerifyCatches, corrupts real plans) stops the run with exit
// 3 and an internal-error message, before anything is written.
func TestVerifyFailureExit(t *testing.T) {
	p := &process{compile: func(string, io.Reader, sdscgen.Options) (*sdscgen.Result, error) {
		return nil, &sdscgen.VerifyError{Err: errors.New("t [0, 256) overlaps u")}
	}}
	dir := filepath.Join(t.TempDir(), "out")
	var out, errb bytes.Buffer
	code := p.run([]string{"-o", dir, "--plan", filepath.Join(filepath.Dir(dir), "p.json"), "-"}, strings.NewReader(small), &out, &errb)
	if code != exitInternal {
		t.Fatalf("exit %d, want %d\n%s", code, exitInternal, errb.String())
	}
	if got, want := errb.String(), "sdscgen: internal error: plan verification failed: t [0, 256) overlaps u\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}

// TestVerifyFlagOptions: --verify=false is NoVerify; the default verifies.
func TestVerifyFlagOptions(t *testing.T) {
	for _, c := range []struct {
		args     []string
		noVerify bool
	}{{[]string{"-"}, false}, {[]string{"--verify=false", "-"}, true}, {[]string{"--verify", "-"}, false}} {
		cfg, _, ok := parseFlags(c.args, &bytes.Buffer{}, &bytes.Buffer{})
		if !ok || cfg.opt.NoVerify != c.noVerify {
			t.Errorf("%v: ok %v, NoVerify %v", c.args, ok, cfg != nil && cfg.opt.NoVerify)
		}
	}
}
