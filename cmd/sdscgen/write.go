package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sdscgen/sdscgen"
)

// writeOutputs writes a run's outputs in three phases, so that a run
// that cannot write one of them writes none:
//
//  1. check every destination (-o DIR, --svg DIR, --plan FILE, --html
//     FILE) without
//     writing anything;
//  2. write every file into a temporary (the -o stage, a temporary file
//     beside each other output);
//  3. commit: swap the -o DIR in, then rename the other files into
//     place; then standard output.
func writeOutputs(cfg *config, res *sdscgen.Result, stdout io.Writer) error {
	// 1. Checks.
	var od *outputDir
	if cfg.outDir != "" {
		// The -o layout puts bundle folders beside plan.json.
		for _, b := range res.Graph.Bundles {
			if b.Name == "plan.json" {
				return diagError(fmt.Sprintf("%s: error: bundle %q would collide with %s in -o DIR", res.Graph.Position(b.Pos), b.Name, filepath.Join(cfg.outDir, "plan.json")))
			}
		}
		var err error
		if od, err = checkOutputDir(cfg.outDir, cfg.force); err != nil {
			return err
		}
	}
	svgDir, svgInside := cfg.rep.svgDir, false
	if svgDir != "" {
		real := realPath(svgDir)
		switch {
		case od != nil && real == od.dir:
			svgInside, svgDir = true, ""
		case od != nil && within(real, od.dir):
			return fmt.Errorf("--svg %s is inside the -o DIR %s, which the run replaces whole (--svg %s puts the maps in it)", cfg.rep.svgDir, cfg.outDir, cfg.outDir)
		default:
			if err := checkSVGDir(svgDir, res); err != nil {
				return err
			}
		}
	}
	planFile := cfg.planPath != "" && cfg.planPath != "-"
	if planFile {
		if od != nil {
			target, err := resolveOutput(cfg.planPath)
			if err != nil {
				return fmt.Errorf("--plan: %v", err)
			}
			real := realPath(target)
			switch {
			case real == filepath.Join(od.dir, "plan.json"):
				planFile = false // -o writes it
			case real == od.dir || within(real, od.dir):
				return fmt.Errorf("--plan %s is inside the -o DIR %s, which the run replaces whole (-o writes %s anyway)", cfg.planPath, cfg.outDir, filepath.Join(cfg.outDir, "plan.json"))
			}
		}
	}
	if planFile {
		if _, err := checkOutputFile(cfg.planPath); err != nil {
			return fmt.Errorf("--plan: %v", err)
		}
	}
	htmlFile := cfg.rep.htmlPath != "" && cfg.rep.htmlPath != "-"
	if htmlFile {
		target, err := resolveOutput(cfg.rep.htmlPath)
		if err != nil {
			return fmt.Errorf("--html: %v", err)
		}
		if real := realPath(target); od != nil && (real == od.dir || within(real, od.dir)) {
			return fmt.Errorf("--html %s is inside the -o DIR %s, which the run replaces whole", cfg.rep.htmlPath, cfg.outDir)
		}
		if _, err := checkOutputFile(cfg.rep.htmlPath); err != nil {
			return fmt.Errorf("--html: %v", err)
		}
	}

	// 2. Temporaries.
	var files []*outputFile
	var made []string // folders created for --svg, removed again on failure
	fail := func(err error) error {
		for _, f := range files {
			f.abort()
		}
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i])
		}
		if od != nil {
			od.discard()
		}
		return err
	}
	if planFile {
		f, err := createOutput(cfg.planPath)
		if err == nil {
			files = append(files, f)
			err = f.write(func(w *os.File) error { return res.WritePlanJSON(w) })
		}
		if err != nil {
			return fail(fmt.Errorf("writing plan: %w", err))
		}
	}
	if htmlFile {
		f, err := createOutput(cfg.rep.htmlPath)
		if err == nil {
			files = append(files, f)
			err = f.write(func(w *os.File) error {
				bw := bufio.NewWriterSize(w, 64<<10)
				if err := res.WriteHTML(bw); err != nil {
					return err
				}
				return bw.Flush()
			})
		}
		if err != nil {
			return fail(fmt.Errorf("writing HTML view: %w", err))
		}
	}
	if svgDir != "" {
		mkdir := func(d string) error {
			err := os.Mkdir(d, 0o755)
			if err == nil {
				made = append(made, d)
			} else if errors.Is(err, fs.ErrExist) {
				err = nil
			}
			return err
		}
		if err := mkdir(svgDir); err != nil {
			return fail(err)
		}
		for bi, b := range res.Graph.Bundles {
			if err := mkdir(filepath.Join(svgDir, b.Name)); err != nil {
				return fail(err)
			}
			f, err := createOutput(filepath.Join(svgDir, svgFile(b.Name)))
			if err == nil {
				files = append(files, f)
				err = f.write(func(w *os.File) error {
					bw := bufio.NewWriter(w)
					if err := res.WriteSVG(bw, bi); err != nil {
						return err
					}
					return bw.Flush()
				})
			}
			if err != nil {
				return fail(fmt.Errorf("writing memory map: %w", err))
			}
		}
	}
	if od != nil {
		if err := od.start(); err != nil {
			return fail(err)
		}
		for bi, b := range res.Graph.Bundles {
			err := od.create(filepath.Join(b.Name, bundleFile(cfg.emit)), func(f *os.File) error {
				return res.WriteBundleMLIR(f, bi, cfg.emit)
			})
			if err == nil && svgInside {
				err = od.create(svgFile(b.Name), func(f *os.File) error { return res.WriteSVG(f, bi) })
			}
			if err != nil {
				return fail(err)
			}
		}
		if err := od.create("plan.json", func(f *os.File) error { return res.WritePlanJSON(f) }); err != nil {
			return fail(err)
		}
	}

	// 3. Commit.
	if od != nil {
		if err := od.commit(); err != nil {
			return fail(err)
		}
		od = nil
	}
	for len(files) > 0 {
		f := files[0]
		files = files[1:]
		if err := f.commit(); err != nil {
			return fail(err)
		}
	}
	if cfg.planPath == "-" {
		if err := res.WritePlanJSON(stdout); err != nil {
			return fmt.Errorf("writing plan: %w", err)
		}
	}
	if cfg.rep.htmlPath == "-" {
		if err := res.WriteHTML(stdout); err != nil {
			return fmt.Errorf("writing HTML view: %w", err)
		}
	}
	if cfg.outDir == "" && cfg.planPath != "-" && cfg.rep.htmlPath != "-" {
		if err := res.WriteMLIR(stdout, cfg.emit); err != nil {
			return fmt.Errorf("writing MLIR: %w", err)
		}
	}
	return nil
}

