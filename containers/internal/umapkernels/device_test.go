package umapkernels

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/kernel"
)

// A device is where the device tests launch: an instance and its memory.
type device struct {
	exec  kokkos.ExecutionSpace
	space kokkos.MemorySpace
}

// toDevice copies host view h to a new view in d's memory.
func toDevice[T any](t *testing.T, d device, h kokkos.View1[T]) kokkos.View1[T] {
	t.Helper()
	v := kokkos.Must(kokkos.NewView1[T](h.Label(), h.Extent(0), kokkos.InSpace(d.space)))
	if err := kokkos.DeepCopy(&v, &h); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Release() })
	return v
}

// toHost copies view v to a new host view.
func toHost[T any](t *testing.T, v kokkos.View1[T]) kokkos.View1[T] {
	t.Helper()
	h := kokkos.Must(kokkos.NewView1[T](v.Label(), v.Extent(0)))
	if err := kokkos.DeepCopy(&h, &v); err != nil {
		t.Fatal(err)
	}
	return h
}

// hostCopy returns a copy of m in HostSpace.
func hostCopy[K comparable, V any](m containers.UnorderedMap[K, V]) containers.UnorderedMap[K, V] {
	h := kokkos.Must(containers.NewUnorderedMap[K, V]("copy", 0))
	containers.DeepCopyUnorderedMap(h, m)
	return h
}

// sameMaps fails unless a and b hold the same entries at the same
// indices.
func sameMaps[K, V comparable](t *testing.T, where string, a, b containers.UnorderedMap[K, V]) {
	t.Helper()
	if a.Capacity() != b.Capacity() || a.Size() != b.Size() || a.FailedInsert() != b.FailedInsert() {
		t.Fatalf("%s: capacity %d and %d, size %d and %d, failed %v and %v", where, a.Capacity(), b.Capacity(), a.Size(), b.Size(), a.FailedInsert(), b.FailedInsert())
	}
	for i := range a.Capacity() {
		if a.ValidAt(i) != b.ValidAt(i) || a.ValidAt(i) && (a.KeyAt(i) != b.KeyAt(i) || a.ValueAt(i) != b.ValueAt(i)) {
			t.Fatalf("%s: index %d differs", where, i)
		}
	}
}

