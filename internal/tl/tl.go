package tl

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var Wait time.Duration
var Waits int

var mu sync.Mutex
var marks []string

func Mark(s string) {
	t := time.Now().UnixMicro()
	mu.Lock()
	marks = append(marks, fmt.Sprintf("%d %s", t, s))
	mu.Unlock()
}

func Dump() {
	if os.Getenv("SDSC_TL") == "" {
		return
	}
	fmt.Fprintf(os.Stderr, "%d waitms %d\n", time.Now().UnixMicro(), Wait.Microseconds()/1000)
	fmt.Fprintf(os.Stderr, "%d waits %d\n", time.Now().UnixMicro(), Waits)
	for _, m := range marks {
		fmt.Fprintln(os.Stderr, m)
	}
}