// svgFile is the memory map's path relative to the SVG directory.
func svgFile(bundle string) string { return filepath.Join(bundle, "memory.svg") }

// bundleFile is the per-bundle file name under -o DIR/<bundle>/.
func bundleFile(e sdscgen.EmitOptions) string {
	if e.Addresses {
		return "addresses.mlir"
	}
	return "bundle.mlir"
}

// diagError is a positioned diagnostic, printed as it is.
type diagError string

func (e diagError) Error() string { return string(e) }

// checkSVGDir reports, without writing anything, why the memory maps
// cannot go into dir.
func checkSVGDir(dir string, res *sdscgen.Result) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("--svg %s exists and is not a directory", dir)
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link, _ := os.Readlink(dir)
			return fmt.Errorf("--svg %s is a symbolic link to %s, which does not exist", dir, link)
		}
		parent := filepath.Dir(filepath.Clean(dir))
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return fmt.Errorf("--svg %s: directory %s does not exist (sdscgen creates DIR, not its parents)", dir, parent)
		}
		return nil
	case err != nil:
		return err
	}
	for _, b := range res.Graph.Bundles {
		sub := filepath.Join(dir, b.Name)
		if fi, err := os.Stat(sub); err == nil && !fi.IsDir() {
			return fmt.Errorf("--svg: %s exists and is not a directory", sub)
		}
		if fi, err := os.Stat(filepath.Join(sub, "memory.svg")); err == nil && fi.IsDir() {
			return fmt.Errorf("--svg: %s is a directory", filepath.Join(sub, "memory.svg"))
		}
	}
	return nil
}

// realPath is p absolute with symlinks resolved, as far as it exists.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if a, err := filepath.Abs(r); err == nil {
			return a
		}
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		if a, err := filepath.Abs(filepath.Join(r, filepath.Base(p))); err == nil {
			return a
		}
	}
	a, _ := filepath.Abs(p)
	return a
}

// within reports whether path lies strictly inside dir (both clean and
// absolute).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
