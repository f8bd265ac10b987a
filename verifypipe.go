package sdscgen

import (
	"errors"
	"io"

	"github.com/sdscgen/sdscgen/internal/relay"
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
	chunks *relay.Relay[[]byte] // the writer's to the reader
	size   int                  // of a chunk
	made   int                  // chunks made
	cur    []byte               // the writer's chunk
	rd     []byte               // the unread part of the reader's chunk
	rdBuf  []byte               // the reader's chunk
	err    error                // closeWrite's, set before the relay is closed
}

const (
	maxChunk  = 1 << 20
	minChunk  = 64 << 10
	chunkBufs = 3
)

// newChunkPipe makes a pipe for a text of about n bytes: chunks of an
// eighth of it, from 64 KiB to 1 MiB.
func newChunkPipe(n int) *chunkPipe {
	c := &chunkPipe{chunks: relay.New[[]byte](chunkBufs), size: min(max(n/8, minChunk), maxChunk)}
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
			if !c.chunks.Put(c.cur) {
				return n, errCheckStopped
			}
			c.cur = nil
			if b, ok := c.chunks.TryGet(); ok {
				c.cur = b
			} else if c.made < chunkBufs {
				c.cur = c.make()
			} else if c.cur, ok = c.chunks.Get(); !ok {
				return n, errCheckStopped
			}
		}
	}
	return n, nil
}

// closeWrite is the writer's last call: the reader gets what is left,
// then err (io.EOF when nil).
func (c *chunkPipe) closeWrite(err error) {
	if len(c.cur) > 0 {
		c.chunks.Put(c.cur)
	}
	c.err = err
	c.chunks.Close()
}

// Read is the reader's.
func (c *chunkPipe) Read(p []byte) (int, error) {
	for len(c.rd) == 0 {
		if c.rdBuf != nil {
			c.chunks.Free(c.rdBuf[:0])
			c.rd, c.rdBuf = nil, nil
		}
		b, ok := c.chunks.Next()
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
func (c *chunkPipe) stop() { c.chunks.Stop() }
