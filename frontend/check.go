package frontend

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
)

// maxNodeName is the longest node name accepted: bundle names become
// directory names, and 255 bytes is the common file-name limit.
const maxNodeName = 255

// dtypes are the dtypes of contract section 1.1, in its order, with their
// element sizes.
var dtypes = [...]struct {
	name  string
	bytes int64
}{{"f32", 4}, {"f16", 2}, {"bf16", 2}, {"f8", 1}, {"i64", 8}, {"i32", 4}, {"i16", 2}, {"i8", 1}, {"u8", 1}, {"bool", 1}}

// elemBytes is the element size of a dtype; 0 means unknown.
func elemBytes(dtype string) int64 {
	for _, d := range dtypes {
		if d.name == dtype {
			return d.bytes
		}
	}
	return 0
}

// dtypeList names the dtypes for the unknown-dtype error.
func dtypeList() string {
	var names []string
	for _, d := range dtypes {
		names = append(names, d.name)
	}
	return strings.Join(names, ", ")
}

// Check applies the meaning rules of the contract (section 1.2) to a file
// that Parse returned without errors. It reports every violation it finds, sorted by position, and builds
// the graph only when there is none: the later stages rely on the graph
// being fully valid. (The tool runs ParseCheck, which needs no AST; Check
// is the reference parser's path, and the differential test holds the
// two equal.)
func Check(f *File) (*ir.Graph, ErrorList) {
	b := newBuilder(f.Filename, 0)
	b.graphName(f.Graph.Name)
	for i := range f.Graph.Buffers {
		d := &f.Graph.Buffers[i]
		b.buffer(d, 0, b.prefetch(d.Name.Value, 0))
	}
	for _, d := range f.Graph.Decls {
		switch {
		case d.Rename != nil:
			b.rename(d.Rename.From, d.Rename.To)
		case d.Alias != nil:
			b.alias(d.Alias)
		case d.List != nil:
			b.list(d.List.Kind, d.List.Names)
		}
	}
	b.nodes(f.Graph.Nodes)
	return b.finish()
}

// nodes feeds a body's nodes to b.
func (b *builder) nodes(nodes []Node) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Leaf != nil:
			n.Leaf.build(b)
		case n.Fused != nil:
			b.openFused(n.Fused.Name)
			b.nodes(n.Fused.Body)
			b.close()
		case n.Loop != nil:
			b.openLoop(n.Loop.Name, n.Loop.Count)
			b.nodes(n.Loop.Body)
			b.close()
		}
	}
}

func at(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

func roundUp(n int64) int64 { return (n + ir.StickBytes - 1) / ir.StickBytes * ir.StickBytes }

// mul multiplies two non-negative int64s, reporting overflow.
func mul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// add adds two non-negative int64s, reporting overflow.
func add(a, b int64) (int64, bool) {
	if s := a + b; s >= a {
		return s, true
	}
	return 0, false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
