package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// This file owns every file and directory sdscgen writes. The rules:
//
//   - A regular file (or a symlink's target) is replaced atomically: the
//     content goes to a temporary file beside it, renamed over it at the
//     end. Anything else that exists (a device such as /dev/null, a FIFO)
//     is opened and written in place: it is never replaced.
//   - An -o DIR is built whole in a staging folder beside it and swapped
//     in with one renameat2(RENAME_EXCHANGE), so DIR is always entirely
//     the old tree or entirely the new one; the old tree is then removed.
//     A DIR holding anything sdscgen did not write is refused (--force
//     replaces it anyway).
//   - Parents are never created: the folder that holds an output (-o DIR,
//     --svg DIR, --plan FILE) must exist.
//   - Temporary files and staging folders are removed on failure and on
//     SIGINT/SIGTERM; a staging folder left by a killed run (kill -9) is
//     removed by the next run writing the same DIR (a live run holds a
//     lock on its own).

// temps holds the temporary files and staging folders of this process,
// removed by the signal handler.
var temps struct {
	sync.Mutex
	paths map[string]bool
}

// trackLocked records a temporary for the signal handler. The caller
// holds temps' lock across creating the temporary and recording it, so a
// signal never finds an untracked one.
func trackLocked(path string) {
	if temps.paths == nil {
		temps.paths = map[string]bool{}
	}
	temps.paths[path] = true
}

func untrackTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.paths, path)
}

// removeTemps removes every tracked temporary; it keeps the lock, so no
// new one is tracked, and no staging folder is swapped in as an -o DIR
// (outputDir.commit renames under the same lock), while the process
// exits.
func (p *process) removeTemps() {
	temps.Lock()
	for path := range temps.paths {
		p.at("remove", path)
		// The run may still be adding files to a staging folder by its
		// path: move the folder where no path leads first, so that
		// nothing new appears in it while it is removed (retries cover
		// a creation already under way). The new name keeps the stage
		// prefix, and the folder its flock: after a kill -9 meanwhile,
		// the next run removes it.
		gone := path
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			if os.Rename(path, path+".removing") == nil {
				gone = path + ".removing"
			}
		}
		for try := 0; try < 5; try++ {
			if os.RemoveAll(gone) == nil {
				break
			}
		}
	}
}

// cleanupOnSignal removes the temporaries and exits 128+signal on
// SIGHUP (the terminal closed), SIGINT or SIGTERM.
func (p *process) cleanupOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-ch
		p.removeTemps()
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
}

// pathError replaces a temporary's name by the output's in err, so that
// messages name the file the user asked for.
type pathError struct {
	msg string
	err error
}

func (e *pathError) Error() string { return e.msg }
func (e *pathError) Unwrap() error { return e.err }

func renameInError(err error, tmp, path string) error {
	if err == nil || tmp == "" || !strings.Contains(err.Error(), tmp) {
		return err
	}
	return &pathError{strings.ReplaceAll(err.Error(), tmp, path), err}
}

// resolveOutput follows path through symlinks (dangling ones included)
// to the path that is actually written.
func resolveOutput(path string) (string, error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// outputFile is a file being written: a temporary beside the target, or
// the target itself when it is not a regular file.
type outputFile struct {
	path   string // as named by the user, for messages
	target string // where the content ends up
	tmp    string // "" when writing the target in place
	f      *os.File
	label  string   // the flag and its value, for commitAll's messages
	p      *process // whose commit puts it in place
}

// checkOutputFile reports, without writing anything, why path cannot be
// written, and returns the resolved target.
func checkOutputFile(path string) (string, error) {
	target, err := resolveOutput(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("%s is a directory", path)
	case err == nil:
		return target, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("cannot create %s: directory %s does not exist", path, dir)
	}
	return target, nil
}

// createOutput opens path for writing (see the rules at the top).
func (p *process) createOutput(path string) (*outputFile, error) {
	target, err := checkOutputFile(path)
	if err != nil {
		return nil, err
	}
	o := &outputFile{path: path, target: target, label: path, p: p}
	fi, err := os.Stat(target)
	if err == nil && !fi.Mode().IsRegular() {
		// A device, FIFO or socket: write it in place, never replace it.
		o.f, err = os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, err
		}
		return o, nil
	}
	perm := fs.FileMode(0o644)
	if err == nil {
		perm = fi.Mode().Perm()
	}
	removeDebris(filepath.Dir(target), tempPrefix(target))
	removeDebris(filepath.Dir(target), backupPrefix(target))
	temps.Lock()
	o.f, err = os.CreateTemp(filepath.Dir(target), tempPrefix(target)+ownerTag()+"*")
	if err == nil {
		o.tmp = o.f.Name()
		trackLocked(o.tmp)
	}
	temps.Unlock()
	if err == nil {
		p.at("created", o.tmp)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", path, errors.Unwrap(err))
	}
	// CreateTemp makes the file 0600; outputs are ordinary files that
	// other tools and users read, as os.Create would have made them.
	if err := o.f.Chmod(perm); err != nil {
		o.abort()
		return nil, renameInError(err, o.tmp, path)
	}
	return o, nil
}

