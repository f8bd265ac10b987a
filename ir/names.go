package ir

import "unsafe"

// Name locates a name in its graph's NameStore (Graph.Names): the Len
// bytes from offset Off. It is 8 bytes and holds no pointer, where a
// string is 16 bytes and a pointer the garbage collector follows: a
// Buffer and an Op keep their names this way (a graph may have millions
// of each), and read them with Graph.Str. A Name means nothing without
// its graph's store. The zero Name is the empty name, in every graph,
// even one that stores none.
type Name struct {
	Off, Len uint32
}

// NameBlock is the size of a NameStore's blocks: 64 KiB.
const NameBlock = 1 << nameShift

const (
	nameShift = 16
	nameMask  = NameBlock - 1
	// nameFirst is block 0's size when SizeFirst was not called (a
	// graph built by hand, or read from a pipe of unknown size): a
	// hand-built graph's few names fit in it, and a large graph's names
	// go on at block 1, leaving block 0's other offsets unused (not its
	// memory).
	nameFirst = 4 << 10
)

// NameStore holds a graph's names, each once where the frontend stores
// it (a buffer's name once however often it is used; a node's at its
// declaration), as the bytes a Name locates. Names are added (Add,
// Graph.AddName), never changed or removed, and a name's bytes never
// move: Str returns a string that shares them, valid and unchanged for
// as long as it is held, with no allocation and no copy.
//
// Layout. The offsets are cut into blocks of NameBlock bytes: offset
// Off is byte Off%NameBlock of block Off/NameBlock, so a name's block
// is found with a shift, without a search. Each block is backed by an
// array allocated once, never grown: a name that does not fit in what
// is left of the last block opens the next one (the rest of the last
// is never used), so that no name straddles two blocks and none is ever
// copied, as one array doubling would copy all of them (and hold them
// twice while it did). A name longer than a block opens a run of
// m = ceil(len/NameBlock) blocks backed by one array of m*NameBlock
// bytes, block j of the run starting at the array's byte j*NameBlock:
// the name's block (the run's first) holds it whole from its start, and
// names after it fill the rest of the run's last block. The zero Name
// needs no block. Block 0's array may be smaller than a block
// (SizeFirst; 4 KiB by default), so that a graph of a few names does not
// allocate 64 KiB; when it is full the names go on at block 1, and its
// unused offsets cost nothing.
//
// Why 64 KiB: a block costs one allocation and one 24-byte slice in the
// store's list of blocks (0.04 % of its bytes), and leaves unused less
// than the name that did not fit in it (names are a few to a few tens
// of bytes), so the synthetic million-op graphs' 17 to 29 MB of names
// (scripts/bench.sh's families) take 259 to 442 blocks, whose list, 6
// to 11 KB, stays in a CPU cache. Blocks of 4 KiB would take 16 times
// the allocations and the list, and make any name over 4 KiB a run;
// blocks of 1 MiB would gain nothing more and leave up to a megabyte of
// the last one unused.
//
// Offsets are uint32: the frontend stores each name it keeps once, a
// token of a source under 2 GiB (it rejects larger ones), and a block
// is left with fewer bytes unused than the name that opens the next one
// stores, so its offsets stay under twice the stored bytes (plus block
// 0's unused rest): under 4 GiB. Add panics past 4 GiB of offsets (a
// store built by hand).
//
// A NameStore is a value: a graph that shares another's (Graph.Unfused,
// which copies the field) shares its blocks, and, like every graph, is
// read-only once built; a name added to one of them could overwrite one
// added to the other in their shared last block.
type NameStore struct {
	// blocks[k] is block k: it starts at block k's first byte, its
	// length is the bytes stored from there on (over NameBlock in the
	// blocks of a long name's run but its last), its capacity the bytes
	// of its array from there. Only the last block is appended to.
	blocks [][]byte
	first  int // block 0's size (SizeFirst); 0: nameFirst
}

// SizeFirst makes block 0 hold n bytes (at most NameBlock) when n > 0:
// where the caller knows that the names take about n bytes or fewer (the
// frontend gives a small source's size, which its names cannot exceed),
// so that they are one array of their size. It has no effect once a
// name is stored.
func (s *NameStore) SizeFirst(n int) {
	if n > 0 {
		s.first = min(n, NameBlock)
	}
}

// Add stores v and returns its Name: the zero Name when v is empty, which
// stores nothing. v need not outlive the call: the store keeps a copy.
func (s *NameStore) Add(v string) Name {
	if v == "" {
		return Name{}
	}
	k := len(s.blocks) - 1
	if k < 0 || cap(s.blocks[k])-len(s.blocks[k]) < len(v) {
		k = s.open(len(v))
	}
	b := &s.blocks[k]
	off := k<<nameShift | len(*b)
	*b = append(*b, v...) // in place: the block's array has room
	return Name{Off: uint32(off), Len: uint32(len(v))}
}

// open adds the blocks a name of n bytes that does not fit in the last
// one starts: one, or a run for a name longer than a block (see
// NameStore). It returns the block the name starts at, whose length is
// 0; the lengths of the run's later blocks already count the name's
// bytes there, which Add writes through the first.
func (s *NameStore) open(n int) int {
	k := len(s.blocks)
	m := (n + NameBlock - 1) >> nameShift
	if uint64(k+m)<<nameShift > 1<<32 {
		panic("ir: a NameStore's names pass 4 GiB of offsets")
	}
	size := m << nameShift
	if k == 0 && m == 1 {
		first := s.first
		if first == 0 {
			first = nameFirst
		}
		size = max(first, n)
	}
	arr := make([]byte, size)
	s.blocks = append(s.blocks, arr[:0])
	for j := 1; j < m; j++ {
		s.blocks = append(s.blocks, arr[j<<nameShift:n])
	}
	return k
}

// Str returns the name n locates, sharing the store's bytes: no
// allocation, no copy. It trusts n (the verifier checks a graph's names
// with Holds first): a Name of another store, or a corrupted one, may
// read other names' bytes or panic.
func (s *NameStore) Str(n Name) string {
	if n.Len == 0 {
		return ""
	}
	o := uint(n.Off & nameMask)
	b := s.blocks[n.Off>>nameShift][o : o+uint(n.Len)]
	// The bytes of a stored name are never written again (see
	// NameStore), as unsafe.String requires.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Holds reports whether n locates stored bytes, so that Str reads n
// without a panic and only bytes that were stored: it is empty, or its
// block exists and its Off%NameBlock+Len bytes from the block's start
// are stored. (Str slices up to a block's capacity, past what is stored.)
func (s *NameStore) Holds(n Name) bool {
	if n.Len == 0 {
		return true
	}
	k := int(n.Off >> nameShift)
	return k < len(s.blocks) && int(n.Off&nameMask)+int(n.Len) <= len(s.blocks[k])
}

// AddName stores s in g.Names and returns its Name (see NameStore.Add):
// how code that builds a graph by hand names its buffers and ops.
func (g *Graph) AddName(s string) Name { return g.Names.Add(s) }

// Str returns the name n locates in g.Names, sharing its bytes (see
// NameStore.Str): how every stage reads a Buffer's and an Op's name.
func (g *Graph) Str(n Name) string { return g.Names.Str(n) }
