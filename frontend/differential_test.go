package frontend

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/internal/randgraph"
	"github.com/sdscgen/sdscgen/ir"
)

// sameAsReference requires Parse and the reference parser of ast.go to
// agree on src: the same AST when both succeed, the same diagnostics
// otherwise; and ParseCheck to return the graph, or the diagnostics,
// that Check returns for the reference AST. It reports whether src
// parsed.
func sameAsReference(t *testing.T, name string, src []byte) bool {
	t.Helper()
	f, errs := Parse(name, src)
	rf, rerrs := parseReference(name, src)
	if got, want := errs.Error(), rerrs.Error(); got != want || len(errs) != len(rerrs) {
		t.Fatalf("%s: diagnostics differ\nParse:     %s\nreference: %s\ninput:\n%s", name, got, want, clip(src))
	}
	if !reflect.DeepEqual(f, rf) {
		t.Fatalf("%s: ASTs differ\nParse:     %s\nreference: %s\ninput:\n%s", name, dumpAST(f), dumpAST(rf), clip(src))
	}
	// ParseCheck builds no AST: it must return what Check returns for
	// the reference parser's AST, graph and diagnostics.
	g, gerrs := ParseCheck(name, src)
	var rg *ir.Graph
	if rf != nil {
		rg, rerrs = Check(rf)
	}
	if got, want := gerrs.Error(), rerrs.Error(); got != want || len(gerrs) != len(rerrs) {
		t.Fatalf("%s: diagnostics differ\nParseCheck:      %s\nreference+Check: %s\ninput:\n%s", name, got, want, clip(src))
	}
	if !sameGraph(g, rg) {
		t.Fatalf("%s: graphs differ\nParseCheck:\n%s\nreference+Check:\n%s\ninput:\n%s", name, dumpGraph(g), dumpGraph(rg), clip(src))
	}
	// The same when the scanner runs ahead on its own goroutine (pipe.go),
	// in batches of one token or of a few, and when it runs in line (a
	// minimum above any input's size); with the duplicate node names
	// looked for on a goroutine of their own, or in line.
	for _, cfg := range []pipeConfig{{0, 1, 1, 0, 1, nil}, {0, 3, 2, 1, 1, nil}, {0, 4, 3, 2, 0, nil}, {1 << 30, 4096, 3, 0, 0, nil}} {
		pg, perrs := parseCheck(name, src, cfg)
		if got, want := perrs.Error(), gerrs.Error(); got != want || len(perrs) != len(gerrs) {
			t.Fatalf("%s: diagnostics differ\nParseCheck scanning ahead %+v: %s\nParseCheck: %s\ninput:\n%s", name, cfg, got, want, clip(src))
		}
		if !sameGraph(pg, g) {
			t.Fatalf("%s: graphs differ\nParseCheck scanning ahead %+v:\n%s\nParseCheck:\n%s\ninput:\n%s", name, cfg, dumpGraph(pg), dumpGraph(g), clip(src))
		}
	}
	// ParseCheckReader must return the same through a window of any
	// size, from a reader that gives any number of bytes at a time, with
	// a window the parser has released overwritten at once: a
	// window of 4 moves on inside almost every token (and grows for the
	// longer ones); the default one holds small inputs whole, with or
	// without the size known, and copes with a size said too small.
	for i, c := range []struct{ size, win, chunk int }{{0, 4, 1}, {0, 5, 7}, {len(src), 4, 3}, {0, 16, 0}, {0, windowSize, 0}, {len(src), windowSize, 5}, {1, windowSize, 0}} {
		// Where the window holds the input whole, the scanner runs
		// ahead, in batches of 1 to 7 tokens.
		sg, serrs, err := parseCheckReader(name, &chunkReader{src: src, max: c.chunk, seed: i}, c.size, window{size: c.win, limit: maxSource, poison: true}, pipeConfig{0, 1 + i, 2, i % 3, i % 2, nil})
		if err != nil {
			t.Fatalf("%s: ParseCheckReader %+v: read error %v", name, c, err)
		}
		if got, want := serrs.Error(), gerrs.Error(); got != want || len(serrs) != len(gerrs) {
			t.Fatalf("%s: diagnostics differ\nParseCheckReader %+v: %s\nParseCheck: %s\ninput:\n%s", name, c, got, want, clip(src))
		}
		if !sameGraph(sg, g) {
			t.Fatalf("%s: graphs differ\nParseCheckReader %+v:\n%s\nParseCheck:\n%s\ninput:\n%s", name, c, dumpGraph(sg), dumpGraph(g), clip(src))
		}
	}
	return f != nil
}

