package frontend

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sdscgen/sdscgen/ir"
)

// TestNameTable: ids are handed out in order of first appearance, the
// same name gets the same id however often and after however many
// grows of the slots, and every id gives back its name. The names are
// short and long (the short ones are hashed differently), differ only
// in length or in their last byte, and are looked up again in an order
// that defeats the cache of recent names.
func TestNameTable(t *testing.T) {
	var names []string
	for i := 0; i < 20_000; i++ {
		switch i % 4 {
		case 0:
			names = append(names, "t"+strconv.Itoa(i))
		case 1:
			names = append(names, strings.Repeat("x", i%23+1)) // only the first 23 are new
		case 2:
			names = append(names, "a_rather_long_buffer_name_"+strconv.Itoa(i))
		default:
			names = append(names, "b"+strconv.Itoa(i/4)+"."+strconv.Itoa(i%7))
		}
	}
	tab := newNameTable(0, new(ir.NameStore)) // 1024 slots: grows five times
	want := map[string]int32{}
	for _, s := range names {
		id := tab.intern(s)
		if w, ok := want[s]; ok {
			if id != w {
				t.Fatalf("%q: id %d, first %d", s, id, w)
			}
			continue
		}
		if id != int32(len(want)) {
			t.Fatalf("%q: new name got id %d, want %d", s, id, len(want))
		}
		want[s] = id
	}
	if tab.n != len(want) || len(tab.slots) != 1<<15 {
		t.Errorf("%d ids, %d slots; want %d ids and 32768 slots (the first power of two 4/3 of them fit in)", tab.n, len(tab.slots), len(want))
	}
	for i := len(names) - 1; i >= 0; i -= 3 {
		s := names[i]
		if id := tab.intern(s); id != want[s] || tab.name(id) != s {
			t.Fatalf("%q again: id %d (name %q), want %d", s, id, tab.name(id), want[s])
		}
	}
	if tab.n != len(want) {
		t.Errorf("looking names up again made ids: %d, want %d", tab.n, len(want))
	}
}

// TestNameTableSlots checks the slots' invariant through the table's
// growth: every id is in exactly one slot, with the low 32 bits of its
// name's hash, which a probe compares before it loads the id's record.
func TestNameTableSlots(t *testing.T) {
	tab := newNameTable(0, new(ir.NameStore))
	for i := range 100_000 {
		tab.intern("n" + strconv.Itoa(i))
	}
	seen := make([]bool, tab.n)
	for _, v := range tab.slots {
		if v == 0 {
			continue
		}
		id := int32(uint32(v)) - 1
		if id < 0 || int(id) >= tab.n || seen[id] {
			t.Fatalf("slot %#x: id %d outside the %d ids or in two slots", v, id, tab.n)
		}
		seen[id] = true
		if h := uint32(v >> 32); h != tab.entry(id).hash {
			t.Fatalf("slot of id %d (%s) keeps hash %#x, its record %#x", id, tab.name(id), h, tab.entry(id).hash)
		}
	}
	for id, ok := range seen {
		if !ok {
			t.Fatalf("id %d is in no slot", id)
		}
	}
	if 4*tab.n >= 3*len(tab.slots) {
		t.Errorf("%d ids in %d slots: past the 3/4 limit", tab.n, len(tab.slots))
	}
}
