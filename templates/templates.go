// Package templates holds the flat text skeletons that the emitters fill
// in. They are embedded so that the binary is self-contained; the parts
// that repeat per op are written by code, never by a template engine.
package templates

import (
	_ "embed"
	"strings"
)

// Module is the skeleton of one bundle's MLIR module; Args and Body mark
// where the function arguments and the body go.
//
//go:embed module.mlir
var Module string

// Markers used in Module.
const (
	Args = "@ARGS@"
	Body = "@BODY@\n"
)

// Split cuts a skeleton at its markers, in order, so that callers can
// write the fixed parts around generated text without copying.
func Split(skeleton string, markers ...string) []string {
	var parts []string
	for _, m := range markers {
		i := strings.Index(skeleton, m)
		if i < 0 {
			panic("templates: marker " + m + " missing")
		}
		parts = append(parts, skeleton[:i])
		skeleton = skeleton[i+len(m):]
	}
	return append(parts, skeleton)
}
