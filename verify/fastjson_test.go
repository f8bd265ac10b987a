package verify

import (
	"bytes"
	"math/rand"
	"strconv"
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
	elems, matched, missed := 0, 0, 0
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
			for i := range g.Buffers.Len() {
				line := strings.TrimSpace(lines[i])
				line = strings.TrimSuffix(line, ",")
				want := c.appendBuffer(nil, i)
				if string(want) != line {
					t.Fatalf("seed %d %+v: buffer %d:\n got %s\nwant %s", seed, opt, i, want, line)
				}
				if n := c.matchBuffer(i, []byte(line+",\n")); n != len(line) {
					t.Fatalf("seed %d: buffer %d: matchBuffer %d, want %d: %s", seed, i, n, len(line), line)
				}
				// matchBuffer matches exactly the texts that begin
				// with appendBuffer's.
				r := rand.New(rand.NewSource(seed<<20 + int64(i)))
				for range 30 {
					mut := []byte(line + "]")
					for range 1 + r.Intn(2) {
						k := r.Intn(len(mut))
						switch r.Intn(3) {
						case 0:
							mut[k] = "0123456789-+.e ,:\"nul{}"[r.Intn(23)]
						case 1:
							mut = append(mut[:k:k], mut[k+1:]...)
						case 2:
							mut = append(mut[:k:k], append([]byte{"0123456789- "[r.Intn(12)]}, mut[k:]...)...)
						}
					}
					n := c.matchBuffer(i, mut)
					if bytes.HasPrefix(mut, want) != (n == len(want)) || (n != 0 && n != len(want)) {
						t.Fatalf("seed %d: buffer %d: matchBuffer(%s) = %d, want %s", seed, i, mut, n, want)
					}
					if n > 0 {
						matched++
					} else {
						missed++
					}
				}
				elems++
			}
		}
	}
	if elems < 1000 || matched < 1000 || missed < 1000 {
		t.Fatalf("only %d elements compared, %d edits matched, %d missed", elems, matched, missed)
	}
}

