package frontend

import "testing"

// TestCheckNameAgreesWithParser: CheckName accepts exactly the strings
// that parse as a graph's name.
func TestCheckNameAgreesWithParser(t *testing.T) {
	for _, s := range []string{"g", "_", "_m.v2", "a1", "A_b.c", "graph", "buffer", "op", "fused", "a b", "x{}", "é", "a\nb", "1x", ".x", "", "a-b", "a#b", "a//b", "x:", "n\x00"} {
		g, errs := ParseCheck("n.bir", []byte("graph "+s+" {\n  buffer a : 128\n  op k writes a\n}\n"))
		parses := errs == nil && g.Name == s
		if err := CheckName(s); (err == nil) != parses {
			t.Errorf("%q: CheckName says %v; the parser %v", s, err, errs)
		}
	}
}
