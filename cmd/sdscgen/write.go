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

// The outputs come from sdscgen.Outputs, the library's one table of
// them: the outputs with a flag of their own (--plan FILE, --html FILE,
// --svg DIR) are flagged, and -o DIR holds every output with a File.

// flagged are the outputs with a flag of their own, in table order;
// config.dest holds their flags' values in the same order.
var flagged = func() []sdscgen.Output {
	var fl []sdscgen.Output
	for _, o := range sdscgen.Outputs() {
		if o.Flag != "" {
			fl = append(fl, o)
		}
	}
	return fl
}()

// dirFiles are the names -o writes in DIR itself (plan.json), bundleFiles
// those it writes in a bundle's folder: what a DIR of an earlier run may
// hold.
var dirFiles, bundleFiles = func() (dir, bundle map[string]bool) {
	dir, bundle = map[string]bool{}, map[string]bool{}
	for _, o := range sdscgen.Outputs() {
		switch {
		case o.File == "":
		case o.PerBundle:
			bundle[o.File] = true
		default:
			dir[o.File] = true
		}
	}
	return dir, bundle
}()

// planFile is the -o DIR file that lists the bundles.
var planFile = mustOutput("plan").File

func mustOutput(name string) sdscgen.Output {
	o, ok := sdscgen.LookupOutput(name)
	if !ok {
		panic("no output " + name)
	}
	return o
}

// label is how a message names an output flag's value: "--plan p.json".
func label(o sdscgen.Output, path string) string { return "--" + o.Flag + " " + path }

// fileOut is a whole output written to a file of its own.
type fileOut struct {
	o    sdscgen.Output
	path string
}

// dirOut is a per-bundle output written to DIR/<bundle>/File.
type dirOut struct {
	o   sdscgen.Output
	dir string
}

// writeOutputs writes a run's outputs in three phases, so that a run
// that cannot write one of them writes none:
//
//  1. check every destination (-o DIR and every flagged output's FILE or
//     DIR) without writing anything (checkOutputs);
//  2. write every file into a temporary (the -o stage, a temporary file
//     beside each other output) (stage);
//  3. commit them all together (commitAll): either every output is in
//     place, or none is and the old ones are back, or the message says
//     which are which; then standard output.
//
// Warnings (a folder that could not be removed) go to stderr.
func (p *process) writeOutputs(cfg *config, res *sdscgen.Result, stdout, stderr io.Writer) error {
	set, err := p.checkOutputs(cfg, res)
	if err != nil {
		return err
	}
	temp, err := set.stage(res, cfg.emit, stderr)
	if err != nil {
		return err
	}
	if err := p.commitAll(set.od, temp, stderr); err != nil {
		return err
	}
	if set.toStdout != "" {
		o := mustOutput(set.toStdout)
		if err := res.Write(stdout, o.Name, sdscgen.Args{Emit: cfg.emit}); err != nil {
			return fmt.Errorf("writing %s: %w", o.Title, err)
		}
	}
	return nil
}

// outputSet is where a run's outputs go, once checked.
type outputSet struct {
	p        *process         // whose run writes them
	od       *outputDir       // -o DIR, or nil
	inDir    []sdscgen.Output // what -o writes
	files    []fileOut        // whole outputs to files of their own
	dirs     []dirOut         // per-bundle outputs to folders of their own
	toStdout string           // the output on standard output, or ""
}

// checkOutputs is writeOutputs' first phase.
func (p *process) checkOutputs(cfg *config, res *sdscgen.Result) (*outputSet, error) {
	set := &outputSet{p: p, toStdout: "mlir"}
	if cfg.outDir != "" {
		// The -o layout puts bundle folders beside plan.json.
		for _, b := range res.Graph.Bundles {
			if dirFiles[b.Name] {
				return nil, diagError(fmt.Sprintf("%s: error: bundle %q would collide with %s in -o DIR", res.Graph.Position(b.Pos), b.Name, filepath.Join(cfg.outDir, b.Name)))
			}
		}
		var err error
		if set.od, err = p.checkOutputDir(cfg.outDir, cfg.force); err != nil {
			return nil, err
		}
		if cfg.emit.Addresses {
			set.inDir = append(set.inDir, mustOutput("addresses"))
		} else {
			set.inDir = append(set.inDir, mustOutput("bundle"))
		}
	}
	for i, o := range flagged {
		if err := set.check(cfg, o, cfg.dest[i], res); err != nil {
			return nil, err
		}
	}
	if set.od != nil {
		for _, o := range sdscgen.Outputs() {
			if o.File != "" && !o.PerBundle {
				set.inDir = append(set.inDir, o)
			}
		}
		if set.toStdout == "mlir" {
			set.toStdout = "" // -o writes it
		}
	}
	return set, nil
}

