package dal_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/dal"
)

func TestDeleterRunsOnceAfterLastHolder(t *testing.T) {
	var d deleter
	data := randFloat32(64)
	a := dal.WrapWithDeleter(data, d.fn())
	if a.HasMutableData() {
		t.Fatal("WrapWithDeleter is mutable")
	}
	shared := a.Share()
	s, err := a.Slice(8, 40)
	must(t, err)
	c, err := dal.Cast[uint32](s)
	must(t, err)
	cs, err := c.Slice(2, 4)
	must(t, err)
	var alias dal.Array[byte]
	must(t, alias.ResetAlias(cs, unsafe.Slice((*byte)(unsafe.Pointer(&data[10])), 8)))
	if a.UseCount() != 6 {
		t.Fatalf("UseCount %d, want 6", a.UseCount())
	}
	rec := a.Allocation()
	holders := []func() error{a.Release, shared.Release, s.Release, c.Release, cs.Release, alias.Release}
	rand.Shuffle(len(holders), func(i, j int) { holders[i], holders[j] = holders[j], holders[i] })
	for i, release := range holders {
		d.want(t, 0, "while holders live")
		must(t, release())
		if rec.UseCount() != len(holders)-1-i {
			t.Fatalf("after %d releases the block has %d holders, want %d", i+1, rec.UseCount(), len(holders)-1-i)
		}
	}
	d.want(t, 1, "after the last release")
	for _, release := range holders {
		if release() == nil {
			t.Fatal("a second Release succeeded")
		}
	}
	d.want(t, 1, "after releasing twice")
}

func TestDeleterMutableAndSliceKeepsParentAlive(t *testing.T) {
	var d deleter
	data := randFloat64(32)
	a := dal.WrapMutableWithDeleter(data, d.fn())
	if !a.HasMutableData() {
		t.Fatal("WrapMutableWithDeleter is immutable")
	}
	s, err := a.Slice(4, 12)
	must(t, err)
	must(t, a.Release())
	d.want(t, 0, "after the parent's release, with a slice alive")
	if !s.HasMutableData() || s.At(0) != data[4] || s.At(7) != data[11] {
		t.Fatal("the slice lost its data or mutability with its parent")
	}
	must(t, s.Release())
	d.want(t, 1, "after the slice's release")
}

