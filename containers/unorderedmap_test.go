package containers

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// pairKey is a struct key of two 4-byte numbers, as testdata's Pair.
type pairKey struct {
	A int32
	B float32
}

// key24 is a 24-byte key, hashed by bytes.
type key24 struct{ W [3]uint64 }

func splitmix(z *uint64) uint64 {
	*z += 0x9e3779b97f4a7c15
	x := *z
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func hashOf[K comparable](k K) uint32 { return hashOfKey(&k) }

// TestUnorderedMapHashKokkos compares hashKey with the pod_hash values and
// capacities Kokkos 4.6.1 printed (testdata/unorderedmap_ref.cpp).
func TestUnorderedMapHashKokkos(t *testing.T) {
	f, err := os.Open("testdata/unorderedmap_ref.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var z uint64
	var x uint64
	hashes, caps := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		want, _ := strconv.ParseUint(fs[len(fs)-1], 10, 32)
		var got uint32
		switch fs[0] + " " + fs[1] {
		case "hash u64":
			x = splitmix(&z)
			got = hashOf(x)
		case "hash u32":
			got = hashOf(uint32(x))
		case "hash u16":
			got = hashOf(uint16(x >> 40))
		case "hash b3":
			got = hashOf([3]uint8{uint8(x), uint8(x >> 8), uint8(x >> 16)})
		case "hash pair":
			got = hashOf(pairKey{int32(x >> 32), float32(int32(uint32(x))) / 1024})
		case "hash k24":
			got = hashOf(key24{[3]uint64{x, ^x, x * 3}})
		case "capacity " + fs[1]:
			hint, _ := strconv.Atoi(fs[1])
			if c := UnorderedMapCapacity(hint); uint64(c) != want {
				t.Errorf("UnorderedMapCapacity(%d) = %d, Kokkos %d", hint, c, want)
			}
			m, err := NewUnorderedMap[uint64, int]("cap", hint)
			if err != nil {
				t.Fatal(err)
			}
			if c := m.Capacity(); uint64(c) != want {
				t.Errorf("NewUnorderedMap(%d).Capacity() = %d, Kokkos %d", hint, c, want)
			}
			if h := m.HashCapacity(); h < m.Capacity() || !isPrime(uint64(h)) || !isPrime(uint64(h)) {
				t.Errorf("hint %d: HashCapacity %d: not a prime at least the capacity %d", hint, h, m.Capacity())
			}
			caps++
			continue
		default:
			t.Fatalf("unknown line %q", sc.Text())
		}
		if uint64(got) != want {
			t.Errorf("%s: hash %d, Kokkos %d", sc.Text(), got, want)
		}
		hashes++
	}
	if hashes != 48 || caps != 8 {
		t.Fatalf("read %d hashes and %d capacities, want 48 and 8", hashes, caps)
	}
	// The word paths of hashKey agree with the byte path.
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b := r.Uint64(), r.Uint64()
		if hashOf(a) != murmurBytes(unsafe.Slice((*byte)(unsafe.Pointer(&a)), 8)) {
			t.Fatalf("hash of %#x: word path differs from byte path", a)
		}
		k := [2]uint64{a, b}
		if hashOf(k) != murmurBytes(unsafe.Slice((*byte)(unsafe.Pointer(&k)), 16)) {
			t.Fatalf("hash of %#x: word path differs from byte path", k)
		}
	}
}

func TestUnorderedMapNextPrime(t *testing.T) {
	for _, c := range []struct{ n, p uint32 }{{0, 2}, {2, 2}, {3, 3}, {4, 5}, {128, 131}, {1280, 1283}, {116736, 116741}, {4294967291, 4294967291}} {
		if got := nextPrime(c.n); got != c.p {
			t.Errorf("nextPrime(%d) = %d, want %d", c.n, got, c.p)
		}
	}
}

