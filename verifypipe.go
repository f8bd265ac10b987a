package sdscgen

import (
	"errors"
	"io"
)

// errCheckStopped is what a chunkPipe's writer gets once the reader has
// stopped reading.
var errCheckStopped = errors.New("sdscgen: the plan JSON check stopped reading")

// chunkPipe hands what is written to it to one reader, in chunks: the
// writer fills one chunk while the reader reads another (two may wait in
// between), so writing and checking the plan JSON overlap, and they meet
// once per chunk, not once per write. It holds at most chunkBufs chunks
// (made as they are first needed), whatever the length of the text.
type chunkPipe struct {
	full  chan []byte   // chunks written, in order
	empty chan []byte   // chunks to write into
	done  chan struct{} // closed by stop
	size  int           // of a chunk
	made  int           // chunks made
	cur   []byte        // the writer's chunk
	rd    []byte        // the unread part of the reader's chunk
	rdBuf []byte        // the reader's chunk
	err   error         // closeWrite's, set before full is closed
}

const (
	maxChunk  = 1 << 20
	minChunk  = 64 << 10
	chunkBufs = 3
)

// newChunkPipe makes a pipe for a text of about n bytes: chunks of an
// eighth of it, from 64 KiB to 1 MiB.
func newChunkPipe(n int) *chunkPipe {
	c := &chunkPipe{full: make(chan []byte, chunkBufs-1), empty: make(chan []byte, chunkBufs), done: make(chan struct{}),
		size: min(max(n/8, minChunk), maxChunk)}
	c.cur = c.make()
	return c
}

func (c *chunkPipe) make() []byte {
	c.made++
	return make([]byte, 0, c.size)
}

// Write is the writer's: it fails with errCheckStopped once the reader
// has stopped.
func (c *chunkPipe) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		k := copy(c.cur[len(c.cur):cap(c.cur)], p)
		c.cur = c.cur[:len(c.cur)+k]
		p, n = p[k:], n+k
		if len(c.cur) == cap(c.cur) {
			if !c.send() {
				return n, errCheckStopped
			}
			if c.made < chunkBufs && len(c.empty) == 0 {
				c.cur = c.make()
				continue
			}
			select {
			case c.cur = <-c.empty:
			case <-c.done:
				return n, errCheckStopped
			}
		}
	}
	return n, nil
}

// send hands the writer's chunk over; false when the reader has stopped.
func (c *chunkPipe) send() bool {
	select {
	case c.full <- c.cur:
		c.cur = nil
		return true
	case <-c.done:
		return false
	}
}

// closeWrite is the writer's last call: the reader gets what is left,
// then err (io.EOF when nil).
func (c *chunkPipe) closeWrite(err error) {
	if len(c.cur) > 0 {
		c.send()
	}
	c.err = err
	close(c.full)
}

// Read is the reader's.
func (c *chunkPipe) Read(p []byte) (int, error) {
	for len(c.rd) == 0 {
		if c.rdBuf != nil {
			c.empty <- c.rdBuf[:0] // never blocks: it holds every chunk
			c.rd, c.rdBuf = nil, nil
		}
		b, ok := <-c.full
		if !ok {
			if c.err != nil {
				return 0, c.err
			}
			return 0, io.EOF
		}
		c.rd, c.rdBuf = b, b
	}
	n := copy(p, c.rd)
	c.rd = c.rd[n:]
	return n, nil
}

// stop is the reader's last call: the writer's next Write fails.
func (c *chunkPipe) stop() { close(c.done) }
