package frontend

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sdscgen/sdscgen/ir"
)

// Error is one positioned diagnostic.
type Error struct {
	Pos ir.Position
	Msg string

	// undeclared is, on an "undeclared buffer" error (or an undeclared
	// rename target), the name's id in
	// the builder's table + 1, for its did-you-mean (see
	// builder.suggestNames); else 0.
	undeclared int32
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: error: %s", e.Pos, e.Msg)
}

// ErrorList is a list of diagnostics. Like go/scanner.ErrorList, a nil or
// empty list means success; call Err to turn it into an ordinary error.
type ErrorList []*Error

func (l *ErrorList) add(pos ir.Position, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return l[i].Msg < l[j].Msg
}

// Sort orders the list by file, line, column and then message, which is
// the order the contract requires diagnostics to be reported in.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error prints every diagnostic, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty; returning the nil
// ErrorList itself would make a non-nil error interface.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// DefaultErrorLimit is the number of diagnostics Print shows by default
// (sdscgen's --error-limit).
const DefaultErrorLimit = 20

// PrintOptions says how Print writes a list of diagnostics.
type PrintOptions struct {
	// Limit is the number of diagnostics printed, in order; when there
	// are more, one line after them says how many were left out. 0
	// prints them all.
	Limit int
	// JSON prints each diagnostic as one JSON object on a line of its
	// own (see Diagnostic) instead of text.
	JSON bool
	// Source, when set (and JSON is not), shows under each diagnostic
	// of text its source line and a caret under its column, as clang
	// does. It is called once, with the numbers of the lines of file
	// that the shown diagnostics are on, in increasing order, and
	// returns their text without the line break (ReadLines reads them);
	// a line it leaves out gets no caret.
	Source func(file string, lines []int) map[int]string
}

// Diagnostic is one diagnostic, or remark, as a JSON object: Print's
// form with PrintOptions.JSON, and sdscgen's --diagnostics-format=json.
// Severity is "error", "remark" or "note"; Line and Col are 0 on a
// message about the whole file (the "too many errors" note).
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// WriteJSON writes d as one line of JSON.
func (d Diagnostic) WriteJSON(w io.Writer) error {
	// "<stdin>" stays as it is, not \u003cstdin\u003e.
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// Print writes the diagnostics of l to w, one per line as Error words
// them (or as JSON, see PrintOptions). When o.Limit leaves some out, a
// last line
//
//	FILE: too many errors (N shown, M more not shown)
//
// says so, FILE being the first diagnostic's. It returns w's error.
func (l ErrorList) Print(w io.Writer, o PrintOptions) error {
	bw := bufio.NewWriter(w)
	shown := l
	if o.Limit > 0 && len(l) > o.Limit {
		shown = l[:o.Limit]
	}
	var src map[int]string
	if o.Source != nil && !o.JSON && len(shown) > 0 {
		src = o.Source(shown[0].Pos.File, shown.lines())
	}
	for _, e := range shown {
		if o.JSON {
			Diagnostic{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Severity: "error", Message: e.Msg}.WriteJSON(bw)
			continue
		}
		bw.WriteString(e.Error())
		bw.WriteByte('\n')
		if text, ok := src[e.Pos.Line]; ok && e.Pos.File == shown[0].Pos.File {
			bw.WriteString(caret(text, e.Pos.Col))
		}
	}
	if n := len(l) - len(shown); n > 0 {
		msg := fmt.Sprintf("too many errors (%d shown, %d more not shown)", len(shown), n)
		if o.JSON {
			Diagnostic{File: l[0].Pos.File, Severity: "note", Message: msg}.WriteJSON(bw)
		} else {
			fmt.Fprintf(bw, "%s: %s\n", l[0].Pos.File, msg)
		}
	}
	return bw.Flush()
}

// lines returns the line numbers of the diagnostics of l in the first
// one's file, in increasing order, each once.
func (l ErrorList) lines() []int {
	var out []int
	for _, e := range l {
		if e.Pos.File == l[0].Pos.File && e.Pos.Line > 0 {
			out = append(out, e.Pos.Line)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// caretWidth is the most of a source line caret shows: a longer line is
// cut to a window around the column, with "..." on the cut sides.
const caretWidth = 160

// caret returns a source line and, under it, a caret at column col (a
// byte count from 1, as positions are), each ending in a line break. A
// tab before the column is copied to the caret line so that the caret
// lines up however wide the terminal shows tabs; any other character
// takes one cell. A control character, or a byte that is no UTF-8, is
// shown as '?', so that the input cannot send the terminal escapes.
func caret(text string, col int) string {
	at := col - 1 // byte offset of the column in text
	if at < 0 {
		at = 0
	}
	start, end := 0, len(text)
	if len(text) > caretWidth {
		start = max(0, min(at, len(text))-caretWidth/2)
		for start > 0 && start < len(text) && !utf8.RuneStart(text[start]) {
			start--
		}
		end = min(len(text), start+caretWidth)
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
	}
	var line, mark strings.Builder
	if start > 0 {
		line.WriteString("...")
		mark.WriteString("   ")
	}
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		shown := r
		switch {
		case r == '\t':
		case r == utf8.RuneError && size <= 1, r < ' ', r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029:
			shown = '?'
		}
		line.WriteRune(shown)
		if i < at {
			if r == '\t' {
				mark.WriteByte('\t')
			} else {
				mark.WriteByte(' ')
			}
		}
		i += size
	}
	if end < len(text) {
		line.WriteString("...")
	}
	// A column past the end of the text (the end of the line, or of
	// what was cut) gets its caret there.
	for i := max(end, start); i < at; i++ {
		mark.WriteByte(' ')
	}
	return line.String() + "\n" + mark.String() + "^\n"
}

// maxLineKept is the most of one line ReadLines keeps: a caret at a
// column beyond it is shown at the cut.
const maxLineKept = 1 << 16

// ReadLines reads r, a whole source, and returns the text of the lines
// numbered in want (in increasing order), without their line breaks,
// counting lines as the scanner does: LF, CR LF and a lone CR each end
// one, and a UTF-8 BOM at the start is not part of line 1. A line keeps
// at most its first 64 KiB. It stops reading after the last line wanted.
func ReadLines(r io.Reader, want []int) (map[int]string, error) {
	out := make(map[int]string, len(want))
	if len(want) == 0 {
		return out, nil
	}
	br := bufio.NewReaderSize(r, 64<<10)
	line, wi := 1, 0
	for wi < len(want) && want[wi] < line {
		wi++
	}
	var cur []byte
	first := true
	for wi < len(want) {
		c, err := br.ReadByte()
		if err == io.EOF {
			if want[wi] == line {
				out[line] = string(cur)
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if first {
			first = false
			if c == 0xEF {
				if b, err := br.Peek(2); err == nil && b[0] == 0xBB && b[1] == 0xBF {
					br.Discard(2)
					continue
				}
			}
		}
		if c == '\n' || c == '\r' {
			if c == '\r' {
				if b, err := br.Peek(1); err == nil && b[0] == '\n' {
					br.ReadByte()
				}
			}
			if want[wi] == line {
				out[line] = string(cur)
			}
			line++
			cur = cur[:0]
			for wi < len(want) && want[wi] < line {
				wi++
			}
			continue
		}
		if want[wi] == line && len(cur) < maxLineKept {
			cur = append(cur, c)
		}
	}
	return out, nil
}
