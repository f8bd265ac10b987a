package examples

import (
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/internal/planschema"
)

// TestZooPlanSchema: the plan of every model of the zoo and of every
// example, under the default flags, with --compare and with fusion off,
// is valid under docs/plan.schema.json.
func TestZooPlanSchema(t *testing.T) {
	bin := sdscgen(t)
	paths, err := filepath.Glob("*.bir")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range zoo {
		paths = append(paths, filepath.Join("models", name+".bir"))
	}
	for _, path := range paths {
		for _, flags := range [][]string{nil, {"--compare"}, {"--bundle-symbolic-args=false"}} {
			args := append(append([]string{}, flags...), "--plan", "-", path)
			if err := planschema.Validate(run(t, nil, bin, args...)); err != nil {
				t.Errorf("%s %v: %v", path, flags, err)
			}
		}
	}
}
