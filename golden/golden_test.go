package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/sdscgen/sdscgen/internal/filetree"
	"github.com/sdscgen/sdscgen/internal/planschema"
)

// binary is the sdscgen built once for all cases.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sdscgen-golden-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "sdscgen")
	build := exec.Command("go", "build", "-o", binary, "../cmd/sdscgen")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building sdscgen: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Case is one golden folder.
type Case struct {
	Name string
	Dir  string
	Args []string // extra command-line arguments
	Env  []string // extra KEY=VALUE environment entries
}

// Cases lists the folders under testdata in name order.
func Cases(t testing.TB) []Case {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := Case{Name: e.Name(), Dir: filepath.Join("testdata", e.Name())}
		if data, err := os.ReadFile(filepath.Join(c.Dir, "args")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSpace(line)
				switch {
				case line == "" || strings.HasPrefix(line, "#"):
				case strings.HasPrefix(line, "env "):
					c.Env = append(c.Env, strings.TrimPrefix(line, "env "))
				default:
					c.Args = append(c.Args, line)
				}
			}
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	return cases
}

// Run runs sdscgen on the case's input with its arguments plus extra, in a
// clean environment, and returns stdout; it fails the test on a nonzero
// exit.
func Run(t testing.TB, c Case, extra ...string) []byte {
	t.Helper()
	args := append(append([]string{}, c.Args...), extra...)
	args = append(args, filepath.Join(c.Dir, "input.bir"))
	cmd := exec.Command(binary, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, c.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("sdscgen %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// TestGolden checks, for every case, the plan and every bundle's module in
// custom and generic form against the goldens, and that the stdout stream
// is the same modules joined by "// -----" lines.
func TestGolden(t *testing.T) {
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			gold := goldie.New(t, goldie.WithFixtureDir(c.Dir), goldie.WithNameSuffix(".golden"))
			custom, generic := t.TempDir(), t.TempDir()
			Run(t, c, "-o", custom)
			Run(t, c, "--generic", "-o", generic)
			cf, gf := filetree.Read(t, custom), filetree.Read(t, generic)

			gold.Assert(t, "plan.json", cf["plan.json"])
			if err := planschema.Validate(cf["plan.json"]); err != nil {
				t.Errorf("plan.json against docs/plan.schema.json: %v", err)
			}
			if !bytes.Equal(cf["plan.json"], gf["plan.json"]) {
				t.Errorf("plan.json differs between custom and generic runs")
			}
			plan := Run(t, c, "--plan", "-")
			if !bytes.Equal(plan, cf["plan.json"]) {
				t.Errorf("--plan - differs from -o DIR/plan.json")
			}

			var stream, gstream []byte
			n := 0
			for _, rel := range bundleOrder(t, cf["plan.json"]) {
				path := filepath.Join(rel, "bundle.mlir")
				mod, ok := cf[path]
				if !ok {
					t.Fatalf("no %s in -o output", path)
				}
				gold.Assert(t, rel+".mlir", mod)
				gold.Assert(t, rel+".generic.mlir", gf[path])
				if n > 0 {
					stream = append(stream, "// -----\n"...)
					gstream = append(gstream, "// -----\n"...)
				}
				stream = append(stream, mod...)
				gstream = append(gstream, gf[path]...)
				n++
			}
			if len(cf) != n+1 {
				t.Errorf("-o wrote %d files, want %d bundles + plan.json: %v", len(cf), n, filetree.Names(cf))
			}
			if got := Run(t, c); !bytes.Equal(got, stream) {
				t.Errorf("stdout stream differs from the -o modules joined by // -----")
			}
			if got := Run(t, c, "--generic"); !bytes.Equal(got, gstream) {
				t.Errorf("generic stdout stream differs from the -o modules")
			}
		})
	}
}

// bundleOrder returns the bundle names of a plan, in order.
func bundleOrder(t testing.TB, plan []byte) []string {
	var p struct {
		Bundles []struct{ Name string }
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		t.Fatalf("plan.json is not JSON: %v", err)
	}
	var names []string
	for _, b := range p.Bundles {
		names = append(names, b.Name)
	}
	return names
}
