package random

import (
	"errors"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
)

// TestPoolSeeding: the states of a pool are Kokkos's (the tutorial's
// figures for seed 5374857, checked against C++ before), a zero seed
// seeds as 1318319 does, and the default size is the space's concurrency.
func TestPoolSeeding(t *testing.T) {
	p := must(NewXorShift64PoolSize(kokkos.Serial{}, 5374857, 4))
	want := []uint64{18131587140662445806, 17285100180709636710, 2710373335213185023, 11674938058208233420}
	for i, w := range want {
		g := p.GetStateAt(i)
		if got := g.Urand64(); got != w {
			t.Errorf("state %d: first urand64 %d, Kokkos %d", i, got, w)
		}
	}
	a, b := must(NewXorShift1024PoolSize(kokkos.Serial{}, 0, 3)), must(NewXorShift1024PoolSize(kokkos.Serial{}, 1318319, 3))
	for i := range 3 {
		g, h := a.GetStateAt(i), b.GetStateAt(i)
		gw, gp := g.State()
		hw, hp := h.State()
		if gw != hw || gp != hp || gw[0] == 0 {
			t.Errorf("state %d of seed 0 differs from seed 1318319's", i)
		}
	}
	if got := NewXorShift64(0); got.State() != 1318319 {
		t.Errorf("NewXorShift64(0) has state %d, want 1318319", got.State())
	}
	space := kokkos.DefaultExecutionSpace()
	if d := must(NewXorShift64Pool(nil, 3)); d.Size() != space.Concurrency() || d.Space() != kokkos.ExecutionSpace(space) {
		t.Errorf("default pool: %d states of %s, want %d of %s", d.Size(), d.Space().Name(), space.Concurrency(), space.Name())
	}
	if d := must(NewXorShift1024Pool(kokkos.Serial{}, 3)); d.Size() != 1 || d.Token().Size() != 1 {
		t.Errorf("Serial pool: %d states, token of %d", d.Size(), d.Token().Size())
	}
}

// TestPoolStatesView: States holds each state in column 0 (words 0..15
// and the position in column 16 for XorShift1024), padded on the host.
func TestPoolStatesView(t *testing.T) {
	p := must(NewXorShift64PoolSize(kokkos.Serial{}, 9, 5))
	v := p.States()
	if v.Extent(0) != 5 || v.Extent(1) != 8 || v.Label() != "Kokkos::Random_XorShift64::state" {
		t.Fatalf("states %q %dx%d", v.Label(), v.Extent(0), v.Extent(1))
	}
	for i := range 5 {
		g := p.GetStateAt(i)
		if v.At(i, 0) != g.State() {
			t.Errorf("states(%d, 0) = %#x, generator %#x", i, v.At(i, 0), g.State())
		}
	}
	q := must(NewXorShift1024PoolSize(kokkos.Serial{}, 9, 2))
	g := q.GetStateAt(1)
	for range 21 {
		g.Urand64()
	}
	q.FreeState(g)
	w := q.States()
	words, pos := g.State()
	for j := range 16 {
		if w.At(1, j) != words[j] {
			t.Errorf("states(1, %d) = %#x, generator %#x", j, w.At(1, j), words[j])
		}
	}
	if pos != 21%16 || w.At(1, 16) != uint64(pos) {
		t.Errorf("position %d, stored %d, want %d", pos, w.At(1, 16), 21%16)
	}
	big := must(NewXorShift64PoolSize(kokkos.Serial{}, 9, 1000)).States()
	if big.Extent(1) != 1 {
		t.Errorf("a pool of 1000 states pads to %d words", big.Extent(1))
	}
}

