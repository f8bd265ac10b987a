// Package randgraph writes seeded random, always-valid bundle IR for
// property tests and fuzz seeds: buffers of mixed sizes (some zero),
// graph inputs and outputs, LX claims, alias groups, rename chains, fused
// and loop bundles nested a few levels with step lists, and CPU fallback
// nodes. The same seed always gives the same text.
package randgraph

import (
	"fmt"
	"math/rand"
	"strings"
)

// Config bounds the size of a generated graph.
type Config struct {
	Buffers  int // declared buffers (at least 1)
	Bundles  int // top-level nodes
	MaxOps   int // leaf ops per bundle at most
	MaxDepth int // loop nesting at most
}

// Default is a small graph where every rule has a fair chance to fire.
var Default = Config{Buffers: 12, Bundles: 4, MaxOps: 6, MaxDepth: 3}

type gen struct {
	r     *rand.Rand
	cfg   Config
	b     strings.Builder
	names []string // referable names: declared buffers and rename sources
	node  int
	// bundle is the index of the top-level node being written; most
	// accesses pick names "owned" by it (index = bundle mod Bundles) so
	// that bundle-local buffers, the ones that get pooled, are common.
	bundle int
}

// Generate returns one random graph.
func Generate(r *rand.Rand, cfg Config) string {
	g := &gen{r: r, cfg: cfg}
	fmt.Fprintf(&g.b, "graph g%d {\n", r.Intn(100))
	n := max(cfg.Buffers, 1)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&g.b, "  buffer b%d : %s\n", i, g.size())
		g.names = append(g.names, fmt.Sprintf("b%d", i))
	}
	// Renames: r_k -> an existing name; chains arise because a later
	// rename may target an earlier rename's source. Sources are fresh
	// names, so there is never a cycle.
	for k := 0; k < r.Intn(3); k++ {
		src := fmt.Sprintf("r%d", k)
		fmt.Fprintf(&g.b, "  rename %s -> %s\n", src, g.pick())
		g.names = append(g.names, src)
	}
	for k := 0; k < r.Intn(3); k++ {
		fmt.Fprintf(&g.b, "  alias %s = %s\n", g.pick(), g.pick())
	}
	for _, kw := range []string{"input", "output", "lx"} {
		if r.Intn(4) == 0 {
			fmt.Fprintf(&g.b, "  %s %s\n", kw, g.pick())
		}
	}
	for k := 0; k < cfg.Bundles; k++ {
		g.bundle = k
		switch r.Intn(6) {
		case 0:
			g.op(0, "  ")
		case 1:
			g.cpu()
		case 2:
			g.loop(0, "  ")
		default:
			g.fused()
		}
	}
	g.b.WriteString("}\n")
	return g.b.String()
}

func (g *gen) pick() string { return g.names[g.r.Intn(len(g.names))] }

// pickLocal prefers the names owned by the current bundle.
func (g *gen) pickLocal() string {
	nb := max(g.cfg.Bundles, 1)
	if g.r.Intn(10) < 9 && len(g.names) > g.bundle%nb {
		var own []string
		for i := g.bundle % nb; i < len(g.names); i += nb {
			own = append(own, g.names[i])
		}
		return own[g.r.Intn(len(own))]
	}
	return g.pick()
}

func (g *gen) size() string {
	switch g.r.Intn(8) {
	case 0:
		return "0"
	case 1:
		dt := []string{"f32", "f16", "bf16", "f8", "i64", "i32", "i16", "i8", "u8", "bool"}[g.r.Intn(10)]
		return fmt.Sprintf("%s[%d, %d]", dt, 1+g.r.Intn(4), 1+g.r.Intn(300))
	default:
		return fmt.Sprintf("%d bytes", 1+g.r.Intn(8192))
	}
}

func (g *gen) name(prefix string) string {
	g.node++
	return fmt.Sprintf("%s%d", prefix, g.node)
}

func (g *gen) accesses(depth int) string {
	var parts []string
	for k := 0; k <= g.r.Intn(3); k++ {
		a := g.pickLocal()
		if depth > 0 && g.r.Intn(2) == 0 {
			if g.r.Intn(2) == 0 {
				a += fmt.Sprintf(" step %d", 128*g.r.Intn(4))
			} else {
				var st []string
				for d := 0; d < depth; d++ {
					st = append(st, fmt.Sprint(128*g.r.Intn(3)))
				}
				a += " step [" + strings.Join(st, ", ") + "]"
			}
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, ", ")
}

func (g *gen) op(depth int, ind string) {
	fmt.Fprintf(&g.b, "%sop %s", ind, g.name("op"))
	if g.r.Intn(5) > 0 {
		fmt.Fprintf(&g.b, " reads %s", g.accesses(depth))
	}
	if g.r.Intn(5) > 0 {
		fmt.Fprintf(&g.b, " writes %s", g.accesses(depth))
	}
	g.b.WriteString("\n")
}

func (g *gen) cpu() {
	fmt.Fprintf(&g.b, "  cpu %s", g.name("cpu"))
	if g.r.Intn(2) == 0 {
		fmt.Fprintf(&g.b, " reads %s", g.accesses(0))
	}
	if g.r.Intn(2) == 0 {
		fmt.Fprintf(&g.b, " writes %s", g.accesses(0))
	}
	g.b.WriteString("\n")
}

func (g *gen) body(depth int, ind string) {
	for k := 0; k < 1+g.r.Intn(max(g.cfg.MaxOps, 1)); k++ {
		if depth < g.cfg.MaxDepth && g.r.Intn(4) == 0 {
			g.loop(depth, ind)
		} else {
			g.op(depth, ind)
		}
	}
}

func (g *gen) loop(depth int, ind string) {
	fmt.Fprintf(&g.b, "%sloop %s count %d {\n", ind, g.name("loop"), 1+g.r.Intn(8))
	g.body(depth+1, ind+"  ")
	fmt.Fprintf(&g.b, "%s}\n", ind)
}

func (g *gen) fused() {
	fmt.Fprintf(&g.b, "  fused %s {\n", g.name("fused"))
	g.body(0, "    ")
	g.b.WriteString("  }\n")
}
