package ir

import (
	"math/rand"
	"strings"
	"testing"
	"unsafe"
)

// TestNameStoreRoundTrip: names of random lengths (1 to 300 bytes, and
// now and then one of 1,000 to 20,000), added until the offsets pass
// five blocks, each read back equal from its Name after all are added;
// every name lies in its one block (none straddles two) and Holds says
// so. The offsets grow with each name and a name starts a block only
// when it does not fit in what is left of the one before (block 0 is
// nameFirst long, the others NameBlock).
func TestNameStoreRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var s NameStore
	var names []string
	var refs []Name
	end := 0 // where the last name ends, as an offset
	for end < 5*NameBlock {
		n := 1 + r.Intn(300)
		if r.Intn(50) == 0 {
			n = 1000 + r.Intn(19000)
		}
		v := strings.Repeat(string(rune('a'+len(names)%26)), n) + "." + string(rune('0'+len(names)%10))
		ref := s.Add(v)
		blockEnd := end&^nameMask + NameBlock
		if end < NameBlock {
			blockEnd = nameFirst
		}
		switch {
		case int(ref.Len) != len(v):
			t.Fatalf("name %d: length %d, want %d", len(names), ref.Len, len(v))
		case end+len(v) <= blockEnd && int(ref.Off) != end:
			t.Fatalf("name %d (%d bytes) at %d: it fits at %d, before the block's end %d", len(names), len(v), ref.Off, end, blockEnd)
		case end+len(v) > blockEnd && int(ref.Off) != end&^nameMask+NameBlock:
			t.Fatalf("name %d (%d bytes) at %d: it does not fit at %d, so the next block (%d)", len(names), len(v), ref.Off, end, end&^nameMask+NameBlock)
		case ref.Off>>nameShift != (ref.Off+ref.Len-1)>>nameShift:
			t.Fatalf("name %d at [%d, +%d) straddles two blocks", len(names), ref.Off, ref.Len)
		}
		end = int(ref.Off + ref.Len)
		names, refs = append(names, v), append(refs, ref)
	}
	for i, ref := range refs {
		if got := s.Str(ref); got != names[i] || !s.Holds(ref) {
			t.Fatalf("name %d at [%d, +%d): read %.20q (held %v), want %.20q", i, ref.Off, ref.Len, got, s.Holds(ref), names[i])
		}
	}
}

// TestNameStoreExactFill: names that fill a block to its last byte
// leave nothing in it, and the next name starts the next block: four
// names of 1,024 bytes fill block 0 (the default 4 KiB), at 0, 1024,
// 2048 and 3072; the next is at 65,536, block 1's start. There, 64 more
// of 1,024 bytes fill block 1 exactly, the last at 65,536 + 63*1,024 =
// 130,048; the one after them is at 131,072, block 2's start.
func TestNameStoreExactFill(t *testing.T) {
	var s NameStore
	kib := func(k int) string { return strings.Repeat(string(rune('A'+k%26)), 1024) }
	var refs []Name
	var want []string
	add := func(v string, off uint32) {
		t.Helper()
		ref := s.Add(v)
		if ref.Off != off {
			t.Fatalf("name %d at %d, want %d", len(refs), ref.Off, off)
		}
		refs, want = append(refs, ref), append(want, v)
	}
	for k := range 4 {
		add(kib(k), uint32(k*1024))
	}
	for k := range 64 {
		add(kib(4+k), uint32(NameBlock+k*1024))
	}
	add("z", 2*NameBlock)
	for i, ref := range refs {
		if s.Str(ref) != want[i] {
			t.Fatalf("name %d at %d reads back changed", i, ref.Off)
		}
	}
	// Block 1's stored bytes end at its array's end: a name one byte
	// longer than its last is not held.
	if last := refs[67]; !s.Holds(last) || s.Holds(Name{Off: last.Off, Len: last.Len + 1}) {
		t.Errorf("Holds(last of block 1) = %v, Holds(one byte more) = %v; want true, false", s.Holds(last), s.Holds(Name{Off: last.Off, Len: last.Len + 1}))
	}
}

