// Package web is the browser client of Tapis: static ES modules, CSS and
// SVG, embedded in the binary so that `tapis serve` needs nothing else.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var files embed.FS

// Files returns the client's files, index.html at the root.
func Files() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
