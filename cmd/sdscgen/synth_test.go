package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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
	// --family is synth.Config.Family, for every family.
	for _, fam := range synth.Families {
		want.Reset()
		if err := synth.Generate(&want, synth.Config{Ops: 50, Bundles: 3, Seed: 7, Family: fam}); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if code := run([]string{"synth", "--ops", "50", "--bundles", "3", "--seed", "7", "--family", fam}, nil, &out, &errs); code != exitOK {
			t.Fatalf("--family %s: exit %d: %s", fam, code, errs.String())
		}
		if !bytes.Equal(out.Bytes(), want.Bytes()) {
			t.Errorf("--family %s: stdout differs from synth.Generate", fam)
		}
	}
	for _, bad := range [][]string{{"--ops", "0"}, {"--ops", "2", "--bundles", "3"}, {"extra"}, {"--nope"}, {"--kinds", "-1"}, {"--family", "deep"}, {"--family", ""}} {
		errs.Reset()
		if code := run(append([]string{"synth"}, bad...), nil, &out, &errs); code != exitUsage {
			t.Errorf("synth %v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

// TestSynthName: --name must be a name of the language (a letter or _,
// then letters, digits, _ or .) and not a keyword, or the graph written
// would not parse; a good one is the graph's name.
func TestSynthName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"graph", `--name: "graph" is a keyword and cannot be used as a name`},
		{"fused", `--name: "fused" is a keyword and cannot be used as a name`},
		{"a b", `--name: "a b" is not a name: ' ' at byte 2`},
		{"x{}", `--name: "x{}" is not a name: '{' at byte 2`},
		{"é", `--name: "é" is not a name: 'é' at byte 1`},
		{"a\nb", `--name: "a\nb" is not a name: '\n' at byte 2`},
		{"1x", `--name: "1x" is not a name: '1' at byte 1`},
		{".x", `--name: ".x" is not a name: '.' at byte 1`},
		{"", `--name: a name cannot be empty`},
	} {
		var out, errs bytes.Buffer
		code := run([]string{"synth", "--ops", "3", "--name", c.name}, nil, &out, &errs)
		if code != exitUsage || out.Len() != 0 || !strings.HasPrefix(errs.String(), "sdscgen synth: "+c.want+" (") {
			t.Errorf("--name %q: exit %d, stdout %d bytes, stderr %q; want exit %d and %q", c.name, code, out.Len(), errs.String(), exitUsage, c.want)
		}
	}
	var out, errs bytes.Buffer
	if code := run([]string{"synth", "--ops", "3", "--name", "_m.v2"}, nil, &out, &errs); code != exitOK || !strings.Contains(out.String(), "\ngraph _m.v2 {\n") {
		t.Fatalf("--name _m.v2: exit %d, %s", code, errs.String())
	}
	src := out.String()
	out.Reset()
	if code := run([]string{"--plan", "-", "-"}, strings.NewReader(src), &out, &errs); code != exitOK || !strings.Contains(out.String(), `"graph": "_m.v2"`) {
		t.Errorf("planning --name _m.v2: exit %d, %s", code, errs.String())
	}
}
