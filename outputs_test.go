package sdscgen_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sdscgen/sdscgen"
	"github.com/sdscgen/sdscgen/ir"
)

// TestChecked: Options.Checked sees the checked graph once, unfused when
// Unfused (examples/small.bir: one fused bundle of three ops, one
// standalone op, one CPU node: 2 bundles fused, 4 unfused), before the
// plan exists.
func TestChecked(t *testing.T) {
	src, err := os.ReadFile("examples/small.bir")
	if err != nil {
		t.Fatal(err)
	}
	for unfused, want := range map[bool]int{false: 2, true: 4} {
		calls, bundles := 0, 0
		res, err := sdscgen.Compile("small.bir", src, sdscgen.Options{Unfused: unfused, Checked: func(g *ir.Graph) {
			calls++
			bundles = len(g.Bundles)
		}})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 1 || bundles != want || len(res.Graph.Bundles) != want {
			t.Errorf("unfused %v: %d calls, %d bundles, want 1 call, %d", unfused, calls, bundles, want)
		}
	}
}

// TestOutputsTable: every output of the table is written by Write under
// its name, as its WriteX method writes it; an unknown name is an error;
// names and -o files are unique (the command reads them as keys).
func TestOutputsTable(t *testing.T) {
	src, err := os.ReadFile("examples/small.bir")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sdscgen.Compile("small.bir", src, sdscgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, files := map[string]bool{}, map[string]bool{}
	for _, o := range sdscgen.Outputs() {
		if names[o.Name] || (o.File != "" && files[o.File]) {
			t.Errorf("%s: name or file %q twice", o.Name, o.File)
		}
		names[o.Name], files[o.File] = true, o.File != ""
		var b bytes.Buffer
		a := sdscgen.Args{Arg: "all"}
		if o.Name == "explain" {
			a.Arg = "mm"
		}
		if err := res.Write(&b, o.Name, a); err != nil || b.Len() == 0 {
			t.Errorf("%s: %d bytes, %v", o.Name, b.Len(), err)
		}
	}
	var a, b bytes.Buffer
	res.WritePlanJSON(&a)
	res.Write(&b, "plan", sdscgen.Args{})
	if a.String() != b.String() {
		t.Errorf("WritePlanJSON and Write plan differ")
	}
	if err := res.Write(&b, "nope", sdscgen.Args{}); err == nil {
		t.Errorf("unknown output: no error")
	}
}
