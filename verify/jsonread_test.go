package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sdscgen/sdscgen/frontend"
	"github.com/sdscgen/sdscgen/planner"
	"github.com/sdscgen/sdscgen/synth"
)

// specPlan plans the spec example and returns the plan and its JSON.
func specPlan(t *testing.T) (*planner.Result, []byte) {
	t.Helper()
	src, err := os.ReadFile("../golden/testdata/spec_example/input.bir")
	if err != nil {
		t.Fatal(err)
	}
	f, errs := frontend.Parse("spec.bir", src)
	if errs != nil {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if errs != nil {
		t.Fatal(errs)
	}
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var buf bytes.Buffer
	if err := planner.WriteJSON(&buf, p); err != nil {
		t.Fatal(err)
	}
	if err := JSON(g, p, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes()
}

// TestJSONAsAConsumerReadsIt: the same document in another layout (keys
// sorted, no whitespace; then indented with tabs), with a name spelled
// with \u escapes and a key repeated (the last value counts), is still
// the plan.
func TestJSONAsAConsumerReadsIt(t *testing.T) {
	p, good := specPlan(t)
	dec := json.NewDecoder(bytes.NewReader(good))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	compact, err := json.Marshal(v) // map keys sorted
	if err != nil {
		t.Fatal(err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact, "", "\t"); err != nil {
		t.Fatal(err)
	}
	name := p.Graph.Name // "decoder_block"
	escaped := strings.Replace(string(good), `"graph": "`+name+`"`,
		`"graph": "wrong", "graph": "\u0064ecoder\u005fblock"`, 1)
	if escaped == string(good) {
		t.Fatalf("plan JSON lacks the graph name %q", name)
	}
	for _, doc := range []string{string(compact), indented.String(), escaped} {
		if err := JSON(p.Graph, p, []byte(doc)); err != nil {
			t.Errorf("%v\n%s", err, doc)
		}
	}
	// Keys match exactly, as in a consumer's dictionary.
	upper := strings.Replace(string(good), `"graph":`, `"Graph":`, 1)
	if err := JSON(p.Graph, p, []byte(upper)); err == nil || !strings.Contains(err.Error(), `unknown field "Graph"`) {
		t.Errorf("key Graph: got %v, want an unknown field", err)
	}
}

// TestJSONRejectsInvalid: every byte-level mutation of the document that
// is not valid JSON (by encoding/json.Valid) fails the check.
func TestJSONRejectsInvalid(t *testing.T) {
	p, good := specPlan(t)
	for _, tail := range []string{"\x00", "x", "{}", "\n]"} {
		if err := JSON(p.Graph, p, append(append([]byte(nil), good...), tail...)); err == nil {
			t.Errorf("data after the document (%q) accepted", tail)
		}
	}
	r := rand.New(rand.NewSource(7))
	alphabet := []byte(`{}[]:,"\ -.0123456789eEnultrfa` + "\x00\x1f\x7f\xff")
	invalid := 0
	for k := 0; k < 4000; k++ {
		b := append([]byte(nil), good...)
		for e := 0; e < 1+r.Intn(3); e++ {
			i := r.Intn(len(b))
			switch r.Intn(3) {
			case 0:
				b = append(b[:i], b[i+1:]...)
			case 1:
				b = append(b[:i], append([]byte{alphabet[r.Intn(len(alphabet))]}, b[i:]...)...)
			default:
				b[i] = alphabet[r.Intn(len(alphabet))]
			}
		}
		if json.Valid(b) {
			continue
		}
		invalid++
		err := JSON(p.Graph, p, b)
		if err == nil {
			t.Fatalf("invalid JSON accepted:\n%s", b)
		}
		// Streamed a byte at a time, the same error at the same offset.
		if serr := JSONReader(p.Graph, p, iotest.OneByteReader(bytes.NewReader(b))); serr == nil || serr.Error() != err.Error() {
			t.Fatalf("streamed: %v, whole: %v\n%s", serr, err, b)
		}
	}
	if invalid < 1000 {
		t.Errorf("only %d invalid mutants", invalid)
	}
}

func TestReaderStrings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"abc"`, "abc"},
		{`"a\u0062c"`, "abc"},
		{`"a\/b\\c\"d"`, `a/b\c"d`},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t"},
		{`"\ud83d\ude00"`, "\U0001F600"}, // a surrogate pair
		{`"\ud83dx"`, "\uFFFDx"},         // a lone high surrogate
		{`"\ude00\u0041"`, "\uFFFDA"},    // a lone low surrogate
		{`"\ud83d\u0041"`, "\uFFFDA"},    // a high surrogate, then no low one
		{"\"\xff\"", "\uFFFD"},           // an invalid UTF-8 byte
		{"\"h\xc3\xa9\"", "h\u00e9"},     // valid UTF-8 passes through
	} {
		r := &reader{data: []byte(c.in)}
		got := r.str()
		if r.err != nil || string(got) != c.want || r.i != len(c.in) {
			t.Errorf("%s: got %q, %v, at %d", c.in, got, r.err, r.i)
		}
	}
	for _, in := range []string{`"abc`, `"a\x"`, "\"a\nb\"", `"\u12"`, `"\u12g4"`, `abc`, `"a\`} {
		r := &reader{data: []byte(in)}
		if r.str(); r.err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func TestReaderInts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"-0", 0}, {"7", 7}, {"-12", -12}, {" 128 ", 128},
		{"999999999999999999", 999999999999999999},
		{"9223372036854775807", 9223372036854775807},
		{"-9223372036854775808", -9223372036854775808},
	} {
		r := &reader{data: []byte(c.in)}
		if got := r.int(); r.err != nil || got != c.want {
			t.Errorf("%q: got %d, %v", c.in, got, r.err)
		}
	}
	for _, in := range []string{"9223372036854775808", "1.0", "1e3", "-", "+1", "", "null", `"1"`, "1.", "1e", "--1", "0x10"} {
		r := &reader{data: []byte(in)}
		got := r.int()
		if r.err == nil && r.atEnd() {
			t.Errorf("%q: read %d without error", in, got)
		}
	}
}

func TestReaderNesting(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	r := &reader{data: []byte(deep)}
	if r.skip(); r.err == nil || !strings.Contains(r.err.Error(), "nested too deeply") {
		t.Errorf("depth %d: %v", maxDepth+1, r.err)
	}
	ok := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	r = &reader{data: []byte(ok)}
	if r.skip(); r.err != nil || r.i != len(ok) {
		t.Errorf("depth %d: %v", maxDepth, r.err)
	}
	for _, in := range []string{`[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, `nul`, `tru`, `{"a":1}}`} {
		r := &reader{data: []byte(in)}
		r.skip()
		if r.err == nil && r.atEnd() {
			t.Errorf("%s: accepted", in)
		}
	}
}

// FuzzReader: the reader accepts exactly the documents encoding/json
// calls valid.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`{"a": [1, -2, 3.5e-1, "x\u00e9\ud83d\ude00"], "b": null}`, `[true, false, {}]`, `"\x"`, `[1,]`, `01`, `{"a" 1}`, " 7 ", `-`, `1e+`, "0\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &reader{data: data}
		r.skip()
		ok := r.err == nil && r.atEnd()
		if ok != json.Valid(data) {
			t.Fatalf("reader says %v (%v), encoding/json says %v: %q", ok, r.err, !ok, data)
		}
		// Streamed a byte at a time: the same verdict and error.
		s := newStreamReader(iotest.OneByteReader(bytes.NewReader(data)))
		s.skip()
		if sok := s.err == nil && s.atEnd(); sok != ok || fmt.Sprint(s.err) != fmt.Sprint(r.err) {
			t.Fatalf("streamed: %v (%v), whole: %v (%v): %q", sok, s.err, ok, r.err, data)
		}
	})
}

