package verify

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/planner"
)

// TestBufferFastPath: the buffers' fast path (appendBuffer) expects each
// element exactly as planner.WriteJSON writes a correct plan's (else every
// element would be read the long way, correct but slow): on random graphs
// with views, non-candidates, over-budget fallbacks and planning off,
// every element of the buffers array is the text appendBuffer renders.
func TestBufferFastPath(t *testing.T) {
	elems := 0
	for seed := int64(0); seed < 150; seed++ {
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default)
		g, errs := frontend.ParseCheck("r.bir", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		for _, opt := range []planner.Options{
			{Budget: planner.DefaultBudget},
			{Budget: 1024}, // some candidates fall back over budget
			{Budget: planner.DefaultBudget, Disabled: true},
		} {
			p := planner.Plan(g, opt)
			var js bytes.Buffer
			if err := planner.WriteJSON(&js, p); err != nil {
				t.Fatal(err)
			}
			_, after, ok := strings.Cut(js.String(), "\"buffers\": [\n")
			if !ok {
				t.Fatalf("no buffers array:\n%s", js.String())
			}
			lines := strings.Split(after, "\n")
			c := &checker{g: g, p: p, views: deriveViews(g)}
			for i := range g.Buffers {
				line := strings.TrimSpace(lines[i])
				line = strings.TrimSuffix(line, ",")
				if got := string(c.appendBuffer(nil, i)); got != line {
					t.Fatalf("seed %d %+v: buffer %d:\n got %s\nwant %s", seed, opt, i, got, line)
				}
				elems++
			}
		}
	}
	if elems < 1000 {
		t.Fatalf("only %d elements compared", elems)
	}
}

// TestBufferFastPathEscapes: a name that JSON must escape takes the long
// way (appendBuffer renders nothing), and the escaped text still passes.
func TestBufferFastPathEscapes(t *testing.T) {
	g, errs := frontend.ParseCheck("e.bir", []byte("graph e {\n  buffer a : 256\n  buffer b : 256\n  input a\n  output b\n  fused k {\n    op f reads a writes b\n  }\n}\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	g.Buffers[0].Name = "a\"\\é"
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	c := &checker{g: g, p: p, views: deriveViews(g)}
	if got := c.appendBuffer(nil, 0); got != nil {
		t.Fatalf("rendered %s for a name that needs escapes", got)
	}
	if got := c.appendBuffer(nil, 1); string(got) != `{"name": "b", "size": 256, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-output"}` {
		t.Fatalf("buffer b: %s", got)
	}
	var js bytes.Buffer
	if err := planner.WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if err := JSON(g, p, js.Bytes()); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(js.Bytes(), []byte(`"size": 256`), []byte(`"size": 384`), 1)
	if err := JSON(g, p, bad); err == nil || !strings.Contains(err.Error(), `size 384, want 256`) {
		t.Fatalf("an edited size behind an escaped name: %v", err)
	}
}
