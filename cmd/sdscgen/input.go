package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// maxInput is the largest input sdscgen reads: frontend.Parse rejects
// files of 2 GiB or more (its positions are 32-bit).
const maxInput = math.MaxInt32 - 1

// inputLimit is maxInput; tests lower it.
var inputLimit int64 = maxInput

// input is the command's input: a regular file, opened for the compiler
// to read (file), or anything else (stdin, a FIFO, a device, an empty
// or size-less file) read whole (src). size is the file's size or
// len(src).
type input struct {
	file *fileInput
	src  []byte
	size int
}

// openInput opens the input ("-": stdin). A regular file is not read
// here: sdscgen.CompileReader reads it through a window and never holds
// it whole (a 1M-op source is a hundred megabytes). Anything else is
// read whole now (readStream), as its size tunes the collector.
func openInput(path string, stdin io.Reader) (*input, error) {
	if path == "-" {
		src, err := readStream("<stdin>", stdin)
		return &input{src: src, size: len(src)}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var size int64
	if fi, err := f.Stat(); err == nil {
		if fi.IsDir() {
			f.Close()
			return nil, fmt.Errorf("%s is a directory", path)
		}
		if fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	if size > inputLimit {
		f.Close()
		return nil, tooBig(path)
	}
	if size > 0 {
		return &input{file: &fileInput{f: f, name: path}, size: int(size)}, nil
	}
	defer f.Close()
	src, err := readStream(path, f)
	return &input{src: src, size: len(src)}, err
}

// close closes the file, if any.
func (in *input) close() {
	if in.file != nil {
		in.file.f.Close()
	}
}

// tooBig is the error for an input over the limit.
func tooBig(name string) error {
	return inputError{fmt.Errorf("%s: input is larger than the limit of %d bytes (2 GiB)", name, inputLimit)}
}

// inputError is a failure to read the input, as the compiler returns it
// from fileInput.Read.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// fileInput reads a regular file for the compiler, failing as soon as
// it passes the limit (the file may have grown since it was opened),
// with every error naming the file. Its Stat tells the compiler its
// size.
type fileInput struct {
	f    *os.File
	name string
	n    int64 // bytes read
}

func (in *fileInput) Read(p []byte) (int, error) {
	if rest := inputLimit + 1 - in.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := in.f.Read(p)
	in.n += int64(n)
	switch {
	case in.n > inputLimit:
		return n, tooBig(in.name)
	case err != nil && err != io.EOF:
		return n, inputError{fmt.Errorf("%s: %w", in.name, err)}
	}
	return n, err
}

func (in *fileInput) Stat() (fs.FileInfo, error) { return in.f.Stat() }

// readStream reads r (name is its name for errors) to its end and stops
// as soon as it passes the limit, so a device such as /dev/zero or a
// huge stream costs at most the limit, never all memory.
func readStream(name string, r io.Reader) ([]byte, error) {
	// The stream is read in chunks of growing size. Reading stops at
	// the limit, so
	// /dev/zero costs at most the limit and a chunk (a growing buffer
	// would hold up to twice the limit while it copies itself).
	var chunks [][]byte
	var total int64
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
		return nil, tooBig(name)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}
