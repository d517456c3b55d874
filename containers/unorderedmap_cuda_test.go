package containers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
)

// TestUnorderedMapCUDA copies a map filled on the host to CUDA memory,
// rehashes and clears it there, and copies it back; in pinned and
// unified memory the host methods work on it directly.
func TestUnorderedMapCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	r := rand.New(rand.NewPCG(31, 32))
	h := kokkos.Must(containers.NewUnorderedMap[uint64, float64]("h", 2000))
	model := map[uint64]float64{}
	for range 1500 {
		k, v := r.Uint64N(5000), r.Float64()
		if h.Insert(k, v).Success() {
			model[k] = v
		}
	}
	check := func(where string, m containers.UnorderedMap[uint64, float64]) {
		t.Helper()
		back := kokkos.Must(containers.NewUnorderedMap[uint64, float64]("back", 0))
		containers.DeepCopyUnorderedMap(back, m)
		if int(back.Size()) != len(model) {
			t.Fatalf("%s: size %d, want %d", where, back.Size(), len(model))
		}
		for k, v := range model {
			if x := back.Find(k); x == containers.UnorderedMapInvalidIndex || back.ValueAt(x) != v {
				t.Fatalf("%s: key %d at %d", where, k, x)
			}
		}
	}
	for _, space := range []kokkos.MemorySpace{cuda.Space, cuda.HostPinnedSpace, cuda.UVMSpace} {
		d, err := containers.NewUnorderedMap[uint64, float64]("d", 100, kokkos.InSpace(space))
		if err != nil {
			t.Fatal(err)
		}
		containers.DeepCopyUnorderedMap(d, h)
		if d.Space() != space || d.Capacity() != h.Capacity() || int(d.Size()) != len(model) || d.FailedInsert() {
			t.Fatalf("%s: space %s, capacity %d, size %d, failed %v", space.Name(), d.Space().Name(), d.Capacity(), d.Size(), d.FailedInsert())
		}
		check(space.Name()+" copy", d)
		if err := d.Rehash(6000); err != nil {
			t.Fatal(err)
		}
		check(space.Name()+" rehashed", d)
		if space.HostAccessible() {
			k := uint64(1 << 40)
			if !d.Insert(k, 2.5).Success() || d.ValueAt(d.Find(k)) != 2.5 {
				t.Fatalf("%s: a host insert into host-accessible memory", space.Name())
			}
			model[k] = 2.5
			check(space.Name()+" after a host insert", d)
			delete(model, k)
		} else if msg := catchPanic(func() { d.Find(1) }); !strings.Contains(msg, `UnorderedMap "d": Find on the host of a map in `+space.Name()) {
			t.Fatalf("%s: Find on the host: %s", space.Name(), msg)
		}
		d.Clear()
		if d.Size() != 0 || d.FailedInsert() {
			t.Fatalf("%s: after Clear: size %d", space.Name(), d.Size())
		}
		if err := d.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

func catchPanic(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
		}
	}()
	f()
	return "no panic"
}