// model is a Go map the tests compare an UnorderedMap with.
func checkModel[K comparable, V comparable](t *testing.T, m UnorderedMap[K, V], model map[K]V, where string) {
	t.Helper()
	if int(m.Size()) != len(model) {
		t.Fatalf("%s: Size %d, model %d", where, m.Size(), len(model))
	}
	seen := 0
	for i := range m.Capacity() {
		if !m.ValidAt(i) {
			continue
		}
		seen++
		k := m.KeyAt(i)
		v, ok := model[k]
		if !ok {
			t.Fatalf("%s: index %d holds key %v, which the model lacks", where, i, k)
		}
		if got := m.ValueAt(i); got != v {
			t.Fatalf("%s: key %v: value %v, model %v", where, k, got, v)
		}
		if f := m.Find(k); f != i {
			t.Fatalf("%s: Find(%v) = %d, the key is at %d", where, k, f, i)
		}
	}
	if seen != len(model) {
		t.Fatalf("%s: %d valid indices, model %d", where, seen, len(model))
	}
	for k := range model {
		if !m.Exists(k) {
			t.Fatalf("%s: Exists(%v) false", where, k)
		}
	}
}

// runModel applies random operations to an UnorderedMap and a Go map
// together and compares them after each phase. key makes a key of a small
// random number (so that keys repeat).
func runModel[K comparable](t *testing.T, seed uint64, ops int, key func(uint64) K) {
	r := rand.New(rand.NewPCG(seed, 7))
	hint := 1 + r.IntN(300)
	m, err := NewUnorderedMap[K, int64]("model", hint)
	if err != nil {
		t.Fatal(err)
	}
	model := map[K]int64{}
	keyRange := uint64(2 * m.Capacity())
	for op := range ops {
		where := fmt.Sprintf("seed %d op %d", seed, op)
		switch c := r.IntN(100); {
		case c < 50: // insert
			k, v := key(r.Uint64N(keyRange)), r.Int64N(1000)-500
			res := m.Insert(k, v)
			old, had := model[k]
			switch {
			case res.Failed():
				if had {
					t.Fatalf("%s: Insert(%v) failed, the key is in the map", where, k)
				}
				if !m.FailedInsert() {
					t.Fatalf("%s: Insert(%v) failed, FailedInsert false", where, k)
				}
				if int(m.Size()) > int(m.Capacity()) {
					t.Fatalf("%s: size %d above capacity", where, m.Size())
				}
			case res.Success():
				if had {
					t.Fatalf("%s: Insert(%v) succeeded, the key was in the map with %v", where, k, old)
				}
				model[k] = v
				if m.KeyAt(res.Index()) != k || m.ValueAt(res.Index()) != v {
					t.Fatalf("%s: Insert(%v, %v) = %v, holds %v, %v", where, k, v, res, m.KeyAt(res.Index()), m.ValueAt(res.Index()))
				}
			case res.Existing():
				if !had {
					t.Fatalf("%s: Insert(%v) existing, the key is absent", where, k)
				}
				if m.ValueAt(res.Index()) != old {
					t.Fatalf("%s: Insert(%v) existing changed the value %v to %v", where, k, old, m.ValueAt(res.Index()))
				}
			default:
				t.Fatalf("%s: result %+v neither success, existing nor failed", where, res)
			}
		case c < 65: // insert with atomic add
			k, v := key(r.Uint64N(keyRange)), r.Int64N(1000)-500
			res := m.InsertOp(k, v, UnorderedMapAtomicAdd[int64]{})
			if res.Failed() {
				if _, had := model[k]; had {
					t.Fatalf("%s: InsertOp(%v) failed, the key is in the map", where, k)
				}
				break
			}
			model[k] += v
			if got := m.ValueAt(res.Index()); got != model[k] {
				t.Fatalf("%s: InsertOp(%v, %v) = %v: value %v, model %v", where, k, v, res, got, model[k])
			}
		case c < 85: // find
			k := key(r.Uint64N(keyRange))
			i := m.Find(k)
			_, had := model[k]
			if had != (i != UnorderedMapInvalidIndex) || had != m.Exists(k) {
				t.Fatalf("%s: Find(%v) = %d, Exists %v, model has it: %v", where, k, i, m.Exists(k), had)
			}
			if had && m.ValueAt(i) != model[k] {
				t.Fatalf("%s: value of %v: %v, model %v", where, k, m.ValueAt(i), model[k])
			}
		case c < 90: // erase some keys
			checkModel(t, m, model, where+" before erase")
			if !m.BeginErase() || !m.Erasable() || m.BeginErase() {
				t.Fatalf("%s: BeginErase did not start exactly one erase phase", where)
			}
			if res := m.Insert(key(0), 1); !res.Failed() {
				t.Fatalf("%s: Insert between BeginErase and EndErase: %v", where, res)
			}
			for range r.IntN(20) {
				k := key(r.Uint64N(keyRange))
				_, had := model[k]
				if got := m.Erase(k); got != had {
					t.Fatalf("%s: Erase(%v) = %v, model has it: %v", where, k, got, had)
				}
				if m.Exists(k) || m.Erase(k) {
					t.Fatalf("%s: key %v after Erase: Exists or erased again", where, k)
				}
				delete(model, k)
			}
			if !m.EndErase() || m.EndErase() || m.Erasable() {
				t.Fatalf("%s: EndErase did not end exactly one erase phase", where)
			}
			checkModel(t, m, model, where+" after erase")
		case c < 93: // rehash
			checkModel(t, m, model, where+" before rehash")
			n := len(model) + r.IntN(3*len(model)+10)
			if r.IntN(4) == 0 {
				n = 0 // at least the size
			}
			if err := m.Rehash(n); err != nil {
				t.Fatal(err)
			}
			if m.FailedInsert() || m.Capacity() < UnorderedMapCapacity(max(n, len(model))) {
				t.Fatalf("%s: Rehash(%d): capacity %d, FailedInsert %v", where, n, m.Capacity(), m.FailedInsert())
			}
			checkModel(t, m, model, where+" after rehash")
		case c < 95: // clear
			m.Clear()
			clear(model)
			if m.FailedInsert() || m.Size() != 0 {
				t.Fatalf("%s: after Clear: size %d, FailedInsert %v", where, m.Size(), m.FailedInsert())
			}
		default:
			checkModel(t, m, model, where)
		}
	}
	checkModel(t, m, model, "end")
}