// deviceKernels runs the kernels on d against the same kernels on the
// Serial host space, which inserts in the same order as a device of one
// thread: with fakeOrder the maps must then be the same, index for index;
// otherwise (a GPU) they must hold the same entries.
func deviceKernels(t *testing.T, d device, fakeOrder bool) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		n, hint int
	}{{5000, 5000}, {3000, 1000}, {200, 0}} {
		n := tc.n
		ids := randomIDs(r, n)
		dids := toDevice(t, d, ids)
		m := kokkos.Must(containers.NewUnorderedMap[uint64, int32]("dm", tc.hint, kokkos.InSpace(d.space)))
		t.Cleanup(func() { _ = m.Release() })
		h := kokkos.Must(containers.NewUnorderedMap[uint64, int32]("hm", tc.hint))
		failed, err := kernel.Reduce("insert", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Insert, dids.ReadOnly(), m)
		if err != nil {
			t.Fatal(err)
		}
		hfailed, err := kernel.Reduce("insert", kokkos.Range(0, n).On(kokkos.Serial{}), kokkos.Sum[int](), Insert, ids.ReadOnly(), h)
		if err != nil {
			t.Fatal(err)
		}
		back := hostCopy(m)
		if fakeOrder {
			if failed != hfailed {
				t.Fatalf("n %d, hint %d: %d inserts failed, %d on the host", n, tc.hint, failed, hfailed)
			}
			sameMaps(t, "Insert", back, h)
		} else {
			distinct := map[uint64]bool{}
			for i := range n {
				distinct[ids.At(i)] = true
			}
			if back.FailedInsert() != (failed > 0) || failed == 0 && int(back.Size()) != len(distinct) || int(back.Size()) > len(distinct) {
				t.Fatalf("n %d, hint %d: %d failed, size %d of %d ids, FailedInsert %v", n, tc.hint, failed, back.Size(), len(distinct), back.FailedInsert())
			}
		}
		// Every entry is an id at the index its value names.
		for i := range back.Capacity() {
			if back.ValidAt(i) && ids.At(int(back.ValueAt(i))) != back.KeyAt(i) {
				t.Fatalf("index %d: key %d, value %d", i, back.KeyAt(i), back.ValueAt(i))
			}
		}
		probe := kokkos.Must(kokkos.NewView1[uint64]("probe", 2*n))
		for i := range 2 * n {
			if i < n {
				probe.Set(i, ids.At(i))
			} else {
				probe.Set(i, r.Uint64()|1)
			}
		}
		dprobe := toDevice(t, d, probe)
		out := kokkos.Must(kokkos.NewView1[int32]("out", 2*n, kokkos.InSpace(d.space)))
		found := kokkos.Must(kokkos.NewView1[int32]("found", 2*n, kokkos.InSpace(d.space)))
		if err := kernel.For("find", kokkos.Range(0, 2*n).On(d.exec), Find, dprobe.ReadOnly(), m, out, found); err != nil {
			t.Fatal(err)
		}
		hout, hfound := toHost(t, out), toHost(t, found)
		for i := range 2 * n {
			x := back.Find(probe.At(i))
			want, wf := int32(-1), int32(0)
			if x != containers.UnorderedMapInvalidIndex {
				want, wf = back.ValueAt(x), 1
			}
			if hout.At(i) != want || hfound.At(i) != wf {
				t.Fatalf("Find(probe(%d)): %d, %d; want %d, %d", i, hout.At(i), hfound.At(i), want, wf)
			}
		}
		walked, err := kernel.Reduce("walk", kokkos.Range(0, int(m.Capacity())+5).On(d.exec), kokkos.Sum[int](), Walk, dids.ReadOnly(), m)
		if err != nil || walked != int(back.Size()) {
			t.Fatalf("Walk: %d, size %d; %v", walked, back.Size(), err)
		}
		_ = out.Release()
		_ = found.Release()
	}

	// A set, inserted into twice per index.
	const n = 4000
	keys := kokkos.Must(kokkos.NewView1[uint32]("keys", n))
	model := map[uint32]bool{}
	for i := range n {
		keys.Set(i, uint32(r.IntN(3000))*2)
		model[keys.At(i)], model[keys.At(i)+1] = true, true
	}
	s := kokkos.Must(containers.NewUnorderedSet[uint32]("ds", 2*n, kokkos.InSpace(d.space)))
	t.Cleanup(func() { _ = s.Release() })
	hs := kokkos.Must(containers.NewUnorderedSet[uint32]("hs", 2*n))
	dkeys := toDevice(t, d, keys)
	existing, err := kernel.Reduce("mark", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Mark, dkeys.ReadOnly(), s)
	if err != nil {
		t.Fatal(err)
	}
	hexisting, _ := kernel.Reduce("mark", kokkos.Range(0, n).On(kokkos.Serial{}), kokkos.Sum[int](), Mark, keys.ReadOnly(), hs)
	sback := hostCopy(s)
	if int(sback.Size()) != len(model) || existing != hexisting {
		t.Fatalf("set: size %d, want %d; %d existing, %d on the host", sback.Size(), len(model), existing, hexisting)
	}
	for k := range model {
		if !sback.Exists(k) {
			t.Fatalf("set: %d missing", k)
		}
	}
	if fakeOrder {
		sameMaps(t, "Mark", sback, hs)
	}

	// Float values, an insert's index, a second insert of the same key.
	ik := kokkos.Must(kokkos.NewView1[int32]("ik", n))
	for i := range n {
		ik.Set(i, r.Int32N(500)-250)
	}
	fm := kokkos.Must(containers.NewUnorderedMap[int32, float64]("fm", 600, kokkos.InSpace(d.space)))
	t.Cleanup(func() { _ = fm.Release() })
	at := kokkos.Must(kokkos.NewView1[uint32]("at", n, kokkos.InSpace(d.space)))
	t.Cleanup(func() { _ = at.Release() })
	dik := toDevice(t, d, ik)
	freed, err := kernel.Reduce("where", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Where, dik.ReadOnly(), fm, at)
	if err != nil || freed != 0 {
		t.Fatalf("Where: %d freed; %v", freed, err)
	}
	fback, hat := hostCopy(fm), toHost(t, at)
	for i := range n {
		x := hat.At(i)
		if fback.Find(ik.At(i)) != x || !fback.ValidAt(x) || ik.At(int(fback.ValueAt(x)*2)) != ik.At(i) {
			t.Fatalf("Where(%d): index %d, key %d", i, x, ik.At(i))
		}
	}
}

