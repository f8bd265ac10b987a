package planner

import (
	"io"
	"strconv"

	"github.com/sdscgen/sdscgen/internal/decimal"
)

// WriteJSON writes the plan JSON of bundle-ir.md §5. The layout is fixed (keys in
// the spec's order, one bundle or buffer per line) so that plans diff well
// and are byte-identical for the same input and flags. Every buffer line
// carries its group's decision ("offset" is where the group's storage
// starts in the pool, shared by all its names) and the name's own
// "view_offset" (0 for a group's root), which is set whether or not the
// group is pooled.
//
// The text is built in one buffer and handed to w in pieces of about
// 64 KiB; names that repeat on every line (bundles, reasons) are quoted
// once.
func WriteJSON(w io.Writer, p *Result) error {
	g := p.Graph
	b := make([]byte, 0, 72<<10)
	b = append(b, "{\n  \"graph\": "...)
	b = appendString(b, g.Name)
	b = append(b, ",\n  \"allocator\": "...)
	b = appendString(b, p.Allocator)
	b = append(b, ",\n  \"budget\": "...)
	b = strconv.AppendInt(b, p.Budget, 10)
	b = append(b, ",\n  \"pool_sizes\": {"...)
	first := true
	for bi, pb := range p.Bundles {
		if !pb.HasPool() {
			continue
		}
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = appendString(b, g.Bundles[bi].Name)
		b = append(b, ": "...)
		b = strconv.AppendInt(b, pb.PoolSize, 10)
	}
	b = append(b, "},\n  \"bundles\": ["...)
	for bi, pb := range p.Bundles {
		if bi > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\"name\": "...)
		b = appendString(b, g.Bundles[bi].Name)
		b = append(b, ", \"steps\": "...)
		b = strconv.AppendInt(b, int64(len(g.Bundles[bi].Ops)), 10)
		b = append(b, ", \"pool_size\": "...)
		if pb.HasPool() {
			b = strconv.AppendInt(b, pb.PoolSize, 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ", \"lower_bound\": "...)
		b = strconv.AppendInt(b, pb.LowerBound, 10)
		if len(p.Compare) > 0 {
			b = append(b, ", \"compare\": "...)
			if !pb.HasPool() {
				b = append(b, "null"...)
			} else {
				for k, alt := range p.Compare {
					if k == 0 {
						b = append(b, '{')
					} else {
						b = append(b, ", "...)
					}
					b = appendString(b, alt.Allocator)
					b = append(b, ": "...)
					b = strconv.AppendInt(b, alt.PoolSizes[bi], 10)
				}
				b = append(b, '}')
			}
		}
		b = append(b, '}')
	}
	if len(p.Bundles) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"buffers\": ["...)
	// Bundle bi's name as a JSON string is quoted[bundleAt[bi]:bundleAt[bi+1]].
	var quoted []byte
	bundleAt := make([]int, len(g.Bundles)+1)
	for bi := range g.Bundles {
		quoted = appendString(quoted, g.Bundles[bi].Name)
		bundleAt[bi+1] = len(quoted)
	}
	for i := range g.Buffers {
		buf := &g.Buffers[i]
		if i > 0 {
			b = append(b, ',')
		}
		pg := &p.Groups[buf.Group]
		b = append(b, "\n    {\"name\": "...)
		b = appendString(b, buf.Name)
		b = append(b, ", \"size\": "...)
		b = decimal.Append(b, buf.Size)
		b = append(b, ", \"bundle\": "...)
		if pg.Bundle >= 0 {
			b = append(b, quoted[bundleAt[pg.Bundle]:bundleAt[pg.Bundle+1]]...)
			b = append(b, ", \"start\": "...)
			b = decimal.Append(b, int64(pg.Start))
			b = append(b, ", \"end\": "...)
			b = decimal.Append(b, int64(pg.End))
		} else {
			b = append(b, "null, \"start\": null, \"end\": null"...)
		}
		b = append(b, ", \"offset\": "...)
		if pg.Offset >= 0 {
			b = decimal.Append(b, pg.Offset)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ", \"view_offset\": "...)
		b = decimal.Append(b, buf.ViewOffset)
		b = append(b, ", \"reason\": "...)
		if pg.Reason == Pooled {
			b = append(b, "null}"...)
		} else {
			b = appendString(b, pg.Reason.String())
			b = append(b, '}')
		}
		if len(b) > 64<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if len(g.Buffers) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	_, err := w.Write(b)
	return err
}

// appendString appends s as a JSON string. Names in bundle IR are plain
// ASCII identifiers, but escaping keeps the output valid JSON whatever the
// model holds.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
		i++
	}
	b = append(b, s[:i]...) // the plain prefix (usually all of s) at once
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
