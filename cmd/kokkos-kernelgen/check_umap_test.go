package main

import (
	"strings"
	"testing"
)

// umapHeader is cudaHeader with package containers imported.
const umapHeader = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

var _ kokkos.View1[float64]
var _ containers.UnorderedMap[int32, int32]
`

// umapSrc has kernels that use a map parameter every way the subset
// allows.
const umapSrc = umapHeader + `
type P struct{ A, B int32 }

//kokkos:kernel
func Fill(i int, ids kokkos.View1[uint64], m containers.UnorderedMap[uint64, int32], acc *int) {
	if m.Insert(ids.At(i), int32(i)).Failed() {
		*acc++
	}
	x := m.Find(ids.At(i))
	if m.ValidAt(x) && m.KeyAt(x) == ids.At(i) && m.ValueAt(x) == int32(i) && m.Exists(ids.At(i)) && x < m.Capacity() {
		*acc += 0
	}
	ok := m.Insert(ids.At(i), 0).Existing() && !m.Insert(ids.At(i), 0).Success() && !m.Insert(ids.At(i), 0).FreedExisting()
	_ = ok
	_ = m.Insert(ids.At(i), 0).Index()
	m.InsertOp(ids.At(i), 1, containers.UnorderedMapAtomicAdd[int32]{})
	_ = m.InsertOp(ids.At(i), 1, containers.UnorderedMapNoOp[int32]{}).Success()
}

//kokkos:kernel
func Set(i int, s containers.UnorderedMap[P, struct{}], a kokkos.View1[int32]) {
	s.InsertKey(P{a.At(i), 1})
}
`

func TestUMapAllowed(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": umapSrc})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.checkBodies(); err != nil {
		t.Fatal(err)
	}
	out := generateSource(t, map[string]string{"k.go": umapSrc})
	for _, want := range []string{
		"m := gkArgs[1].(gkcontainers.UnorderedMap[uint64, int32])",
		"s := gkArgs[0].(gkcontainers.UnorderedMap[P, struct{}])",
		"if m.Insert(",
		"s.InsertKey(P{",
		"(umap m uint64 int32)",
		"(if (uminsert m failed (at ids i) (conv int32 i))",
		"(assign ((new x uint32)) ((umfind m (at ids i))))",
		"(umvalidat m x) (eq uint64 (umkeyat m uint64 x) (at ids i))) (eq int32 (umvalueat m int32 x) (conv int32 i))) (umexists m (at ids i))) (lt uint32 x (umcapacity m))",
		"(uminsert m existing (at ids i) (int32 0)) (not (uminsert m success (at ids i) (int32 0)))) (not (uminsert m freed (at ids i) (int32 0)))",
		"(assign (_) ((uminsert m index (at ids i) (int32 0))))",
		"(do (uminsertadd m - (at ids i) (int32 1)))",
		"(assign (_) ((uminsert m success (at ids i) (int32 1))))",
		`NoDevice: "no description: k.go:30:17: kernel Set: the UnorderedMap parameter s has keys of type k.P: a device runs maps of number keys only, so the kernel runs on the host only"`,
	} {
		if !strings.Contains(squashSpace(out), squashSpace(want)) {
			t.Errorf("the generated file lacks %q:\n%s", want, out)
		}
	}
}

// TestUMapRefused checks the refusal of what a kernel may not do with a
// map, with its text and position.
func TestUMapRefused(t *testing.T) {
	src := umapHeader + `
//kokkos:kernel
func Bad(i int, m containers.UnorderedMap[int64, int64], a kokkos.View1[int64]) {
	m2 := m
	m.Clear()
	_ = m.Size()
	m.InsertOp(1, 2, myOp{})
	_ = m.Insert(1, 2).ListPosition()
	f := m.Find
	a.Set(i, m2.ValueAt(0)+int64(f(1)))
}

type myOp struct{}

func (myOp) Op(*int64, int64) {}
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
		"k.go:13:8: kernel Bad: the map m as a value is not allowed in a kernel (call its Insert, Find, Exists, ValidAt, KeyAt, ValueAt or Capacity)",
		"k.go:14:2: kernel Bad: a call of m.Clear is not allowed in a kernel (call only Insert, InsertKey, InsertOp, Find, Exists, ValidAt, KeyAt, ValueAt and Capacity; the rest of an UnorderedMap's methods run outside kernels)",
		"k.go:15:6: kernel Bad: a call of m.Size is not allowed in a kernel (call only Insert, InsertKey, InsertOp, Find, Exists, ValidAt, KeyAt, ValueAt and Capacity; the rest of an UnorderedMap's methods run outside kernels)",
		"k.go:16:19: kernel Bad: the op of m.InsertOp is not allowed in a kernel (give containers.UnorderedMapAtomicAdd[V]{} or containers.UnorderedMapNoOp[V]{})",
		"k.go:17:6: kernel Bad: a call of ListPosition on m.Insert(...) is not allowed in a kernel (call Success, Existing, Failed, FreedExisting or Index on the result of Insert, InsertKey or InsertOp)",
		"k.go:18:7: kernel Bad: the method value m.Find is not allowed in a kernel (call it)",
		"k.go:19:11: kernel Bad: a call of m2.ValueAt is not allowed in a kernel (call only helpers, math functions, kokkos atomics, min and max)",
		"k.go:19:31: kernel Bad: a call of f is not allowed in a kernel (call only helpers, math functions, kokkos atomics, min and max)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestUMapNoDescription checks the reason a kernel over a map of struct
// values keeps to the host, with its position.
func TestUMapNoDescription(t *testing.T) {
	src := umapHeader + `
type P struct{ A, B int32 }

//kokkos:kernel
func Vals(i int, m containers.UnorderedMap[int32, P], a kokkos.View1[int32]) {
	if m.Exists(a.At(i)) {
		a.Set(i, 1)
	}
}
`
	out := generateSource(t, map[string]string{"k.go": src})
	want := `NoDevice: "no description: k.go:14:18: kernel Vals: the UnorderedMap parameter m has values of type k.P: a device runs maps of number values (or sets) only, so the kernel runs on the host only"`
	if !strings.Contains(squashSpace(out), squashSpace(want)) {
		t.Errorf("the generated file lacks %q:\n%s", want, out)
	}
}
