package kernelir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// umapSample uses a map parameter every way a body may.
const umapSample = `kernelir 1
(kernel U for (index i)
  (view keys uint64 1 r)
  (umap m uint64 int32)
  (umap s uint32 none)
  (view out int32 1 w)
  (body
    (do (uminsert m - (at keys i) (conv int32 i)))
    (do (uminsertadd m - (at keys i) (int32 1)))
    (if (uminsert m failed (at keys i) (int32 0)) (then (assign ((at out i)) ((int32 -1)))))
    (assign ((new x uint32)) ((uminsert m index (at keys i) (int32 0))))
    (if (land (uminsert s success (conv uint32 i) (int8 0)) (land (uminsert s existing (uint32 0) (int8 0)) (uminsert s freed (uint32 1) (int8 0)))) (then (assign (x) ((umcapacity s)))))
    (if (land (umvalidat m x) (umexists m (at keys i))) (then (assign ((at out i)) ((umvalueat m int32 (umfind m (umkeyat m uint64 x)))))))))
`

func TestUMapPrintParse(t *testing.T) {
	k, err := Parse(umapSample)
	if err != nil {
		t.Fatal(err)
	}
	if p := k.Param("s"); p == nil || !p.UMap || p.Type != Uint32 || p.Value != Invalid || p.IsView() {
		t.Fatalf("s parsed as %+v", p)
	}
	text := Print(k)
	if squash(text) != squash(umapSample) {
		t.Errorf("Print differs from the text parsed:\n%s", text)
	}
	if k2, err := Parse(text); err != nil || Print(k2) != text {
		t.Fatalf("Print(Parse(Print)): %v", err)
	}
}

// TestUMapInvalid checks the refusal of map nodes that break the rules.
func TestUMapInvalid(t *testing.T) {
	head := "kernelir 1\n(kernel U for (index i) (umap m uint64 int32) (umap s int16 none) (view v int32 1 w) (body "
	for _, c := range []struct{ body, msg string }{
		{"(assign ((at v i)) ((conv int32 (umfind m (int32 1)))))", "a int32 where a uint64 is wanted"},
		{"(assign ((at v i)) ((conv int32 (uminsert m - (uint64 1) (int32 2)))))", "m.Insert as a value: call a method of its result"},
		{"(do (uminsert s - (int16 1) (int32 2)))", "the insert of set s with a value other than int8 0"},
		{"(do (uminsertadd s - (int16 1) (int8 0)))", "the insert of set s with a value other than int8 0"},
		{"(assign ((at v i)) ((umvalueat s int32 (uint32 0))))", "ValueAt of set s"},
		{"(assign ((at v i)) ((conv int32 (umkeyat m uint32 (uint32 0)))))", "map operation keyat of m with type uint32"},
		{"(assign ((at v i)) ((conv int32 (umcapacity v))))", "v is not an UnorderedMap"},
		{"(assign ((at v i)) ((conv int32 (umfind m (conv uint64 (umvalidat m (int 0)))))))", "a int where a uint32 is wanted"},
	} {
		_, err := Parse(head + c.body + "))")
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want ErrInvalid saying %q", c.body, err, c.msg)
		}
	}
	for _, p := range []string{"(umap m uint64 bool)", "(umap m bool int32)"} {
		if _, err := Parse("kernelir 1\n(kernel U for (index i) " + p + " (body))"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "parameter m") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := Parse(head + "(do (uminsert m maybe (uint64 1) (int32 2)))))"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "want success, existing, failed, freed, index or -") {
		t.Errorf("an unknown result: %v", err)
	}
}

// umapArrays are a map's arrays for a Machine, empty, shaped as
// containers.UnorderedMap makes them for capacity hint (h's).
func umapArrays[K comparable, V any](h containers.UnorderedMap[K, V]) (UMap, []uint32) {
	c := int(h.Capacity())
	view := func(data any, n int) View { return View{Data: data, Extents: []int{n}, Strides: []int{1}} }
	heads := make([]uint32, h.HashCapacity())
	next := make([]uint32, c+1)
	for _, a := range [][]uint32{heads, next} {
		for i := range a {
			a[i] = ^uint32(0)
		}
	}
	flags := make([]uint32, 1)
	return UMap{
		Used: view(make([]uint32, (c+31)/32), (c+31)/32), Heads: view(heads, len(heads)), Next: view(next, c+1),
		Flags: view(flags, 1), Keys: view(make([]K, c), c), Values: view(make([]V, c), c), Bounded: true,
	}, flags
}