// chunkReader reads src max bytes at a time, or (max 0) 0 to 7 bytes,
// in a fixed pseudo-random sequence from seed, and returns io.EOF with
// the last ones; with max < 0 it returns nothing, ever.
type chunkReader struct {
	src       []byte
	max, seed int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	r.seed = r.seed*1103515245 + 12345
	n := r.max
	switch {
	case n == 0:
		n = int(uint(r.seed)>>16) % 8 // 0..7
	case n < 0:
		return 0, nil // a broken reader
	}
	n = min(n, len(p), len(r.src))
	copy(p, r.src[:n])
	r.src = r.src[n:]
	if len(r.src) == 0 {
		return n, io.EOF
	}
	return n, nil
}

func dumpGraph(g *ir.Graph) string {
	if g == nil {
		return "<nil>"
	}
	return dump(g)
}

func clip(src []byte) string {
	if len(src) > 2000 {
		return fmt.Sprintf("%q...", src[:2000])
	}
	return fmt.Sprintf("%q", src)
}

// dumpAST prints an AST for a failure message; reflect.DeepEqual is the
// comparison.
func dumpAST(f *File) string {
	if f == nil {
		return "<nil>"
	}
	var b strings.Builder
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			b.WriteString("&")
			walk(v.Elem())
		case reflect.Struct:
			b.WriteString(v.Type().Name() + "{")
			for i := 0; i < v.NumField(); i++ {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(v.Type().Field(i).Name + ":")
				walk(v.Field(i))
			}
			b.WriteString("}")
		case reflect.Slice:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			b.WriteString("[")
			for i := 0; i < v.Len(); i++ {
				if i > 0 {
					b.WriteString(" ")
				}
				walk(v.Index(i))
			}
			b.WriteString("]")
		default:
			fmt.Fprintf(&b, "%q", fmt.Sprint(v.Interface()))
		}
	}
	walk(reflect.ValueOf(f).Elem())
	return b.String()
}

// TestDifferentialFiles compares the parsers on every .bir file the
// repository holds: this package's valid and error cases, the spec
// example, the golden inputs and the examples.
func TestDifferentialFiles(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"testdata/*/*.bir",
		"../golden/testdata/*/input.bir",
		"../examples/*.bir",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 60 {
		t.Fatalf("only %d files", len(files))
	}
	ok := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if sameAsReference(t, file, src) {
			ok++
		}
	}
	// The contract's example, straight from the contract when it is at
	// hand (it lives beside the repository, in ../shared/spec).
	if spec, err := os.ReadFile("../../shared/spec/bundle-ir.md"); err == nil {
		m := regexp.MustCompile("(?s)```\n(// comments.*?\n)```").FindSubmatch(spec)
		if m == nil {
			t.Fatal("no example in the spec")
		}
		if !sameAsReference(t, "spec.bir", m[1]) {
			t.Fatal("the spec example does not parse")
		}
		ok++
	}
	t.Logf("%d files, %d parsed", len(files), ok)
}

// TestDifferentialRandom compares the parsers on random graphs and on
// mutants of them, which exercise every syntax error path.
func TestDifferentialRandom(t *testing.T) {
	configs := []randgraph.Config{
		randgraph.Default,
		{Buffers: 1, Bundles: 1, MaxOps: 1, MaxDepth: 0},
		{Buffers: 3, Bundles: 2, MaxOps: 3, MaxDepth: 1},
		{Buffers: 20, Bundles: 8, MaxOps: 8, MaxDepth: 4},
		{Buffers: 40, Bundles: 20, MaxOps: 4, MaxDepth: 6},
	}
	graphs, mutants := 2500, 2
	if testing.Short() {
		graphs = 100
	}
	r := rand.New(rand.NewSource(1))
	var nGraphs, nMutants, nParsed int
	kinds := map[string]bool{} // the diagnostics seen, names and tokens elided
	for i := 0; i < graphs; i++ {
		// Three graphs in four: randgraph's v1 syntax with v2 syntax
		// sprinkled in by addV2 (which also makes inputs that parse but
		// fail Check); the fourth: randgraph's own v2 programs.
		cfg := configs[i%len(configs)]
		cfg.V1 = i%4 > 0
		src := []byte(randgraph.Generate(r, cfg))
		if cfg.V1 {
			src = addV2(r, src)
		}
		if !sameAsReference(t, "rand.bir", src) {
			t.Fatalf("a random graph does not parse:\n%s", src)
		}
		nGraphs++
		for k := 0; k < mutants; k++ {
			m := mutate(r, src)
			if sameAsReference(t, "mutant.bir", m) {
				nParsed++
			} else {
				_, errs := Parse("mutant.bir", m)
				kinds[quoted.ReplaceAllString(errs[0].Msg, "Q")] = true
			}
			nMutants++
		}
	}
	t.Logf("%d graphs, %d mutants (%d of them parse, the others give %d kinds of error)", nGraphs, nMutants, nParsed, len(kinds))
	if testing.Verbose() {
		for k := range kinds {
			t.Log(k)
		}
	}
}

