// Package templates holds the html/template files of the documents
// sdscgen writes for people: the SVG memory map of a bundle
// (memory.svg.tmpl) and the interactive HTML view of a plan
// (view.html.tmpl, with its style and script). Package report fills
// them; they only lay out data that report computed, and the template
// engine escapes every value.
//
// The files live at the top of the repository so that they are easy to
// find and edit; go:embed cannot reach outside a package's folder, hence
// this package.
package templates

import "embed"

// FS holds the template files.
//
//go:embed *.tmpl
var FS embed.FS
