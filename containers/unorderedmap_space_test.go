package containers

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// TestUnorderedMapHostAccessibleSpace fills a map whose arrays are views
// in a space the host can access, through the host methods, and checks it
// against a Go map, across Rehash, Clear and an erase phase.
func TestUnorderedMapHostAccessibleSpace(t *testing.T) {
	fake := backendtest.FakeDevice(true)
	m, err := NewUnorderedMap[uint64, int32]("hmap", 500, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := m.Release(); err != nil {
			t.Error(err)
		}
		if n := fake.Blocks(); n != 0 {
			t.Errorf("%d blocks left after Release", n)
		}
	}()
	if m.Space() != fake || m.Capacity() != UnorderedMapCapacity(500) || m.HashCapacity() != nextPrime(m.Capacity()) {
		t.Fatalf("space %v, capacity %d, hash capacity %d", m.Space().Name(), m.Capacity(), m.HashCapacity())
	}
	r := rand.New(rand.NewPCG(3, 9))
	model := map[uint64]int32{}
	for range 400 {
		k, v := r.Uint64N(1000)+1, r.Int32()
		if res := m.Insert(k, v); res.Failed() {
			t.Fatalf("insert %d failed", k)
		} else if res.Success() {
			model[k] = v
		}
	}
	checkModel(t, m, model, "after inserts")
	if err := m.Rehash(2000); err != nil {
		t.Fatal(err)
	}
	if m.Capacity() != UnorderedMapCapacity(2000) {
		t.Fatalf("capacity %d after Rehash(2000)", m.Capacity())
	}
	checkModel(t, m, model, "after Rehash")
	m.BeginErase()
	for k := range model {
		if k%3 == 0 {
			m.Erase(k)
			delete(model, k)
		}
	}
	m.EndErase()
	checkModel(t, m, model, "after erase")
	m.Clear()
	checkModel(t, m, map[uint64]int32{}, "after Clear")
}

// TestUnorderedMapDeviceSpace checks a map in memory the host cannot
// access: the host methods that read or write entries panic, naming the
// map and the space; Size, FailedInsert, Clear, Rehash and EndErase work
// through copies; DeepCopyUnorderedMap moves entries both ways.
func TestUnorderedMapDeviceSpace(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	d, err := NewUnorderedMap[uint64, int32]("dmap", 300, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Release(); err != nil {
			t.Error(err)
		}
		if n := fake.Blocks(); n != 0 {
			t.Errorf("%d blocks left after Release", n)
		}
	}()
	for name, f := range map[string]func(){
		"Insert":   func() { d.Insert(1, 2) },
		"Find":     func() { d.Find(1) },
		"Exists":   func() { d.Exists(1) },
		"ValidAt":  func() { d.ValidAt(0) },
		"KeyAt":    func() { d.KeyAt(0) },
		"ValueAt":  func() { d.ValueAt(0) },
		"ValuePtr": func() { d.ValuePtr(0) },
	} {
		msg := catch(f)
		if !strings.Contains(msg, `UnorderedMap "dmap": `+name+" on the host of a map in FakeDeviceSpace") || !strings.Contains(msg, "not accessible from the host") {
			t.Errorf("%s: %s", name, msg)
		}
	}
	if d.Size() != 0 || d.FailedInsert() || d.Capacity() != UnorderedMapCapacity(300) || d.HashCapacity() != nextPrime(d.Capacity()) {
		t.Fatalf("new map: size %d, failed %v, capacity %d, hash capacity %d", d.Size(), d.FailedInsert(), d.Capacity(), d.HashCapacity())
	}

	// Fill a host map, past its capacity, and copy it to the device.
	h, err := NewUnorderedMap[uint64, int32]("host", 100)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 1))
	model := map[uint64]int32{}
	for range 300 {
		k, v := r.Uint64()|1, r.Int32()
		if h.Insert(k, v).Success() {
			model[k] = v
		}
	}
	if !h.FailedInsert() {
		t.Fatal("no insert failed in a map of capacity 128 given 300 keys")
	}
	DeepCopyUnorderedMap(d, h)
	if d.Capacity() != h.Capacity() || d.Size() != uint32(len(model)) || !d.FailedInsert() {
		t.Fatalf("copy: capacity %d (want %d), size %d (want %d), failed %v", d.Capacity(), h.Capacity(), d.Size(), len(model), d.FailedInsert())
	}
	d.ResetFailedInsert()
	if d.FailedInsert() {
		t.Fatal("FailedInsert after ResetFailedInsert")
	}
	if err := d.Rehash(1000); err != nil {
		t.Fatal(err)
	}
	if d.Capacity() != UnorderedMapCapacity(1000) || d.Size() != uint32(len(model)) {
		t.Fatalf("after Rehash(1000): capacity %d, size %d", d.Capacity(), d.Size())
	}
	back, err := NewUnorderedMap[uint64, int32]("back", 0)
	if err != nil {
		t.Fatal(err)
	}
	DeepCopyUnorderedMap(back, d)
	checkModel(t, back, model, "device map after Rehash, copied back")

	// An erase phase on the host copy, copied to the device, ended there.
	back.BeginErase()
	for k := range model {
		if k%4 == 1 {
			back.Erase(k)
			delete(model, k)
		}
	}
	DeepCopyUnorderedMap(d, back)
	if !d.Erasable() || !d.EndErase() || d.Erasable() {
		t.Fatal("the erase phase did not carry over to the device map, or did not end")
	}
	DeepCopyUnorderedMap(back, d)
	checkModel(t, back, model, "device map after EndErase, copied back")
	for range 50 { // the erased indices are free again
		k, v := r.Uint64()|1, r.Int32()
		if back.Insert(k, v).Success() {
			model[k] = v
		}
	}
	checkModel(t, back, model, "host copy after more inserts")

	d.Clear()
	if d.Size() != 0 || d.FailedInsert() {
		t.Fatalf("after Clear: size %d, failed %v", d.Size(), d.FailedInsert())
	}
	DeepCopyUnorderedMap(back, d)
	checkModel(t, back, map[uint64]int32{}, "device map after Clear, copied back")
}

