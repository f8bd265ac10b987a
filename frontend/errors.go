package frontend

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sdscgen/sdscgen/ir"
)

// Error is one positioned diagnostic.
type Error struct {
	Pos ir.Position
	Msg string
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