func TestUnorderedMapModel(t *testing.T) {
	for seed := range uint64(6) {
		runModel(t, seed, 3000, func(x uint64) uint64 { return x * 0x9e3779b97f4a7c15 })
		runModel(t, seed, 2000, func(x uint64) int32 { return int32(x) - 300 })
		runModel(t, seed, 2000, func(x uint64) pairKey { return pairKey{int32(x % 7), float32(x / 7)} })
		runModel(t, seed, 2000, func(x uint64) [3]uint8 { return [3]uint8{uint8(x), uint8(x >> 8), 9} })
		runModel(t, seed, 1000, func(x uint64) key24 { return key24{[3]uint64{x, x >> 2, 5}} })
	}
}

// FuzzUnorderedMap drives the model test with fuzzed seeds and key
// spreads.
func FuzzUnorderedMap(f *testing.F) {
	f.Add(uint64(1), uint16(1))
	f.Add(uint64(99), uint16(1000))
	f.Fuzz(func(t *testing.T, seed uint64, spread uint16) {
		runModel(t, seed, 400, func(x uint64) uint64 { return x * uint64(spread|1) })
	})
}

func TestUnorderedMapFloatKeysByBits(t *testing.T) {
	m, err := NewUnorderedMap[float64, int]("floats", 10)
	if err != nil {
		t.Fatal(err)
	}
	nan := func() float64 { var z float64; return z / z }()
	for i, k := range []float64{0, negZero(), nan, 1.5} {
		if r := m.Insert(k, i); !r.Success() {
			t.Fatalf("Insert(%v) = %v, want success: keys are compared by their bits", k, r)
		}
	}
	if m.Size() != 4 || !m.Exists(nan) || m.ValueAt(m.Find(negZero())) != 1 {
		t.Fatalf("size %d, Exists(NaN) %v", m.Size(), m.Exists(nan))
	}
}

func negZero() float64 { z := 0.0; return -z }

func TestUnorderedSet(t *testing.T) {
	s, err := NewUnorderedSet[int64]("set", 50)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	model := map[int64]bool{}
	for range 200 {
		k := r.Int64N(80) - 40
		res := s.InsertKey(k)
		if res.Success() == model[k] || res.Existing() != model[k] {
			t.Fatalf("InsertKey(%d) = %v, model has it: %v", k, res, model[k])
		}
		model[k] = true
	}
	if int(s.Size()) != len(model) {
		t.Fatalf("size %d, model %d", s.Size(), len(model))
	}
	for k := range int64(100) {
		if s.Exists(k-50) != model[k-50] {
			t.Fatalf("Exists(%d) = %v", k-50, s.Exists(k-50))
		}
	}
}

