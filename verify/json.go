package verify

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sdscgen/sdscgen/ir"
	"github.com/sdscgen/sdscgen/planner"
)

// planJSON is the document of spec §4, decoded with encoding/json (not
// the planner's writer) so that every value is read back as a consumer
// would read it. Pointers tell null from 0. The buffers array, by far the
// largest part, is not held here: JSON streams it element by element.
type planJSON struct {
	Graph     *string           `json:"graph"`
	Allocator *string           `json:"allocator"`
	Budget    *int64            `json:"budget"`
	PoolSizes map[string]*int64 `json:"pool_sizes"`
	Bundles   []struct {
		Name       *string `json:"name"`
		Steps      *int    `json:"steps"`
		PoolSize   *int64  `json:"pool_size"`
		LowerBound *int64  `json:"lower_bound"`
		// Compare is present with --compare: every allocator's pool size.
		Compare map[string]int64 `json:"compare"`
	} `json:"bundles"`
}

// bufferJSON is one element of the document's buffers array.
type bufferJSON struct {
	Name   *string `json:"name"`
	Size   *int64  `json:"size"`
	Bundle *string `json:"bundle"`
	Start  *int    `json:"start"`
	End    *int    `json:"end"`
	Offset *int64  `json:"offset"`
	// ViewOffset is the name's own view offset (0 for a group's root).
	ViewOffset *int64  `json:"view_offset"`
	Reason     *string `json:"reason"`
}

// decodePlan reads the document of spec §4 with encoding/json: its top
// level by Token, each key's value by Decode (unknown fields disallowed
// throughout, as for one Decode of the whole document), and the buffers
// array one element at a time, each handed to each with its index. It
// returns the document without its buffers and their count.
func decodePlan(dec *json.Decoder, each func(i int, b *bufferJSON)) (doc planJSON, n int, err error) {
	tok, err := dec.Token()
	if err != nil {
		return doc, 0, err
	}
	if tok == nil { // null: an empty document, as Decode would leave it
		return doc, 0, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return doc, 0, fmt.Errorf("json: cannot unmarshal %v into Go value of type verify.planJSON", tok)
	}
	var unknown error
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return doc, 0, err
		}
		key, _ := tok.(string)
		switch key {
		case "graph":
			err = dec.Decode(&doc.Graph)
		case "allocator":
			err = dec.Decode(&doc.Allocator)
		case "budget":
			err = dec.Decode(&doc.Budget)
		case "pool_sizes":
			err = dec.Decode(&doc.PoolSizes)
		case "bundles":
			err = dec.Decode(&doc.Bundles)
		case "buffers":
			n, err = decodeBuffers(dec, each)
		default:
			if unknown == nil {
				unknown = fmt.Errorf("json: unknown field %q", key)
			}
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return doc, 0, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return doc, 0, err
	}
	return doc, n, unknown
}

// decodeBuffers streams the buffers array (or null, which has no
// elements). A repeated key starts the count afresh, as the last value of
// a repeated key is the one Decode keeps.
func decodeBuffers(dec *json.Decoder, each func(i int, b *bufferJSON)) (int, error) {
	tok, err := dec.Token()
	if err != nil {
		return 0, err
	}
	if tok == nil {
		return 0, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return 0, fmt.Errorf("json: cannot unmarshal %v into Go struct field planJSON.buffers", tok)
	}
	n := 0
	for dec.More() {
		var b bufferJSON
		if err := dec.Decode(&b); err != nil {
			return 0, err
		}
		each(n, &b)
		n++
	}
	_, err = dec.Token() // the closing ']'
	return n, err
}