// TestBufferFastPathEscapes: a name that JSON must escape takes the long
// way (appendBuffer renders nothing), and the escaped text still passes.
func TestBufferFastPathEscapes(t *testing.T) {
	g, errs := frontend.ParseCheck("e.bir", []byte("graph e {\n  buffer a : 256\n  buffer b : 256\n  input a\n  output b\n  fused k {\n    op f reads a writes b\n  }\n}\n"))
	if errs != nil {
		t.Fatal(errs)
	}
	g.Buffers.At(0).Name = g.AddName("a\"\\é")
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	c := &checker{g: g, p: p, views: deriveViews(g)}
	if got := c.appendBuffer(nil, 0); got != nil {
		t.Fatalf("rendered %s for a name that needs escapes", got)
	}
	esc := []byte(`{"name": "a\"\\é", "size": 256, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-input", "group": "a\"\\é", "pos": "e.bir:2:10"}`)
	if n := c.matchBuffer(0, esc); n != 0 {
		t.Fatalf("matched %d bytes of %s", n, esc)
	}
	if got := c.appendBuffer(nil, 1); string(got) != `{"name": "b", "size": 256, "bundle": null, "start": null, "end": null, "offset": null, "view_offset": 0, "reason": "graph-output", "group": "b", "pos": "e.bir:3:10"}` {
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

// appendBuffer (the tests' reference for matchBuffer) appends to dst the text of element i of the buffers array
// that checkBuffer passes, laid out as planner.WriteJSON lays it out (an
// element in another layout is read and checked the long way). It
// returns nil when a string in it would need an escape.
func (c *checker) appendBuffer(dst []byte, i int) []byte {
	g, p := c.g, c.p
	buf := g.Buffers.At(i)
	pg := &p.Groups[buf.Group]
	str := func(s string) bool {
		for k := 0; k < len(s); k++ {
			if !plain[s[k]] {
				return false
			}
		}
		dst = append(dst, '"')
		dst = append(dst, s...)
		dst = append(dst, '"')
		return true
	}
	dst = append(dst, `{"name": `...)
	if !str(g.Str(buf.Name)) {
		return nil
	}
	dst = append(dst, `, "size": `...)
	dst = strconv.AppendInt(dst, buf.Size, 10)
	dst = append(dst, `, "bundle": `...)
	if pg.Bundle >= 0 {
		if !str(g.Bundles[pg.Bundle].Name) {
			return nil
		}
		dst = append(dst, `, "start": `...)
		dst = strconv.AppendInt(dst, int64(pg.Start), 10)
		dst = append(dst, `, "end": `...)
		dst = strconv.AppendInt(dst, int64(pg.End), 10)
	} else {
		dst = append(dst, `null, "start": null, "end": null`...)
	}
	dst = append(dst, `, "offset": `...)
	if pg.Offset >= 0 {
		dst = strconv.AppendInt(dst, pg.Offset, 10)
	} else {
		dst = append(dst, `null`...)
	}
	dst = append(dst, `, "view_offset": `...)
	want := claimedView(c.g, buf).ViewOffset
	if c.views != nil {
		if r, view := c.views.of(int32(i)); r >= 0 {
			want = view
		}
	}
	dst = strconv.AppendInt(dst, want, 10)
	dst = append(dst, `, "reason": `...)
	if pg.Reason == planner.Pooled {
		dst = append(dst, `null`...)
	} else if !str(pg.Reason.String()) {
		return nil
	}
	dst = append(dst, `, "group": `...)
	if !str(g.Str(g.Buffers.At(int(g.Root(&g.Groups[buf.Group]))).Name)) {
		return nil
	}
	dst = append(dst, `, "pos": `...)
	if !str(g.File + ":" + strconv.Itoa(int(buf.Pos.Line)) + ":" + strconv.Itoa(int(buf.Pos.Col))) {
		return nil
	}
	return append(dst, '}')
}

// TestArgOpFastPath: the fast paths of kernel_args and ops (matchArg,
// matchOp) expect each element exactly as planner.WriteJSON writes a
// correct plan's, and match exactly the texts that begin with it: on
// random graphs, every element line of those arrays is matched whole,
// and a randomly edited line is matched only when it still begins with
// the written one.
func TestArgOpFastPath(t *testing.T) {
	args, ops, matched, missed := 0, 0, 0, 0
	for seed := int64(0); seed < 150; seed++ {
		src := randgraph.Generate(rand.New(rand.NewSource(seed)), randgraph.Default)
		g, errs := frontend.ParseCheck("r.bir", []byte(src))
		if errs != nil {
			t.Fatal(errs)
		}
		p := planner.Plan(g, planner.Options{Budget: []int64{planner.DefaultBudget, 1024}[seed%2]})
		var js bytes.Buffer
		if err := planner.WriteJSON(&js, p); err != nil {
			t.Fatal(err)
		}
		s := &v2State{c: &checker{g: g, p: p}}
		// The bundles' element lines, in order: each bundle's
		// kernel_args lines, then its ops lines.
		lines := strings.Split(js.String(), "\n")
		bi, in := -1, ""
		k := 0
		for _, l := range lines {
			l = strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(l, `{"name": `) && strings.Contains(l, `"steps": `):
				bi, in = bi+1, ""
				continue
			case l == `"kernel_args": [`, l == `"kernel_args": [],`:
				in, k = "args", 0
				continue
			case l == `],`, l == `]}`, l == `]},`, l == `"ops": [`, l == `"ops": []}`, l == `"ops": []},`:
				in, k = map[bool]string{true: "ops", false: ""}[l == `"ops": [`], 0
				continue
			case strings.HasPrefix(l, `"buffers": [`):
				in = "done"
			}
			if in != "args" && in != "ops" {
				continue
			}
			line := strings.TrimSuffix(l, ",")
			match, min := s.matchArg, s.argMin
			if in == "ops" {
				match, min = s.matchOp, s.opMin
				ops++
			} else {
				args++
			}
			if n := match(bi, k, []byte(line+",\n")); n != len(line) {
				t.Fatalf("seed %d: bundle %d %s %d: matched %d, want %d: %s", seed, bi, in, k, n, len(line), line)
			}
			if min(bi, k) < len(line) {
				t.Fatalf("seed %d: bundle %d %s %d: min %d < %d", seed, bi, in, k, min(bi, k), len(line))
			}
			r := rand.New(rand.NewSource(seed<<20 + int64(bi)<<10 + int64(k)))
			for range 20 {
				mut := []byte(line + "]")
				for range 1 + r.Intn(2) {
					j := r.Intn(len(mut))
					switch r.Intn(3) {
					case 0:
						mut[j] = "0123456789-+.e ,:\"nul{}[]"[r.Intn(25)]
					case 1:
						mut = append(mut[:j:j], mut[j+1:]...)
					case 2:
						mut = append(mut[:j:j], append([]byte{"0123456789- "[r.Intn(12)]}, mut[j:]...)...)
					}
				}
				n := match(bi, k, mut)
				if strings.HasPrefix(string(mut), line) != (n == len(line)) || (n != 0 && n != len(line)) {
					t.Fatalf("seed %d: bundle %d %s %d: match(%s) = %d, want %s", seed, bi, in, k, mut, n, line)
				}
				if n > 0 {
					matched++
				} else {
					missed++
				}
			}
			k++
		}
		if bi+1 != len(g.Bundles) {
			t.Fatalf("seed %d: read %d bundles, the graph has %d", seed, bi+1, len(g.Bundles))
		}
	}
	if args < 500 || ops < 500 || matched < 1000 || missed < 1000 {
		t.Fatalf("only %d kernel arguments and %d ops compared, %d edits matched, %d missed", args, ops, matched, missed)
	}
}
