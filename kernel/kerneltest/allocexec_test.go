package kerneltest

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

// A view initialized on an instance (kokkos.WithExec) over memory that
// held random bytes: a kernel launched on the same instance afterwards
// reads zeros. On an asynchronous Threads instance the instance is busy
// when the view is made, so the fill and the kernel are both queued; the
// fake device's executor and a CUDA stream run the fill in their order.
func TestWithExecKernelAfterInit(t *testing.T) {
	const n = 1003
	rng := rand.New(rand.NewPCG(9, 10))
	dirty := func(host bool) *backendtest.Fake {
		f := backendtest.FakeDevice(host)
		f.SetGarbage(func(b []byte) {
			for i := range b {
				b[i] = byte(rng.IntN(255) + 1)
			}
		})
		return f
	}
	pool := kokkos.NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	inst := pool.NewInstance()
	fake := dirty(false)
	ws := []where{
		{"threads instance", inst, dirty(true)},
		{"fake", fake.ExecutionSpace().(kokkos.ExecutionSpace), fake},
	}
	if err := cuda.Available(); err != nil {
		t.Run("cuda", func(t *testing.T) { t.Skipf("CUDA unavailable: %v", err) })
	} else {
		st, err := cuda.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Release() })
		ws = append(ws, where{"cuda", st, cuda.Space})
	}
	c := randView1(t, rng, "c", n)
	for _, w := range ws {
		// made before the instance is blocked: DeepCopy waits for it
		x, _ := kokkos.NewView1[float64]("x", n, kokkos.InSpace(w.mem))
		keep(t, &x)
		cw := at(t, w, c, kokkos.CreateMirror)
		release := func() {}
		if w.space == kokkos.ExecutionSpace(inst) {
			ch := make(chan struct{})
			inst.Submit("block", func() { <-ch })
			release = func() { close(ch) }
			t.Cleanup(func() {
				select {
				case <-ch:
				default:
					close(ch)
				}
			})
		}
		b, err := kokkos.NewView1[float64]("b", n, kokkos.InSpace(w.mem), kokkos.WithExec(w.space))
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		keep(t, &b)
		if err := kernel.For("triad", kokkos.Range(0, n).On(w.space), Triad, x, b, cw, 0.5); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		release()
		fence(t, w)
		got, _ := kokkos.CreateMirrorViewAndCopy(x)
		for i := range n {
			if want := 0.5 * c.At(i); got.At(i) != want {
				t.Fatalf("%s: x(%d) = %v, want %v: the kernel read b before its fill", w.name, i, got.At(i), want)
			}
		}
	}
}