// write streams the content; an error aborts the file.
func (o *outputFile) write(write func(f *os.File) error) error {
	if err := write(o.f); err != nil {
		o.abort()
		return renameInError(err, o.tmp, o.path)
	}
	return nil
}

// commit closes the file and renames the temporary into place.
func (o *outputFile) commit() error {
	return o.p.commitAll(nil, []*outputFile{o}, io.Discard)
}

// abort drops the temporary (a no-op after commit).
func (o *outputFile) abort() {
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
		untrackTemp(o.tmp)
	}
}

// writeFileAtomic writes path through createOutput: atomically for a
// regular file, in place for a device or FIFO.
func (p *process) writeFileAtomic(path string, write func(f *os.File) error) error {
	o, err := p.createOutput(path)
	if err != nil {
		return err
	}
	if err := o.write(write); err != nil {
		return err
	}
	return o.commit()
}

// outputDir stages every file of an -o run in a folder beside DIR and
// swaps it in whole at commit.
type outputDir struct {
	name   string // as given by the user, for messages
	dir    string // absolute, symlinks resolved
	exists bool
	stage  string
	lock   *os.File // flock held on the stage while this run lives
	p      *process // whose run writes it
}

// checkOutputDir reports, without writing anything, why name cannot be
// replaced by a new -o tree: a missing parent, something not a folder, a
// dangling symlink, or a folder holding files sdscgen did not write
// (unless force).
func (p *process) checkOutputDir(name string, force bool) (*outputDir, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			link, _ := os.Readlink(abs)
			return nil, fmt.Errorf("-o %s is a symbolic link to %s, which does not exist", name, link)
		}
		abs = real
	}
	o := &outputDir{name: name, dir: abs, p: p}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return nil, fmt.Errorf("-o %s exists and is not a directory", name)
	case err == nil:
		if holdsCwd(abs) {
			// --force or not: it would delete the folder the user
			// is in, and most likely the input with it.
			return nil, fmt.Errorf("-o %s is the current directory or holds it; sdscgen replaces DIR whole, so it never writes there", name)
		}
		o.exists = true
		if !force {
			if err := checkOwned(abs); err != nil {
				return nil, fmt.Errorf("-o %s: %v; not replacing it (remove it, or pass --force to replace the whole directory)", name, err)
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(abs)
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("-o %s: directory %s does not exist (sdscgen creates DIR, not its parents)", name, parent)
		}
	default:
		return nil, err
	}
	return o, nil
}

