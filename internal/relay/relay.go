// Package relay hands buffers from one producer goroutine to one
// consumer, in order, and back again, so that the two overlap on a
// bounded set of buffers: the frontend's scanning goroutine and its
// parser (batches of tokens), and the plan JSON's writer and its check
// (chunks of text).
//
// A buffer is the producer's until Put, then the consumer's until Free.
// The consumer may Stop the producer at any time (it stops reading); the
// producer may Close the relay (it has no more). The two channels hold
// every buffer in flight, so neither Free nor a Put of a buffer the relay
// handed out (or that fits its count) ever waits for room.
//
// mlirgen's parallel printer is not a relay: it fans pieces out to
// several workers and back in order, and the run's other channels are
// one-shot results; each is written where it is used.
package relay

// Relay is one producer's and one consumer's: at most n buffers
// travel through it.
type Relay[T any] struct {
	full chan T        // filled, in order
	free chan T        // to fill again
	done chan struct{} // closed by Stop
}

// New returns a relay for up to n buffers in flight.
func New[T any](n int) *Relay[T] {
	return &Relay[T]{full: make(chan T, n), free: make(chan T, n), done: make(chan struct{})}
}

// Free gives buffer v back to the producer (or, before the producer
// starts, gives it its buffers). It never waits.
func (r *Relay[T]) Free(v T) { r.free <- v }

// Get is the producer's next buffer to fill: it waits for one the
// consumer frees, and reports false once the consumer has stopped.
func (r *Relay[T]) Get() (T, bool) {
	select {
	case <-r.done:
		var zero T
		return zero, false
	default:
	}
	select {
	case v := <-r.free:
		return v, true
	case <-r.done:
		var zero T
		return zero, false
	}
}

// TryGet is Get without the wait: false when no freed buffer is waiting
// (the producer may then make a new one, within its bound).
func (r *Relay[T]) TryGet() (T, bool) {
	select {
	case v := <-r.free:
		return v, true
	default:
		var zero T
		return zero, false
	}
}

// Put hands filled buffer v to the consumer; false once the consumer has
// stopped (v is then dropped).
func (r *Relay[T]) Put(v T) bool {
	select {
	case <-r.done:
		return false
	default:
	}
	select {
	case r.full <- v:
		return true
	case <-r.done:
		return false
	}
}

// Close is the producer's last call: the consumer's Next reports false
// after the buffers already put.
func (r *Relay[T]) Close() { close(r.full) }

// Next is the consumer's next filled buffer, in the order put: false
// once the producer has closed the relay and every buffer is taken.
func (r *Relay[T]) Next() (T, bool) {
	v, ok := <-r.full
	return v, ok
}

// Stop is the consumer's last call: the producer's Get and Put report
// false from now on. It is called once.
func (r *Relay[T]) Stop() { close(r.done) }
