package dal_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/dal"
)

// A copy made by assignment is a handle of its own: NeedMutableData through
// it leaves the original immutable, on the original memory, as oneDAL's
// copy constructor does.
func TestCopyIsAnIndependentHandle(t *testing.T) {
	var d deleter
	data := randFloat32(64)
	orig := slices.Clone(data)
	a := dal.WrapWithDeleter(data, d.fn())
	b := a
	if b.Count() != 64 || b.HasMutableData() || !same(b.Data(), data) || b.UseCount() != 1 {
		t.Fatal("a copy does not read the original's elements, or counts a holder")
	}
	must(t, b.NeedMutableData())
	if a.HasMutableData() || !b.HasMutableData() {
		t.Fatalf("after b.NeedMutableData: a mutable %v (want false), b mutable %v (want true)", a.HasMutableData(), b.HasMutableData())
	}
	if !same(a.Data(), data) || same(b.Data(), data) || !slices.Equal(b.Data(), orig) {
		t.Fatal("NeedMutableData through a copy moved the original, or did not copy")
	}
	if a.UseCount() != 1 || b.UseCount() != 1 || a.Allocation() == b.Allocation() {
		t.Fatalf("uses: a %d, b %d; want 1 and 1 on two blocks", a.UseCount(), b.UseCount())
	}
	md, err := b.MutableData()
	must(t, err)
	for i, x := range randFloat32(64) {
		md[i] = x
	}
	for i := range 64 {
		if a.At(i) != orig[i] || data[i] != orig[i] || b.At(i) != md[i] {
			t.Fatalf("element %d: a %v, data %v (want %v), b %v (want %v)", i, a.At(i), data[i], orig[i], b.At(i), md[i])
		}
	}
	if _, err := a.MutableData(); !errors.Is(err, dal.ErrNoMutableData) {
		t.Fatalf("MutableData of the original: %v", err)
	}

	// The copy borrowed a's hold, and its new block joined it: a's Release
	// ends both, once.
	d.want(t, 0, "while a's hold lives")
	must(t, a.Release())
	d.want(t, 1, "after a's release")
	if !b.Released() || b.Count() != 0 || b.HasMutableData() {
		t.Fatal("the copy outlived the hold it borrowed")
	}
	wantPanic(t, dal.ErrReleased, func() { b.At(0) })
	wantErr(t, b.Release(), dal.ErrReleasedTwice)
	d.want(t, 1, "after a second release through the copy")
}

// DiscardMutableData and NeedMutableData on a copy, in a variable or a
// function's parameter, leave the original as it was.
func TestMethodsOnACopyLeaveTheOriginal(t *testing.T) {
	v := randFloat64(1)[0]
	a, err := dal.Full(16, v)
	must(t, err)
	b := a
	b.DiscardMutableData()
	if !a.HasMutableData() || b.HasMutableData() {
		t.Fatal("DiscardMutableData through a copy changed the original")
	}
	must(t, b.NeedMutableData())
	if !b.HasMutableData() || same(a.Data(), b.Data()) || b.At(15) != v {
		t.Fatal("NeedMutableData of the read-only copy did not copy")
	}

	ro := dal.Wrap(randFloat64(8))
	mutate := func(x dal.Array[float64]) float64 {
		must(t, x.NeedMutableData())
		md, err := x.MutableData()
		must(t, err)
		md[0] += 1
		return md[0]
	}
	before := ro.At(0)
	if got := mutate(ro); got != before+1 || ro.At(0) != before || ro.HasMutableData() {
		t.Fatal("NeedMutableData of a parameter changed the caller's array")
	}

	// In a slice of arrays, each element is a variable of its own.
	arrs := []dal.Array[float64]{ro, ro, ro}
	must(t, arrs[1].NeedMutableData())
	if arrs[0].HasMutableData() || !arrs[1].HasMutableData() || arrs[2].HasMutableData() || ro.HasMutableData() {
		t.Fatal("NeedMutableData of one element changed another")
	}
	must(t, ro.Release())
	for i := range arrs {
		if !arrs[i].Released() {
			t.Fatalf("element %d outlived the hold it borrowed", i)
		}
	}
	must(t, a.Release())
}

