// Package dsa reads and writes offset-assignment (dynamic storage
// allocation) instances in the MiniMalloc CSV format and packs them with
// the allocators of package alloc, so sdscgen's allocators can be measured
// on public traces and compared with other solvers on the same files.
//
// The format is `id,lower,upper,size[,offset]`: lower/upper is the
// half-open lifespan [lower, upper), size and offset are bytes. alloc works
// on inclusive steps, so a buffer becomes the interval [lower, upper-1];
// two buffers with a.upper == b.lower then do not conflict, exactly as in
// MiniMalloc.
package dsa

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sdscgen/sdscgen/alloc"
)

// Buffer is one CSV row.
type Buffer struct {
	ID           string
	Lower, Upper int64 // half-open lifespan
	Size         int64
	// Offset is the offset column of a solution file, or -1 when the file
	// has none.
	Offset int64
}

// Instance is a parsed CSV file.
type Instance struct {
	Name    string // file name used in messages
	Buffers []Buffer
	// HasOffsets is set when the file carried an offset column.
	HasOffsets bool
}

// Error is a positioned input error, printed as `FILE:LINE: error: MSG`.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: error: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: error: %s", e.File, e.Msg)
}

// ReadFile reads an instance from path; "-" is not special here (the
// command handles stdin).
func ReadFile(path string) (*Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read parses an instance. The header must name the columns; id, size
// and either lower+upper (half-open) or start+end (end inclusive, as
// MiniMalloc's reader also accepts) are required, offset is optional, and
// columns that would change the problem (alignment, gaps, hint) are
// rejected rather than silently ignored. Every row must have the header's
// column count, integer fields, lower < upper, size > 0 and an id not seen
// before.
func Read(r io.Reader, name string) (*Instance, error) { return read(r, name, maxInput) }

// read is Read taking at most limit bytes (tests lower it).
func read(r io.Reader, name string, limit int64) (*Instance, error) {
	inst := &Instance{Name: name}
	lr := &limitReader{r: r, left: limit}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	errAt := func(line int, format string, a ...any) error {
		return &Error{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	scanErr := func(line int, err error) error {
		switch {
		case errors.Is(err, errTooLarge):
			return errAt(0, "input is larger than the limit of %d bytes", limit)
		case errors.Is(err, bufio.ErrTooLong):
			return errAt(line, "line is longer than %d bytes", maxLine)
		}
		return errAt(line, "%v", err)
	}
	line := 0
	// Header.
	var header []string
	for sc.Scan() {
		line++
		text := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text == "" {
			continue
		}
		header = splitFields(text)
		break
	}
	if err := sc.Err(); err != nil {
		return nil, scanErr(line+1, err)
	}
	if header == nil {
		return nil, errAt(0, "empty input: expected a header like id,lower,upper,size")
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(h)
		switch h {
		case "id", "lower", "upper", "start", "end", "size", "offset":
		case "alignment", "gaps", "hint":
			return nil, errAt(line, "column %q is not supported (only id, lower, upper, size, offset)", h)
		default:
			return nil, errAt(line, "unknown column %q in header (want id,lower,upper,size[,offset])", header[i])
		}
		if _, dup := col[h]; dup {
			return nil, errAt(line, "column %q appears twice in header", h)
		}
		col[h] = i
	}
	_, hasLower := col["lower"]
	_, hasUpper := col["upper"]
	_, hasStart := col["start"]
	_, hasEnd := col["end"]
	inclusive := false
	switch {
	case hasLower && hasUpper && !hasStart && !hasEnd:
	case hasStart && hasEnd && !hasLower && !hasUpper:
		inclusive = true
	default:
		return nil, errAt(line, "header needs lower,upper (or start,end) columns: %s", strings.Join(header, ","))
	}
	if _, ok := col["id"]; !ok {
		return nil, errAt(line, "header has no id column")
	}
	if _, ok := col["size"]; !ok {
		return nil, errAt(line, "header has no size column")
	}
	_, hasOff := col["offset"]
	inst.HasOffsets = hasOff
	lowName, upName := "lower", "upper"
	if inclusive {
		lowName, upName = "start", "end"
	}
	seen := map[string]int{}
	var sum int64
	for sc.Scan() {
		line++
		text := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if text == "" {
			continue
		}
		f := splitFields(text)
		if len(f) != len(header) {
			return nil, errAt(line, "%d fields, header has %d", len(f), len(header))
		}
		num := func(c string) (int64, error) {
			v, err := strconv.ParseInt(f[col[c]], 10, 64)
			if err != nil {
				return 0, errAt(line, "%s %q is not an integer", c, f[col[c]])
			}
			return v, nil
		}
		b := Buffer{ID: f[col["id"]], Offset: -1}
		if b.ID == "" {
			return nil, errAt(line, "empty id")
		}
		if prev, dup := seen[b.ID]; dup {
			return nil, errAt(line, "duplicate id %q (first on line %d)", b.ID, prev)
		}
		seen[b.ID] = line
		var err error
		if b.Lower, err = num(lowName); err != nil {
			return nil, err
		}
		if b.Upper, err = num(upName); err != nil {
			return nil, err
		}
		if inclusive {
			if b.Upper < b.Lower {
				return nil, errAt(line, "end %d is before start %d", b.Upper, b.Lower)
			}
			b.Upper++
		} else if b.Lower >= b.Upper {
			return nil, errAt(line, "lower %d is not below upper %d (upper is exclusive)", b.Lower, b.Upper)
		}
		if b.Lower < minStep || b.Upper-1 > maxStep {
			return nil, errAt(line, "lifespan [%d,%d) is outside the supported step range", b.Lower, b.Upper)
		}
		if b.Size, err = num("size"); err != nil {
			return nil, err
		}
		if b.Size <= 0 {
			return nil, errAt(line, "size %d is not positive", b.Size)
		}
		if b.Size > maxBytes {
			return nil, errAt(line, "size %d is larger than the maximum %d", b.Size, int64(maxBytes))
		}
		// Offsets are sums of sizes: keep them far from overflowing.
		if b.Size > maxBytes-sum {
			return nil, errAt(line, "sizes add up to more than %d bytes", int64(maxBytes))
		}
		sum += b.Size
		if hasOff {
			if b.Offset, err = num("offset"); err != nil {
				return nil, err
			}
			if b.Offset < 0 || b.Offset > maxBytes {
				return nil, errAt(line, "offset %d is out of range", b.Offset)
			}
		}
		inst.Buffers = append(inst.Buffers, b)
	}
	if err := sc.Err(); err != nil {
		return nil, scanErr(line+1, err)
	}
	return inst, nil
}

// Steps are alloc.Interval ints; keep them well inside the range so that
// End+1 in alloc.LowerBound cannot overflow on any platform.
const (
	minStep  = -(1 << 30)
	maxStep  = 1 << 30
	maxBytes = 1 << 62
)

// Limits on what Read reads: the whole input and one line.
const maxLine = 16 << 20

// maxInput is the most bytes Read takes: beyond it, it stops reading
// rather than let a device such as /dev/zero or a huge file take all
// memory.
const maxInput = 1<<31 - 1

// errTooLarge is limitReader's error past its limit.
var errTooLarge = errors.New("input too large")

// limitReader reads at most left bytes and then fails with errTooLarge
// (io.LimitReader would end quietly, as if the input ended there).
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a longer input from one that ends here.
		var b [1]byte
		n, err := l.r.Read(b[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func splitFields(s string) []string {
	f := strings.Split(s, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// Intervals converts buffers to alloc intervals: ids become names, the
// half-open lifespan becomes inclusive steps.
func Intervals(bufs []Buffer) []alloc.Interval {
	items := make([]alloc.Interval, len(bufs))
	for i, b := range bufs {
		items[i] = alloc.Interval{Name: b.ID, Size: b.Size, Start: int(b.Lower), End: int(b.Upper - 1)}
	}
	return items
}

// Offsets returns the offset column of a solution file.
func Offsets(bufs []Buffer) []int64 {
	offs := make([]int64, len(bufs))
	for i, b := range bufs {
		offs[i] = b.Offset
	}
	return offs
}

// Write writes `id,lower,upper,size,offset` rows, one per buffer, with
// the given offsets (in buffer order).
func Write(w io.Writer, bufs []Buffer, offsets []int64) error {
	if len(offsets) != len(bufs) {
		return fmt.Errorf("%d offsets for %d buffers", len(offsets), len(bufs))
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("id,lower,upper,size,offset\n")
	var buf []byte
	for i, b := range bufs {
		buf = buf[:0]
		buf = append(buf, b.ID...)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, b.Lower, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, b.Upper, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, b.Size, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, offsets[i], 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
