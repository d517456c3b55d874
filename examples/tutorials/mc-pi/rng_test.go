package main

import "testing"

// TestPoolStates draws from the states of a pool of 4 seeded with the
// tutorial's seed, against Kokkos 4.6.1's own figures (the first urand64,
// drand, urand and rand of each state).
func TestPoolStates(t *testing.T) {
	want := []struct {
		u64 uint64
		d   float64
		u   uint32
		r   int32
	}{
		{18131587140662445806, 0.96995494404846727, 95960892, 1303035064},
		{17285100180709636710, 0.81597433324298418, 4035770804, 1519046764},
		{2710373335213185023, 0.52464270733024609, 105945231, 1247752398},
		{11674938058208233420, 0.64623388603355625, 2748731866, 2134022793},
	}
	for i, s := range PoolStates(5374857, 4) {
		g := NewXorShift64(s).Next()
		u64 := g.Urand64()
		g = g.Next()
		d := g.Drand()
		g = g.Next()
		u := g.Urand()
		g = g.Next()
		r := g.Rand()
		if u64 != want[i].u64 || d != want[i].d || u != want[i].u || r != want[i].r {
			t.Errorf("state %d: %d %v %d %d, Kokkos %d %v %d %d", i, u64, d, u, r, want[i].u64, want[i].d, want[i].u, want[i].r)
		}
	}
	if got := NewXorShift64(0).Next().Urand64(); got != 3724872699576780832 {
		t.Errorf("a zero state's first urand64 is %d, Kokkos's 3724872699576780832", got)
	}
}