func TestConcurrentReleaseRunsDeleterOnce(t *testing.T) {
	const goroutines = 64
	for range 20 {
		var d deleter
		a := dal.WrapWithDeleter(randFloat32(256), d.fn())
		handles := make([]dal.Array[float32], goroutines)
		for i := range handles {
			switch i % 3 {
			case 0:
				handles[i] = a.Share()
			case 1:
				first := rand.IntN(256)
				s, err := a.Slice(first, first+rand.IntN(257-first))
				must(t, err)
				handles[i] = s
			case 2:
				c, err := dal.Cast[int32](a)
				must(t, err)
				handles[i], err = dal.Cast[float32](c)
				must(t, err)
				must(t, c.Release())
			}
		}
		must(t, a.Release())
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, 2*goroutines)
		for i := range handles {
			wg.Go(func() {
				<-start
				// Sharing and releasing from other goroutines at once.
				extra := handles[i].Share()
				errs <- extra.Release()
				errs <- handles[i].Release()
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			must(t, err)
		}
		d.want(t, 1, "after concurrent releases")
	}
}

func TestSlicesPointIntoTheBlock(t *testing.T) {
	var d deleter
	data := randFloat64(1024)
	a := dal.WrapWithDeleter(data, d.fn())
	for _, r := range [][2]int{{0, 512}, {512, 1024}, {256, 512}} {
		s, err := a.Slice(r[0], r[1])
		must(t, err)
		sd := s.Data()
		if s.Count() != r[1]-r[0] || len(sd) != s.Count() || cap(sd) != s.Count() {
			t.Fatalf("Slice(%d, %d): count %d, len %d, cap %d", r[0], r[1], s.Count(), len(sd), cap(sd))
		}
		for i := range sd {
			if &sd[i] != &data[r[0]+i] || s.At(i) != data[r[0]+i] {
				t.Fatalf("Slice(%d, %d): element %d is not element %d of the block", r[0], r[1], i, r[0]+i)
			}
		}
		if s.HasMutableData() {
			t.Fatal("a slice of an immutable array is mutable")
		}
		if s.Allocation() != a.Allocation() {
			t.Fatal("a slice has its own allocation")
		}
		// A slice of the slice still points into the block.
		ss, err := s.Slice(1, 3)
		must(t, err)
		if &ss.Data()[0] != &data[r[0]+1] {
			t.Fatal("a slice of a slice does not point into the block")
		}
		must(t, ss.Release())
		must(t, s.Release())
	}
	for _, r := range [][2]int{{-1, 4}, {5, 4}, {0, 1025}, {1025, 1025}} {
		_, err := a.Slice(r[0], r[1])
		wantErr(t, err, dal.ErrRange)
	}
	empty, err := a.Slice(1024, 1024)
	must(t, err)
	if empty.Count() != 0 || a.UseCount() != 2 {
		t.Fatalf("Slice(1024, 1024): count %d, uses %d", empty.Count(), a.UseCount())
	}
	must(t, empty.Release())
	m := dal.WrapMutable(randFloat32(8))
	ms, err := m.Slice(2, 5)
	must(t, err)
	if !ms.HasMutableData() {
		t.Fatal("a slice of a mutable array is immutable")
	}
	must(t, a.Release())
	d.want(t, 1, "after all releases")
}

func TestNeedMutableDataLeavesSiblingsUntouched(t *testing.T) {
	var d deleter
	data := randFloat64(100)
	orig := slices.Clone(data)
	a := dal.WrapWithDeleter(data, d.fn())
	b := a.Share()
	c := a.Share()
	sl, err := a.Slice(10, 20)
	must(t, err)
	must(t, b.NeedMutableData())
	if !b.HasMutableData() || a.HasMutableData() || c.HasMutableData() || sl.HasMutableData() {
		t.Fatal("NeedMutableData changed the mutability of a sibling, or not its own")
	}
	if same(b.Data(), data) || !same(a.Data(), data) || !same(c.Data(), data) || &sl.Data()[0] != &data[10] {
		t.Fatal("NeedMutableData moved a sibling, or did not copy")
	}
	if !slices.Equal(b.Data(), orig) {
		t.Fatal("the mutable copy differs from the original")
	}
	// b's hold gave up the original block at once: a, c and sl hold it.
	if a.UseCount() != 3 || b.UseCount() != 1 {
		t.Fatalf("uses: original %d (want 3), copy %d (want 1)", a.UseCount(), b.UseCount())
	}
	md, err := b.MutableData()
	must(t, err)
	for i := range md {
		md[i] *= 3
	}
	if !slices.Equal(data, orig) || !slices.Equal(a.Data(), orig) {
		t.Fatal("a write to the copy reached the original")
	}
	// On a mutable array it does nothing.
	before := &md[0]
	must(t, b.NeedMutableData())
	if &b.Data()[0] != before || a.UseCount() != 3 {
		t.Fatal("NeedMutableData of a mutable array copied")
	}
	for _, h := range []*dal.Array[float64]{&a, &c} {
		must(t, h.Release())
	}
	d.want(t, 0, "while the slice holds the original")
	must(t, sl.Release())
	d.want(t, 1, "after the original's last holder, b's hold having left it")
	if b.At(7) != 3*orig[7] {
		t.Fatal("the copy lost its elements with the original's holders")
	}
	must(t, b.Release())
	d.want(t, 1, "after b's release")

	// The only holder's NeedMutableData releases the original at once: its
	// deleter runs then, once.
	var d2 deleter
	e := dal.WrapWithDeleter(randFloat32(3), d2.fn())
	must(t, e.NeedMutableData())
	d2.want(t, 1, "after the only holder copied")
	must(t, e.Release())
	d2.want(t, 1, "after the only holder's release")
}

func TestDiscardMutableData(t *testing.T) {
	a, err := dal.Full(6, randFloat32(1)[0])
	must(t, err)
	b := a.Share()
	b.DiscardMutableData()
	if b.HasMutableData() || !a.HasMutableData() || !same(a.Data(), b.Data()) {
		t.Fatal("DiscardMutableData changed the block or another handle")
	}
	_, err = b.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	var z dal.Array[int]
	z.DiscardMutableData()
	must(t, b.Release())
	must(t, a.Release())
}

func TestCast(t *testing.T) {
	var d deleter
	data := randFloat32(4)
	a := dal.WrapMutableWithDeleter(data, d.fn())
	f64, err := dal.Cast[float64](a)
	must(t, err)
	if f64.Count() != 2 || f64.Size() != a.Size() || !f64.HasMutableData() {
		t.Fatalf("Cast to float64: count %d, size %d, mutable %v", f64.Count(), f64.Size(), f64.HasMutableData())
	}
	if unsafe.Pointer(&f64.Data()[0]) != unsafe.Pointer(&data[0]) || unsafe.Pointer(&f64.Data()[1]) != unsafe.Pointer(&data[2]) {
		t.Fatal("Cast copied")
	}
	bits, err := dal.Cast[uint32](a)
	must(t, err)
	for i := range 4 {
		if bits.At(i) != math.Float32bits(data[i]) {
			t.Fatalf("element %d: bits %#x, want %#x", i, bits.At(i), math.Float32bits(data[i]))
		}
	}
	back, err := dal.Cast[float32](f64)
	must(t, err)
	if !same(back.Data(), data) || back.Count() != 4 {
		t.Fatal("a cast back does not give the original elements")
	}
	if a.UseCount() != 4 {
		t.Fatalf("UseCount %d, want 4: every cast holds the block", a.UseCount())
	}

	three := dal.Wrap(randFloat32(3))
	_, err = dal.Cast[float64](three)
	wantErr(t, err, dal.ErrCast)
	odd, err := a.Slice(1, 3)
	must(t, err)
	_, err = dal.Cast[float64](odd)
	wantErr(t, err, dal.ErrCast)
	_, err = dal.Cast[*int](dal.Wrap(make([]uintptr, 2)))
	wantErr(t, err, dal.ErrCast)
	_, err = dal.Cast[struct{}](three)
	wantErr(t, err, dal.ErrCast)
	str, err := dal.Cast[string](dal.Wrap([]string{"x"}))
	must(t, err)
	if str.At(0) != "x" {
		t.Fatal("Cast to the same pointer type failed")
	}
	var empty dal.Array[float32]
	ec, err := dal.Cast[float64](empty)
	must(t, err)
	if ec.Count() != 0 {
		t.Fatal("Cast of the empty array is not empty")
	}

	ro := dal.Wrap(randFloat64(2))
	rc, err := dal.Cast[int64](ro)
	must(t, err)
	if rc.HasMutableData() {
		t.Fatal("a cast of an immutable array is mutable")
	}

	for _, h := range []*dal.Array[float32]{&a, &back, &odd} {
		must(t, h.Release())
	}
	must(t, bits.Release())
	d.want(t, 0, "with a cast alive")
	must(t, f64.Release())
	d.want(t, 1, "after the last cast's release")
}

func TestResetForms(t *testing.T) {
	var d deleter
	data := randFloat64(10)
	a := dal.WrapWithDeleter(data, d.fn())
	b := a.Share()

	// Reset: the handle becomes empty and gives up its hold.
	must(t, a.Reset())
	if a.Count() != 0 || a.Data() != nil || a.HasMutableData() || a.Released() || b.UseCount() != 1 {
		t.Fatalf("Reset: count %d, mutable %v, released %v, uses %d", a.Count(), a.HasMutableData(), a.Released(), b.UseCount())
	}
	d.want(t, 0, "with a shared copy alive")

	// ResetWithDeleter: the handle owns new caller memory.
	var d2 deleter
	data2 := randFloat64(5)
	must(t, b.ResetWithDeleter(data2, d2.fn()))
	d.want(t, 1, "after the last holder was reset")
	if !same(b.Data(), data2) || b.HasMutableData() {
		t.Fatal("ResetWithDeleter did not wrap the new memory immutably")
	}
	var d3 deleter
	data3 := randFloat64(7)
	must(t, b.ResetMutableWithDeleter(data3, d3.fn()))
	d2.want(t, 1, "after ResetMutableWithDeleter replaced it")
	if !same(b.Data(), data3) || !b.HasMutableData() {
		t.Fatal("ResetMutableWithDeleter did not wrap the new memory mutably")
	}

	// ResetCount: always a new block, even when shrinking.
	old := &b.Data()[0]
	must(t, b.ResetCount(3))
	d3.want(t, 1, "after ResetCount replaced it")
	if b.Count() != 3 || !b.HasMutableData() || &b.Data()[0] == old {
		t.Fatal("ResetCount did not give a new mutable block of 3")
	}
	before := &b.Data()[0]
	must(t, b.ResetCount(2))
	if &b.Data()[0] == before {
		t.Fatal("ResetCount reused the block when shrinking")
	}
	wantErr(t, b.ResetCount(-4), dal.ErrCount)
	if b.Count() != 2 {
		t.Fatal("a failed ResetCount changed the handle")
	}
	must(t, b.Release())
}

func TestResetAlias(t *testing.T) {
	var d deleter
	block := randFloat64(16)
	owner := dal.WrapWithDeleter(block, d.fn())

	var alias dal.Array[byte]
	part := unsafe.Slice((*byte)(unsafe.Pointer(&block[4])), 16)
	must(t, alias.ResetAlias(owner, part))
	if alias.Count() != 16 || alias.HasMutableData() || alias.Allocation() != owner.Allocation() || owner.UseCount() != 2 {
		t.Fatalf("ResetAlias: count %d, mutable %v, uses %d", alias.Count(), alias.HasMutableData(), owner.UseCount())
	}
	if &alias.Data()[0] != &part[0] {
		t.Fatal("ResetAlias copied")
	}
	var m dal.Array[float64]
	must(t, m.ResetAliasMutable(alias, block[8:12]))
	if !m.HasMutableData() || owner.UseCount() != 3 {
		t.Fatal("ResetAliasMutable: not mutable or not counted")
	}
	must(t, owner.Release())
	must(t, alias.Release())
	d.want(t, 0, "while an alias lives")
	if m.At(0) != block[8] {
		t.Fatal("the alias lost its data")
	}
	must(t, m.Release())
	d.want(t, 1, "after the last alias's release")

	released := dal.Wrap([]int{1})
	must(t, released.Release())
	wantErr(t, alias.ResetAlias(released, nil), dal.ErrReleased)
	if !alias.Released() {
		t.Fatal("a failed ResetAlias changed the handle")
	}
	// Aliasing itself keeps the block.
	self := dal.WrapWithDeleter(randFloat32(4), d.fn())
	must(t, self.ResetAlias(self, self.Data()[1:3]))
	if self.Count() != 2 || self.UseCount() != 1 {
		t.Fatalf("self alias: count %d, uses %d", self.Count(), self.UseCount())
	}
	must(t, self.Release())
	d.want(t, 2, "after the self alias's release")
}