// holdsCwd reports whether dir (an absolute path) is the current
// directory or one of its ancestors, symlinks resolved.
func holdsCwd(dir string) bool {
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		wd = real
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(dir, wd)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkOwned accepts an empty folder or one holding exactly what an -o
// run writes: plan.json and, for bundles that plan names, folders holding
// only bundle.mlir, addresses.mlir or memory.svg.
func checkOwned(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return err
	}
	bundles, err := planBundles(filepath.Join(dir, planFile))
	if errors.Is(err, errNotRegular) {
		return fmt.Errorf("its %s is %v", planFile, err)
	}
	if err != nil {
		for _, e := range entries {
			if e.Name() != planFile {
				return fmt.Errorf("it holds %s, and no %s of an earlier run", e.Name(), planFile)
			}
		}
		return fmt.Errorf("its %s was not written by sdscgen (%v)", planFile, err)
	}
	for _, e := range entries {
		if dirFiles[e.Name()] && e.Type().IsRegular() {
			continue
		}
		if !bundles[e.Name()] || !e.IsDir() {
			return fmt.Errorf("it holds %s, which sdscgen did not write", e.Name())
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		for _, s := range sub {
			if !bundleFiles[s.Name()] || !s.Type().IsRegular() {
				return fmt.Errorf("it holds %s, which sdscgen did not write", filepath.Join(e.Name(), s.Name()))
			}
		}
	}
	return nil
}

// planBundles reads the bundle names of a plan JSON, stopping at the
// "bundles" array (it comes before the long "buffers" one).
func planBundles(path string) (map[string]bool, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, 1<<30))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if t == "bundles" {
			var bs []struct {
				Name string `json:"name"`
			}
			if err := dec.Decode(&bs); err != nil {
				return nil, err
			}
			names := map[string]bool{}
			for _, b := range bs {
				names[b.Name] = true
			}
			return names, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("no bundles key")
}

// errNotRegular wraps the description of a file that is not a regular
// one (a FIFO, device, socket, folder or symlink).
var errNotRegular = errors.New("not a regular file")

// openRegular opens path for reading only when it is a regular file,
// looked at before it is opened (opening a FIFO blocks until a writer
// comes, and a device may never end), and again once open, in case it
// was replaced in between; the open itself never blocks on a FIFO.
func openRegular(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", errNotRegular, fileKind(fi.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%w (%s)", errNotRegular, fileKind(fi.Mode()))
		}
		return nil, err
	}
	return f, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "of another type"
}

// stagePrefix names the staging folders of DIR.
func stagePrefix(dir string) string { return "." + filepath.Base(dir) + ".sdscgen-" }

// start removes staging folders left by killed runs (a folder that
// cannot be removed is reported on warn) and creates this run's, locked
// for as long as the process lives.
func (o *outputDir) start(warn io.Writer) error {
	parent := filepath.Dir(o.dir)
	if old, _ := filepath.Glob(filepath.Join(parent, globEscape(stagePrefix(o.dir))+"*")); len(old) > 0 {
		for _, p := range old {
			if err := o.p.removeIfUnlocked(p); err != nil {
				fmt.Fprintf(warn, "sdscgen: warning: -o %s: %s, left by an earlier run, could not be removed (%v); remove it by hand\n", o.name, p, err)
			}
		}
	}
	temps.Lock()
	stage, err := os.MkdirTemp(parent, stagePrefix(o.dir)+"*")
	if err == nil {
		trackLocked(stage)
	}
	temps.Unlock()
	if err != nil {
		return fmt.Errorf("-o %s: %w", o.name, err)
	}
	o.stage = stage
	lock, err := os.Open(stage)
	if err == nil {
		err = unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	}
	if err != nil {
		o.discard()
		return fmt.Errorf("-o %s: locking the staging folder: %w", o.name, err)
	}
	o.lock = lock
	return nil
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// removeIfUnlocked removes a staging folder whose run is gone (its lock
// is free); the error is why such a folder could not be removed.
func (p *process) removeIfUnlocked(path string) error {
	// Lstat first: opening a FIFO that only looks like a stage blocks.
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return nil // a live run's
	}
	return p.removeAll(path)
}

// A file output's temporary is named .NAME.tmp-PID-*, and the backup of
// the file it replaces (commitAll) .NAME.old-PID-*, PID being the
// writing process's: a run writing NAME removes those whose process is
// gone (a run killed with SIGKILL), never a live one's.

func tempPrefix(target string) string   { return "." + filepath.Base(target) + ".tmp-" }
func backupPrefix(target string) string { return "." + filepath.Base(target) + ".old-" }

// ownerTag is this process's part of its temporaries' names.
func ownerTag() string { return strconv.Itoa(os.Getpid()) + "-" }

// removeDebris removes the regular files named prefix+PID-* in dir whose
// process PID is gone.
func removeDebris(dir, prefix string) {
	names, _ := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"*"))
	for _, p := range names {
		pid, rest, ok := strings.Cut(strings.TrimPrefix(filepath.Base(p), prefix), "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n <= 0 || rest == "" || n == os.Getpid() || processAlive(n) {
			continue
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			os.Remove(p)
		}
	}
}