// TestUnorderedMapConcurrent inserts overlapping keys from many
// goroutines: each distinct key succeeds exactly once, every key is found
// with the value its successful insert gave, and the AtomicAdd form counts
// every insert.
func TestUnorderedMapConcurrent(t *testing.T) {
	const (
		goroutines = 16
		perG       = 3000
		distinct   = 20000
	)
	m, err := NewUnorderedMap[uint64, uint64]("concurrent", distinct)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := NewUnorderedMap[uint64, int64]("counts", distinct)
	if err != nil {
		t.Fatal(err)
	}
	key := func(x uint64) uint64 { return x*0x9e3779b97f4a7c15 + 12345 }
	var successes [distinct]atomic.Int32
	var inserted [distinct]atomic.Int32
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 11))
			for range perG {
				x := r.Uint64N(distinct)
				res := m.Insert(key(x), x)
				if res.Failed() {
					t.Errorf("Insert(%d) failed with capacity %d", key(x), m.Capacity())
					return
				}
				if res.Success() {
					successes[x].Add(1)
				}
				inserted[x].Add(1)
				if i := m.Find(key(x)); i != res.Index() || m.ValueAt(i) != x {
					t.Errorf("Find(%d) = %d after Insert returned %v", key(x), i, res)
					return
				}
				if res := counts.InsertOp(key(x), 1, UnorderedMapAtomicAdd[int64]{}); res.Failed() {
					t.Errorf("counts: InsertOp(%d) failed", key(x))
					return
				}
				// Finds of keys other goroutines may be inserting.
				y := r.Uint64N(distinct)
				if i := m.Find(key(y)); i != UnorderedMapInvalidIndex && m.KeyAt(i) != key(y) {
					t.Errorf("Find(%d) = %d, which holds %d", key(y), i, m.KeyAt(i))
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	n := 0
	for x := range uint64(distinct) {
		s, ins := successes[x].Load(), inserted[x].Load()
		if ins == 0 {
			if m.Exists(key(x)) {
				t.Fatalf("key %d never inserted, but exists", key(x))
			}
			continue
		}
		n++
		if s != 1 {
			t.Fatalf("key %d: %d successful inserts of %d, want 1", key(x), s, ins)
		}
		i := m.Find(key(x))
		if !m.ValidAt(i) || m.ValueAt(i) != x {
			t.Fatalf("key %d: index %d, value %d", key(x), i, m.ValueAt(i))
		}
		if c := counts.ValueAt(counts.Find(key(x))); c != int64(ins) {
			t.Fatalf("key %d: AtomicAdd count %d, inserted %d times", key(x), c, ins)
		}
	}
	if int(m.Size()) != n || int(counts.Size()) != n || m.FailedInsert() {
		t.Fatalf("sizes %d and %d, %d distinct keys inserted; FailedInsert %v", m.Size(), counts.Size(), n, m.FailedInsert())
	}
}

// TestUnorderedMapOverCapacity inserts more distinct keys than fit from
// many goroutines, checks the failures, then rehashes and inserts the
// failed keys again.
func TestUnorderedMapOverCapacity(t *testing.T) {
	const goroutines, perG = 8, 1000
	m, err := NewUnorderedMap[int32, int32]("small", 3000)
	if err != nil {
		t.Fatal(err)
	}
	capacity := m.Capacity()
	var mu sync.Mutex
	var failed []int32
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var mine []int32
			for j := range perG {
				k := int32(g*perG + j)
				res := m.Insert(k, -k)
				switch {
				case res.Failed():
					mine = append(mine, k)
				case !res.Success():
					t.Errorf("Insert(%d) of a new key: %v", k, res)
				}
			}
			mu.Lock()
			failed = append(failed, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	total := goroutines * perG
	if len(failed) < total-int(capacity) || !m.FailedInsert() {
		t.Fatalf("%d keys into capacity %d: %d failed, FailedInsert %v", total, capacity, len(failed), m.FailedInsert())
	}
	if int(m.Size()) != total-len(failed) {
		t.Fatalf("size %d, want %d inserted - %d failed", m.Size(), total, len(failed))
	}
	for _, k := range failed {
		if m.Exists(k) {
			t.Fatalf("key %d: insert failed, yet it exists", k)
		}
	}
	if err := m.Rehash(total); err != nil {
		t.Fatal(err)
	}
	if m.FailedInsert() || int(m.Size()) != total-len(failed) {
		t.Fatalf("after Rehash: size %d, FailedInsert %v", m.Size(), m.FailedInsert())
	}
	var wg2 sync.WaitGroup
	for part := range goroutines {
		wg2.Go(func() {
			for i := part; i < len(failed); i += goroutines {
				if res := m.Insert(failed[i], -failed[i]); !res.Success() {
					t.Errorf("Insert(%d) after Rehash: %v", failed[i], res)
					return
				}
			}
		})
	}
	wg2.Wait()
	if int(m.Size()) != total || m.FailedInsert() {
		t.Fatalf("size %d, want %d; FailedInsert %v", m.Size(), total, m.FailedInsert())
	}
	for k := range int32(total) {
		if i := m.Find(k); i == UnorderedMapInvalidIndex || m.ValueAt(i) != -k {
			t.Fatalf("key %d: index %d", k, i)
		}
	}
}

// TestUnorderedMapFillsCapacity inserts one key after another until one
// fails: an unbounded map (rehashed while it held entries) fills every
// index; a bounded one (new) fills at least most.
func TestUnorderedMapFillsCapacity(t *testing.T) {
	m, _ := NewUnorderedMap[uint32, struct{}]("fill", 5000)
	n := fillUntilFailure(m)
	if n < int(m.Capacity())*9/10 || n > int(m.Capacity()) {
		t.Fatalf("bounded map: %d inserts before the first failure, capacity %d", n, m.Capacity())
	}
	m.Clear()
	m.InsertKey(1)
	if err := m.Rehash(5000); err != nil {
		t.Fatal(err)
	}
	if n := fillUntilFailure(m); n != int(m.Capacity())-1 || int(m.Size()) != int(m.Capacity()) {
		t.Fatalf("unbounded map: %d inserts before the first failure, size %d, capacity %d", n, m.Size(), m.Capacity())
	}
}

func fillUntilFailure(m UnorderedMap[uint32, struct{}]) int {
	for i := 0; ; i++ {
		if m.InsertKey(uint32(i)*2654435761 + 7).Failed() {
			return i
		}
	}
}

func TestUnorderedMapInsertResult(t *testing.T) {
	m, _ := NewUnorderedMap[int, int]("result", 10)
	r1 := m.Insert(5, 50)
	r2 := m.Insert(5, 60)
	if !r1.Success() || r1.Existing() || r1.Failed() || r1.FreedExisting() {
		t.Fatalf("first insert: %+v", r1)
	}
	if r2.Success() || !r2.Existing() || r2.Failed() || r2.Index() != r1.Index() || m.ValueAt(r2.Index()) != 50 {
		t.Fatalf("second insert: %+v, value %d", r2, m.ValueAt(r2.Index()))
	}
	*m.ValuePtr(r1.Index()) = 7
	if m.ValueAt(m.Find(5)) != 7 {
		t.Fatal("ValuePtr does not point at the value")
	}
	if r1.String() == r2.String() || !strings.HasPrefix(r2.String(), "existing") {
		t.Fatalf("String: %q, %q", r1, r2)
	}
	// Keys in one hash list: ListPosition counts the entries passed.
	heads := m.HashCapacity()
	var same []int
	for k := 0; len(same) < 4; k++ {
		if hashOf(k)%heads == hashOf(0)%heads {
			same = append(same, k)
		}
	}
	m.Clear()
	for i, k := range same {
		if r := m.Insert(k, i); !r.Success() || r.ListPosition() != uint32(i) {
			t.Fatalf("Insert(%d), number %d in its list: %+v", k, i, r)
		}
	}
	if r := m.Insert(same[2], 0); r.ListPosition() != 2 {
		t.Fatalf("Insert of the third key of a list again: %+v", r)
	}
}

func TestUnorderedMapFindUnsetNear(t *testing.T) {
	s := &umapState[int, int]{}
	s.allocate(128 + 16)
	// Block 1 full, block 2 (the last, 16 bits) has bits 3 and 9 clear.
	s.used[1] = ^uint32(0)
	s.used[4] = ^uint32(1<<3 | 1<<9)
	for _, c := range []struct {
		hint, dir uint32
		found     bool
		at        uint32
	}{
		{32 + 5, 0, false, 64 + 5},
		{32 + 5, moveHintBackward, false, 5},
		{0 + 7, 0, true, 7},
		{128 + 5, 0, true, 128 + 9},
		{128 + 5, scanReverse, true, 128 + 3},
		{128 + 9, 0, true, 128 + 9},
		{128 + 10, 0, true, 128 + 3},          // wraps within the block
		{128 + 2, scanReverse, true, 128 + 9}, // backward from 1, wrapping
		{5000, 0, true, 5000 % 32},            // a hint past the end: the offset in block 0
	} {
		found, at := s.findUnsetNear(c.hint, c.dir)
		if found != c.found || at != c.at {
			t.Errorf("findUnsetNear(%d, %d) = %v, %d, want %v, %d", c.hint, c.dir, found, at, c.found, c.at)
		}
	}
	s.used[4] = 0xffff // all 16 indices of the last block
	if found, at := s.findUnsetNear(128+5, moveHintBackward); found || at != 96+5 {
		t.Errorf("full last block: %v, %d", found, at)
	}
}

func TestUnorderedMapPanics(t *testing.T) {
	var zero UnorderedMap[int, int]
	m, _ := NewUnorderedMap[int, int]("lbl", 10)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"zero", func() { zero.Insert(1, 1) }, "UnorderedMap.Insert of the zero UnorderedMap"},
		{"zero find", func() { zero.Find(1) }, "UnorderedMap.Find of the zero UnorderedMap"},
		{"key range", func() { m.KeyAt(128) }, `UnorderedMap "lbl": KeyAt(128): index out of range [0, 128)`},
		{"invalid", func() { m.ValueAt(m.Find(3)) }, `UnorderedMap "lbl": ValueAt(UnorderedMapInvalidIndex): the index of an absent key`},
		{"ptr", func() { m.ValuePtr(1 << 20) }, `ValuePtr(1048576): index out of range`},
		{"pointer key", func() { _, _ = NewUnorderedMap[*int, int]("p", 1) }, `NewUnorderedMap("p"): key type *int: *int is a ptr`},
		{"string key", func() { _, _ = NewUnorderedMap[string, int]("s", 1) }, `key type string: string is a string`},
		{"padding", func() {
			_, _ = NewUnorderedMap[struct {
				A int8
				B int32
			}, int]("pad", 1)
		}, `3 bytes of padding before field B`},
		{"tail padding", func() {
			_, _ = NewUnorderedMap[struct {
				A int64
				B int8
			}, int]("pad", 1)
		}, `7 bytes of padding after the last field`},
		{"nested", func() { _, _ = NewUnorderedMap[struct{ A [2]struct{ P *int } }, int]("n", 1) }, `field A: field P: *int is a ptr`},
		{"empty", func() { _, _ = NewUnorderedMap[struct{}, int]("e", 1) }, `has no bytes`},
		{"busy insert", func() { busy(m, "Rehash", func() { m.Insert(1, 1) }) }, `UnorderedMap "lbl": Insert during Rehash`},
		{"busy find", func() { busy(m, "Clear", func() { m.Exists(1) }) }, `UnorderedMap "lbl": Exists during Clear`},
		{"busy clear", func() { busy(m, "Rehash", m.Clear) }, `UnorderedMap "lbl": Clear during Rehash`},
		{"rehash erasing", func() {
			m.BeginErase()
			defer m.EndErase()
			_ = m.Rehash(10)
		}, `UnorderedMap "lbl": Rehash between BeginErase and EndErase`},
		{"capacity", func() { UnorderedMapCapacity(-1) }, `UnorderedMapCapacity("", -1): the capacity hint is outside`},
	} {
		got := catch(c.f)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: panic %q, want it to contain %q", c.name, got, c.want)
		}
	}
	// The panics left the map usable.
	if r := m.Insert(3, 4); !r.Success() || m.ValueAt(m.Find(3)) != 4 || m.Erasable() {
		t.Fatalf("after the panics: Insert %v, erasable %v", r, m.Erasable())
	}
}

