package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/dsa"
	"github.com/sdscgen/sdscgen/internal/deadline"
)

const packShort = "usage: sdscgen pack [flags] FILE.csv     (FILE \"-\" reads standard input)\n"

const packLong = packShort + `
Packs a MiniMalloc-format instance (id,lower,upper,size; lifespans
half-open [lower, upper)) with one of sdscgen's pool allocators, checks
the packing, and writes id,lower,upper,size,offset rows to standard
output or to -o. A report line goes to standard error:
pool_end, the lower bound (most bytes live at once), their ratio, the
allocator's time.

With --capacity the run is a decision problem, as MiniMalloc's
--capacity: it succeeds with any packing whose pool end is at most N
(best stops at the first one it finds) and exits 1 when none is found.

Exit status: 0 ok, 1 bad input or no packing within --capacity, 2 bad
usage, 3 internal error.

Flags:
`

// packFlags are the flags of sdscgen pack.
type packFlags struct {
	capacity, searchEffort int64
	allocator, out         string
	searchTime             time.Duration
}

func packCommand(f *packFlags) *command {
	c := newCommand("sdscgen pack", packLong, packShort)
	fs := c.fs
	decimalVar(fs, &f.capacity, "capacity", 0, "succeed only with a pool end of at most `N` bytes (0: no limit)")
	fs.StringVar(&f.allocator, "allocator", "best", "allocator `NAME`: "+strings.Join(alloc.Names(), ", "))
	decimalVar(fs, &f.searchEffort, "search-effort", alloc.DefaultMaxNodes, "`N` search nodes of --allocator best (the result depends only on the input and this)")
	durationVar(fs, &f.searchTime, "search-time", 0, "also stop --allocator best's search after `D` (a duration: 500ms, 5s, 1m) (opt-in: the result then varies with machine load)")
	fs.StringVar(&f.out, "o", "", "write the packed CSV to `FILE` (atomically) instead of standard output")
	return c
}

// runPack is the pack subcommand: MiniMalloc CSV in, packed CSV out.
func (p *process) runPack(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	pf := &packFlags{}
	c := packCommand(pf)
	files, code, ok := c.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	capacity, allocator, searchEffort, searchTime, out := &pf.capacity, &pf.allocator, &pf.searchEffort, &pf.searchTime, &pf.out
	usage := func(format string, a ...any) int { return c.usageError(stderr, fmt.Sprintf(format, a...)) }
	switch {
	case len(files) == 0:
		return usage("no input file (FILE.csv, or - for standard input)")
	case len(files) > 1:
		return usage("one input file expected, got %d: %s", len(files), strings.Join(files, " "))
	case *searchTime <= 0 && c.set()["search-time"]:
		return usage("--search-time must be positive, got %v", *searchTime)
	case *searchEffort <= 0:
		return usage("--search-effort must be positive")
	}
	opt := alloc.Options{Stop: deadline.PerBundle(*searchTime), MaxNodes: *searchEffort}
	budget := int64(math.MaxInt64)
	if *capacity > 0 {
		budget = *capacity
		opt.Goal = *capacity
	}
	if err := checkAllocator(*allocator); err != nil {
		return usage("%v", err)
	}
	a, err := alloc.Lookup(*allocator, opt)
	if err != nil {
		return usage("--allocator: %v", err)
	}

	if *searchTime > 0 && *allocator == "best" {
		fmt.Fprintf(stderr, "sdscgen pack: note: --search-time %v bounds the search by the clock: the packing may differ from run to run and machine to machine\n", *searchTime)
	}
	name := files[0]
	var inst *dsa.Instance
	if name == "-" {
		inst, err = dsa.Read(stdin, "<stdin>")
	} else {
		inst, err = dsa.ReadFile(name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sdscgen pack: %v\n", err)
		return exitBadInput
	}
	packed, err := dsa.Pack(inst.Buffers, budget, a.Func)
	if err != nil {
		fmt.Fprintf(stderr, "sdscgen pack: %s: internal error: %v\n", inst.Name, err)
		return exitInternal
	}
	report := fmt.Sprintf("pool_end=%d lower_bound=%d ratio=%.4f time=%s allocator=%s buffers=%d",
		packed.PoolEnd, packed.LowerBound, packed.Ratio(), roundDuration(packed.Duration), *allocator, len(inst.Buffers))
	if *capacity > 0 {
		report += fmt.Sprintf(" capacity=%d", *capacity)
	}
	if packed.Fallbacks > 0 {
		fmt.Fprintln(stderr, report)
		var why string
		switch {
		case packed.LowerBound > *capacity:
			why = fmt.Sprintf("%d bytes are live at once, so none exists", packed.LowerBound)
		case *allocator == "best":
			why = fmt.Sprintf("none found within --search-effort %d, though one may exist", *searchEffort)
			if *searchTime > 0 {
				why = fmt.Sprintf("none found within --search-effort %d and --search-time %v, though one may exist", *searchEffort, *searchTime)
			}
		default:
			why = fmt.Sprintf("%s found none; --allocator best searches", *allocator)
		}
		fmt.Fprintf(stderr, "sdscgen pack: %s: no packing within capacity %d: %s (%d of %d buffers do not fit)\n",
			inst.Name, *capacity, why, packed.Fallbacks, len(inst.Buffers))
		return exitBadInput
	}
	write := func(w io.Writer) error { return dsa.Write(w, inst.Buffers, packed.Offsets) }
	if *out != "" {
		err = p.writeFileAtomic(*out, func(f *os.File) error { return write(f) })
	} else {
		err = write(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sdscgen pack: writing %s: %v\n", outName(*out), err)
		return exitBadInput
	}
	fmt.Fprintln(stderr, report)
	return exitOK
}

// roundDuration keeps a report readable: whole milliseconds from 10ms
// up, tens of microseconds below.
func roundDuration(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}

// outName names an output in messages: FILE, or standard output.
func outName(path string) string {
	if path == "" {
		return "standard output"
	}
	return path
}
