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
	sc := bufio.NewScanner(&limitReader{r: r, left: limit})
	sc.Buffer(make([]byte, 64*1024), maxLine)
	rd := &csvReader{name: name, sc: sc}
	header, err := rd.next()
	if err != nil {
		return nil, rd.scanErr(err, limit)
	}
	if header == nil {
		return nil, rd.errAt(0, "empty input: expected a header like id,lower,upper,size")
	}
	cols, err := rd.columns(header)
	if err != nil {
		return nil, err
	}
	inst.HasOffsets = cols.offset >= 0
	seen := map[string]int{}
	var sum int64
	for {
		f, err := rd.next()
		if err != nil {
			return nil, rd.scanErr(err, limit)
		}
		if f == nil {
			return inst, nil
		}
		b, err := rd.row(cols, f, seen, &sum)
		if err != nil {
			return nil, err
		}
		inst.Buffers = append(inst.Buffers, b)
	}
}

// csvReader reads an instance's lines, numbering them for its errors.
type csvReader struct {
	name string
	sc   *bufio.Scanner
	line int
}

func (rd *csvReader) errAt(line int, format string, a ...any) error {
	return &Error{File: rd.name, Line: line, Msg: fmt.Sprintf(format, a...)}
}

// next returns the fields of the next non-blank line (a byte order mark
// before the first is dropped, and a CR at each end), or nil at the end of
// the input.
func (rd *csvReader) next() ([]string, error) {
	for rd.sc.Scan() {
		rd.line++
		text := strings.TrimSpace(strings.TrimSuffix(rd.sc.Text(), "\r"))
		if rd.line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text != "" {
			return splitFields(text), nil
		}
	}
	return nil, rd.sc.Err()
}

// scanErr is the error of a failed read, on the line it was reading.
func (rd *csvReader) scanErr(err error, limit int64) error {
	switch {
	case errors.Is(err, errTooLarge):
		return rd.errAt(0, "input is larger than the limit of %d bytes", limit)
	case errors.Is(err, bufio.ErrTooLong):
		return rd.errAt(rd.line+1, "line is longer than %d bytes", maxLine)
	}
	return rd.errAt(rd.line+1, "%v", err)
}

// cols is where each column of the header is; offset is -1 without one.
type cols struct {
	n                      int // the header's column count
	id, lower, upper, size int
	offset                 int
	// inclusive: the lifespan columns are start,end with end inclusive.
	inclusive bool
}

// columns checks the header and finds its columns.
func (rd *csvReader) columns(header []string) (cols, error) {
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(h)
		switch h {
		case "id", "lower", "upper", "start", "end", "size", "offset":
		case "alignment", "gaps", "hint":
			return cols{}, rd.errAt(rd.line, "column %q is not supported (only id, lower, upper, size, offset)", h)
		default:
			return cols{}, rd.errAt(rd.line, "unknown column %q in header (want id,lower,upper,size[,offset])", header[i])
		}
		if _, dup := col[h]; dup {
			return cols{}, rd.errAt(rd.line, "column %q appears twice in header", h)
		}
		col[h] = i
	}
	has := func(h string) bool { _, ok := col[h]; return ok }
	c := cols{n: len(header), offset: -1}
	switch {
	case has("lower") && has("upper") && !has("start") && !has("end"):
		c.lower, c.upper = col["lower"], col["upper"]
	case has("start") && has("end") && !has("lower") && !has("upper"):
		c.lower, c.upper, c.inclusive = col["start"], col["end"], true
	default:
		return cols{}, rd.errAt(rd.line, "header needs lower,upper (or start,end) columns: %s", strings.Join(header, ","))
	}
	if !has("id") {
		return cols{}, rd.errAt(rd.line, "header has no id column")
	}
	if !has("size") {
		return cols{}, rd.errAt(rd.line, "header has no size column")
	}
	c.id, c.size = col["id"], col["size"]
	if has("offset") {
		c.offset = col["offset"]
	}
	return c, nil
}

// row checks one line's fields f and returns its buffer; seen maps the
// ids met to their lines and sum adds up the sizes.
func (rd *csvReader) row(c cols, f []string, seen map[string]int, sum *int64) (Buffer, error) {
	line := rd.line
	if len(f) != c.n {
		return Buffer{}, rd.errAt(line, "%d fields, header has %d", len(f), c.n)
	}
	lowName, upName := "lower", "upper"
	if c.inclusive {
		lowName, upName = "start", "end"
	}
	var err error
	num := func(name string, i int) int64 {
		if err != nil {
			return 0
		}
		v, perr := strconv.ParseInt(f[i], 10, 64)
		if perr != nil {
			err = rd.errAt(line, "%s %q is not an integer", name, f[i])
		}
		return v
	}
	b := Buffer{ID: f[c.id], Offset: -1}
	if b.ID == "" {
		return b, rd.errAt(line, "empty id")
	}
	if prev, dup := seen[b.ID]; dup {
		return b, rd.errAt(line, "duplicate id %q (first on line %d)", b.ID, prev)
	}
	seen[b.ID] = line
	b.Lower, b.Upper = num(lowName, c.lower), num(upName, c.upper)
	if err != nil {
		return b, err
	}
	if c.inclusive {
		if b.Upper < b.Lower {
			return b, rd.errAt(line, "end %d is before start %d", b.Upper, b.Lower)
		}
		b.Upper++
	} else if b.Lower >= b.Upper {
		return b, rd.errAt(line, "lower %d is not below upper %d (upper is exclusive)", b.Lower, b.Upper)
	}
	if b.Lower < minStep || b.Upper-1 > maxStep {
		return b, rd.errAt(line, "lifespan [%d,%d) is outside the supported step range", b.Lower, b.Upper)
	}
	if b.Size = num("size", c.size); err != nil {
		return b, err
	}
	switch {
	case b.Size <= 0:
		return b, rd.errAt(line, "size %d is not positive", b.Size)
	case b.Size > maxBytes:
		return b, rd.errAt(line, "size %d is larger than the maximum %d", b.Size, int64(maxBytes))
	case b.Size > maxBytes-*sum:
		// Offsets are sums of sizes: keep them far from overflowing.
		return b, rd.errAt(line, "sizes add up to more than %d bytes", int64(maxBytes))
	}
	*sum += b.Size
	if c.offset >= 0 {
		if b.Offset = num("offset", c.offset); err != nil {
			return b, err
		}
		if b.Offset < 0 || b.Offset > maxBytes {
			return b, rd.errAt(line, "offset %d is out of range", b.Offset)
		}
	}
	return b, nil
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