func busy(m UnorderedMap[int, int], op string, f func()) {
	m.s.busy.Store(&op)
	defer m.s.busy.Store(nil)
	f()
}

func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return "no panic"
}

func TestUnorderedMapCapacityErrors(t *testing.T) {
	for _, hint := range []int{-1, maxUnorderedMapHint + 1, 1 << 40} {
		_, err := NewUnorderedMap[int, int]("big", hint)
		if !errors.Is(err, ErrUnorderedMapCapacity) || !strings.Contains(err.Error(), fmt.Sprintf(`NewUnorderedMap("big", %d)`, hint)) {
			t.Errorf("NewUnorderedMap(%d): %v", hint, err)
		}
	}
	if c := UnorderedMapCapacity(maxUnorderedMapHint); c == UnorderedMapInvalidIndex || c < maxUnorderedMapHint {
		t.Errorf("capacity of the largest hint: %d", c)
	}
	m, _ := NewUnorderedMap[int, int]("m", 10)
	m.Insert(1, 2)
	if err := m.Rehash(-5); !errors.Is(err, ErrUnorderedMapCapacity) {
		t.Errorf("Rehash(-5): %v", err)
	}
	if m.Capacity() != 128 || m.ValueAt(m.Find(1)) != 2 {
		t.Errorf("a refused Rehash changed the map: capacity %d", m.Capacity())
	}
}

