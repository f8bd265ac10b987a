package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzCLI runs the command in-process on fuzzed argument vectors (NUL
// separated) over a small graph: whatever the flags, the exit status is
// 0, 1 or 2 (usage), or 3 with the verifier's message, never a panic.
// Arguments naming paths outside a scratch folder are skipped (the
// fuzzer must not write anywhere else), as are synth runs of 10000+ ops.
func FuzzCLI(f *testing.F) {
	dir, err := os.MkdirTemp("", "sdscgen-fuzzcli-")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.Chdir(wd) })
	os.WriteFile("in.bir", []byte(twoBundles), 0o644)
	os.WriteFile("in.csv", []byte(trapCSV), 0o644)
	for _, seed := range []string{
		"-", "in.bir", "--plan\x00-\x00in.bir", "-o\x00out\x00--svg\x00out\x00in.bir", "--allocator=best\x00--compare\x00-",
		"explain\x00in.bir\x00t", "--explain\x00t\x00--budget\x00065536\x00-", "pack\x00in.csv", "pack\x00--capacity\x0010\x00in.csv",
		"synth\x00--ops\x0050\x00--bundles\x003", "--segment-size=100\x00--reserve=200\x00-", "--dump-after=plan\x00--stats\x00--remarks=all\x00-",
		"--emit=addresses\x00--generic\x00--frontend-pool-allocation\x00-o\x00o2\x00-", "--no-pool\x00--bundle-symbolic-args=false\x00-",
		"--search-effort\x001\x00--allocator\x00best\x00-", "--force\x00-o\x00.\x00-",
	} {
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, argv string, useStdin bool) {
		args := strings.Split(argv, "\x00")
		for _, a := range args {
			if strings.Contains(a, "/") || strings.Contains(a, "..") || a == "." {
				return
			}
		}
		if len(args) > 0 && args[0] == "synth" {
			digits := 0
			for _, r := range argv {
				if r >= '0' && r <= '9' {
					digits++
					if digits >= 5 {
						return
					}
				} else {
					digits = 0
				}
			}
		}
		in := ""
		if useStdin {
			in = twoBundles
		}
		var out, errs bytes.Buffer
		code := run(args, strings.NewReader(in), &out, &errs)
		switch {
		case code == exitOK || code == exitBadInput || code == exitUsage:
		case code == exitInternal && strings.Contains(errs.String(), "plan verification failed"):
		default:
			t.Fatalf("%q: exit %d\n%s", args, code, errs.String())
		}
	})
}
