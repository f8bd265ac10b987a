package planner

import "testing"

// TestAppendString: plain names are copied between quotes; a quote, a
// backslash and control bytes are escaped wherever they occur.
func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"":          `""`,
		"buf_0.x":   `"buf_0.x"`,
		`a"b`:       `"a\"b"`,
		`\`:         `"\\"`,
		"t\tab\x01": `"t\u0009ab\u0001"`,
		"\nx":       `"\u000ax"`,
		"é<>&":      `"é<>&"`,
	} {
		if got := string(appendString([]byte("x"), in)); got != "x"+want {
			t.Errorf("appendString(%q) = %s, want %s", in, got, want)
		}
	}
}
