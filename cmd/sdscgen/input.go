package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// maxInput is the largest input sdscgen reads: frontend.Parse rejects
// files of 2 GiB or more (its positions are 32-bit). Tests lower it
// (process.inputLimit).
const maxInput = math.MaxInt32 - 1

// input is the command's input, which the compiler reads through its
// window (sdscgen.CompileReader) and never holds whole: a regular file
// (a 1M-op source is a hundred megabytes), or a stream (stdin, a FIFO,
// a device, a size-less file), read the same way, so that /dev/zero or
// a binary file fails at its first bad byte and a long stream costs its
// graph, not the graph and its text. size is a regular file's size, 0
// for a stream.
type input struct {
	file *fileInput
	size int
}

// openInput opens the input ("-": stdin), of at most limit bytes.
func openInput(path string, stdin io.Reader, limit int64) (*input, error) {
	if path == "-" {
		return &input{file: &fileInput{r: stdin, name: "<stdin>", limit: limit}}, nil
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
	if size > limit {
		f.Close()
		return nil, tooBig(path, limit)
	}
	return &input{file: &fileInput{r: f, f: f, name: path, limit: limit}, size: int(size)}, nil
}

// close closes the file, if any.
func (in *input) close() {
	if in.file != nil && in.file.f != nil {
		in.file.f.Close()
	}
}

// tooBig is the error for an input over the limit.
func tooBig(name string, limit int64) error {
	return inputError{fmt.Errorf("%s: input is larger than the limit of %d bytes (2 GiB)", name, limit)}
}

// inputError is a failure to read the input, as the compiler returns it
// from fileInput.Read.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// fileInput reads the input for the compiler, failing as soon as it
// passes its limit (a stream has no size, and a file may have grown
// since it was opened), with every error naming the input. Its Stat
// tells the compiler the size of a regular file. On a stream, grew (when
// set) is told how many bytes have been read each time that count
// doubles from tinyInput, and at the end: the collector's settings
// follow the input's size (gcTuner.input), which a stream only tells as it
// goes.
type fileInput struct {
	r     io.Reader
	f     *os.File // the file opened, closed by input.close; nil for stdin
	name  string
	n     int64 // bytes read
	grew  func(n int)
	next  int64 // when grew is called next; 0: tinyInput
	limit int64 // the largest input read (maxInput but in tests)
}

func (in *fileInput) Read(p []byte) (int, error) {
	if rest := in.limit + 1 - in.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := in.r.Read(p)
	in.n += int64(n)
	if in.grew != nil {
		if in.next == 0 {
			in.next = tinyInput
		}
		if in.n >= in.next || err == io.EOF {
			for in.next <= in.n {
				in.next *= 2
			}
			in.grew(int(min(in.n, in.limit)))
		}
	}
	switch {
	case in.n > in.limit:
		return n, tooBig(in.name, in.limit)
	case err != nil && err != io.EOF:
		return n, inputError{fmt.Errorf("%s: %w", in.name, err)}
	}
	return n, err
}

func (in *fileInput) Stat() (fs.FileInfo, error) {
	if in.f == nil {
		return nil, errors.New("standard input")
	}
	return in.f.Stat()
}
