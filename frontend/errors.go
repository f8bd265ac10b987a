package frontend

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
)

// Error is one positioned diagnostic.
type Error struct {
	Pos ir.Position
	Msg string

	// undeclared is, on an "undeclared buffer" error, the name's id in
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
}

// Print writes the diagnostics of l to w, one per line as Error words
// them. When o.Limit leaves some out, a last line
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
	for _, e := range shown {
		bw.WriteString(e.Error())
		bw.WriteByte('\n')
	}
	if n := len(l) - len(shown); n > 0 {
		fmt.Fprintf(bw, "%s: too many errors (%d shown, %d more not shown)\n", l[0].Pos.File, len(shown), n)
	}
	return bw.Flush()
}
