package umapkernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// randomIDs returns a view of n random ids, some repeated.
func randomIDs(r *rand.Rand, n int) kokkos.View1[uint64] {
	ids := kokkos.Must(kokkos.NewView1[uint64]("ids", n))
	for i := range n {
		ids.Set(i, r.Uint64N(uint64(n)*3/4)*0x9e3779b97f4a7c15)
	}
	return ids
}

// TestKernelsHost inserts random ids from the Insert kernel on each host
// space, then finds them and walks the map from kernels, against a Go map.
func TestKernelsHost(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, space := range []kokkos.ExecutionSpace{nil, kokkos.Serial{}, kokkos.NewThreads(3)} {
		const n = 5000
		ids := randomIDs(r, n)
		m, err := containers.NewUnorderedMap[uint64, int32]("m", n)
		if err != nil {
			t.Fatal(err)
		}
		failed, err := kernel.Reduce("insert", kokkos.Range(0, n).On(space), kokkos.Sum[int](), Insert, ids.ReadOnly(), m)
		if err != nil || failed != 0 {
			t.Fatalf("Insert: %d failed, %v", failed, err)
		}
		// The first index of each id won: its value is some index with that id.
		first := map[uint64]bool{}
		for i := range n {
			first[ids.At(i)] = true
		}
		if int(m.Size()) != len(first) {
			t.Fatalf("size %d, %d distinct ids", m.Size(), len(first))
		}
		probe := kokkos.Must(kokkos.NewView1[uint64]("probe", 2*n))
		for i := range 2 * n {
			if i < n {
				probe.Set(i, ids.At(i))
			} else {
				probe.Set(i, r.Uint64()|1) // odd: never an id
			}
		}
		out := kokkos.Must(kokkos.NewView1[int32]("out", 2*n))
		found := kokkos.Must(kokkos.NewView1[int32]("found", 2*n))
		if err := kernel.For("find", kokkos.Range(0, 2*n).On(space), Find, probe.ReadOnly(), m, out, found); err != nil {
			t.Fatal(err)
		}
		for i := range 2 * n {
			v, f := out.At(i), found.At(i)
			if i < n {
				if f != 1 || v < 0 || ids.At(int(v)) != ids.At(i) {
					t.Fatalf("Find(ids(%d)): value %d, found %d", i, v, f)
				}
			} else if f != 0 || v != -1 {
				t.Fatalf("Find of an absent id: value %d, found %d", v, f)
			}
		}
		ok, err := kernel.Reduce("walk", kokkos.Range(0, int(m.Capacity())+7).On(space), kokkos.Sum[int](), Walk, ids.ReadOnly(), m)
		if err != nil || ok != len(first) {
			t.Fatalf("Walk: %d entries matched, want %d; %v", ok, len(first), err)
		}
	}
}

// TestKernelsOverCapacity counts failed inserts from a kernel into a map
// too small, then rehashes and inserts again.
func TestKernelsOverCapacity(t *testing.T) {
	const n = 3000
	ids := kokkos.Must(kokkos.NewView1[uint64]("ids", n))
	for i := range n {
		ids.Set(i, uint64(i)*7+1)
	}
	m, _ := containers.NewUnorderedMap[uint64, int32]("small", 1000)
	failed, err := kernel.Reduce("insert", kokkos.Range(0, n), kokkos.Sum[int](), Insert, ids.ReadOnly(), m)
	if err != nil || failed < n-int(m.Capacity()) || !m.FailedInsert() || int(m.Size()) != n-failed {
		t.Fatalf("%d failed of %d into capacity %d (size %d), FailedInsert %v; %v", failed, n, m.Capacity(), m.Size(), m.FailedInsert(), err)
	}
	if err := m.Rehash(n); err != nil {
		t.Fatal(err)
	}
	failed, err = kernel.Reduce("insert", kokkos.Range(0, n), kokkos.Sum[int](), Insert, ids.ReadOnly(), m)
	if err != nil || failed != 0 || m.Size() != n {
		t.Fatalf("after Rehash: %d failed, size %d; %v", failed, m.Size(), err)
	}
}

func TestKernelsSet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n = 2000
	a := kokkos.Must(kokkos.NewView1[int32]("a", n))
	b := kokkos.Must(kokkos.NewView1[int32]("b", n))
	want := map[Pair]bool{}
	for i := range n {
		a.Set(i, int32(r.IntN(40)))
		b.Set(i, int32(r.IntN(40)))
		want[Pair{a.At(i), b.At(i)}] = true
	}
	s, _ := containers.NewUnorderedSet[Pair]("pairs", n)
	added, err := kernel.Reduce("pairs", kokkos.Range(0, n), kokkos.Sum[int](), Pairs, a.ReadOnly(), b.ReadOnly(), s)
	if err != nil || added != len(want) || int(s.Size()) != len(want) {
		t.Fatalf("%d added, size %d, want %d; %v", added, s.Size(), len(want), err)
	}
	for p := range want {
		if !s.Exists(p) {
			t.Fatalf("%v missing", p)
		}
	}
}

// TestKernelsNoDevice checks the refusals of a device launch of a kernel
// with a map parameter: a map of struct keys has no description, and a
// map in HostSpace does not reach the device.
func TestKernelsNoDevice(t *testing.T) {
	fake := backendtest.FakeDevice(false).Executor()
	a := kokkos.Must(kokkos.NewView1[int32]("a", 4))
	s, _ := containers.NewUnorderedSet[Pair]("s", 4)
	_, err := kernel.Reduce("pairs", kokkos.Range(0, 4).On(fake), kokkos.Sum[int](), Pairs, a, a, s)
	want := "kernel umapkernels.Pairs: no description: kernels.go:60:65: kernel Pairs: the UnorderedMap parameter s has keys of type umapkernels.Pair: a device runs maps of number keys only"
	if !errors.Is(err, kernel.ErrNoDevice) || !strings.Contains(err.Error(), want) {
		t.Fatalf("device launch: %v, want ErrNoDevice saying %q", err, want)
	}
	ids := kokkos.Must(kokkos.NewView1[uint64]("ids", 4, kokkos.InSpace(fake.MemorySpace())))
	m, _ := containers.NewUnorderedMap[uint64, int32]("m", 4)
	_, err = kernel.Reduce("insert", kokkos.Range(0, 4).On(fake), kokkos.Sum[int](), Insert, ids, m)
	want = `kernel umapkernels.Insert: map m: UnorderedMap "m" is in HostSpace, which only host kernels reach`
	if !errors.Is(err, kernel.ErrArgs) || !strings.Contains(err.Error(), want) {
		t.Fatalf("device launch with a map in HostSpace: %v, want ErrArgs saying %q", err, want)
	}
}

// TestKernelsZeroMap launches a kernel with the zero map: the body's
// Insert panics, naming the method, and the launch reports it.
func TestKernelsZeroMap(t *testing.T) {
	ids := kokkos.Must(kokkos.NewView1[uint64]("ids", 4))
	var msg string
	func() {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		_, err := kernel.Reduce("insert", kokkos.Range(0, 4), kokkos.Sum[int](), Insert, ids, containers.UnorderedMap[uint64, int32]{})
		if err != nil {
			msg = err.Error()
		}
	}()
	if !strings.Contains(msg, "UnorderedMap.Insert of the zero UnorderedMap") {
		t.Fatalf("launch with the zero map: %q", msg)
	}
}
