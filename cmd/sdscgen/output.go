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

// testHook, nil outside tests, is called at the named points of the
// signal handler and of outputDir.commit, so that a test can deliver a
// signal at an exact point of a run.
var testHook func(point, path string)

func hook(point, path string) {
	if testHook != nil {
		testHook(point, path)
	}
}

// removeTemps removes every tracked temporary; it keeps the lock, so no
// new one is tracked, and no staging folder is swapped in as an -o DIR
// (outputDir.commit renames under the same lock), while the process
// exits.
func removeTemps() {
	temps.Lock()
	for p := range temps.paths {
		hook("remove", p)
		// The run may still be adding files to a staging folder by its
		// path: move the folder where no path leads first, so that
		// nothing new appears in it while it is removed (retries cover
		// a creation already under way). The new name keeps the stage
		// prefix, and the folder its flock: after a kill -9 meanwhile,
		// the next run removes it.
		gone := p
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			if os.Rename(p, p+".removing") == nil {
				gone = p + ".removing"
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
func cleanupOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-ch
		removeTemps()
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
func createOutput(path string) (*outputFile, error) {
	target, err := checkOutputFile(path)
	if err != nil {
		return nil, err
	}
	o := &outputFile{path: path, target: target}
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
	temps.Lock()
	o.f, err = os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err == nil {
		o.tmp = o.f.Name()
		trackLocked(o.tmp)
	}
	temps.Unlock()
	if err == nil {
		hook("created", o.tmp)
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
	if err := o.f.Close(); err != nil {
		o.abort()
		return renameInError(err, o.tmp, o.path)
	}
	if o.tmp == "" {
		return nil
	}
	err := os.Rename(o.tmp, o.target)
	if err != nil {
		o.abort()
		return renameInError(err, o.tmp, o.path)
	}
	untrackTemp(o.tmp)
	return nil
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
func writeFileAtomic(path string, write func(f *os.File) error) error {
	o, err := createOutput(path)
	if err != nil {
		return err
	}
	if err := o.write(write); err != nil {
		return err
	}
	return o.commit()
}

// bundleFiles are the only files sdscgen writes in a bundle's folder of
// an -o DIR.
var bundleFiles = map[string]bool{"bundle.mlir": true, "addresses.mlir": true, "memory.svg": true}

// outputDir stages every file of an -o run in a folder beside DIR and
// swaps it in whole at commit.
type outputDir struct {
	name   string // as given by the user, for messages
	dir    string // absolute, symlinks resolved
	exists bool
	stage  string
	lock   *os.File // flock held on the stage while this run lives
}

// checkOutputDir reports, without writing anything, why name cannot be
// replaced by a new -o tree: a missing parent, something not a folder, a
// dangling symlink, or a folder holding files sdscgen did not write
// (unless force).
func checkOutputDir(name string, force bool) (*outputDir, error) {
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
	o := &outputDir{name: name, dir: abs}
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
	bundles, err := planBundles(filepath.Join(dir, "plan.json"))
	if errors.Is(err, errNotRegular) {
		return fmt.Errorf("its plan.json is %v", err)
	}
	if err != nil {
		for _, e := range entries {
			if e.Name() != "plan.json" {
				return fmt.Errorf("it holds %s, and no plan.json of an earlier run", e.Name())
			}
		}
		return fmt.Errorf("its plan.json was not written by sdscgen (%v)", err)
	}
	for _, e := range entries {
		if e.Name() == "plan.json" && e.Type().IsRegular() {
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

// start removes staging folders left by killed runs and creates this
// run's, locked for as long as the process lives.
func (o *outputDir) start() error {
	parent := filepath.Dir(o.dir)
	if old, _ := filepath.Glob(filepath.Join(parent, globEscape(stagePrefix(o.dir))+"*")); len(old) > 0 {
		for _, p := range old {
			removeIfUnlocked(p)
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
// is free).
func removeIfUnlocked(path string) {
	// Lstat first: opening a FIFO that only looks like a stage blocks.
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // a live run's
	}
	os.RemoveAll(path)
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

// commit swaps the stage in as DIR and removes the old tree.
//
// The renames run under the temps lock, which the signal handler takes
// for good: either the handler got it first, removes the whole stage and
// exits while DIR is still the old tree, or the swap is complete before
// the handler looks, and the name it then removes holds only the old tree
// (or nothing). Without the lock, a handler halfway through removing the
// stage could finish its work inside the new DIR (the open folder follows
// the rename), leaving a mix.
func (o *outputDir) commit() error {
	defer o.discard()
	mode := fs.FileMode(0o755)
	if fi, err := os.Stat(o.dir); err == nil {
		mode = fi.Mode().Perm()
	}
	// MkdirTemp made the stage 0700; DIR is an ordinary folder.
	if err := os.Chmod(o.stage, mode); err != nil {
		return err
	}
	hook("swap", o.stage)
	aside, err := o.swap()
	hook("swapped", o.stage)
	if aside != "" {
		os.RemoveAll(aside)
		untrackTemp(aside)
	}
	return err
}

// swap puts the stage in DIR's place under the temps lock. After it, the
// stage's name holds the old tree or nothing; aside, when not "", is a
// tracked folder holding the old tree, for the caller to remove.
func (o *outputDir) swap() (aside string, err error) {
	temps.Lock()
	defer temps.Unlock()
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
func (o *outputDir) discard() {
	if o.stage == "" {
		return
	}
	os.RemoveAll(o.stage)
	untrackTemp(o.stage)
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
	o.stage = ""
}
