package frontend

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/sdscgen/sdscgen/internal/relay"
)

// TestTokenSize holds a token at 24 bytes: kind and keyword a byte each,
// pre 4, the position 8, the offsets 4 each (plus 2 of padding). The
// scanning goroutine's batches hold 3 x 8192 of them, all touched at 10k
// ops; at 48 bytes they were 1.2 MB of fresh pages.
func TestTokenSize(t *testing.T) {
	if n := unsafe.Sizeof(token{}); n != 24 {
		t.Errorf("a token is %d bytes, want 24", n)
	}
}

// TestPreTable numbers 5000 distinct names, each seen three times, in a
// table started with 1024 slots (so that it grows three times): every
// occurrence of a name gets the number of its first, and the numbers
// are 1, 2, ... in order of first appearance.
func TestPreTable(t *testing.T) {
	var sb strings.Builder
	var offs [][2]int
	var names []string
	for i := 0; i < 5000; i++ {
		names = append(names, fmt.Sprintf("n%d", i))
	}
	// Each name first in order, then twice more, in a scrambled order,
	// among longer names (hashed by maphash) that share prefixes.
	order := make([]int, 0, 3*len(names))
	for i := range names {
		order = append(order, i)
	}
	for r := 0; r < 2; r++ {
		for i := range names {
			order = append(order, (i*7919+r*13)%len(names))
		}
	}
	for i := range names {
		names[i] += strings.Repeat("x", i%3*5) // some over 8 bytes
	}
	for _, i := range order {
		offs = append(offs, [2]int{sb.Len(), sb.Len() + len(names[i])})
		sb.WriteString(names[i])
		sb.WriteByte(' ')
	}
	src := sb.String()
	tab := newPreTable(src)
	tab.slots = make([]int32, 1<<10) // the smallest start: it grows 3 times
	grew := 0
	want := map[string]int32{}
	next := int32(1)
	for k, o := range offs {
		s := src[o[0]:o[1]]
		before := len(tab.slots)
		got := tab.number(o[0], o[1])
		if len(tab.slots) != before {
			grew++
		}
		w, seen := want[s]
		if !seen {
			w = next
			want[s] = w
			next++
		}
		if got != w {
			t.Fatalf("occurrence %d of %q: number %d, want %d", k, s, got, w)
		}
	}
	if grew != 3 {
		t.Errorf("the table grew %d times, want 3 (1024 to 8192 slots for 5000 names)", grew)
	}
	if int(next-1) != len(names) {
		t.Fatalf("%d names numbered, want %d", next-1, len(names))
	}
}

// TestPipeNodeNames scans a source ahead: the name after op, cpu, fused
// and loop (a node's) gets no number, every other name the number of
// its first occurrence among the numbered ones, in order.
func TestPipeNodeNames(t *testing.T) {
	src := "graph g {\n buffer a : 128\n buffer b : f16[1, 64]\n input a\n" +
		" op o1 reads a writes b\n fused f {\n  loop l count 2 {\n   op o2 reads b step 128 writes a\n  }\n }\n cpu c reads a, b writes b\n}\n"
	s := newScanner("t.bir", src)
	q := &pipe{batches: relay.New[*tokBatch](1), ended: make(chan struct{})}
	q.batches.Free(&tokBatch{toks: make([]token, 0, 1000)})
	q.run(s, 0)
	b, _ := q.batches.Next()
	if !b.last || b.err != nil {
		t.Fatalf("last %v, err %v", b.last, b.err)
	}
	want := map[string]int32{"g": 1, "a": 2, "b": 3, "f16": 4, "o1": 0, "f": 0, "l": 0, "o2": 0, "c": 0}
	seen := 0
	for _, tk := range b.toks {
		if tk.kind != tokIdent {
			if tk.pre != 0 {
				t.Errorf("%q (kind %d) has pre %d", src[tk.off:tk.end], tk.kind, tk.pre)
			}
			continue
		}
		name := src[tk.off:tk.end]
		w, ok := want[name]
		if !ok {
			t.Fatalf("unexpected name %q", name)
		}
		if tk.pre != w {
			t.Errorf("%q at %d: pre %d, want %d", name, tk.off, tk.pre, w)
		}
		seen++
	}
	if seen != 17 {
		t.Errorf("%d names, want 17", seen)
	}
}
