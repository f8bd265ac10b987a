package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/report"
)

// The SDSC cache in the reports, on the contract's example of the cache
// (golden cache_flat_views, whose comments reason it): a and b are both
// relu with the same storage (a view of input x, a pooled group) and the
// same symbol shape, so b names a's file; c (add) is the only op of its
// kind. Bundle f: 3 steps, 2 files, 1 op reusing.
func TestSDSCReports(t *testing.T) {
	p := plan(t, "cache_flat_views", planner.DefaultBudget)
	for _, c := range []struct {
		cache bool
		row   string
	}{
		{true, "f 3 2 1 "},
		// Off: every op its own file.
		{false, "f 3 3 0 "},
	} {
		var b bytes.Buffer
		if err := report.Stats(&b, p, c.cache); err != nil {
			t.Fatal(err)
		}
		var row string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "f ") {
				row = strings.Join(strings.Fields(l), " ")
				break
			}
		}
		if !strings.HasPrefix(row, c.row) {
			t.Errorf("cache %v: row %q, want it to start %q\n%s", c.cache, row, c.row, b.String())
		}
	}
	for _, c := range []struct {
		name  string
		cache bool
		want  string
	}{
		{"a", true, "SDSC file sdsc_0.json: its own: no earlier op of the bundle has its kind\n"},
		{"b", true, "SDSC file sdsc_0.json: shared with a (step 0), which compiled it: the same kind, cores, read and write counts, storage per access and symbol table shape\n"},
		{"c", true, "SDSC file sdsc_1.json: its own: no earlier op of the bundle has its kind\n"},
		{"b", false, "SDSC file sdsc_1.json: its own (the SDSC cache is off: every op compiles its own file)\n"},
	} {
		var b bytes.Buffer
		if err := report.Explain(&b, p, c.name, c.cache); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if !strings.HasPrefix(got, "op "+c.name+": step ") || !strings.Contains(got, "\n"+c.want) {
			t.Errorf("explain %s (cache %v):\n%s\nwant a line %q", c.name, c.cache, got, c.want)
		}
	}
}
