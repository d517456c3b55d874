package backendtest

import (
	"fmt"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// fakeToken is the ids of a token parameter during one launch on a
// FakeExecutor, in the executor's own memory as a device backend keeps
// them: the launch runs one index at a time, so an Acquire while every id
// is held would wait forever, and panics instead.
type fakeToken struct {
	held []bool
}

func newFakeToken(size int) *fakeToken { return &fakeToken{held: make([]bool, size)} }

func (t *fakeToken) Size() int { return len(t.held) }

func (t *fakeToken) Acquire() int {
	for id, h := range t.held {
		if !h {
			t.held[id] = true
			return id
		}
	}
	panic(fmt.Sprintf("Acquire(): all %d ids are held by the index that acquires: it would wait forever", len(t.held)))
}

func (t *fakeToken) Release(id int) {
	if id < 0 || id >= len(t.held) || !t.held[id] {
		panic(fmt.Sprintf("Release(%d): id %d is not held (released twice, or never acquired)", id, id))
	}
	t.held[id] = false
}

// kHolds is TestLauncher's kernel of a unique token:
//
//	func Holds(i int, tok kokkos.UniqueToken, inUse, counts kokkos.View1[int32]) {
//		n := tok.Size()
//		id := tok.Acquire()
//		if id < 0 || id >= n { kokkos.AtomicAdd(counts.Ptr(n), 1); return }
//		if kokkos.AtomicExchange(inUse.Ptr(id), 1) != 0 { kokkos.AtomicAdd(counts.Ptr(n+1), 1) }
//		kokkos.AtomicAdd(counts.Ptr(id), 1)
//		kokkos.AtomicStore(inUse.Ptr(id), 0)
//		tok.Release(id)
//	}
var kHolds = &backend.Kernel{Name: "backendtest.Holds", Pattern: backend.PatternFor, Rank: 1,
	Params: []backend.Param{{Name: "tok", Token: true}, {Name: "inUse", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}, {Name: "counts", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}},
	IR: `kernelir 1
(kernel Holds for (index i) (token tok) (view inUse int32 1 w) (view counts int32 1 w)
  (body
    (assign ((new n int)) ((tokensize tok)))
    (assign ((new id int)) ((acquire tok)))
    (if (lor (lt int id (int 0)) (ge int id n)) (then (do (atomic Add counts (n) (int32 1))) (return)))
    (if (ne int32 (atomic Exchange inUse (id) (int32 1)) (int32 0)) (then (do (atomic Add counts ((add int n (int 1))) (int32 1)))))
    (do (atomic Add counts (id) (int32 1)))
    (do (atomic Store inUse (id) (int32 0)))
    (do (release tok id))))`}

// sizeToken is a token as a Launcher gets it from package kernel, made for
// a device instance: only its Size is defined on the host.
type sizeToken int

func (t sizeToken) Size() int { return int(t) }
func (sizeToken) Acquire() int {
	panic("backendtest: Acquire of a device token on the host: a Launcher keeps a token's ids in memory of its own")
}
func (sizeToken) Release(int) {
	panic("backendtest: Release of a device token on the host: a Launcher keeps a token's ids in memory of its own")
}

// launcherToken is TestLauncher's check of a unique token: over n
// indices, each gets an id in [0, Size()) that no other index holds at the
// same time, for a token of a few ids and one of many.
func launcherToken(t *testing.T, l backend.Launcher, m *lmem, n int) {
	for _, size := range []int{7, 5000} {
		inUse := upload(t, m, "inUse", make([]int32, size))
		counts := upload(t, m, "counts", make([]int32, size+2))
		if err := l.For(&backend.Launch{Label: "holds", Kernel: kHolds, Shape: rangeShape(n), Args: []backend.Arg{{Token: sizeToken(size)}, inUse.arg(), counts.arg()}}); err != nil {
			t.Fatal(err)
		}
		if err := l.Fence(); err != nil {
			t.Fatal(err)
		}
		got := download[int32](t, m, counts)
		total := 0
		for id := range size {
			total += int(got[id])
		}
		if got[size] != 0 || got[size+1] != 0 || total != n {
			t.Errorf("token of %d ids: %d ids out of range, %d held twice, %d holds over %d indices", size, got[size], got[size+1], total, n)
		}
	}
}
