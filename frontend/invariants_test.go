package frontend

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// checkInvariants verifies what package ir promises about a checked graph.
func checkInvariants(t *testing.T, g *ir.Graph) {
	t.Helper()
	inGroup := make([]int, g.Buffers.Len())
	for gi, gr := range g.Groups {
		if gi > 0 && g.GroupKey(&g.Groups[gi-1]) >= g.GroupKey(&gr) {
			t.Errorf("groups not sorted: %q before %q", g.GroupKey(&g.Groups[gi-1]), g.GroupKey(&gr))
		}
		if len(g.Members(&gr)) == 0 {
			t.Errorf("empty group %q", g.GroupKey(&gr))
		}
		var size int64
		name := ""
		// The root (no alias's left side) first, then the views in
		// declaration order.
		for k, m := range g.Members(&gr) {
			b := g.Buffers.At(int(m))
			if (k == 0) != (b.View < 0) {
				t.Errorf("group %q: member %d, %d, has view index %d; only the first, the root, is no view", g.GroupKey(&gr), k, m, b.View)
			}
			if k > 1 && g.Members(&gr)[k-1] >= m {
				t.Errorf("group %q members out of order", g.GroupKey(&gr))
			}
			inGroup[m]++
			if int(b.Group) != gi {
				t.Errorf("buffer %q in group %q says group %d", g.Str(b.Name), g.GroupKey(&gr), b.Group)
			}
			size = max(size, g.ViewOf(b).ViewOffset+b.Size)
			if name == "" || g.Str(b.Name) < name {
				name = g.Str(b.Name)
			}
		}
		if size != gr.Size || name != g.GroupKey(&gr) {
			t.Errorf("group %q: size %d name %q, want %d %q", g.GroupKey(&gr), gr.Size, g.GroupKey(&gr), size, name)
		}
	}
	views := 0
	for i, b := range g.Buffers.All() {
		if inGroup[i] != 1 || b.Size < 0 || b.Size%ir.StickBytes != 0 {
			t.Errorf("buffer %q: in %d groups, size %d", g.Str(b.Name), inGroup[i], b.Size)
		}
		// A view sits at its base's view offset plus its own offset, in
		// its base's group; a root at 0. The sum cannot overflow: the
		// group size covers it.
		// Every View is one name's, and names a buffer.
		v := g.ViewOf(b)
		switch {
		case b.View < 0:
		case int(b.View) >= len(g.Views) || v.Alias < 0:
			t.Errorf("view %q: View %d of %d, alias %d", g.Str(b.Name), b.View, len(g.Views), v.Alias)
		case int(v.Alias) >= g.Buffers.Len() || g.Buffers.At(int(v.Alias)).Group != b.Group || v.AliasOffset < 0 ||
			v.ViewOffset != g.ViewOf(g.Buffers.At(int(v.Alias))).ViewOffset+v.AliasOffset:
			t.Errorf("view %q: alias %d + %d, view offset %d", g.Str(b.Name), v.Alias, v.AliasOffset, v.ViewOffset)
		default:
			views++
		}
	}
	if views != len(g.Views) {
		t.Errorf("%d names are views, %d Views", views, len(g.Views))
	}
	// Every rename ends at a buffer and no two share a source; the
	// group flags are exactly the claims, which are in source order.
	from := map[string]bool{}
	for _, r := range g.Renames {
		if r.To < 0 || r.To >= g.Buffers.Len() || from[r.From] || r.Pos.Line < 1 || r.Pos.Col < 1 {
			t.Errorf("bad rename %+v", r)
		}
		from[r.From] = true
	}
	if len(g.GroupClaims) != len(g.Groups) {
		t.Fatalf("%d group claim sets for %d groups", len(g.GroupClaims), len(g.Groups))
	}
	claims := make([]ir.ClaimSet, len(g.Groups))
	for k, c := range g.Claims {
		if c.Buffer < 0 || c.Buffer >= g.Buffers.Len() || c.Kind > ir.ClaimLX || c.Pos.Line < 1 || c.Pos.Col < 1 {
			t.Errorf("bad claim %+v", c)
			continue
		}
		if k > 0 {
			if p := g.Claims[k-1].Pos; p.Line > c.Pos.Line || p.Line == c.Pos.Line && p.Col >= c.Pos.Col {
				t.Errorf("claims out of order: %+v after %+v", c, g.Claims[k-1])
			}
		}
		gi := g.Buffers.At(c.Buffer).Group
		claims[gi] = claims[gi].With(c.Kind)
	}
	for gi := range g.Groups {
		if got, want := g.GroupClaims[gi], claims[gi]; got != want {
			t.Errorf("group %q: claim set %v, its members' claims give %v", g.GroupKey(&g.Groups[gi]), got, want)
		}
	}
	// access checks an operand; loops are the counts of its enclosing
	// loops, cores the op's cores list.
	access := func(a ir.Access, loops []int64, cores []int64) {
		if a.Buffer < 0 || int(a.Buffer) >= g.Buffers.Len() {
			t.Errorf("bad access %+v", a)
			return
		}
		if a.Addressing < 0 || (a.Addressing > 0 && int(a.Addressing) >= len(g.Addressings)) {
			t.Errorf("access %+v: addressing outside Addressings (%d)", a, len(g.Addressings))
			return
		}
		d := g.AddressingOf(&a)
		for _, r := range []ir.IntsRef{d.Strides, d.Split} {
			if r != 0 && (r < 1 || int(r) > len(g.Ints) || g.Ints[r-1] < 0 || int64(r)+g.Ints[r-1] > int64(len(g.Ints))) {
				t.Errorf("access %+v: list at %d outside Ints (%d)", a, r, len(g.Ints))
				return
			}
		}
		strides, split := g.Strides(&a), g.Split(&a)
		if strides != nil && len(strides) != len(loops) {
			t.Errorf("access has %d strides in %d loops", len(strides), len(loops))
		}
		if split != nil && len(split) != len(cores) {
			t.Errorf("access has %d split entries for %d cores entries", len(split), len(cores))
			return
		}
		if strides == nil && split == nil {
			return
		}
		// The bound, in floating point: no overflow to guard against,
		// and exact below 2^53, which the fuzzer's values rarely pass.
		far := 0.0
		for d, s := range split {
			far += float64(cores[d]-1) * float64(s)
		}
		for k, s := range strides {
			far += float64(s) * float64(loops[k]-1)
		}
		if b := g.Buffers.At(int(a.Buffer)); far != 0 && far >= float64(b.Size) && far < 1<<53 {
			t.Errorf("access to %q reaches %v of %v bytes", g.Str(b.Name), far, float64(b.Size))
		}
	}
	// Addressings: the zero pair first, then distinct non-zero pairs.
	if len(g.Addressings) > 0 && g.Addressings[0] != (ir.Addressing{}) {
		t.Errorf("Addressings[0] is %+v", g.Addressings[0])
	}
	seenPair := map[ir.Addressing]bool{}
	for i, d := range g.Addressings {
		if i > 0 && (d == (ir.Addressing{}) || seenPair[d]) {
			t.Errorf("Addressings[%d] is %+v: zero or a duplicate", i, d)
		}
		seenPair[d] = true
	}
	// Kinds: "" first, then distinct non-empty names, each on some op;
	// every op's Kind indexes it.
	if len(g.Kinds) > 0 && g.Kinds[0] != "" {
		t.Errorf("Kinds[0] is %q", g.Kinds[0])
	}
	kindUsed := make([]bool, len(g.Kinds))
	seenKind := map[string]bool{}
	for i, k := range g.Kinds {
		if i > 0 && (k == "" || seenKind[k]) {
			t.Errorf("Kinds[%d] is %q: empty or a duplicate", i, k)
		}
		seenKind[k] = true
	}
	for _, b := range g.Bundles {
		for i := range b.Ops {
			k := b.Ops[i].Kind
			if k < 0 || int(k) >= max(len(g.Kinds), 1) {
				t.Errorf("op %q: kind %d of %d", g.Str(b.Ops[i].Name), k, len(g.Kinds))
				continue
			}
			if k > 0 {
				kindUsed[k] = true
			}
		}
	}
	for i := 1; i < len(kindUsed); i++ {
		if !kindUsed[i] {
			t.Errorf("kind %q is on no op", g.Kinds[i])
		}
	}
	for _, b := range g.Bundles {
		for k, l := range b.Loops {
			wantDepth := 1
			if l.Parent >= 0 {
				if int(l.Parent) >= k {
					t.Errorf("loop %d has later parent %d", k, l.Parent)
					continue
				}
				wantDepth = int(b.Loops[l.Parent].Depth) + 1
			}
			if int(l.Depth) != wantDepth || l.Count < 1 || l.First > l.Last+1 || l.First < 0 || int(l.Last) >= len(b.Ops) {
				t.Errorf("bad loop %d %+v", k, l)
			}
		}
		if b.Kind == ir.KindLoop && (len(b.Loops) == 0 || len(g.BundleBody(&b)) != 1 || g.BundleBody(&b)[0].Loop != 0) {
			t.Errorf("bare loop bundle %q is not one loop", b.Name)
		}
		for i, op := range b.Ops {
			var counts []int64
			for d, li := range g.OpLoops(&op) {
				l := b.Loops[li]
				if int(l.Depth) != d+1 || i < int(l.First) || i > int(l.Last) {
					t.Errorf("op %q not inside its loop %d", g.Str(op.Name), li)
				}
				counts = append(counts, l.Count)
			}
			if g.Cores(&op) != nil {
				n := 1
				for _, s := range g.Cores(&op) {
					if s < 1 || s > ir.MaxCores {
						t.Errorf("op %q: cores entry %d", g.Str(op.Name), s)
					}
					n *= int(min(s, ir.MaxCores+1))
					n = min(n, ir.MaxCores+1)
				}
				if n > ir.MaxCores || len(g.Cores(&op)) == 0 {
					t.Errorf("op %q: cores %v", g.Str(op.Name), g.Cores(&op))
				}
			}
			for _, a := range g.Reads(&op) {
				access(a, counts, g.Cores(&op))
			}
			for _, a := range g.Writes(&op) {
				access(a, counts, g.Cores(&op))
			}
		}
	}
	for _, c := range g.CPU {
		for _, a := range g.CPUAccesses(&c) {
			access(a, nil, nil)
			if a.Addressing != 0 {
				t.Errorf("cpu node %q has strides or a split", c.Name)
			}
		}
	}
	checkOperandPositions(t, g)
}