// TestNameStoreLong: a name longer than a block takes a run of
// ceil(len/NameBlock) blocks of its own, starting at a block's start, and
// the names after it fill the rest of the run's last block. After "a"
// (at 0, in block 0), a name of 2.5 blocks (163,840 bytes) does not fit
// in block 0: it is at 65,536, blocks 1 to 3, and fills 32,768 bytes of
// block 3; "b" follows it at 3*65,536 + 32,768 = 229,376, and a name of
// the 32,767 bytes left at 229,377 fills block 3 exactly; "c" is then at
// block 4's start, 262,144. A name of exactly two blocks takes blocks 5
// and 6 (327,680) and fills them: "d" is at block 7's start, 458,752. A
// first name longer than a block starts at 0 even where block 0 would
// be small (the run is its size), and "e" follows it in block 1, at
// 65,537.
func TestNameStoreLong(t *testing.T) {
	var s NameStore
	long := strings.Repeat("L", 5*NameBlock/2)
	rest := strings.Repeat("r", NameBlock/2-1)
	two := strings.Repeat("2", 2*NameBlock)
	cases := []struct {
		v   string
		off uint32
	}{
		{"a", 0}, {long, NameBlock}, {"b", 229376}, {rest, 229377}, {"c", 262144}, {two, 327680}, {"d", 458752},
	}
	var refs []Name
	for _, c := range cases {
		ref := s.Add(c.v)
		if ref.Off != c.off || int(ref.Len) != len(c.v) {
			t.Fatalf("%d-byte name at [%d, +%d), want [%d, +%d)", len(c.v), ref.Off, ref.Len, c.off, len(c.v))
		}
		refs = append(refs, ref)
	}
	for i, ref := range refs {
		if s.Str(ref) != cases[i].v || !s.Holds(ref) {
			t.Fatalf("the %d-byte name at %d reads back changed (held %v)", len(cases[i].v), ref.Off, s.Holds(ref))
		}
	}
	var f NameStore
	f.SizeFirst(100)
	if ref := f.Add(long[:NameBlock+1]); ref.Off != 0 || f.Str(ref) != long[:NameBlock+1] {
		t.Errorf("first name of a block and a byte at %d, want 0", ref.Off)
	}
	if ref := f.Add("e"); ref.Off != NameBlock+1 || f.Str(ref) != "e" {
		t.Errorf("the name after it at %d, want %d", ref.Off, NameBlock+1)
	}
}

// TestNameStoreEmpty: the empty name is the zero Name, stores nothing
// (the name after it is where it would have been) and reads back "" in
// any store, even one without a block, where Holds it too (it reads
// nothing, whatever its Off).
func TestNameStoreEmpty(t *testing.T) {
	var s NameStore
	if ref := s.Add(""); ref != (Name{}) || s.Str(ref) != "" || !s.Holds(ref) || len(s.blocks) != 0 {
		t.Fatalf("empty name in an empty store: %+v, %q, held %v, %d blocks", ref, s.Str(ref), s.Holds(ref), len(s.blocks))
	}
	a := s.Add("a")
	if e := s.Add(""); e != (Name{}) || s.Str(e) != "" {
		t.Errorf("empty name after a: %+v, %q", e, s.Str(e))
	}
	if b := s.Add("b"); b.Off != a.Off+1 || s.Str(b) != "b" {
		t.Errorf("b at %d, want %d (right after a)", b.Off, a.Off+1)
	}
	if !s.Holds(Name{Off: 9 * NameBlock}) {
		t.Error("an empty name outside the blocks is not held; it reads nothing")
	}
	var g Graph
	if g.Str(Name{}) != "" {
		t.Error("the zero Name of a graph without names is not empty")
	}
}

// TestNameStoreNoCopy: a string obtained from the store shares its
// bytes, and they never move or change: after names filling twenty more
// blocks (and a long one's run), the string taken first still reads the
// same, and the name now reads from the very same bytes. Reading a name
// allocates nothing.
func TestNameStoreNoCopy(t *testing.T) {
	var s NameStore
	ref := s.Add("first")
	early := s.Str(ref)
	at := unsafe.StringData(early)
	if at != &s.blocks[0][0] {
		t.Fatal("Str does not return the store's bytes")
	}
	filler := strings.Repeat("x", 1000)
	for s.Add(filler).Off < 20*NameBlock {
	}
	s.Add(strings.Repeat("y", 3*NameBlock))
	for range 100 {
		s.Add(filler)
	}
	if early != "first" || unsafe.StringData(s.Str(ref)) != at {
		t.Errorf("the first name reads %q at %p, want \"first\" at %p", early, unsafe.StringData(s.Str(ref)), at)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.Str(ref) }); n != 0 {
		t.Errorf("Str allocates %v times", n)
	}
}

// TestNameStoreFirst: SizeFirst sizes block 0's array, which names never
// outgrow in place: with 100 bytes, two names of 60 are at 0 and at
// block 1's start. Past 4 GiB of offsets Add panics (the store here
// pretends to 65,536 blocks, the offsets a uint32 reaches, by a list of
// empty ones: a name must open a 65,537th).
func TestNameStoreFirst(t *testing.T) {
	var s NameStore
	s.SizeFirst(100)
	v := strings.Repeat("s", 60)
	if a, b := s.Add(v), s.Add(v); a.Off != 0 || b.Off != NameBlock || cap(s.blocks[0]) != 100 {
		t.Errorf("60-byte names at %d and %d, block 0 of %d bytes; want 0, %d, 100", a.Off, b.Off, cap(s.blocks[0]), NameBlock)
	}
	full := NameStore{blocks: make([][]byte, 1<<16)}
	defer func() {
		if recover() == nil {
			t.Error("a name past 4 GiB of offsets did not panic")
		}
	}()
	full.Add("x")
}