// Copies share the hold: releasing any of them releases it, exactly once,
// also when goroutines race.
func TestConcurrentReleaseOfCopies(t *testing.T) {
	for range 50 {
		var d deleter
		a := dal.WrapWithDeleter(randFloat64(8), d.fn())
		keep := a.Share()
		copies := make([]dal.Array[float64], 16)
		for i := range copies {
			copies[i] = a
		}
		var wg sync.WaitGroup
		errs := make([]error, len(copies))
		for i := range copies {
			wg.Go(func() { errs[i] = copies[i].Release() })
		}
		wg.Wait()
		n := 0
		for _, err := range errs {
			switch {
			case err == nil:
				n++
			case !errors.Is(err, dal.ErrReleasedTwice):
				t.Fatalf("Release of a copy: %v", err)
			}
		}
		if n != 1 || keep.UseCount() != 1 || !a.Released() {
			t.Fatalf("%d releases of copies succeeded (want 1); %d holders left (want 1)", n, keep.UseCount())
		}
		d.want(t, 0, "with another hold alive")
		must(t, keep.Release())
		d.want(t, 1, "after the last hold")
	}
}

// Copies that make their own mutable blocks at once, from several
// goroutines, each get a private copy; the original keeps its elements,
// and one Release of the hold releases every block.
func TestConcurrentNeedMutableDataOfCopies(t *testing.T) {
	s := newHeapSpace()
	src := randFloat64(256)
	a, err := dal.Empty[float64](256, dal.InSpace(s))
	must(t, err)
	md, err := a.MutableData()
	must(t, err)
	copy(md, src)
	a.DiscardMutableData()
	var wg sync.WaitGroup
	const n = 8
	for g := range n {
		b := a
		wg.Go(func() {
			if err := b.NeedMutableData(); err != nil {
				t.Error(err)
				return
			}
			md, err := b.MutableData()
			if err != nil || same(md, a.Data()) || !slices.Equal(md, src) {
				t.Errorf("goroutine %d: no private copy of the elements (%v)", g, err)
				return
			}
			for i := range md {
				md[i] += float64(g + 1)
			}
			for i := range md {
				if b.At(i) != src[i]+float64(g+1) {
					t.Errorf("goroutine %d: element %d was changed by another copy", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	if !slices.Equal(a.Data(), src) || a.HasMutableData() || a.UseCount() != 1 {
		t.Fatal("the copies changed the original")
	}
	s.want(t, n+1, 0, "while the hold lives")
	must(t, a.Release())
	s.want(t, n+1, n+1, "after the hold's release")
}

// NeedMutableData on a copy racing with the Release of the hold it
// borrows: either the copy gets its block before the release, and the
// release frees it with the original, or it fails with ErrReleased and
// frees the block it made. No block is left allocated or freed twice.
func TestNeedMutableDataRacingRelease(t *testing.T) {
	s := newHeapSpace()
	const rounds = 500
	ok := 0
	for range rounds {
		a, err := dal.Full(64, randFloat64(1)[0], dal.InSpace(s))
		must(t, err)
		a.DiscardMutableData()
		b := a
		var wg sync.WaitGroup
		var nerr, rerr error
		wg.Go(func() { nerr = b.NeedMutableData() })
		wg.Go(func() { rerr = a.Release() })
		wg.Wait()
		must(t, rerr)
		switch {
		case nerr == nil:
			ok++
		case !errors.Is(nerr, dal.ErrReleased):
			t.Fatalf("NeedMutableData racing Release: %v", nerr)
		}
		if !b.Released() {
			t.Fatal("the copy outlived the hold")
		}
	}
	allocs, frees, bad := s.counts()
	if allocs != frees || bad != 0 || allocs < rounds {
		t.Fatalf("%d allocations, %d frees (%d of blocks not live)", allocs, frees, bad)
	}
	t.Logf("%d of %d copies were made before the release", ok, rounds)
}

// The hold released while NeedMutableData of a copy allocates its block:
// NeedMutableData fails with ErrReleased and frees the block it made.
func TestNeedMutableDataWhileTheHoldIsReleased(t *testing.T) {
	s := newHeapSpace()
	a, err := dal.Full(16, randFloat64(1)[0], dal.InSpace(s))
	must(t, err)
	a.DiscardMutableData()
	b := a
	s.onAllocate = func() { must(t, a.Release()) }
	wantErr(t, b.NeedMutableData(), dal.ErrReleased)
	s.onAllocate = nil
	if !b.Released() || b.HasMutableData() {
		t.Fatal("a failed NeedMutableData changed the copy")
	}
	s.want(t, 2, 2, "after the failed NeedMutableData")
}