// TestJSONStreams: the plan JSON read through readers that hand it over
// a byte, half a buffer or with the end of data early, passes as the
// whole text does; a read error is reported as one.
func TestJSONStreams(t *testing.T) {
	p, good := specPlan(t)
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(bytes.NewReader(good)),
		"half":     iotest.HalfReader(bytes.NewReader(good)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(good)),
		"whole":    bytes.NewReader(good),
	} {
		if err := JSONReader(p.Graph, p, r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := JSONReader(p.Graph, p, iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(good))))
	if err == nil || !strings.Contains(err.Error(), "reading it: "+iotest.ErrTimeout.Error()) {
		t.Errorf("a read error: got %v", err)
	}
}

// TestJSONWindow: reading a plan of 20,000 ops (several megabytes of
// JSON) keeps the reader's window at its first size and its string
// buffers at one element's strings: memory does not grow with the
// document.
func TestJSONWindow(t *testing.T) {
	var src bytes.Buffer
	if err := synth.Generate(&src, synth.Config{Ops: 20000, Bundles: 20, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	f, errs := frontend.Parse("synth.bir", src.Bytes())
	if errs != nil {
		t.Fatal(errs)
	}
	g, errs := frontend.Check(f)
	if errs != nil {
		t.Fatal(errs)
	}
	p := planner.Plan(g, planner.Options{Budget: planner.DefaultBudget})
	var doc bytes.Buffer
	if err := planner.WriteJSON(&doc, p); err != nil {
		t.Fatal(err)
	}
	if doc.Len() < 8*window {
		t.Fatalf("only %d bytes of JSON", doc.Len())
	}
	r := newStreamReader(&doc)
	if err := checkJSON(g, p, r, nil, false); err != nil {
		t.Fatal(err)
	}
	if cap(r.data) != window || cap(r.strs) > 1024 || cap(r.key) > 1024 {
		t.Errorf("window %d bytes (want %d), strings %d, key %d", cap(r.data), window, cap(r.strs), cap(r.key))
	}
}
