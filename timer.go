package kokkos

import "time"

// A Timer measures the wall-clock time since it was made or last reset,
// from the monotonic clock. It is Kokkos's Kokkos::Timer: NewTimer starts
// it, Seconds reads it, Reset starts it again. It measures what the caller
// sees, not what an asynchronous instance has yet to run: fence the
// instance before reading it to time its work. The zero Timer measures
// from the zero time; make one with NewTimer.
type Timer struct {
	start time.Time
}

// NewTimer returns a timer started now.
func NewTimer() Timer { return Timer{start: time.Now()} }

// Seconds returns the seconds since the timer was started or last reset.
func (t *Timer) Seconds() float64 { return time.Since(t.start).Seconds() }

// Reset starts the timer again from now.
func (t *Timer) Reset() { t.start = time.Now() }