// deviceCount runs Count on d: each key's value is the number of its
// occurrences (InsertOp with UnorderedMapAtomicAdd), as on the host.
func deviceCount(t *testing.T, d device) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 20000
	keys := kokkos.Must(kokkos.NewView1[int64]("keys", n))
	model := map[int64]uint32{}
	for i := range n {
		keys.Set(i, r.Int64N(3000)-1500)
		model[keys.At(i)]++
	}
	m := kokkos.Must(containers.NewUnorderedMap[int64, uint32]("counts", 4000, kokkos.InSpace(d.space)))
	t.Cleanup(func() { _ = m.Release() })
	dkeys := toDevice(t, d, keys)
	added, err := kernel.Reduce("count", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Count, dkeys.ReadOnly(), m)
	if err != nil || added != len(model) {
		t.Fatalf("Count: %d keys added, want %d; %v", added, len(model), err)
	}
	back := hostCopy(m)
	if int(back.Size()) != len(model) {
		t.Fatalf("Count: size %d, want %d", back.Size(), len(model))
	}
	for k, c := range model {
		if x := back.Find(k); x == containers.UnorderedMapInvalidIndex || back.ValueAt(x) != c {
			t.Fatalf("Count: key %d at %d, want count %d", k, x, c)
		}
	}
}

// deviceErase checks that the erase phase reaches d's kernels: between
// BeginErase and EndErase every insert fails, without FailedInsert.
func deviceErase(t *testing.T, d device) {
	r := rand.New(rand.NewPCG(15, 16))
	const n = 500
	ids := randomIDs(r, n)
	dids := toDevice(t, d, ids)
	m := kokkos.Must(containers.NewUnorderedMap[uint64, int32]("erase", n, kokkos.InSpace(d.space)))
	t.Cleanup(func() { _ = m.Release() })
	m.BeginErase()
	failed, err := kernel.Reduce("insert", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Insert, dids.ReadOnly(), m)
	if err != nil || failed != n || m.Size() != 0 || m.FailedInsert() {
		t.Fatalf("inserts while erasable: %d of %d failed, size %d, FailedInsert %v; %v", failed, n, m.Size(), m.FailedInsert(), err)
	}
	m.EndErase()
	failed, err = kernel.Reduce("insert", kokkos.Range(0, n).On(d.exec), kokkos.Sum[int](), Insert, dids.ReadOnly(), m)
	if err != nil || failed != 0 || m.Size() == 0 {
		t.Fatalf("inserts after EndErase: %d failed, size %d; %v", failed, m.Size(), err)
	}
}

// TestKernelsFakeDevice runs the kernels from the description on the
// fake device, over maps in its memory.
func TestKernelsFakeDevice(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	deviceKernels(t, device{fake.Executor(), fake}, true)
	deviceCount(t, device{fake.Executor(), fake})
	deviceErase(t, device{fake.Executor(), fake})
}

// TestKernelsCountHost runs Count on the host pool and on Serial.
func TestKernelsCountHost(t *testing.T) {
	deviceCount(t, device{nil, kokkos.HostSpace})
	deviceCount(t, device{kokkos.Serial{}, kokkos.HostSpace})
	deviceErase(t, device{nil, kokkos.HostSpace})
}