// check places flagged output o, whose flag's value is path.
func (set *outputSet) check(cfg *config, o sdscgen.Output, path string, res *sdscgen.Result) error {
	od := set.od
	switch {
	case path == "":
		return nil
	case path == "-" && !o.PerBundle:
		set.toStdout = o.Name
		return nil
	case o.PerBundle:
		real := realPath(path)
		switch {
		case od != nil && real == od.dir:
			set.inDir = append(set.inDir, o)
		case od != nil && within(real, od.dir):
			return fmt.Errorf("%s is inside the -o DIR %s, which the run replaces whole (--%s %s puts the maps in it)", label(o, path), cfg.outDir, o.Flag, cfg.outDir)
		default:
			if err := checkBundleDir(o, path, res); err != nil {
				return err
			}
			set.dirs = append(set.dirs, dirOut{o, path})
		}
		return nil
	}
	target, err := resolveOutput(path)
	if err != nil {
		return fmt.Errorf("--%s: %v", o.Flag, err)
	}
	if od != nil {
		real := realPath(target)
		switch {
		case o.File != "" && real == filepath.Join(od.dir, o.File):
			return nil // -o writes it
		case real == od.dir || within(real, od.dir):
			msg := fmt.Sprintf("%s is inside the -o DIR %s, which the run replaces whole", label(o, path), cfg.outDir)
			if o.File != "" {
				msg += fmt.Sprintf(" (-o writes %s anyway)", filepath.Join(cfg.outDir, o.File))
			}
			return errors.New(msg)
		}
	}
	if _, err := checkOutputFile(path); err != nil {
		return fmt.Errorf("--%s: %v", o.Flag, err)
	}
	set.files = append(set.files, fileOut{o, path})
	return nil
}

// stage is writeOutputs' second phase: every file written to its
// temporary, or, on failure, every temporary removed.
func (set *outputSet) stage(res *sdscgen.Result, emit sdscgen.EmitOptions, stderr io.Writer) (temp []*outputFile, err error) {
	var made []string // folders created for --svg, removed again on failure
	defer func() {
		if err == nil {
			return
		}
		for _, f := range temp {
			f.abort()
		}
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i])
		}
		if set.od != nil {
			set.od.discard()
		}
	}()
	write := func(o sdscgen.Output, path, lbl string, a sdscgen.Args) error {
		f, err := set.p.createOutput(path)
		if err == nil {
			f.label = lbl
			temp = append(temp, f)
			err = f.write(func(w *os.File) error {
				bw := bufio.NewWriterSize(w, 64<<10)
				if err := res.Write(bw, o.Name, a); err != nil {
					return err
				}
				return bw.Flush()
			})
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", o.Title, err)
		}
		return nil
	}
	mkdir := func(d string) error {
		err := os.Mkdir(d, 0o755)
		if err == nil {
			made = append(made, d)
		} else if errors.Is(err, fs.ErrExist) {
			err = nil
		}
		return err
	}
	for _, f := range set.files {
		if err := write(f.o, f.path, label(f.o, f.path), sdscgen.Args{Emit: emit}); err != nil {
			return temp, err
		}
	}
	for _, d := range set.dirs {
		if err := mkdir(d.dir); err != nil {
			return temp, err
		}
		for bi, b := range res.Graph.Bundles {
			if err := mkdir(filepath.Join(d.dir, b.Name)); err != nil {
				return temp, err
			}
			if err := write(d.o, filepath.Join(d.dir, b.Name, d.o.File), label(d.o, d.dir), sdscgen.Args{Bundle: bi, Emit: emit}); err != nil {
				return temp, err
			}
		}
	}
	if set.od == nil {
		return temp, nil
	}
	if err := set.od.start(stderr); err != nil {
		return temp, err
	}
	// Per-bundle files first, bundle by bundle, then DIR's own.
	for bi, b := range res.Graph.Bundles {
		for _, o := range set.inDir {
			if o.PerBundle {
				if err := set.od.create(filepath.Join(b.Name, o.File), func(f *os.File) error {
					return res.Write(f, o.Name, sdscgen.Args{Bundle: bi, Emit: emit})
				}); err != nil {
					return temp, err
				}
			}
		}
	}
	for _, o := range set.inDir {
		if !o.PerBundle {
			if err := set.od.create(o.File, func(f *os.File) error { return res.Write(f, o.Name, sdscgen.Args{Emit: emit}) }); err != nil {
				return temp, err
			}
		}
	}
	return temp, nil
}

// diagError is a positioned diagnostic, printed as it is.
type diagError string

func (e diagError) Error() string { return string(e) }

// checkBundleDir reports, without writing anything, why the per-bundle
// files of o cannot go into dir.
func checkBundleDir(o sdscgen.Output, dir string, res *sdscgen.Result) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%s exists and is not a directory", label(o, dir))
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link, _ := os.Readlink(dir)
			return fmt.Errorf("%s is a symbolic link to %s, which does not exist", label(o, dir), link)
		}
		parent := filepath.Dir(filepath.Clean(dir))
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: directory %s does not exist (sdscgen creates DIR, not its parents)", label(o, dir), parent)
		}
		return nil
	case err != nil:
		return err
	}
	for _, b := range res.Graph.Bundles {
		sub := filepath.Join(dir, b.Name)
		if fi, err := os.Stat(sub); err == nil && !fi.IsDir() {
			return fmt.Errorf("--%s: %s exists and is not a directory", o.Flag, sub)
		}
		if fi, err := os.Stat(filepath.Join(sub, o.File)); err == nil && fi.IsDir() {
			return fmt.Errorf("--%s: %s is a directory", o.Flag, filepath.Join(sub, o.File))
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