// checkOperandPositions verifies where the operands are written (see
// ir.Graph.AccessCols): every access has a column entry, pushed with it;
// the positions kept aside are those of the entries 0, each once, in
// order; and an operand's position is kept aside exactly when it is not
// a column up to ir.MaxAccessCol on its node's line.
func checkOperandPositions(t *testing.T, g *ir.Graph) {
	t.Helper()
	if g.AccessCols.Len() != g.Accesses.Len() {
		t.Errorf("%d operand columns for %d accesses", g.AccessCols.Len(), g.Accesses.Len())
		return
	}
	zeros := 0
	for _, c := range g.AccessCols.All() {
		if *c == 0 {
			zeros++
		}
	}
	if zeros != len(g.AccessPositions) {
		t.Errorf("%d operand columns are 0, %d positions kept aside", zeros, len(g.AccessPositions))
	}
	for k, e := range g.AccessPositions {
		if k > 0 && e.Access <= g.AccessPositions[k-1].Access || e.Access < 0 || int(e.Access) >= g.AccessCols.Len() || *g.AccessCols.At(int(e.Access)) != 0 {
			t.Errorf("position %d kept aside: access %d", k, e.Access)
		}
	}
	node := func(name string, at ir.Pos, s ir.Span) {
		for i := s.Off; i < s.Off+s.Len; i++ {
			p := g.AccessPos(at, i)
			onLine := p.Line == at.Line && p.Col <= ir.MaxAccessCol
			if p.Line < 1 || p.Col < 1 || (*g.AccessCols.At(int(i)) != 0) != onLine {
				t.Errorf("%s: operand %d at %v, column entry %d", name, i-s.Off, p, *g.AccessCols.At(int(i)))
			}
		}
	}
	for _, b := range g.Bundles {
		for _, op := range b.Ops {
			node(g.Str(op.Name), op.Pos, op.Accesses)
		}
	}
	for _, c := range g.CPU {
		node(c.Name, c.Pos, c.Accesses)
	}
}

// TestInvariantsOnValidFiles runs the fuzz invariants on the hand-written
// valid inputs, so a plain `go test` exercises them too.
func TestInvariantsOnValidFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.bir")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, mustCheck(t, string(src)))
	}
	for _, src := range []string{
		"graph g { buffer x : 4 loop a count 2 { loop b count 3 { op o reads x step [1,2] } op p writes x step 4 } }",
		"graph g { buffer x : 4 buffer y : f16[2,3] alias x = y rename z -> y cpu c reads z op q reads z }",
	} {
		checkInvariants(t, mustCheck(t, src))
	}
}
