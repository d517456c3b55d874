package containers

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUnorderedMapKeyBitsBySize checks Find, Exists and Insert against a
// Go map keyed by the keys' bits, for keys of 4 and 8 bytes with and
// without floats (compared by their bits: NaNs and both zeros included)
// and of other sizes.
func TestUnorderedMapKeyBitsBySize(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	f32 := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), math.Float32frombits(0x7fc00001), 1.5, -2}
	checkKeyBits(t, "float32", r, func(x uint64) float32 {
		if x%3 == 0 {
			return f32[x%uint64(len(f32))]
		}
		return float32(x) / 7
	}, func(k float32) uint64 { return uint64(math.Float32bits(k)) })
	checkKeyBits(t, "[2]float32", r, func(x uint64) [2]float32 { return [2]float32{f32[x%uint64(len(f32))], float32(x / 6)} },
		func(k [2]float32) uint64 { return uint64(math.Float32bits(k[0])) | uint64(math.Float32bits(k[1]))<<32 })
	checkKeyBits(t, "uint32", r, func(x uint64) uint32 { return uint32(x * 0x9e3779b9) }, func(k uint32) uint64 { return uint64(k) })
	checkKeyBits(t, "int64", r, func(x uint64) int64 { return -int64(x) << 40 }, func(k int64) uint64 { return uint64(k) })
	checkKeyBits(t, "int16", r, func(x uint64) int16 { return int16(x) - 500 }, func(k int16) uint64 { return uint64(uint16(k)) })
	checkKeyBits(t, "[3]float32", r, func(x uint64) [3]float32 { return [3]float32{f32[x%uint64(len(f32))], float32(x), 0} },
		func(k [3]float32) uint64 {
			return uint64(math.Float32bits(k[0])) | uint64(math.Float32bits(k[1]))<<32 ^ bits.RotateLeft64(uint64(math.Float32bits(k[2])), 17)
		})
}

// checkKeyBits inserts keys made by key (bits gives a key's identity,
// unique for the keys made), then finds each and some absent ones.
func checkKeyBits[K comparable](t *testing.T, name string, r *rand.Rand, key func(uint64) K, keyBits func(K) uint64) {
	t.Helper()
	m, err := NewUnorderedMap[K, int32](name, 600)
	if err != nil {
		t.Fatal(err)
	}
	model := map[uint64]int32{}
	for i := range 500 {
		k := key(r.Uint64N(400))
		res := m.InsertOp(k, 1, UnorderedMapAtomicAdd[int32]{})
		_, had := model[keyBits(k)]
		if res.Failed() || res.Success() == had || res.Existing() != had {
			t.Fatalf("%s: insert %d of %v: %v, in the model %v", name, i, k, res, had)
		}
		model[keyBits(k)]++
		if m.KeyAt(res.Index()) != k && keyBits(m.KeyAt(res.Index())) != keyBits(k) {
			t.Fatalf("%s: KeyAt(%d) = %v, want %v", name, res.Index(), m.KeyAt(res.Index()), k)
		}
	}
	if int(m.Size()) != len(model) {
		t.Fatalf("%s: size %d, want %d", name, m.Size(), len(model))
	}
	for range 800 {
		k := key(r.Uint64N(800))
		want, ok := model[keyBits(k)]
		i := m.Find(k)
		if ok != (i != UnorderedMapInvalidIndex) || ok != m.Exists(k) {
			t.Fatalf("%s: Find(%v) = %d, Exists %v; in the model %v", name, k, i, m.Exists(k), ok)
		}
		if ok && (m.ValueAt(i) != want || *m.ValuePtr(i) != want || keyBits(m.KeyAt(i)) != keyBits(k)) {
			t.Fatalf("%s: at %d: key %v value %d, want %v %d", name, i, m.KeyAt(i), m.ValueAt(i), k, want)
		}
	}
}

// TestUnorderedMapAccessPanics checks the panics of the accessors that
// inline: an error value whose message names the map and the index.
func TestUnorderedMapAccessPanics(t *testing.T) {
	var zero UnorderedMap[uint64, int32]
	m, _ := NewUnorderedMap[uint64, int32]("acc", 10)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"zero key", func() { zero.KeyAt(0) }, "UnorderedMap.KeyAt of the zero UnorderedMap"},
		{"zero value", func() { zero.ValueAt(0) }, "UnorderedMap.ValueAt of the zero UnorderedMap"},
		{"zero ptr", func() { zero.ValuePtr(0) }, "UnorderedMap.ValuePtr of the zero UnorderedMap"},
		{"zero valid", func() { zero.ValidAt(0) }, "UnorderedMap.ValidAt of the zero UnorderedMap"},
		{"zero op", func() { zero.InsertOp(1, 1, nil) }, "UnorderedMap.InsertOp of the zero UnorderedMap"},
		{"zero key insert", func() { zero.InsertKey(1) }, "UnorderedMap.InsertKey of the zero UnorderedMap"},
		{"zero exists", func() { zero.Exists(1) }, "UnorderedMap.Exists of the zero UnorderedMap"},
		{"value range", func() { m.ValueAt(128) }, `UnorderedMap "acc": ValueAt(128): index out of range [0, 128)`},
		{"key invalid", func() { m.KeyAt(UnorderedMapInvalidIndex) }, `UnorderedMap "acc": KeyAt(UnorderedMapInvalidIndex): the index of an absent key or a failed insert (capacity 128)`},
		{"busy op", func() {
			op := "Clear"
			m.s.busy.Store(&op)
			defer m.s.busy.Store(nil)
			m.InsertOp(1, 1, nil)
		}, `UnorderedMap "acc": Insert during Clear`},
	} {
		got := catch(c.f)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: panic %q, want it to contain %q", c.name, got, c.want)
		}
	}
	func() {
		defer func() {
			if err, ok := recover().(error); !ok || !strings.Contains(err.Error(), "ValueAt(4096)") {
				t.Errorf("ValueAt(4096): panic value %v, want an error", err)
			}
		}()
		m.ValueAt(4096)
	}()
	m.Insert(5, 5)
	if i := m.Find(5); !m.ValidAt(i) || m.ValidAt(128) || m.ValidAt(1<<20) || m.ValidAt(UnorderedMapInvalidIndex) {
		t.Errorf("ValidAt at and above the capacity")
	}
}

// BenchmarkUnorderedMap times Insert and Find of the tutorial's ids (the
// bytes of ^i reversed) into a map of 1<<20 entries from one goroutine.
func BenchmarkUnorderedMap(b *testing.B) {
	const n = 1 << 20
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = bits.ReverseBytes64(uint64(int64(^int32(i))))
	}
	m, err := NewUnorderedMap[uint64, int32]("bench", n)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Insert", func(b *testing.B) {
		for j := 0; j < b.N; j++ {
			i := j % n
			if i == 0 {
				b.StopTimer()
				m.Clear()
				b.StartTimer()
			}
			if m.Insert(ids[i], int32(i)).Failed() {
				b.Fatal("insert failed")
			}
		}
	})
	m.Clear()
	for i, id := range ids {
		m.Insert(id, int32(i))
	}
	b.Run("Find", func(b *testing.B) {
		errs := 0
		for j := 0; j < b.N; j++ {
			i := j % n
			x := m.Find(ids[i])
			if !m.ValidAt(x) || m.ValueAt(x) != int32(i) {
				errs++
			}
		}
		if errs != 0 {
			b.Fatal(errs, "ids not found")
		}
	})
}
