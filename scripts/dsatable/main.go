// Command dsatable runs sdscgen's allocators over MiniMalloc-format CSV
// instances and prints a markdown table of pool_end / lower bound and
// wall time per instance and allocator. scripts/dsa-table.sh drives it.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sdscgen/sdscgen/alloc"
	"github.com/sdscgen/sdscgen/dsa"
	"github.com/sdscgen/sdscgen/internal/deadline"
)

func main() {
	allocs := flag.String("allocators", strings.Join(alloc.Names(), ","), "comma-separated allocators to run")
	searchEffort := flag.Int64("search-effort", alloc.DefaultMaxNodes, "search nodes of best (the result depends only on the input and this)")
	searchTime := flag.Duration("search-time", 0, "opt-in clock limit for best (0: none; the result then varies with machine load)")
	printEffort := flag.Bool("print-effort", false, "print the -search-effort default and exit")
	capacity := flag.Int64("capacity", math.MaxInt64, "budget given to every allocator")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: dsatable [flags] DIR|FILE.csv...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *printEffort {
		fmt.Println(alloc.DefaultMaxNodes)
		return
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var files []string
	for _, arg := range flag.Args() {
		st, err := os.Stat(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dsatable:", err)
			os.Exit(1)
		}
		if !st.IsDir() {
			files = append(files, arg)
			continue
		}
		filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".csv") && !strings.Contains(p, "solution") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	names := strings.Split(*allocs, ",")
	fns := make([]alloc.Func, len(names))
	for i, n := range names {
		opt := alloc.Options{MaxNodes: *searchEffort, Stop: deadline.PerBundle(*searchTime)}
		if *capacity != math.MaxInt64 {
			opt.Goal = *capacity // a decision problem, as pack --capacity
		}
		a, err := alloc.Lookup(n, opt)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dsatable:", err)
			os.Exit(2)
		}
		fns[i] = a.Func
	}
	hdr := "| instance | n | LB |"
	sep := "|---|---:|---:|"
	for _, n := range names {
		hdr += " " + n + " |"
		sep += "---:|"
	}
	fmt.Println(hdr)
	fmt.Println(sep)
	status := 0
	for _, f := range files {
		inst, err := dsa.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			status = 1
			continue
		}
		row := fmt.Sprintf("| %s | %d |", label(flag.Args(), f), len(inst.Buffers))
		lbDone := false
		for i, fn := range fns {
			p, err := dsa.Pack(inst.Buffers, *capacity, fn)
			if !lbDone {
				row += fmt.Sprintf(" %d |", p.LowerBound)
				lbDone = true
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %s: %v\n", f, names[i], err)
				row += " invalid |"
				status = 1
				continue
			}
			cell := fmt.Sprintf("%.4f (%s)", p.Ratio(), dur(p.Duration))
			if p.PoolEnd == p.LowerBound {
				cell = fmt.Sprintf("1 = LB (%s)", dur(p.Duration))
			}
			if p.Fallbacks > 0 {
				cell = fmt.Sprintf("%d fell back (%s)", p.Fallbacks, dur(p.Duration))
			}
			row += " " + cell + " |"
		}
		fmt.Println(row)
	}
	os.Exit(status)
}

// label names an instance by its path below the argument directory.
func label(args []string, f string) string {
	for _, a := range args {
		if rel, err := filepath.Rel(a, f); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			return strings.TrimSuffix(rel, ".csv")
		}
	}
	return strings.TrimSuffix(filepath.Base(f), ".csv")
}

func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
