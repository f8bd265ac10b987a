package deadline

import (
	"testing"
	"time"
)

func TestPerBundle(t *testing.T) {
	if PerBundle(0) != nil || PerBundle(-time.Second) != nil {
		t.Fatal("no limit must be nil")
	}
	// A deadline an hour away has not passed; one already reached has.
	if PerBundle(time.Hour)()() {
		t.Error("an hour-long limit reported as passed at once")
	}
	stop := PerBundle(time.Nanosecond)()
	for !stop() { // passes after at most a few clock ticks
	}
}