// TestPoolConcurrent takes and gives back states from many goroutines at
// once (run it under -race): no state has two holders at a time, and
// every draw of every state is made once, so that the draws of a state,
// put in order, are the serial sequence of that state.
func TestPoolConcurrent(t *testing.T) {
	const states, workers, rounds, per = 5, 24, 200, 3
	for _, kind := range []string{pool64, pool1024} {
		space := kokkos.DefaultExecutionSpace()
		var get func() (func() uint64, int, func())
		var serial func(i int) func() uint64
		switch kind {
		case pool64:
			p := must(NewXorShift64PoolSize(space, 77, states))
			start := make([]XorShift64, states)
			for i := range start {
				start[i] = p.GetStateAt(i)
			}
			get = func() (func() uint64, int, func()) {
				g := p.GetState()
				return g.Urand64, g.Index(), func() { p.FreeState(g) }
			}
			serial = func(i int) func() uint64 { g := start[i]; return g.Urand64 }
		case pool1024:
			p := must(NewXorShift1024PoolSize(space, 77, states))
			start := make([]XorShift1024, states)
			for i := range start {
				start[i] = p.GetStateAt(i)
			}
			get = func() (func() uint64, int, func()) {
				g := p.GetState()
				return g.Urand64, g.Index(), func() { p.FreeState(g) }
			}
			serial = func(i int) func() uint64 { g := start[i]; return g.Urand64 }
		}
		var holders [states]int32
		var mu sync.Mutex
		seen := map[uint64]int{}
		var wg sync.WaitGroup
		errc := make(chan error, workers)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range rounds {
					draw, id, free := get()
					mu.Lock()
					holders[id]++
					bad := holders[id] != 1
					mu.Unlock()
					if bad {
						errc <- errors.New(kind + ": two holders of one state")
						return
					}
					var got [per]uint64
					for k := range got {
						got[k] = draw()
					}
					mu.Lock()
					holders[id]--
					for _, x := range got {
						seen[x]++
					}
					mu.Unlock()
					free()
				}
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		// The draws made are, state by state, a prefix of its sequence.
		left := len(seen)
		if left != workers*rounds*per {
			t.Fatalf("%s: %d distinct draws, want %d", kind, left, workers*rounds*per)
		}
		for i := range states {
			next := serial(i)
			for {
				x := next()
				if seen[x] != 1 {
					break
				}
				delete(seen, x)
			}
		}
		if len(seen) != 0 {
			t.Errorf("%s: %d draws are no state's serial draws in order", kind, len(seen))
		}
	}
}

// TestPoolMisuse: the panics name what was wrong; Release frees the
// states once and errs the second time.
func TestPoolMisuse(t *testing.T) {
	p := must(NewXorShift64PoolSize(kokkos.Serial{}, 1, 3))
	wantPanic(t, "random: XorShift64Pool.GetStateAt(3): index outside [0, 3)", func() { p.GetStateAt(3) })
	wantPanic(t, "random: XorShift64Pool.FreeState: the generator's state index -1 is outside [0, 3)", func() { p.FreeState(NewXorShift64(5)) })
	wantPanic(t, "random: XorShift64Pool.GetState of the zero XorShift64Pool", func() { XorShift64Pool{}.GetState() })
	wantPanic(t, "random: XorShift1024Pool.Size of the zero XorShift1024Pool", func() { XorShift1024Pool{}.Size() })
	wantPanic(t, "random: NewXorShift64PoolSize(Serial, 0 states): a pool needs at least one state", func() { NewXorShift64PoolSize(kokkos.Serial{}, 1, 0) })
	wantPanic(t, "random: NewXorShift1024: position 16 outside [0, 16)", func() { NewXorShift1024([16]uint64{1}, 16) })
	g := NewXorShift64(3)
	wantPanic(t, "random: XorShift64.UrandN(0): the range [0, 0) is empty", func() { g.UrandN(0) })
	wantPanic(t, "random: XorShift64.RandRange: start == end", func() { g.RandRange(4, 4) })
	h := NewXorShift1024([16]uint64{1}, 0)
	wantPanic(t, "random: XorShift1024.Rand64N(0): the range [0, 0) is empty", func() { h.Rand64N(0) })

	// A state taken with GetState is held until FreeState.
	q := must(NewXorShift64PoolSize(kokkos.Serial{}, 1, 1))
	a := q.GetState()
	q.FreeState(a)
	b := q.GetState()
	wantPanic(t, "kokkos: UniqueToken.Release(0): id 0 is not held", func() { q.FreeState(b); q.FreeState(b) })

	r := must(NewXorShift1024PoolSize(kokkos.Serial{}, 1, 2))
	r.Retain()
	if r.UseCount() != 2 || !r.IsAllocated() {
		t.Fatalf("after Retain: %d holders, allocated %v", r.UseCount(), r.IsAllocated())
	}
	c := r // a copy shares the states
	if err := errors.Join(r.Release(), c.Release()); err != nil {
		t.Fatal(err)
	}
	if r.IsAllocated() || c.IsAllocated() {
		t.Errorf("released pool still allocated")
	}
	wantPanic(t, `random: XorShift1024Pool.GetState: the pool's states "Kokkos::Random_XorShift1024::state" were released`, func() { c.GetState() })
	if err := r.Release(); !errors.Is(err, kokkos.ErrReleased) {
		t.Errorf("third Release: %v, want ErrReleased", err)
	}
}
