package main

import (
	"strings"
	"testing"
)

// TestPoolHold checks that the host chunk of a kernel whose body takes a
// generator first and gives it back last takes and gives it once, around
// its loops, with the user's lines, and that the body's copies leave both
// statements out; and that the chunks of the other bodies (a return, the
// generator assigned or given back elsewhere, a statement before
// GetState, another pool's FreeState last) keep them per index.
func TestPoolHold(t *testing.T) {
	src := randomHeader + `
//kokkos:kernel
func Held(i int, pool random.XorShift64Pool, a kokkos.View1[float64], acc *float64) {
	g := pool.GetState()
	a.Set(i, g.Drand())
	*acc += g.Drand()
	pool.FreeState(g)
}

//kokkos:kernel
func Held2(i, j int, pool random.XorShift1024Pool, a kokkos.View2[float64]) {
	g := pool.GetState()
	a.Set(i, j, g.Drand())
	pool.FreeState(g)
}

//kokkos:kernel
func Returns(i int, pool random.XorShift64Pool, a kokkos.View1[float64]) {
	g := pool.GetState()
	if i == 3 {
		pool.FreeState(g)
		return
	}
	a.Set(i, g.Drand())
	pool.FreeState(g)
}

//kokkos:kernel
func Again(i int, pool random.XorShift64Pool, a kokkos.View1[float64]) {
	g := pool.GetState()
	a.Set(i, g.Drand())
	pool.FreeState(g)
	h := pool.GetState()
	a.Set(i, a.At(i)+h.Drand())
	pool.FreeState(h)
}

//kokkos:kernel
func After(i int, pool random.XorShift64Pool, a kokkos.View1[float64]) {
	a.Set(i, 1)
	g := pool.GetState()
	a.Set(i, g.Drand())
	pool.FreeState(g)
}

//kokkos:kernel
func Crossed(i int, p, q random.XorShift64Pool, a kokkos.View1[float64]) {
	g := p.GetState()
	h := q.GetState()
	a.Set(i, g.Drand()+h.Drand())
	p.FreeState(g)
	q.FreeState(h)
}
`
	out := generateSource(t, map[string]string{"k.go": src})
	held := squashSpace(binder(t, out, "Held"))
	for _, want := range []string{
		"gkAcc := *gkAccP /*line k.go:13:2*/ g := pool.GetState() /*line",
		"/*line k.go:16:2*/ pool.FreeState(g) /*line",
		"/*line k.go:13:2*/ /* g is taken once per chunk */",
		"/* and given back once per chunk */",
	} {
		if !strings.Contains(held, want) {
			t.Errorf("Held's binder lacks %q:\n%s", want, held)
		}
	}
	// The hold wraps the loops: GetState before the first, FreeState
	// after the last, and the accumulator stored after it.
	if g, l, f, s := strings.Index(held, "g := pool.GetState()"), strings.Index(held, "for i := gkLo"), strings.LastIndex(held, "pool.FreeState(g)"), strings.LastIndex(held, "*gkAccP = gkAcc"); !(g < l && l < f && f < s) {
		t.Errorf("Held's hold does not wrap its loops:\n%s", held)
	}
	if n := strings.Count(held, "pool.GetState()"); n != 1 {
		t.Errorf("Held's binder takes the generator %d times, want once:\n%s", n, held)
	}
	held2 := squashSpace(binder(t, out, "Held2"))
	if g, l := strings.Index(held2, "g := pool.GetState()"), strings.Index(held2, "for i := gkLo[0]"); g < 0 || l < 0 || g > l || strings.Count(held2, "pool.GetState()") != 2 {
		t.Errorf("Held2's tiles (in either order) do not take the generator once, before the loops:\n%s", held2)
	}
	for _, name := range []string{"Returns", "Again", "After", "Crossed"} {
		b := binder(t, out, name)
		if strings.Contains(b, "once per chunk") {
			t.Errorf("%s's chunk holds a generator:\n%s", name, b)
		}
	}
	if b := squashSpace(binder(t, out, "Returns")); !strings.Contains(b, "for i := gkLo; i < gkHi; i++ { /*line k.go:28:2*/ g := pool.GetState() if i == 3 { pool.FreeState(g) continue gkNext }") {
		t.Errorf("Returns does not take its generator per index:\n%s", b)
	}
}