// TestUnorderedMapCopiesShare checks that copies of a map see one
// another's inserts, clears and rehashes.
func TestUnorderedMapCopiesShare(t *testing.T) {
	a, _ := NewUnorderedMap[int16, float32]("share", 10)
	b := a
	a.Insert(3, 1.5)
	if err := b.Rehash(1000); err != nil {
		t.Fatal(err)
	}
	if a.Capacity() != b.Capacity() || a.ValueAt(a.Find(3)) != 1.5 || a.Label() != "share" {
		t.Fatalf("copies differ after Rehash: capacities %d %d", a.Capacity(), b.Capacity())
	}
	b.Clear()
	if a.Size() != 0 || a.Exists(3) {
		t.Fatal("Clear through a copy not seen")
	}
}

// TestUnorderedMapEraseConcurrent erases half the keys from many
// goroutines.
func TestUnorderedMapEraseConcurrent(t *testing.T) {
	const n = 20000
	m, _ := NewUnorderedMap[uint64, uint64]("erase", n)
	for k := range uint64(n) {
		m.Insert(k*7919, k)
	}
	m.BeginErase()
	var wg sync.WaitGroup
	workers := max(4, runtime.GOMAXPROCS(0))
	var erased atomic.Int64
	for w := range workers {
		wg.Go(func() {
			for k := uint64(w); k < n; k += uint64(workers) {
				if k%2 == 0 && m.Erase(k*7919) {
					erased.Add(1)
				}
			}
		})
	}
	wg.Wait()
	m.EndErase()
	if erased.Load() != n/2 || m.Size() != n/2 {
		t.Fatalf("erased %d, size %d", erased.Load(), m.Size())
	}
	var keys []uint64
	for i := range m.Capacity() {
		if m.ValidAt(i) {
			keys = append(keys, m.KeyAt(i)/7919)
		}
	}
	slices.Sort(keys)
	for j, k := range keys {
		if k != uint64(2*j+1) {
			t.Fatalf("key %d of the rest is %d, want %d", j, k, 2*j+1)
		}
	}
	// The erased indices are free again.
	for k := range uint64(n / 2) {
		if r := m.Insert(k*2*7919, k); !r.Success() {
			t.Fatalf("Insert(%d) after erase: %v", k*2*7919, r)
		}
	}
	if m.Size() != n {
		t.Fatalf("size %d", m.Size())
	}
}

