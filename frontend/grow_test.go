package frontend

import "testing"

// TestChunkCap checks the capacity of the node declaration chunks past
// the point where a shift of the first size overflows: the chunks double
// from 64 to nodeChunk (65536) and stay there, whatever the chunk's
// number.
func TestChunkCap(t *testing.T) {
	total := 0
	for k := range 200 {
		c := chunkCap(64, k, nodeChunk)
		want := nodeChunk
		if k < 10 { // 64<<10 == nodeChunk
			want = 64 << k
		}
		if c != want {
			t.Fatalf("chunkCap(64, %d, %d) = %d, want %d", k, nodeChunk, c, want)
		}
		if k < 57 {
			total += c
		}
	}
	// The first 57 chunks hold 64+...+32768 (65472) and 47 full chunks:
	// 3,145,664 nodes, the count past which the 58th chunk (k = 57, the
	// first for which 64<<k overflows an int) was needed.
	if total != 3145664 {
		t.Errorf("the first 57 chunks hold %d nodes, want 3145664", total)
	}
	for _, k := range []int{57, 58, 63, 64, 65, 1 << 20} {
		if c := chunkCap(64, k, nodeChunk); c != nodeChunk {
			t.Errorf("chunkCap(64, %d, %d) = %d, want %d", k, nodeChunk, c, nodeChunk)
		}
	}
	if c := chunkCap(16, 3, 100); c != 100 {
		t.Errorf("chunkCap(16, 3, 100) = %d, want 100 (128 capped)", c)
	}
	if c := chunkCap(16, 2, 100); c != 64 {
		t.Errorf("chunkCap(16, 2, 100) = %d, want 64", c)
	}
}
