package dal_test

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// randFloat32 returns n fresh random values in [1, 2), never zero.
func randFloat32(n int) []float32 {
	p := make([]float32, n)
	for i := range p {
		p[i] = 1 + rand.Float32()
	}
	return p
}

// randFloat64 returns n fresh random values in [1, 2), never zero.
func randFloat64(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 + rand.Float64()
	}
	return p
}

// deleter counts its calls.
type deleter struct{ calls atomic.Int32 }

func (d *deleter) fn() func() { return func() { d.calls.Add(1) } }

func (d *deleter) want(t *testing.T, n int32, when string) {
	t.Helper()
	if got := d.calls.Load(); got != n {
		t.Fatalf("%s: deleter called %d times, want %d", when, got, n)
	}
}

// panicMessage returns the text of f's panic, or "" if it does not panic.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func wantPanic(t *testing.T, want string, f func()) {
	t.Helper()
	if got := panicMessage(f); got != want {
		t.Fatalf("panic %q, want %q", got, want)
	}
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if err.Error() != want {
		t.Fatalf("error %q, want %q", err.Error(), want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func same[T any](p, q []T) bool { return len(p) > 0 && len(q) > 0 && &p[0] == &q[0] }

// nowhere is a memory space that neither the host nor an allocator reaches.
type nowhere struct{}

func (nowhere) Name() string         { return "Nowhere" }
func (nowhere) HostAccessible() bool { return false }