// runUMapMachine inserts n random keys with the Machine and into a host
// map, in the same order: the indices and results must be the same, and
// so must the entries and finds after.
func runUMapMachine[K, V kokkos.Number](t *testing.T, seed uint64, key func(r *rand.Rand) K, add bool) {
	r := rand.New(rand.NewPCG(seed, 1))
	n := 1 + r.IntN(3000)
	hint := r.IntN(2 * n)
	kt, vt := typeOfGo[K](), typeOfGo[V]()
	op := "uminsert"
	if add {
		op = "uminsertadd"
	}
	src := fmt.Sprintf(`kernelir 1
(kernel Ins for (index i)
  (view keys %[1]s 1 r)
  (view vals %[2]s 1 r)
  (umap m %[1]s %[2]s)
  (view idx uint32 1 w)
  (view st uint32 1 w)
  (body
    (assign ((new ok bool)) ((%[3]s m success (at keys i) (at vals i))))
    (assign ((at idx i)) ((umfind m (at keys i))))
    (if ok (then (assign ((at st i)) ((uint32 1)))))))`, kt, vt, op)
	k, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	keys, vals := make([]K, n), make([]V, n)
	for i := range n {
		keys[i], vals[i] = key(r), V(1+r.IntN(9))
	}
	h := kokkos.Must(containers.NewUnorderedMap[K, V]("h", hint))
	u, flags := umapArrays(h)
	idx, st := make([]uint32, n), make([]uint32, n)
	m, err := NewMachine(k, View{Data: keys, Extents: []int{n}, Strides: []int{1}}, View{Data: vals, Extents: []int{n}, Strides: []int{1}}, u,
		View{Data: idx, Extents: []int{n}, Strides: []int{1}}, View{Data: st, Extents: []int{n}, Strides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := m.Run([]int{i}, nil, false); err != nil {
			t.Fatal(err)
		}
		var res containers.UnorderedMapInsertResult
		if add {
			res = h.InsertOp(keys[i], vals[i], containers.UnorderedMapAtomicAdd[V]{})
		} else {
			res = h.Insert(keys[i], vals[i])
		}
		if (st[i] == 1) != res.Success() || idx[i] != h.Find(keys[i]) {
			t.Fatalf("%s keys, insert %d of %v: success %v, found at %d; host %v, found at %d", kt, i, keys[i], st[i] == 1, idx[i], res, h.Find(keys[i]))
		}
	}
	mk, mv := u.Keys.Data.([]K), u.Values.Data.([]V)
	used := u.Used.Data.([]uint32)
	for x := range h.Capacity() {
		valid := used[x/32]&(1<<(x%32)) != 0
		if valid != h.ValidAt(x) || valid && (mk[x] != h.KeyAt(x) || mv[x] != h.ValueAt(x)) {
			t.Fatalf("%s keys: index %d differs from the host map's", kt, x)
		}
	}
	if (flags[0] != 0) != h.FailedInsert() {
		t.Fatalf("%s keys: failed flag %d, host %v", kt, flags[0], h.FailedInsert())
	}
}

func typeOfGo[T any]() Type {
	var z T
	switch any(z).(type) {
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case int:
		return Int
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float32:
		return Float32
	case float64:
		return Float64
	}
	return Invalid
}

func TestUMapMachine(t *testing.T) {
	for seed := range uint64(6) {
		runUMapMachine[uint64, int32](t, seed, func(r *rand.Rand) uint64 { return r.Uint64N(2000) * 0x9e3779b97f4a7c15 }, seed%2 == 1)
		runUMapMachine[int16, float64](t, seed, func(r *rand.Rand) int16 { return int16(r.IntN(4000) - 2000) }, seed%2 == 0)
		runUMapMachine[float32, uint8](t, seed, func(r *rand.Rand) float32 { return float32(r.IntN(500)) / 4 }, false)
		runUMapMachine[uint8, int64](t, seed, func(r *rand.Rand) uint8 { return uint8(r.IntN(256)) }, true)
	}
}
