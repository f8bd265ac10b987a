package sdscgen

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"testing"
)

// TestChunkPipe: what is written in writes of every size, across chunk
// boundaries, is read back the same bytes, then the writer's error; a
// reader that stops makes the writer's next write fail instead of
// blocking it.
func TestChunkPipe(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	want := make([]byte, 3*maxChunk+12345)
	r.Read(want)
	for _, wantErr := range []error{nil, errors.New("disk full")} {
		p := newChunkPipe(len(want))
		go func() {
			for rest := want; len(rest) > 0; {
				n := min(len(rest), []int{1, 100, 64 << 10, maxChunk + 7}[r.Intn(4)])
				if k, err := p.Write(rest[:n]); k != n || err != nil {
					panic(err)
				}
				rest = rest[n:]
			}
			p.closeWrite(wantErr)
		}()
		got, err := io.ReadAll(p)
		if !bytes.Equal(got, want) {
			t.Fatalf("read %d bytes, not the %d written", len(got), len(want))
		}
		if err != wantErr {
			t.Fatalf("error %v, want %v", err, wantErr)
		}
		if p.made > chunkBufs {
			t.Fatalf("%d chunks made", p.made)
		}
		p.stop()
	}

	p := newChunkPipe(0) // chunks of 64 KiB
	wrote := make(chan error, 1)
	go func() {
		var err error
		for err == nil { // more than the chunks the pipe holds
			_, err = p.Write(want)
		}
		wrote <- err
	}()
	buf := make([]byte, 10)
	if _, err := io.ReadFull(p, buf); err != nil || !bytes.Equal(buf, want[:10]) {
		t.Fatalf("first bytes %q, %v", buf, err)
	}
	p.stop()
	if err := <-wrote; !errors.Is(err, errCheckStopped) {
		t.Fatalf("writer after stop: %v", err)
	}
}
