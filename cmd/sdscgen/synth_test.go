package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/synth"
)

func TestSynthCommand(t *testing.T) {
	var want bytes.Buffer
	if err := synth.Generate(&want, synth.Config{Ops: 50, Bundles: 3, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"synth", "--ops", "50", "--bundles", "3", "--seed", "7"}, nil, &out, &errs); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !bytes.Equal(out.Bytes(), want.Bytes()) {
		t.Errorf("stdout differs from synth.Generate")
	}
	path := filepath.Join(t.TempDir(), "g.bir")
	out.Reset()
	if code := run([]string{"synth", "--ops", "50", "--bundles", "3", "--seed", "7", "-o", path}, nil, &out, &errs); code != exitOK {
		t.Fatalf("-o: exit %d: %s", code, errs.String())
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want.Bytes()) || out.Len() != 0 {
		t.Errorf("-o file differs from synth.Generate, or stdout not empty")
	}
	// The generated graph goes through the whole pipeline.
	out.Reset()
	if code := run([]string{"--plan", "-", path}, nil, &out, &errs); code != exitOK {
		t.Fatalf("planning the synthetic graph: exit %d: %s", code, errs.String())
	}
	// --kinds is synth.Config.Kinds.
	want.Reset()
	if err := synth.Generate(&want, synth.Config{Ops: 50, Bundles: 3, Seed: 7, Kinds: 4}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"synth", "--ops", "50", "--bundles", "3", "--seed", "7", "--kinds", "4"}, nil, &out, &errs); code != exitOK {
		t.Fatalf("--kinds: exit %d: %s", code, errs.String())
	}
	if !bytes.Equal(out.Bytes(), want.Bytes()) || !bytes.Contains(out.Bytes(), []byte(" kind ")) {
		t.Errorf("--kinds 4: stdout differs from synth.Generate, or has no kind")
	}
	for _, bad := range [][]string{{"--ops", "0"}, {"--ops", "2", "--bundles", "3"}, {"extra"}, {"--nope"}, {"--kinds", "-1"}} {
		errs.Reset()
		if code := run(append([]string{"synth"}, bad...), nil, &out, &errs); code != exitUsage {
			t.Errorf("synth %v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}
