package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeFileAtomic writes path by streaming into a temporary file in the
// same directory and renaming it into place, so a reader (or a failed run)
// never sees a partial file.
func writeFileAtomic(path string, write func(f *os.File) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	// CreateTemp makes the file 0600; outputs are ordinary files that
	// other tools and users read, as os.Create would have made them.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// outputDir stages every file of an -o run in a temporary directory beside
// DIR and moves them in only once all of them were written, so that a run
// that fails part-way leaves DIR exactly as it was.
type outputDir struct {
	dir   string
	stage string
	files []string // paths relative to dir, in creation order
}

func newOutputDir(dir string) (*outputDir, error) {
	parent := filepath.Dir(filepath.Clean(dir))
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".sdscgen-*")
	if err != nil {
		return nil, err
	}
	return &outputDir{dir: dir, stage: stage}, nil
}

// create streams one file into the stage.
func (o *outputDir) create(rel string, write func(f *os.File) error) error {
	path := filepath.Join(o.stage, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	o.files = append(o.files, rel)
	return nil
}

// commit moves every staged file into dir, replacing older versions. A
// dir that does not exist yet is the whole stage renamed in one step.
func (o *outputDir) commit() error {
	defer o.discard()
	if _, err := os.Lstat(o.dir); errors.Is(err, fs.ErrNotExist) {
		// MkdirTemp made the stage 0700; dir is an ordinary folder.
		if err := os.Chmod(o.stage, 0o755); err != nil {
			return err
		}
		return os.Rename(o.stage, o.dir)
	}
	for _, rel := range o.files {
		dst := filepath.Join(o.dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(o.stage, rel), dst); err != nil {
			return fmt.Errorf("moving %s into place: %w", rel, err)
		}
	}
	return nil
}

func (o *outputDir) discard() { os.RemoveAll(o.stage) }
