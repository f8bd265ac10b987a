package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/frontend"
)

// showCaret resolves --caret: auto shows the source line and caret when
// standard error is a terminal, so that a pipe (a script, a CI check
// reading every line as FILE:LINE:COL: error: MESSAGE) gets only the
// diagnostic lines.
func showCaret(when string, stderr io.Writer) bool {
	switch when {
	case "always":
		return true
	case "never":
		return false
	}
	f, ok := stderr.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// sourceLines returns what frontend.PrintOptions.Source needs: the text
// of the lines that the diagnostics shown are on, read again from the
// input once they are known (the compiler reads through a window and
// keeps no line). A file is opened again by its path; standard input is
// read again only when it is a regular file (sdscgen - < FILE), from its
// start; a pipe or device cannot be read twice, and gets no caret.
func sourceLines(path string, stdin io.Reader) func(file string, lines []int) map[int]string {
	return func(_ string, lines []int) map[int]string {
		var r io.Reader
		if path == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				return nil
			}
			fi, err := f.Stat()
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
			r = io.NewSectionReader(f, 0, fi.Size())
		} else {
			f, err := os.Open(path)
			if err != nil {
				return nil
			}
			defer f.Close()
			if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
				return nil // a FIFO or device was read once already
			}
			r = f
		}
		m, _ := frontend.ReadLines(r, lines)
		return m
	}
}

// inputFailed reports a failure to open or read the input (the
// message names it), as text or, with --diagnostics-format=json, as a
// JSON error with no position.
func inputFailed(cfg *config, name string, err error, stderr io.Writer) {
	if cfg.diagJSON {
		frontend.Diagnostic{File: name, Severity: "error", Message: err.Error()}.WriteJSON(stderr)
		return
	}
	fmt.Fprintf(stderr, "sdscgen: %v\n", err)
}

// remarksJSON turns the lines that Result.WriteRemarks writes,
// "FILE:LINE:COL: remark: MESSAGE" with FILE the graph's file, into
// JSON lines (frontend.Diagnostic, severity "remark"), one line at a
// time as they come: a million buffers' remarks are never held.
type remarksJSON struct {
	w    io.Writer
	file string
	part []byte // an incomplete line
	err  error
}

func (r *remarksJSON) Write(p []byte) (int, error) {
	n := len(p)
	for r.err == nil {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.part = append(r.part, p...)
			break
		}
		line := p[:i]
		if len(r.part) > 0 {
			r.part = append(r.part, line...)
			line = r.part
		}
		r.err = r.line(string(line))
		r.part = r.part[:0]
		p = p[i+1:]
	}
	return n, r.err
}

// flush writes an incomplete last line, if any.
func (r *remarksJSON) flush() {
	if len(r.part) > 0 && r.err == nil {
		r.err = r.line(string(r.part))
		r.part = nil
	}
}

func (r *remarksJSON) line(s string) error {
	d := frontend.Diagnostic{File: r.file, Severity: "remark", Message: s}
	if rest, ok := strings.CutPrefix(s, r.file+":"); ok {
		parts := strings.SplitN(rest, ":", 3)
		if len(parts) == 3 {
			line, err1 := strconv.Atoi(parts[0])
			col, err2 := strconv.Atoi(parts[1])
			msg, ok := strings.CutPrefix(parts[2], " remark: ")
			if err1 == nil && err2 == nil && ok {
				d.Line, d.Col, d.Message = line, col, msg
			}
		}
	}
	return d.WriteJSON(r.w)
}
