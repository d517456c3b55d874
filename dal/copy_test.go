package dal_test

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/dal"
)

// A copy made by assignment shares the hold: NeedMutableData through it
// moves the hold to the copy's new block and gives up the original block
// at once, as oneDAL's need_mutable_data does; the original, left on the
// old block, is released. The deleter of the old block runs then, exactly
// once, since that hold was its last holder.
func TestNeedMutableDataThroughACopyMovesTheHold(t *testing.T) {
	var d deleter
	data := randFloat32(64)
	orig := slices.Clone(data)
	a := dal.WrapWithDeleter(data, d.fn())
	b := a
	if b.Count() != 64 || b.HasMutableData() || !same(b.Data(), data) || b.UseCount() != 1 {
		t.Fatal("a copy does not read the original's elements, or counts a holder")
	}
	must(t, b.NeedMutableData())
	d.want(t, 1, "after the only hold moved off the block")
	if !a.Released() || a.UseCount() != 0 || a.Count() != 0 || !b.HasMutableData() || b.UseCount() != 1 {
		t.Fatalf("after b.NeedMutableData: a released %v, uses %d; b mutable %v, uses %d", a.Released(), a.UseCount(), b.HasMutableData(), b.UseCount())
	}
	if same(b.Data(), data) || !slices.Equal(b.Data(), orig) {
		t.Fatal("NeedMutableData did not copy the elements")
	}
	wantPanic(t, dal.ErrReleased, func() { a.At(0) })
	wantErr(t, a.NeedMutableData(), dal.ErrReleased)
	md, err := b.MutableData()
	must(t, err)
	for i, x := range randFloat32(64) {
		md[i] = x
	}
	if !slices.Equal(data, orig) {
		t.Fatal("a write to the copy reached the original memory")
	}
	// Release through either ends the hold, now on b's block, once.
	must(t, a.Release())
	if !b.Released() {
		t.Fatal("the copy outlived the hold it borrowed")
	}
	wantErr(t, b.Release(), dal.ErrReleasedTwice)
	d.want(t, 1, "after the releases")
}

// A private mutable copy that leaves the original readable takes a hold of
// its own first, as oneDAL's copy constructor does: a.Share(), then
// NeedMutableData. The original block's count goes 1, 2, 1 as oneDAL's
// does, and a function that receives an array can do the same.
func TestNeedMutableDataOfAShareLeavesTheOriginal(t *testing.T) {
	v := randFloat64(1)[0]
	a, err := dal.Full(16, v)
	must(t, err)
	b := a
	b.DiscardMutableData()
	if !a.HasMutableData() || b.HasMutableData() {
		t.Fatal("DiscardMutableData through a copy changed the original")
	}
	must(t, a.Release())

	var d deleter
	ro := dal.WrapWithDeleter(randFloat64(8), d.fn())
	mutate := func(x dal.Array[float64]) float64 {
		own := x.Share()
		defer func() { must(t, own.Release()) }()
		if x.UseCount() != 2 {
			t.Fatalf("UseCount with a share: %d, want 2", x.UseCount())
		}
		must(t, own.NeedMutableData())
		if x.UseCount() != 1 || own.UseCount() != 1 {
			t.Fatalf("after the share's NeedMutableData: original %d, copy %d; want 1 and 1", x.UseCount(), own.UseCount())
		}
		md, err := own.MutableData()
		must(t, err)
		md[0] += 1
		return md[0]
	}
	before := ro.At(0)
	if got := mutate(ro); got != before+1 || ro.At(0) != before || ro.HasMutableData() || ro.Released() || ro.UseCount() != 1 {
		t.Fatal("NeedMutableData of a share changed the caller's array")
	}
	d.want(t, 0, "while the caller holds its array")
	must(t, ro.Release())
	d.want(t, 1, "after the caller's release")
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

// Shares that make their own mutable blocks at once, from several
// goroutines, each get a private copy and give up their count on the
// original at once; the original keeps its elements. Borrowed copies that
// race to move their one shared hold: exactly one moves it, the others
// fail with ErrReleased and free the blocks they made.
func TestConcurrentNeedMutableData(t *testing.T) {
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
	shares := make([]dal.Array[float64], n)
	for g := range n {
		shares[g] = a.Share()
		b := &shares[g]
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
		t.Fatalf("the shares changed the original, or kept their counts on it (%d holders, want 1)", a.UseCount())
	}
	s.want(t, n+1, 0, "while the shares live")
	for g := range shares {
		must(t, shares[g].Release())
	}
	s.want(t, n+1, n, "after the shares' releases")

	copies := make([]dal.Array[float64], n)
	errs := make([]error, n)
	for g := range copies {
		copies[g] = a
		wg.Go(func() { errs[g] = copies[g].NeedMutableData() })
	}
	wg.Wait()
	moved := -1
	for g, err := range errs {
		switch {
		case err == nil && moved < 0:
			moved = g
		case !errors.Is(err, dal.ErrReleased):
			t.Fatalf("copy %d: %v; want one success and ErrReleased for the others", g, err)
		}
	}
	if moved < 0 || !a.Released() || !slices.Equal(copies[moved].Data(), src) {
		t.Fatal("no copy moved the hold, or the original outlived it")
	}
	// A loser that saw the move before copying allocated nothing; one that
	// copied first freed its block: only the winner's block is live.
	allocs, frees, bad := s.counts()
	if allocs < n+2 || frees != allocs-1 || bad != 0 {
		t.Fatalf("after the race: %d allocations, %d frees (%d not live); want every block but the winner's freed", allocs, frees, bad)
	}
	must(t, a.Release())
	s.want(t, allocs, allocs, "after the hold's release")
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
