package frontend

import (
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	data, _ := os.ReadFile("/tmp/probe.txt")
	for _, src := range strings.Split(string(data), "\n===\n") {
		src = strings.ReplaceAll(src, `\r`, "\r")
		f, errs := Parse("p.bir", []byte(src))
		_, rerrs := parseReference("p.bir", []byte(src))
		if errs.Error() != rerrs.Error() {
			t.Errorf("DIFF %q\n  %v\n  %v", src, errs, rerrs)
		}
		if errs != nil {
			t.Logf("%q\n    %v", src, errs)
			continue
		}
		g, cerrs := Check(f)
		if cerrs != nil {
			t.Logf("%q\n    %v", src, cerrs)
			continue
		}
		_ = g
		t.Logf("%q OK", src)
	}
}
