package main

import (
	"strings"
	"testing"
)

// randomHeader starts a package whose kernels take random's pools.
const randomHeader = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/random"
)

var _ kokkos.View1[float64]
var _ random.XorShift64Pool
`

// TestRandomAllowed describes a kernel that takes a pool: its token and
// states as parameters, a generator as a local struct, its draws as
// helper methods, and the helpers of the generators joining the
// package's; the host kernel calls random's methods as written.
func TestRandomAllowed(t *testing.T) {
	src := randomHeader + `
//kokkos:kernel
func Fill(i int, pool random.XorShift1024Pool, a kokkos.View1[float64], k int32) {
	g := pool.GetState()
	a.Set(i, g.DrandRange(-1, 2)+float64(g.RandN(k)))
	pool.FreeState(g)
}
`
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	_, irs := describeAll(t, p, true)
	want := "(kernel Fill for (index i) (token gkrtok_pool) (view gkrstates_pool uint64 2 w) (view a float64 1 w) (scalar k int32) (body " +
		"(assign ((new g kokkosRandomXorShift1024)) ((call kokkosRandomLoad1024 gkrstates_pool (acquire gkrtok_pool)))) " +
		"(assign ((at a i)) ((add float64 (call gkm_kokkosRandomXorShift1024_DrandRange (addr g) (float64 -1) (float64 2)) (conv float64 (call gkm_kokkosRandomXorShift1024_RandN (addr g) k))))) " +
		"(block (do (call kokkosRandomStore1024 gkrstates_pool g)) (do (release gkrtok_pool (field g I))))))"
	got := squash(irs["Fill"])
	if i := strings.Index(got, "(kernel Fill"); i < 0 || got[i:] != want {
		t.Errorf("Fill:\n got %s\nwant %s", got, want)
	}
	for _, h := range []string{"(struct kokkosRandomXorShift1024 (S [16]uint64) (P int32) (I int))", "(func gkm_kokkosRandomXorShift1024_DrandRange ((g *kokkosRandomXorShift1024) (start float64) (end float64)) (float64)"} {
		if !strings.Contains(got, h) {
			t.Errorf("the description lacks %s:\n%s", h, got)
		}
	}
	out := generateSource(t, map[string]string{"k.go": src})
	for _, want := range []string{
		`gkrandom "github.com/gokkos/kokkos/random"`,
		"pool := gkArgs[0].(gkrandom.XorShift1024Pool)",
		"g := pool.GetState()",
		"pool.FreeState(g)",
		`Params: []gkkernel.Param{
			{Name: "pool"},`,
	} {
		if !strings.Contains(squashSpace(out), squashSpace(want)) {
			t.Errorf("the generated file lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NoDevice") {
		t.Errorf("the kernel runs on the host only:\n%s", out)
	}
}

// TestRandomRefused checks the refusal of everything but GetState,
// FreeState and the draws done with a pool and a generator, with its text
// and position.
func TestRandomRefused(t *testing.T) {
	src := randomHeader + `
//kokkos:kernel
func Bad(i int, pool random.XorShift64Pool, a kokkos.View1[int64]) {
	g := pool.GetState()
	h := g
	_ = pool.Size()
	var z random.XorShift64
	z = pool.GetState()
	a.Set(i, int64(g.State()+h.Urand64()+z.Urand64()))
	pool.FreeState(random.NewXorShift64(1))
	q := pool
	_ = q
	pool.FreeState(g)
}
`
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.Index(l, "/k.go:")+1:])
	}
	want := []string{
		"k.go:14:7: kernel Bad: the generator g as a value is not allowed in a kernel (call its draws, and give it back with FreeState)",
		"k.go:15:6: kernel Bad: a call of pool.Size is not allowed in a kernel (call only GetState and FreeState)",
		"k.go:16:8: kernel Bad: a generator of type random.XorShift64 declared so is not allowed in a kernel (take a generator with g := pool.GetState())",
		"k.go:17:6: kernel Bad: a call of pool.GetState() here is not allowed in a kernel (take a generator with g := pool.GetState())",
		"k.go:18:17: kernel Bad: a call of g.State is not allowed in a kernel (call only the draws (Urand, Urand64, Rand, Rand64, Frand, Drand, Normal and their N, Range and MeanStd forms))",
		"k.go:19:17: kernel Bad: giving back random.NewXorShift64(1) is not allowed in a kernel (give back the generator of pool.GetState(), a local variable)",
		"k.go:20:7: kernel Bad: the pool pool as a value is not allowed in a kernel (call its GetState and FreeState)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// A helper does not take a pool.
	_, err = loadSource(".", map[string]string{"k.go": randomHeader + `
//kokkos:kernel
func h(p random.XorShift64Pool) int { return 0 }
`})
	if err == nil || !strings.Contains(err.Error(), "helper parameter p has type github.com/gokkos/kokkos/random.XorShift64Pool; a helper takes scalars") {
		t.Errorf("a helper of a pool: %v", err)
	}
}