// TestUnorderedSetDeviceSpace copies a set (no values) to a space and
// back.
func TestUnorderedSetDeviceSpace(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	d, err := NewUnorderedSet[pairKey]("dset", 50, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	h, _ := NewUnorderedSet[pairKey]("hset", 50)
	model := map[pairKey]struct{}{}
	r := rand.New(rand.NewPCG(8, 8))
	for range 40 {
		k := pairKey{r.Int32N(10), float32(r.IntN(5))}
		h.InsertKey(k)
		model[k] = struct{}{}
	}
	DeepCopyUnorderedMap(d, h)
	if err := d.Rehash(200); err != nil {
		t.Fatal(err)
	}
	back, _ := NewUnorderedSet[pairKey]("back", 0)
	DeepCopyUnorderedMap(back, d)
	checkModel(t, back, model, "set copied back")
}

// TestUnorderedMapSpaceRefusals checks the options NewUnorderedMap
// refuses and the panics after Release.
func TestUnorderedMapSpaceRefusals(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	if _, err := NewUnorderedMap[int32, int32]("m", 10, kokkos.InSpace(fake), kokkos.WithTraits(kokkos.Atomic)); !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), `NewUnorderedMap("m")`) {
		t.Fatalf("traits: %v", err)
	}
	m, err := NewUnorderedMap[int32, int32]("m", 10, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	if msg := catch(func() { m.Size() }); !strings.Contains(msg, `UnorderedMap "m": Size after Release`) {
		t.Fatal(msg)
	}
	if msg := catch(func() { m.Insert(1, 1) }); !strings.Contains(msg, `UnorderedMap "m": Insert after Release`) {
		t.Fatal(msg)
	}
	if fake.Blocks() != 0 {
		t.Fatalf("%d blocks left", fake.Blocks())
	}
	// A map in HostSpace given as an option is an ordinary one.
	h, err := NewUnorderedMap[int32, int32]("h", 10, kokkos.InSpace(kokkos.HostSpace))
	if err != nil || h.Space() != kokkos.HostSpace || !h.Insert(3, 4).Success() || h.Release() != nil {
		t.Fatalf("HostSpace map: %v", err)
	}
}

// TestUnorderedMapHashKernelIR checks that kernelir's hash, which the
// descriptions of kernels run, is the host's: a map filled by a kernel on
// a device is then read on the host.
func TestUnorderedMapHashKernelIR(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 1000 {
		u := r.Uint64()
		f32, f64 := math.Float32frombits(uint32(u)), math.Float64frombits(u)
		for _, c := range []struct {
			t    kernelir.Type
			bits uint64
			host uint32
		}{
			{kernelir.Uint8, u & 0xff, hashOf(uint8(u))},
			{kernelir.Int16, uint64(int64(int16(u))), hashOf(int16(u))},
			{kernelir.Uint32, u & 0xffffffff, hashOf(uint32(u))},
			{kernelir.Int32, uint64(int64(int32(u))), hashOf(int32(u))},
			{kernelir.Int64, u, hashOf(int64(u))},
			{kernelir.Int, u, hashOf(int(u))},
			{kernelir.Float32, math.Float64bits(float64(f32)), hashOf(f32)},
			{kernelir.Float64, u, hashOf(f64)},
			{kernelir.Bool, u & 1, hashOf(u&1 == 1)},
		} {
			if got := kernelir.UMapHash(c.t, c.bits); got != c.host && !(c.t == kernelir.Float32 && math.IsNaN(float64(f32))) {
				t.Fatalf("%s %#x: kernelir's hash %#x, the host's %#x", c.t, c.bits, got, c.host)
			}
		}
	}
}