// TestUnorderedMapContention has many goroutines insert the same keys in
// the same order at once, round after round: they race to link each key
// at the end of the same list, and exactly one must win.
func TestUnorderedMapContention(t *testing.T) {
	const keys, goroutines = 2000, 4
	rounds := 100
	if testing.Short() {
		rounds = 20
	}
	m, _ := NewUnorderedMap[int64, int64]("contention", keys)
	for round := range rounds {
		m.Clear()
		var wins [keys]atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				<-start
				for k := range int64(keys) {
					r := m.Insert(k*1000003, k)
					switch {
					case r.Success():
						wins[k].Add(1)
					case !r.Existing():
						t.Errorf("round %d: Insert(%d) by goroutine %d: %v", round, k, g, r)
					}
				}
			})
		}
		close(start)
		wg.Wait()
		for k := range int64(keys) {
			if w := wins[k].Load(); w != 1 {
				t.Fatalf("round %d: key %d won by %d inserts, want 1", round, k*1000003, w)
			}
			if i := m.Find(k * 1000003); i == UnorderedMapInvalidIndex || m.ValueAt(i) != k {
				t.Fatalf("round %d: key %d not found after its insert", round, k*1000003)
			}
		}
		if m.Size() != keys {
			t.Fatalf("round %d: size %d, want %d (an index taken and lost)", round, m.Size(), keys)
		}
	}
}
