package hugeheap

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestMapHugePages runs Map in a child process (a fresh heap, as
// the command's), then allocates 64 MiB and writes every page of it:
// that slice must lie in a mapping marked for huge pages (VmFlags hg in
// /proc/self/smaps), and, unless the kernel is set never to give them,
// be backed by some (AnonHugePages).
func TestMapHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skipf("this kernel has no transparent huge pages (%v): Map's advice is refused, and ignored", err)
	}
	hg, anonHuge, fallback, out := mapChild(t, "1")
	if gcs, restored := mapCollections(t, out); gcs != 1 || !restored {
		t.Errorf("Map ran %d collections (want 1: its own, the block's allocation starting none) and left GOGC and the memory limit restored: %t\n%s", gcs, restored, out)
	}
	if !hg {
		t.Errorf("the slice allocated after Map is not in a mapping marked for huge pages\n%s", out)
	}
	if strings.Contains(string(mode), "[never]") {
		t.Logf("transparent huge pages are off here (%s): not checking that they back the slice", strings.TrimSpace(string(mode)))
	} else if anonHuge == 0 && fallback > 0 {
		t.Logf("the kernel had no free huge page for the slice (thp_fault_fallback rose by %d): the advice was taken, the memory is fragmented", fallback)
	} else if anonHuge == 0 {
		t.Errorf("no huge page backs the 64 MiB slice (AnonHugePages 0 kB; mode %s)\n%s", strings.TrimSpace(string(mode)), out)
	}
}

// TestMapUnderLimit: under a limit on the address space (here 1
// TiB, far more than the run needs) Map maps nothing, so the slice
// allocated after it is in no mapping marked for huge pages.
func TestMapUnderLimit(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skipf("this kernel has no transparent huge pages (%v): nothing is ever marked", err)
	}
	if hg, _, _, out := mapChild(t, "limited"); hg {
		t.Errorf("under RLIMIT_AS the slice is in a mapping marked for huge pages\n%s", out)
	}
}

// mapCollections reads what the child printed of Map's collections:
// how many ran while it mapped, and whether it left the collector's
// percent and memory limit as they were.
func mapCollections(t *testing.T, out []byte) (gcs int, restored bool) {
	t.Helper()
	for _, line := range strings.Split(string(out), "\n") {
		if _, err := fmt.Sscanf(line, "collections=%d restored=%t", &gcs, &restored); err == nil {
			return gcs, restored
		}
	}
	t.Fatalf("child printed no collections:\n%s", out)
	return 0, false
}

// mapChild runs TestMapChild in mode ("1", or "limited": under
// an address-space limit) and returns what it found: whether the slice
// is in a mapping marked for huge pages, the kB of huge pages backing
// it, and by how much the kernel's count of huge-page faults that fell
// back to small pages (thp_fault_fallback in /proc/vmstat, system-wide)
// rose while the child wrote it.
func mapChild(t *testing.T, mode string) (hg bool, anonHugeKB, fallback int, out []byte) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMapChild$", "-test.v")
	cmd.Env = append(os.Environ(), "SDSCGEN_TEST_MAPHEAP="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if _, err := fmt.Sscanf(line, "mapped hg=%t anonhuge=%d fallback=%d", &hg, &anonHugeKB, &fallback); err == nil {
			return hg, anonHugeKB, fallback, out
		}
	}
	t.Fatalf("child printed no result:\n%s", out)
	return false, 0, 0, nil
}

// TestMapChild is the child of the tests above: Map on a fresh
// heap, as the command's, then a 64 MiB slice written page by page.
func TestMapChild(t *testing.T) {
	mode := os.Getenv("SDSCGEN_TEST_MAPHEAP")
	if mode == "" {
		t.Skip("the child of TestMapHugePages and TestMapUnderLimit")
	}
	if mode == "limited" {
		l := unix.Rlimit{Cur: 1 << 40, Max: 1 << 40}
		if err := unix.Setrlimit(unix.RLIMIT_AS, &l); err != nil {
			t.Fatal(err)
		}
	}
	// A percent and a limit of the child's own, which Map must leave as
	// they are; under the default percent the block's allocation would
	// start a collection of its own.
	// A collection first, so that none is under way when Map starts.
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	Map(256 << 20)
	runtime.ReadMemStats(&ms)
	p := debug.SetGCPercent(100)
	fmt.Printf("collections=%d restored=%t\n", ms.NumGC-gcs, p == 100 && debug.SetMemoryLimit(-1) == 1<<40)
	before := thpFallbacks()
	s := make([]byte, 64<<20)
	for i := 0; i < len(s); i += 4096 {
		s[i] = 1
	}
	fallback := thpFallbacks() - before
	// An address in the middle of the slice, on a huge page of it.
	mid := uint64(uintptr(unsafe.Pointer(&s[len(s)/2])))
	hg, anonHuge, err := smapsAt(mid)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("mapped hg=%t anonhuge=%d fallback=%d\n", hg, anonHuge, fallback)
}

// thpFallbacks is /proc/vmstat's thp_fault_fallback (0 when unread).
func thpFallbacks() int {
	b, _ := os.ReadFile("/proc/vmstat")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "thp_fault_fallback "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// smapsAt reads /proc/self/smaps for the mapping that holds addr: whether
// it is marked for huge pages, and how many kB of huge pages back it.
func smapsAt(addr uint64) (hg bool, anonHugeKB int, err error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, 0, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				if in {
					break // the mapping after addr's
				}
				in = l <= addr && addr < h
				continue
			}
		}
		if !in {
			continue
		}
		switch fields[0] {
		case "AnonHugePages:":
			anonHugeKB, _ = strconv.Atoi(fields[1])
		case "VmFlags:":
			for _, fl := range fields[1:] {
				hg = hg || fl == "hg"
			}
		}
	}
	if err := sc.Err(); err != nil {
		return false, 0, err
	}
	return hg, anonHugeKB, nil
}
