package planner

import (
	"bufio"
	"io"
	"strconv"
)

// WriteJSON writes the plan JSON of bundle-ir.md §5. The layout is fixed (keys in
// the spec's order, one bundle or buffer per line) so that plans diff well
// and are byte-identical for the same input and flags. Every buffer line
// carries its group's decision ("offset" is where the group's storage
// starts in the pool, shared by all its names) and the name's own
// "view_offset" (0 for a group's root), which is set whether or not the
// group is pooled.
func WriteJSON(w io.Writer, p *Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	g := p.Graph
	var b []byte
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
	for i, buf := range g.Buffers {
		if i > 0 {
			b = append(b, ',')
		}
		pg := &p.Groups[buf.Group]
		b = append(b, "\n    {\"name\": "...)
		b = appendString(b, buf.Name)
		b = append(b, ", \"size\": "...)
		b = strconv.AppendInt(b, buf.Size, 10)
		b = append(b, ", \"bundle\": "...)
		if pg.Bundle >= 0 {
			b = appendString(b, g.Bundles[pg.Bundle].Name)
			b = append(b, ", \"start\": "...)
			b = strconv.AppendInt(b, int64(pg.Start), 10)
			b = append(b, ", \"end\": "...)
			b = strconv.AppendInt(b, int64(pg.End), 10)
		} else {
			b = append(b, "null, \"start\": null, \"end\": null"...)
		}
		b = append(b, ", \"offset\": "...)
		if pg.Offset >= 0 {
			b = strconv.AppendInt(b, pg.Offset, 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ", \"view_offset\": "...)
		b = strconv.AppendInt(b, buf.ViewOffset, 10)
		b = append(b, ", \"reason\": "...)
		if pg.Reason == Pooled {
			b = append(b, "null"...)
		} else {
			b = appendString(b, pg.Reason.String())
		}
		b = append(b, '}')
		if len(b) > 32<<10 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if len(g.Buffers) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// appendString appends s as a JSON string. Names in bundle IR are plain
// ASCII identifiers, but escaping keeps the output valid JSON whatever the
// model holds.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
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
