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
	var buf bytes.Buffer
	if size > 0 {
		buf.Grow(int(size) + 1)
	}
	n, err := buf.ReadFrom(io.LimitReader(r, inputLimit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if n > inputLimit {
		return nil, tooBig
	}
	return buf.Bytes(), nil
}
