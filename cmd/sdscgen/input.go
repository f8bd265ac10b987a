package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
)

// maxInput is the largest input sdscgen reads: frontend.Parse rejects
// files of 2 GiB or more (its positions are 32-bit).
const maxInput = math.MaxInt32 - 1

// inputLimit is maxInput; tests lower it.
var inputLimit int64 = maxInput

// readInput reads the input ("-": stdin) and stops as soon as it passes
// the limit, so a device such as /dev/zero or a huge file costs at most
// the limit, never all memory.
func readInput(path string, stdin io.Reader) ([]byte, error) {
	name := path
	r := stdin
	var size int64
	if path == "-" {
		name = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				return nil, fmt.Errorf("%s is a directory", path)
			}
			if fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
		r = f
	}
	tooBig := fmt.Errorf("%s: input is larger than the limit of %d bytes (2 GiB)", name, inputLimit)
	if size > inputLimit {
		return nil, tooBig
	}
	// A regular file is read into one buffer of its size (plus one byte
	// to see it did not grow meanwhile); a stream (stdin, a FIFO, a
	// device), and a file that grew, in chunks of growing size. Reading
	// stops at the limit, so /dev/zero costs at most the limit and a
	// chunk (a growing buffer would hold up to twice the limit while it
	// copies itself).
	var chunks [][]byte
	var total int64
	if size > 0 {
		buf := make([]byte, size+1)
		n, err := io.ReadFull(r, buf)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if int64(n) <= size {
			return buf[:n], nil
		}
		chunks, total = [][]byte{buf}, int64(n)
	}
	for c := int64(64 << 10); total <= inputLimit; c = min(2*c, 64<<20) {
		chunk := make([]byte, 0, c)
		var err error
		for len(chunk) < cap(chunk) && total <= inputLimit && err == nil {
			var n int
			n, err = r.Read(chunk[len(chunk):cap(chunk)])
			chunk = chunk[:len(chunk)+n]
			total += int64(n)
		}
		chunks = append(chunks, chunk)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if total > inputLimit {
		return nil, tooBig
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}
