package relay

import (
	"sync"
	"testing"
)

// TestOrderAndReuse: a producer fills the relay's n buffers over and
// over; the consumer reads every value in order, and never more than n
// distinct buffers are used.
func TestOrderAndReuse(t *testing.T) {
	const n, values = 3, 1000
	r := New[*[1]int](n)
	for range n {
		r.Free(new([1]int))
	}
	go func() {
		for i := range values {
			b, ok := r.Get()
			if !ok {
				panic("stopped")
			}
			b[0] = i
			if !r.Put(b) {
				panic("stopped")
			}
		}
		r.Close()
	}()
	seen := map[*[1]int]bool{}
	want := 0
	for {
		b, ok := r.Next()
		if !ok {
			break
		}
		if b[0] != want {
			t.Fatalf("got %d, want %d", b[0], want)
		}
		want++
		seen[b] = true
		r.Free(b)
	}
	if want != values || len(seen) > n {
		t.Errorf("read %d values (want %d) through %d buffers (at most %d)", want, values, len(seen), n)
	}
}

// TestStopReleasesProducer: once the consumer stops, a producer waiting
// for a free buffer, or about to put one, gets false instead of waiting
// forever.
func TestStopReleasesProducer(t *testing.T) {
	r := New[int](1)
	r.Free(1)
	var wg sync.WaitGroup
	results := make(chan bool, 3)
	wg.Go(func() {
		v, ok := r.Get() // the one free buffer
		results <- ok
		results <- r.Put(v) // room for it
		_, ok = r.Get()     // none left: waits until Stop
		results <- ok
	})
	if v, ok := r.Next(); !ok || v != 1 {
		t.Fatalf("Next = %d, %v", v, ok)
	}
	r.Stop()
	wg.Wait()
	if a, b, c := <-results, <-results, <-results; !a || !b || c {
		t.Errorf("Get, Put, Get after Stop = %v, %v, %v; want true, true, false", a, b, c)
	}
	if r.Put(2) {
		t.Error("Put after Stop = true")
	}
}

// TestTryGet: TryGet takes a freed buffer without waiting and reports
// false when none is waiting.
func TestTryGet(t *testing.T) {
	r := New[int](2)
	if _, ok := r.TryGet(); ok {
		t.Fatal("TryGet on an empty relay = true")
	}
	r.Free(7)
	if v, ok := r.TryGet(); !ok || v != 7 {
		t.Errorf("TryGet = %d, %v; want 7, true", v, ok)
	}
}
