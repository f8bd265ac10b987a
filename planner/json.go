package planner

import (
	"io"
	"strconv"

	"github.com/sdscgen/sdscgen/internal/decimal"
	"github.com/sdscgen/sdscgen/ir"
)

// FormatVersion is the plan JSON's "format_version", its first key. It
// is raised whenever the document's keys or the meaning, type or order
// of any value change (docs/bundle-ir.md, "Plan JSON"); version 1 had no
// such key.
const FormatVersion = 2

// WriteJSON writes the plan JSON (docs/bundle-ir.md, "Plan JSON"). The
// layout is fixed (keys in the documented order, one bundle header,
// kernel argument, op, buffer or timeline entry per line) so that plans
// diff well and are byte-identical for the same input and flags. Every
// buffer line carries its group's decision ("offset" is where the
// group's storage starts in the pool, shared by all its names), the
// name's own "view_offset" (0 for a group's root), which is set whether
// or not the group is pooled, its group's root and its source position.
//
// The text is built in one buffer and handed to w in pieces of about
// 64 KiB; names that repeat on every line (bundles, reasons) are quoted
// once.
func WriteJSON(w io.Writer, p *Result) error { return WriteJSONFiles(w, p, nil) }

// WriteJSONFiles is WriteJSON with each op's "sdsc_file", the SDSC file
// its execute names: opFiles(bi) returns the file number of each op of
// bundle bi in step order (mlirgen decides them: the sdsc_cache is an
// emission rule). Without opFiles (the verifier's own rendering) no op
// has the key.
func WriteJSONFiles(w io.Writer, p *Result, opFiles func(bi int) []int32) error {
	g := p.Graph
	jw := &jsonWriter{w: w, b: make([]byte, 0, 72<<10)}
	b := append(jw.b, "{\n  \"format_version\": "...)
	b = strconv.AppendInt(b, FormatVersion, 10)
	b = append(b, ",\n  \"graph\": "...)
	b = appendString(b, g.Name)
	b = append(b, ",\n  \"allocator\": "...)
	b = appendString(b, p.Allocator)
	b = append(b, ",\n  \"budget\": "...)
	b = strconv.AppendInt(b, p.Budget, 10)
	b = append(b, ",\n  \"pool_sizes\": {"...)
	// file is the source file as the start of a JSON string, without
	// its closing quote, for appendPos.
	file := appendString(nil, g.File)
	jw.file = file[:len(file)-1]
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
		jw.b = strconv.AppendInt(b, pb.PoolSize, 10)
		if jw.flush() {
			return jw.err
		}
		b = jw.b
	}
	jw.b = append(b, "},\n  \"bundles\": ["...)
	for bi := range p.Bundles {
		if bi > 0 {
			jw.b = append(jw.b, ',')
		}
		var files []int32
		if opFiles != nil {
			files = opFiles(bi)
		}
		jw.bundle(p, bi, files)
		if jw.err != nil {
			return jw.err
		}
	}
	if len(p.Bundles) > 0 {
		jw.b = append(jw.b, "\n  "...)
	}
	jw.b = append(jw.b, "],\n  \"buffers\": ["...)
	for i, buf := range g.Buffers.All() {
		if i > 0 {
			jw.b = append(jw.b, ',')
		}
		if jw.buffer(p, buf) {
			return jw.err
		}
	}
	if g.Buffers.Len() > 0 {
		jw.b = append(jw.b, "\n  "...)
	}
	jw.b = append(jw.b, "],\n"...)
	if jw.footprint(p, p.footprint(false)) {
		return jw.err
	}
	jw.b = append(jw.b, "}\n"...)
	_, err := w.Write(jw.b)
	return err
}

// jsonWriter is WriteJSONFiles' text as it is built: b, handed to w in
// pieces of about 64 KiB (flush); err is w's first error, after which
// nothing more is written.
type jsonWriter struct {
	w    io.Writer
	b    []byte
	err  error
	file []byte // the source file, quoted without its closing quote
}

// flush hands b to w once it holds 64 KiB. It reports whether w has
// failed: the caller then stops building (WriteJSONFiles returns the
// error).
func (jw *jsonWriter) flush() bool {
	if len(jw.b) > 64<<10 && jw.err == nil {
		_, jw.err = jw.w.Write(jw.b)
		jw.b = jw.b[:0]
	}
	return jw.err != nil
}