// processAlive reports whether process pid exists (it may be another
// user's: then it cannot be signalled, but exists).
func processAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// create streams one file into the stage. Folders are made one level at
// a time below the stage, never the stage itself, so nothing reappears
// once the signal handler removed it.
func (o *outputDir) create(rel string, write func(f *os.File) error) error {
	path := filepath.Join(o.stage, rel)
	if d := filepath.Dir(rel); d != "." {
		if err := os.Mkdir(filepath.Join(o.stage, d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return renameInError(err, o.stage, o.dir)
	}
	if err := f.Close(); err != nil {
		return renameInError(err, o.stage, o.dir)
	}
	return nil
}

// commitAll puts every output in place together, all or none as far as
// the file system allows: each file's temporary is renamed over its
// target (an existing regular target is first hard-linked to a backup
// beside it, .NAME.old-PID-*), then the -o stage is swapped in as DIR.
// When a step fails, the steps already done are undone (the backups
// renamed back, new files removed) and the error says that no output was
// written; when an undo fails too, it says exactly which outputs were
// written and which were not. Outputs written in place (a device or a
// FIFO) were written before the commit and count as written.
//
// The steps, and their undoing, run under the temps lock, which the
// signal handler takes for good: a SIGHUP, SIGINT or SIGTERM during the
// commit waits for it to end (every output new, or every output old),
// then exits 128+signal. Only SIGKILL can stop it midway. The old -o tree
// and the backups are removed after the lock is released; an old tree
// that cannot be removed is reported on warn (the run still succeeds:
// every output is written).
func (p *process) commitAll(od *outputDir, files []*outputFile, warn io.Writer) error {
	abort := func() {
		for _, f := range files {
			f.abort()
		}
		if od != nil {
			od.discard()
		}
	}
	for _, f := range files {
		if err := f.f.Close(); err != nil {
			abort()
			return renameInError(err, f.tmp, f.path)
		}
	}
	stage := ""
	if od != nil {
		mode := fs.FileMode(0o755)
		if fi, err := os.Stat(od.dir); err == nil {
			mode = fi.Mode().Perm()
		}
		// MkdirTemp made the stage 0700; DIR is an ordinary folder.
		if err := os.Chmod(od.stage, mode); err != nil {
			abort()
			return err
		}
		stage = od.stage
		p.at("swap", stage)
	}
	aside, backups, err := p.commitLocked(od, files)
	if od != nil {
		p.at("swapped", stage)
	}
	for _, b := range backups {
		os.Remove(b)
		untrackTemp(b)
	}
	if err != nil {
		abort()
		return err
	}
	if aside != "" {
		if rerr := p.removeAll(aside); rerr != nil {
			fmt.Fprintf(warn, "sdscgen: warning: -o %s: the old tree could not be removed (%v); it is left in %s\n", od.name, rerr, aside)
		}
		untrackTemp(aside)
	}
	if od != nil {
		if rerr := od.discard(); rerr != nil {
			fmt.Fprintf(warn, "sdscgen: warning: -o %s: the old tree could not be removed (%v); it is left in %s (remove it by hand)\n", od.name, rerr, stage)
		}
	}
	return nil
}

// commitLocked is commitAll's steps under the temps lock. It returns the
// backups to remove, and the old -o tree's folder (aside) when the swap
// had to move it aside.
func (p *process) commitLocked(od *outputDir, files []*outputFile) (aside string, backups []string, err error) {
	temps.Lock()
	defer temps.Unlock()
	type step struct {
		label string
		undo  func() error // nil: cannot be undone
	}
	var done []step
	var inPlace []string
	fail := func(label string, cause error) error {
		var written []string
		for i := len(done) - 1; i >= 0; i-- {
			if done[i].undo == nil || done[i].undo() != nil {
				written = appendNew(written, done[i].label)
			}
		}
		written = append(written, inPlace...)
		var notWritten []string
		for _, f := range files {
			if f.tmp != "" && !slicesContains(written, f.label) {
				notWritten = appendNew(notWritten, f.label)
			}
		}
		if od != nil {
			notWritten = appendNew(notWritten, "-o "+od.name)
		}
		msg := fmt.Sprintf("%s: %v; ", label, cause)
		if len(written) == 0 {
			msg += "no output was written"
			if len(done) > 0 {
				msg += " (the outputs already in place were put back as they were)"
			}
		} else {
			msg += "written: " + strings.Join(written, ", ") + "; not written: " + strings.Join(notWritten, ", ")
		}
		return errors.New(msg)
	}
	for _, f := range files {
		if f.tmp == "" {
			inPlace = appendNew(inPlace, f.label+" (written in place)")
			continue
		}
		p.at("commit", f.path)
		backup, existed := "", false
		if fi, err := os.Lstat(f.target); err == nil {
			existed = true
			if fi.Mode().IsRegular() {
				b := filepath.Join(filepath.Dir(f.target), backupPrefix(f.target)+ownerTag()+fmt.Sprint(len(backups)))
				os.Remove(b) // debris of an earlier run of this pid
				if os.Link(f.target, b) == nil {
					backup = b
					temps.paths[b] = true
					backups = append(backups, b)
				}
			}
		}
		if err := os.Rename(f.tmp, f.target); err != nil {
			var le *os.LinkError
			if errors.As(err, &le) {
				err = le.Err
			}
			return "", backups, fail(f.label, fmt.Errorf("cannot put %s in place: %w", f.path, err))
		}
		delete(temps.paths, f.tmp)
		f.tmp = ""
		target := f.target
		switch {
		case backup != "":
			done = append(done, step{f.label, func() error { return os.Rename(backup, target) }})
		case !existed:
			done = append(done, step{f.label, func() error { return os.Remove(target) }})
		default:
			done = append(done, step{f.label, nil})
		}
	}
	if od != nil {
		p.at("commit", od.dir)
		a, err := od.swapLocked()
		if err != nil {
			return a, backups, fail("-o "+od.name, err)
		}
		aside = a
	}
	return aside, backups, nil
}

func appendNew(list []string, s string) []string {
	if slicesContains(list, s) {
		return list
	}
	return append(list, s)
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// swapLocked puts the stage in DIR's place; the caller holds the temps
// lock. After it, the stage's name holds the old tree or nothing; aside,
// when not "", is a tracked folder holding the old tree, for the caller
// to remove.
func (o *outputDir) swapLocked() (aside string, err error) {
	if !o.exists {
		err := os.Rename(o.stage, o.dir)
		if err == nil {
			// The stage's name no longer exists: nothing to remove.
			delete(temps.paths, o.stage)
			return "", nil
		}
		if _, serr := os.Lstat(o.dir); serr != nil {
			return "", fmt.Errorf("-o %s: %w", o.name, err)
		}
		// Another run created DIR meanwhile: swap with it.
	}
	err = unix.Renameat2(unix.AT_FDCWD, o.stage, unix.AT_FDCWD, o.dir, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		// No RENAME_EXCHANGE here (an old kernel or a file system
		// without it): move the old tree aside, then the new one in.
		// Not atomic: a kill -9 between the two renames leaves no DIR,
		// never a mix (SIGINT and SIGTERM wait for the lock).
		aside = o.stage + ".old"
		if err = os.Rename(o.dir, aside); err != nil {
			aside = ""
		} else {
			temps.paths[aside] = true
			if err = os.Rename(o.stage, o.dir); err != nil {
				if os.Rename(aside, o.dir) != nil {
					// The old tree cannot go back: keep it
					// rather than remove it.
					delete(temps.paths, aside)
					return "", fmt.Errorf("-o %s: replacing the directory: %w (the old tree is in %s)", o.name, err, aside)
				}
				delete(temps.paths, aside)
				aside = ""
			}
		}
	}
	if err != nil {
		return aside, fmt.Errorf("-o %s: replacing the directory: %w", o.name, err)
	}
	return aside, nil
}

// discard removes the stage (after commit: the old tree) and releases
// the lock.
func (o *outputDir) discard() error {
	if o.stage == "" {
		return nil
	}
	err := o.p.removeAll(o.stage)
	untrackTemp(o.stage)
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
	o.stage = ""
	return err
}