// JSON checks the plan JSON data (as planner.WriteJSON writes it) against
// the plan p of graph g: it must be strict JSON with exactly the keys of
// spec §4, the pool-size table must hold exactly the bundles with
// candidates, and every buffer, in declaration order, must carry its
// group's decision, so alias members share one bundle, range and offset,
// and its own view offset, re-derived from its alias chain.
// Call Plan first: JSON trusts p's decisions and checks only that the
// document states them.
func JSON(g *ir.Graph, p *planner.Result, data []byte) error {
	c := &checker{g: g, p: p}
	matches := len(p.Groups) == len(g.Groups) && len(p.Bundles) == len(g.Bundles)
	// Buffers are checked as they stream by, into bc; their violations
	// are reported after the document-level ones, as long as the count
	// is right (as if the whole array had been decoded first).
	bc := &checker{g: g, p: p}
	if matches {
		bc.views = deriveViews(g)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	doc, nBuffers, err := decodePlan(dec, func(i int, jb *bufferJSON) {
		if i == 0 {
			bc.err = Error{} // a repeated "buffers" key: the last one counts
		}
		if matches && i < len(g.Buffers) {
			bc.checkBuffer(i, jb)
		}
	})
	if err != nil {
		c.fail("plan JSON: %v", err)
		return c.result()
	}
	if dec.More() {
		c.fail("plan JSON: data after the document")
	}
	if !matches {
		c.fail("the plan does not match the graph")
		return c.result()
	}
	if doc.Graph == nil || *doc.Graph != g.Name {
		c.fail("plan JSON: graph %s, want %q", str(doc.Graph), g.Name)
	}
	if doc.Allocator == nil || *doc.Allocator != p.Allocator {
		c.fail("plan JSON: allocator %s, want %q", str(doc.Allocator), p.Allocator)
	}
	if doc.Budget == nil || *doc.Budget != p.Budget {
		c.fail("plan JSON: budget %s, want %d", num(doc.Budget), p.Budget)
	}
	if doc.PoolSizes == nil {
		c.fail("plan JSON: pool_sizes missing or null")
	}
	entries := 0
	for bi, b := range g.Bundles {
		pb := p.Bundles[bi]
		v, ok := doc.PoolSizes[b.Name]
		if pb.HasPool() {
			entries++
			if !ok || v == nil || *v != pb.PoolSize {
				c.fail("plan JSON: pool_sizes[%q] = %s, want %d", b.Name, num(v), pb.PoolSize)
			}
		} else if ok {
			c.fail("plan JSON: pool_sizes has %q, which has no candidate", b.Name)
		}
	}
	if len(doc.PoolSizes) != entries {
		c.fail("plan JSON: pool_sizes has %d entries, %d bundles have candidates", len(doc.PoolSizes), entries)
	}

	if len(doc.Bundles) != len(g.Bundles) {
		c.fail("plan JSON: %d bundles, the graph has %d", len(doc.Bundles), len(g.Bundles))
	} else {
		for bi, jb := range doc.Bundles {
			b, pb := g.Bundles[bi], p.Bundles[bi]
			if jb.Name == nil || *jb.Name != b.Name {
				c.fail("plan JSON: bundle %d is %s, want %q", bi, str(jb.Name), b.Name)
			}
			if jb.Steps == nil || *jb.Steps != len(b.Ops) {
				c.fail("plan JSON: bundle %q: steps wrong, want %d", b.Name, len(b.Ops))
			}
			if pb.HasPool() != (jb.PoolSize != nil) || (jb.PoolSize != nil && *jb.PoolSize != pb.PoolSize) {
				c.fail("plan JSON: bundle %q: pool_size %s, want %d (entry %v)", b.Name, num(jb.PoolSize), pb.PoolSize, pb.HasPool())
			}
			if jb.LowerBound == nil || *jb.LowerBound != pb.LowerBound {
				c.fail("plan JSON: bundle %q: lower_bound %s, want %d", b.Name, num(jb.LowerBound), pb.LowerBound)
			}
			if own, ok := jb.Compare[p.Allocator]; ok && pb.HasPool() && own != pb.PoolSize {
				c.fail("plan JSON: bundle %q: compare[%s] = %d, but the plan's pool_size is %d", b.Name, p.Allocator, own, pb.PoolSize)
			}
		}
	}

	if nBuffers != len(g.Buffers) {
		c.fail("plan JSON: %d buffers, the graph declares %d", nBuffers, len(g.Buffers))
		return c.result()
	}
	c.err.Total += bc.err.Total
	for _, v := range bc.err.Violations {
		if len(c.err.Violations) < maxReported {
			c.err.Violations = append(c.err.Violations, v)
		}
	}
	return c.result()
}

func str(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

func num(v *int64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// checkBuffer checks element i of the buffers array: it must carry its
// group's decision.
func (c *checker) checkBuffer(i int, jb *bufferJSON) {
	g, p := c.g, c.p
	buf := g.Buffers[i]
	pg := p.Groups[buf.Group]
	if jb.Name == nil || *jb.Name != buf.Name {
		c.fail("plan JSON: buffer %d is %s, declaration order gives %q", i, str(jb.Name), buf.Name)
		return
	}
	if jb.Size == nil || *jb.Size != buf.Size {
		c.fail("plan JSON: buffer %q: size %s, want %d", buf.Name, num(jb.Size), buf.Size)
	}
	if pg.Bundle >= 0 {
		bn := g.Bundles[pg.Bundle].Name
		if jb.Bundle == nil || *jb.Bundle != bn || jb.Start == nil || *jb.Start != pg.Start || jb.End == nil || *jb.End != pg.End {
			c.fail("plan JSON: buffer %q: bundle/start/end differ from its group's (%q, %d, %d)", buf.Name, bn, pg.Start, pg.End)
		}
	} else if jb.Bundle != nil || jb.Start != nil || jb.End != nil {
		c.fail("plan JSON: buffer %q: bundle/start/end set for a non-candidate", buf.Name)
	}
	if pg.Offset >= 0 {
		if jb.Offset == nil || *jb.Offset != pg.Offset {
			c.fail("plan JSON: buffer %q: offset %s, its group's is %d", buf.Name, num(jb.Offset), pg.Offset)
		}
	} else if jb.Offset != nil {
		c.fail("plan JSON: buffer %q: offset %d for an unpooled group", buf.Name, *jb.Offset)
	}
	want := buf.ViewOffset // where the chain is broken, Plan reports it
	if c.views != nil && c.views.root[i] >= 0 {
		want = c.views.view[i]
	}
	if jb.ViewOffset == nil || *jb.ViewOffset != want {
		c.fail("plan JSON: buffer %q: view_offset %s, its alias chain gives %d", buf.Name, num(jb.ViewOffset), want)
	}
	if pg.Reason == planner.Pooled {
		if jb.Reason != nil {
			c.fail("plan JSON: buffer %q: reason %q for a pooled group", buf.Name, *jb.Reason)
		}
	} else if jb.Reason == nil || *jb.Reason != string(pg.Reason) {
		c.fail("plan JSON: buffer %q: reason %s, want %q", buf.Name, str(jb.Reason), pg.Reason)
	}
}
