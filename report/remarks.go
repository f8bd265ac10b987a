package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sdscgen/sdscgen/planner"
)

// RemarkMode selects which buffers get a remark.
type RemarkMode int

const (
	// RemarksMissed reports the buffers that are not pooled, with the
	// reason (like -Rpass-missed).
	RemarksMissed RemarkMode = iota + 1
	// RemarksPassed reports the pooled buffers (like -Rpass).
	RemarksPassed
	// RemarksAll reports both.
	RemarksAll
)

// ParseRemarkMode reads "missed", "passed" or "all".
func ParseRemarkMode(s string) (RemarkMode, error) {
	switch s {
	case "missed":
		return RemarksMissed, nil
	case "passed":
		return RemarksPassed, nil
	case "all":
		return RemarksAll, nil
	}
	return 0, fmt.Errorf("unknown remark mode %q (want missed, passed or all)", s)
}

// Remarks writes one line per selected buffer, at its declaration, in
// declaration order:
//
//	FILE:LINE:COL: remark: t0 not pooled [cpu-read]: CPU node sin4 reads it at FILE:33:13
//	FILE:LINE:COL: remark: acc pooled in bundle mm_block at offset 0 (256 B), live at steps 1..2
//
// Views get their own remark, naming the storage they are a view of and
// where in it: "v (a view 2048 bytes into t0's storage) not pooled ...".
func Remarks(w io.Writer, p *planner.Result, mode RemarkMode) error {
	g := p.Graph
	ix := p.Index()
	bw := bufio.NewWriter(w)
	for bi, b := range g.Buffers.All() {
		gi := int(b.Group)
		pooled := p.Groups[gi].Reason == planner.Pooled
		if pooled && mode == RemarksMissed || !pooled && mode == RemarksPassed {
			continue
		}
		via := ""
		if v := viewPhrase(g, bi); v != "" {
			via = " (" + v + ")"
		}
		if pooled {
			fmt.Fprintf(bw, "%s: remark: %s%s %s\n", g.Position(b.Pos), g.Str(b.Name), via, evidence(p, ix, gi))
		} else {
			fmt.Fprintf(bw, "%s: remark: %s%s not pooled [%s]: %s\n", g.Position(b.Pos), g.Str(b.Name), via, p.Groups[gi].Reason, evidence(p, ix, gi))
		}
	}
	return bw.Flush()
}
