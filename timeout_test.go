package kokkos

import (
	"testing"
	"time"
)

// within runs f on another goroutine and fails the test if it has not
// returned after 20 s. f must not call t.Fatal.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still waiting after 20 s (deadlock)", what)
	}
}