// bundle appends element bi of the bundles array, files being its ops'
// SDSC file numbers (nil: no "sdsc_file" key).
func (jw *jsonWriter) bundle(p *Result, bi int, files []int32) {
	g := p.Graph
	pb := &p.Bundles[bi]
	b := append(jw.b, "\n    {\"name\": "...)
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
	b = append(b, ", \"pos\": "...)
	b = appendPos(b, jw.file, g.Bundles[bi].Pos)
	jw.b = append(b, ",\n      \"kernel_args\": ["...)
	args := p.KernelArgs(bi)
	for k, ka := range args {
		b := jw.b
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n        {\"arg\": "...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, ", \"group\": "...)
		b = appendString(b, g.Str(g.Buffers.At(int(g.Root(&g.Groups[ka.Group]))).Name))
		b = append(b, ", \"names\": ["...)
		for j, n := range ka.Names {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, g.Str(g.Buffers.At(int(n)).Name))
		}
		jw.b = append(b, "]}"...)
		if jw.flush() {
			return
		}
	}
	if len(args) > 0 {
		jw.b = append(jw.b, "\n      "...)
	}
	jw.b = append(jw.b, "],\n      \"ops\": ["...)
	ops := g.Bundles[bi].Ops
	for k := range ops {
		b := jw.b
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n        {\"name\": "...)
		b = appendString(b, g.Str(ops[k].Name))
		b = append(b, ", \"step\": "...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, ", \"pos\": "...)
		b = appendPos(b, jw.file, ops[k].Pos)
		if files != nil {
			b = append(b, ", \"sdsc_file\": \"sdsc_"...)
			b = strconv.AppendInt(b, int64(files[k]), 10)
			b = append(b, ".json\""...)
		}
		jw.b = append(b, '}')
		if jw.flush() {
			return
		}
	}
	if len(ops) > 0 {
		jw.b = append(jw.b, "\n      "...)
	}
	jw.b = append(jw.b, "]}"...)
}

// buffer appends buf's element of the buffers array. It reports whether
// w has failed.
func (jw *jsonWriter) buffer(p *Result, buf *ir.Buffer) bool {
	g := p.Graph
	pg := &p.Groups[buf.Group]
	b := append(jw.b, "\n    {\"name\": "...)
	b = appendString(b, g.Str(buf.Name))
	b = append(b, ", \"size\": "...)
	b = decimal.Append(b, buf.Size)
	b = append(b, ", \"bundle\": "...)
	if pg.Bundle >= 0 {
		// Quoted here, not once per bundle ahead: a table of every
		// bundle's quoted name took 26 MB without fusion (a bundle per
		// op), for the few buffers that name one.
		b = appendString(b, g.Bundles[pg.Bundle].Name)
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
	b = decimal.Append(b, g.ViewOf(buf).ViewOffset)
	b = append(b, ", \"reason\": "...)
	if pg.Reason == Pooled {
		b = append(b, "null"...)
	} else {
		b = appendString(b, pg.Reason.String())
	}
	b = append(b, ", \"group\": "...)
	b = appendString(b, g.Str(g.Buffers.At(int(g.Root(&g.Groups[buf.Group]))).Name))
	b = append(b, ", \"pos\": "...)
	b = appendPos(b, jw.file, buf.Pos)
	jw.b = append(b, '}')
	return jw.flush()
}

// footprint appends the "footprint" member, its closing line included,
// handing its timeline (a node per bundle and cpu node) to w as it goes;
// it reports whether w has failed (see flush).
func (jw *jsonWriter) footprint(p *Result, f *Footprint) bool {
	g := p.Graph
	b := append(jw.b, "  \"footprint\": {\n    \"peak_bytes\": "...)
	b = strconv.AppendInt(b, f.Peak, 10)
	b = append(b, ", \"peak_node\": "...)
	if f.PeakPosition >= 0 {
		b = appendString(b, NodeName(g, f.Nodes[f.PeakPosition]))
		b = append(b, ", \"peak_position\": "...)
		b = strconv.AppendInt(b, int64(f.PeakPosition), 10)
	} else {
		b = append(b, "null, \"peak_position\": null"...)
	}
	b = append(b, ",\n    \"no_pooling_peak_bytes\": "...)
	b = strconv.AppendInt(b, f.NoPoolingPeak, 10)
	b = append(b, ", \"resident_pools_peak_bytes\": "...)
	b = strconv.AppendInt(b, f.ResidentPoolsPeak, 10)
	if len(p.Compare) > 0 {
		b = append(b, ",\n    \"peak_bytes_by_allocator\": {"...)
		for k, alt := range p.Compare {
			if k > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, alt.Allocator)
			b = append(b, ": "...)
			b = strconv.AppendInt(b, alt.PeakBytes, 10)
		}
		b = append(b, '}')
	}
	b = append(b, ",\n    \"timeline\": ["...)
	for t, n := range f.Nodes {
		if t > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n      {\"node\": "...)
		b = appendString(b, NodeName(g, n))
		if n.CPU {
			b = append(b, ", \"kind\": \"cpu\""...)
		} else {
			b = append(b, ", \"kind\": \"bundle\""...)
		}
		b = append(b, ", \"standalone_bytes\": "...)
		b = strconv.AppendInt(b, f.Standalone[t], 10)
		b = append(b, ", \"pool_bytes\": "...)
		b = strconv.AppendInt(b, f.Pool(t), 10)
		jw.b = append(b, '}')
		if jw.flush() {
			return true
		}
		b = jw.b
	}
	if len(f.Nodes) > 0 {
		b = append(b, "\n    "...)
	}
	jw.b = append(b, "]\n  }\n"...)
	return false
}

// appendPos appends position pos as the JSON string "FILE:LINE:COL";
// file is the file name already quoted, without its closing quote.
func appendPos(b, file []byte, pos ir.Pos) []byte {
	b = append(b, file...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pos.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pos.Col), 10)
	return append(b, '"')
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