var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)

// mutate applies one to three random edits to src, on tokens or on bytes.
func mutate(r *rand.Rand, src []byte) []byte {
	out := append([]byte(nil), src...)
	for n := 1 + r.Intn(3); n > 0; n-- {
		if r.Intn(3) > 0 {
			out = mutateToken(r, out)
		} else {
			out = mutateByte(r, out)
		}
	}
	return out
}

// spans are the byte ranges of src's tokens, up to a lexical error.
func spans(src []byte) [][2]int {
	s := newScanner("", string(src))
	var out [][2]int
	for {
		var t token
		s.scan(&t)
		if t.kind == tokEOF {
			return out
		}
		out = append(out, [2]int{int(t.off), int(t.end)})
	}
}

// addV2 rewrites a random graph in v1 syntax (randgraph.Config.V1) to
// use the syntax contracts v2 and v3 added: `+ OFF` on alias lines,
// `kind` and `cores` on ops (now and then on cpu nodes, which parse and
// fail Check), and `split` on accesses, mostly with one entry per cores
// entry. The result always parses; it need not check.
func addV2(r *rand.Rand, src []byte) []byte {
	s := newScanner("", string(src))
	var out strings.Builder
	last := 0 // src[:last] is written
	insert := func(at int, text string) {
		out.Write(src[last:at])
		out.WriteString(text)
		last = at
	}
	ints := func(n int, unit int) string {
		if n == 1 && r.Intn(2) == 0 {
			return fmt.Sprint(unit * r.Intn(4))
		}
		var parts []string
		for k := 0; k < n; k++ {
			parts = append(parts, fmt.Sprint(unit*r.Intn(4)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var (
		prev     token
		kind     kw   // the construct being read
		nameNext bool // the next token is the name kind declares
		cores    int  // entries of the current leaf's cores list
		inAcc    bool // after an access, before what ends it
		inStep   bool // inside the access's step Ints
		inList   bool // inside its brackets
	)
	for {
		var t token
		s.scan(&t)
		punct := byte(0)
		if t.kind == tokPunct {
			punct = src[t.off]
		}
		switch {
		case inStep && (punct == '[' || inList):
			inList = punct != ']'
			if punct == '[' {
				inList = true
			}
			if !inList {
				inStep = false
			}
		case inStep:
			inStep = false // the single integer
		case inAcc && t.kind == tokKeyword && t.kw == kwStep:
			inStep = true
		case inAcc:
			inAcc = false
			if (cores > 0 && r.Intn(2) == 0) || r.Intn(20) == 0 {
				n := cores
				if n == 0 || r.Intn(10) == 0 {
					n = 1 + r.Intn(3)
				}
				insert(int(prev.end), " split "+ints(n, 1024))
			}
		}
		if t.kind == tokEOF {
			break
		}
		switch {
		case nameNext:
			nameNext = false
			clauses := ""
			if kind == kwOp && r.Intn(2) == 0 || kind == kwCPU && r.Intn(20) == 0 {
				clauses = " kind " + kindPool[r.Intn(len(kindPool))]
			}
			if kind == kwOp && r.Intn(3) == 0 || kind == kwCPU && r.Intn(20) == 0 {
				cores = 1 + r.Intn(3)
				list := ints(cores, 1)
				list = strings.ReplaceAll(list, "0", "2")
				clauses += " cores " + list
			}
			if clauses != "" {
				insert(int(t.end), clauses)
			}
		case t.kind == tokKeyword:
			switch t.kw {
			case kwOp, kwCPU, kwAlias, kwBuffer, kwRename, kwGraph, kwFused, kwLoop:
				kind, nameNext, cores = t.kw, true, 0
			case kwInput, kwOutput, kwLX:
				kind = t.kw
			}
		case t.kind == tokIdent && (kind == kwOp || kind == kwCPU):
			inAcc = true
		case t.kind == tokIdent && kind == kwAlias && prev.kind == tokPunct && src[prev.off] == '=':
			if r.Intn(2) == 0 {
				insert(int(t.end), fmt.Sprintf(" + %d", 128*r.Intn(20)))
			}
		}
		prev = t
	}
	out.Write(src[last:])
	return []byte(out.String())
}

// kindPool are the kinds addV2 writes: few, so that they repeat, one a
// dtype name and one a keyword with a suffix.
var kindPool = []string{"aten.relu.default.f16_8x64x56x56", "aten.add.Tensor", "f16", "kind_", "k.1"}

// extras are tokens worth inserting: every keyword and punctuation, a few
// names and integers, and the lexically bad.
var extras = []string{"graph", "buffer", "bytes", "input", "output", "lx", "alias", "rename", "op", "cpu",
	"fused", "loop", "count", "reads", "writes", "step", "cores", "split", "kind", "kind x", "{", "}", ":", ",", "=", "[", "]",
	"->", "+", "x", "f16", "KiB", "0", "7", "99999999999999999999", ";", "\n", "// c\n", "-", "/", "\r",
	"\r\n", "\x00", "\xff\xfe", "é", "4x"}

func mutateToken(r *rand.Rand, src []byte) []byte {
	sp := spans(src)
	if len(sp) < 2 {
		return mutateByte(r, src)
	}
	i := r.Intn(len(sp))
	a, b := sp[i][0], sp[i][1]
	tok := string(src[a:b])
	var repl string
	switch r.Intn(5) {
	case 0: // delete
	case 1: // duplicate
		repl = tok + " " + tok
	case 2: // swap with the next token
		if i+1 < len(sp) {
			c, d := sp[i+1][0], sp[i+1][1]
			return []byte(string(src[:a]) + string(src[c:d]) + string(src[b:c]) + tok + string(src[d:]))
		}
	case 3: // replace by another token of the file
		j := sp[r.Intn(len(sp))]
		repl = string(src[j[0]:j[1]])
	default: // replace by or insert an extra
		repl = extras[r.Intn(len(extras))]
		if r.Intn(2) == 0 {
			repl = " " + repl + " " + tok
		}
	}
	return []byte(string(src[:a]) + repl + string(src[b:]))
}

func mutateByte(r *rand.Rand, src []byte) []byte {
	if len(src) == 0 {
		return []byte(extras[r.Intn(len(extras))])
	}
	i := r.Intn(len(src))
	switch r.Intn(4) {
	case 0:
		return append(src[:i:i], src[i+1:]...)
	case 1:
		return append(src[:i+1:i+1], src[i:]...)
	case 2:
		j := r.Intn(len(src))
		out := append([]byte(nil), src...)
		out[i], out[j] = out[j], out[i]
		return out
	}
	e := extras[r.Intn(len(extras))]
	return append(append(src[:i:i], e...), src[i:]...)
}

// TestKeywordTable checks the table-driven keyword against a plain switch.
func TestKeywordTable(t *testing.T) {
	words := append(append([]string{}, extras...), "graphs", "opx", "o", "Op", "lxx", "cpus", "stepx", "loops", "_", "zzzzzzz", "f16", "cores", "count", "coret", "cords", "split", "spilt", "splix", "Cores", "core_s", "cores9", "kind", "kinds", "kine", "mind", "Kind", "kind.x", "kid")
	for k := kwGraph; k <= kwLast; k++ {
		w := kwText(k)
		words = append(words, w, w+"x", w[:len(w)-1], "x"+w[1:])
	}
	for _, w := range words {
		if w == "" || !(w[0] == '_' || w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z') {
			continue
		}
		if got, want := keyword(w), keywordSlow(w); got != want {
			t.Errorf("keyword(%q) = %d, want %d", w, got, want)
		}
	}
}

// TestKeywordDeclarations declares every keyword as a name in every
// declaration form, then uses it in an access and, on the next line,
// refers to an undeclared buffer. The declaration must be reported at the
// keyword, as the first error; the parse must go on past the use, so that
// the undeclared buffer is the last error; any error between them can
// only be the keyword's at its use (when no buffer has that name). Both
// parsers must agree.
func TestKeywordDeclarations(t *testing.T) {
	const use = "op a reads x writes K\n  op b reads nope\n"
	forms := []struct {
		name string
		src  string // K is the keyword, declared at line 3 (1 for graph), column col
		col  int
	}{
		{"graph", "graph K {\n  buffer x : 4\n  " + use + "}\n", 7},
		{"buffer", "graph g {\n  buffer x : 4\n  buffer K : 4\n  " + use + "}\n", 10},
		{"input", "graph g {\n  buffer x : 4\n  input x, K\n  " + use + "}\n", 12},
		{"output", "graph g {\n  buffer x : 4\n  output K, x\n  " + use + "}\n", 10},
		{"lx", "graph g {\n  buffer x : 4\n  lx K\n  " + use + "}\n", 6},
		{"alias view", "graph g {\n  buffer x : 4\n  alias K = x\n  " + use + "}\n", 9},
		{"alias target", "graph g {\n  buffer x : 4\n  alias x = K + 0\n  " + use + "}\n", 13},
		{"rename from", "graph g {\n  buffer x : 4\n  rename K -> x\n  " + use + "}\n", 10},
		{"rename to", "graph g {\n  buffer x : 4\n  rename x -> K\n  " + use + "}\n", 15},
		{"op", "graph g {\n  buffer x : 4\n  op K reads x\n  " + use + "}\n", 6},
		{"cpu", "graph g {\n  buffer x : 4\n  cpu K writes x\n  " + use + "}\n", 7},
		{"fused", "graph g {\n  buffer x : 4\n  fused K {\n    " + use + "  }\n}\n", 9},
		{"loop", "graph g {\n  buffer x : 4\n  loop K count 2 {\n    " + use + "  }\n}\n", 8},
	}
	for k := kwGraph; k <= kwLast; k++ {
		w := kwText(k)
		for _, f := range forms {
			src := strings.ReplaceAll(f.src, "K", w)
			name := strings.ReplaceAll(f.name, " ", "_") + "_" + w
			line := 3
			if f.name == "graph" {
				line = 1
			}
			sameAsReference(t, name, []byte(src))
			errs := parseAndCheck(name, []byte(src))
			first := fmt.Sprintf("%s:%d:%d: error: %s", name, line, f.col, keywordMsg(w))
			useLine := strings.Count(src[:strings.Index(src, "op a reads x writes")], "\n") + 1
			last := fmt.Sprintf("%s:%d:14: error: undeclared buffer \"nope\"", name, useLine+1)
			ok := len(errs) >= 2 && errs[0].Error() == first && errs[len(errs)-1].Error() == last
			for _, e := range errs[1 : len(errs)-1] {
				ok = ok && e.Pos.Line == useLine && e.Msg == keywordMsg(w)
			}
			if !ok {
				t.Errorf("%s: got\n%s\nwant first %s, last %s", name, errs.Error(), first, last)
			}
		}
	}
}

// sameGraph reports whether a and b are the same graph: reflect.DeepEqual
// but for Graph.Buffers, Graph.Accesses and Graph.AccessCols, whose
// elements are compared and not how they are laid out in chunks (a
// small source's first chunks are sized from its size, which only some
// of the parses are told; see
// newBuilder), and for the names of the buffers and ops, which are
// compared as strings and not where they are in Graph.Names (whose
// first block is sized the same way, so that the same names may be at
// other offsets). Either layout keeps each op's accesses in one chunk,
// which the verifier checks.
func sameGraph(a, b *ir.Graph) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Buffers.Len() != b.Buffers.Len() || len(a.Bundles) != len(b.Bundles) {
		return false
	}
	for i := range a.Buffers.Len() {
		x, y := *a.Buffers.At(i), *b.Buffers.At(i)
		if a.Str(x.Name) != b.Str(y.Name) {
			return false
		}
		x.Name, y.Name = ir.Name{}, ir.Name{}
		if x != y {
			return false
		}
	}
	if !sameChunked(&a.Accesses, &b.Accesses) || !sameChunked(&a.AccessCols, &b.AccessCols) {
		return false
	}
	ca, cb := *a, *b
	ca.Buffers, cb.Buffers = ir.Chunked[ir.Buffer]{}, ir.Chunked[ir.Buffer]{}
	ca.Accesses, cb.Accesses = ir.Chunked[ir.Access]{}, ir.Chunked[ir.Access]{}
	ca.AccessCols, cb.AccessCols = ir.Chunked[uint16]{}, ir.Chunked[uint16]{}
	ca.Names, cb.Names = ir.NameStore{}, ir.NameStore{}
	ca.Bundles, cb.Bundles = slices.Clone(a.Bundles), slices.Clone(b.Bundles)
	for bi := range ca.Bundles {
		x, y := &ca.Bundles[bi], &cb.Bundles[bi]
		if len(x.Ops) != len(y.Ops) {
			return false
		}
		x.Ops, y.Ops = slices.Clone(x.Ops), slices.Clone(y.Ops)
		for k := range x.Ops {
			if a.Str(x.Ops[k].Name) != b.Str(y.Ops[k].Name) {
				return false
			}
			x.Ops[k].Name, y.Ops[k].Name = ir.Name{}, ir.Name{}
		}
	}
	return reflect.DeepEqual(ca, cb)
}

func sameChunked[T any](a, b *ir.Chunked[T]) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if !reflect.DeepEqual(*a.At(i), *b.At(i)) {
			return false
		}
	}
	return true
}
