// Package filetree reads whole output trees for tests that compare what
// sdscgen wrote under -o or --svg, file by file.
package filetree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Read returns every regular file under dir by slash-separated relative
// path; it fails the test on any error.
func Read(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Names returns the paths of a tree in sorted order.
func Names(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for k := range files {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
