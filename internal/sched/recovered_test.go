package sched

import (
	"testing"

	"github.com/gokkos/kokkos/internal/errs"
)

// TestRecoveredPassesThrough: a panic recorded on another goroutine with
// Recovered and panicked again in a region is the region's panic, as it
// was recorded, on the pool and on the caller alone.
func TestRecoveredPassesThrough(t *testing.T) {
	var rec *Panic
	done := make(chan struct{})
	go func() {
		defer func() { rec = Recovered(recover()); close(done) }()
		panic("far away")
	}()
	<-done
	if rec.Value != "far away" || len(rec.Stack) == 0 {
		t.Fatalf("Recovered: %+v", rec)
	}
	p := NewPool(3)
	defer p.Close()
	for _, pool := range []*Pool{p, nil} {
		err := Execute(&Dispatch{Label: "again", Kind: KindFor, Begin: 0, End: 8, Chunk: 1, Body: func(lo, hi int) {
			if lo == 5 {
				panic(rec)
			}
		}}, pool, nil)
		pe, ok := err.(*errs.PanicError)
		if !ok || pe.Value != "far away" || string(pe.Stack) != string(rec.Stack) {
			t.Fatalf("pool %v: got %v, want the recorded panic", pool != nil, err)
		}
	}
}
