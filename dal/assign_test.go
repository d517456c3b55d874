package dal_test

import (
	"slices"
	"testing"

	"github.com/gokkos/kokkos/dal"
)

// b.Assign(a) is oneDAL's copy assignment b = a: b's old block loses its
// holder (its deleter runs if that was the last), and b shares a's block.
func TestAssignReleasesTheOldBlock(t *testing.T) {
	var da, db deleter
	adata, bdata := randFloat64(12), randFloat64(5)
	a := dal.WrapWithDeleter(adata, da.fn())
	b := dal.WrapMutableWithDeleter(bdata, db.fn())
	must(t, b.Assign(a))
	db.want(t, 1, "after b.Assign(a)")
	da.want(t, 0, "after b.Assign(a)")
	if b.Count() != 12 || b.HasMutableData() || !same(b.Data(), adata) || b.Allocation() != a.Allocation() {
		t.Fatal("b does not read a's elements, with a's mutability")
	}
	if a.UseCount() != 2 || b.UseCount() != 2 {
		t.Fatalf("uses: a %d, b %d; want 2 each", a.UseCount(), b.UseCount())
	}
	must(t, a.Release())
	da.want(t, 0, "while b holds a's block")
	for i := range adata {
		if b.At(i) != adata[i] {
			t.Fatalf("element %d: %v, want %v", i, b.At(i), adata[i])
		}
	}
	must(t, b.Release())
	da.want(t, 1, "after b's release")
	wantErr(t, b.Release(), dal.ErrReleasedTwice)
	da.want(t, 1, "after a second release")
}

// The plain assignment b = a.Share() does not release b's old block; Assign
// does, and only drops b's holder when others hold the old block too.
func TestAssignWithOtherHolders(t *testing.T) {
	var dold deleter
	old := dal.WrapWithDeleter(randFloat32(7), dold.fn())
	b := old.Share()
	src, err := dal.Full(9, randFloat32(1)[0])
	must(t, err)
	sl, err := src.Slice(2, 6)
	must(t, err)
	must(t, b.Assign(sl))
	dold.want(t, 0, "with old still holding its block")
	if old.UseCount() != 1 || src.UseCount() != 3 || b.Count() != 4 || !b.HasMutableData() || &b.Data()[0] != &src.Data()[2] {
		t.Fatalf("after Assign: old uses %d (want 1), src uses %d (want 3), b count %d", old.UseCount(), src.UseCount(), b.Count())
	}
	// Writes through b reach the shared block.
	md, err := b.MutableData()
	must(t, err)
	x := randFloat32(1)[0] + 2
	md[1] = x
	if src.At(3) != x {
		t.Fatal("b is not a handle on src's block")
	}
	for _, h := range []*dal.Array[float32]{&old, &sl, &src, &b} {
		must(t, h.Release())
	}
	dold.want(t, 1, "after every release")
}

func TestAssignEdgeCases(t *testing.T) {
	var d deleter
	a := dal.WrapWithDeleter(randFloat64(4), d.fn())

	// Self-assignment, also through a copy, keeps the hold: no count moves.
	must(t, a.Assign(a))
	c := a
	c.DiscardMutableData()
	must(t, a.Assign(c))
	if a.Released() || c.Released() || a.UseCount() != 1 {
		t.Fatalf("self-assignment: released %v/%v, uses %d", a.Released(), c.Released(), a.UseCount())
	}
	d.want(t, 0, "after self-assignment")

	// Assigning from a released array fails and changes nothing.
	r := dal.Wrap(randFloat64(3))
	rc := r
	must(t, r.Release())
	wantErr(t, a.Assign(rc), dal.ErrReleased)
	if a.Released() || a.Count() != 4 || a.UseCount() != 1 {
		t.Fatal("a failed Assign changed the handle")
	}

	// Assigning from a copy that moved the hold it borrowed to a block of
	// its own: a new hold on that block.
	ro := dal.Wrap(randFloat64(6))
	cp := ro
	must(t, cp.NeedMutableData())
	if !ro.Released() {
		t.Fatal("the original of a copy that moved their hold is not released")
	}
	must(t, a.Assign(cp))
	d.want(t, 1, "after a.Assign of another block")
	if !a.HasMutableData() || !same(a.Data(), cp.Data()) || cp.UseCount() != 2 {
		t.Fatal("Assign from a copy that made its own block")
	}

	// Assigning the empty array empties the handle and ends its hold.
	var empty dal.Array[float64]
	must(t, a.Assign(empty))
	if a.Count() != 0 || a.Released() || a.Allocation() != nil || cp.UseCount() != 1 {
		t.Fatal("Assign of the empty array did not empty the handle")
	}
	must(t, a.Release())
	wantErr(t, a.Release(), dal.ErrReleasedTwice)

	// Assign through a borrowed copy ends the hold it borrowed: the
	// original sees it released.
	var d2 deleter
	h := dal.WrapWithDeleter(randFloat64(2), d2.fn())
	borrowed := h
	must(t, borrowed.Assign(cp))
	d2.want(t, 1, "after Assign through the borrowed copy")
	if !h.Released() || borrowed.Released() {
		t.Fatal("Assign through a copy did not end the borrowed hold, or released the copy")
	}
	wantPanic(t, dal.ErrReleased, func() { h.At(0) })
	wantErr(t, h.Release(), dal.ErrReleasedTwice)
	must(t, borrowed.Release())
	// Release through ro, which cp's move left released, ends the hold
	// they share: cp's block.
	must(t, ro.Release())
	if !cp.Released() {
		t.Fatal("Release through the handle left on the old block kept the hold")
	}
	wantErr(t, cp.Release(), dal.ErrReleasedTwice)
}

// b.Move(&a) is oneDAL's move assignment: a becomes empty, b takes a's hold
// without any count moving, and b's old block loses its holder.
func TestMove(t *testing.T) {
	var da, db deleter
	adata := randFloat32(8)
	a := dal.WrapMutableWithDeleter(adata, da.fn())
	b := dal.WrapWithDeleter(randFloat32(3), db.fn())
	borrowed := a
	must(t, b.Move(&a))
	db.want(t, 1, "after b.Move(&a)")
	if a.Count() != 0 || a.Released() || a.Allocation() != nil {
		t.Fatal("the source of Move is not empty")
	}
	if !same(b.Data(), adata) || !b.HasMutableData() || b.UseCount() != 1 || borrowed.Released() {
		t.Fatal("Move did not hand over the handle and its hold")
	}
	must(t, a.Release()) // empty: holds nothing
	da.want(t, 0, "after releasing the moved-from array")
	must(t, b.Move(&b))
	must(t, b.Move(&borrowed)) // shares the hold: keeps it
	if b.UseCount() != 1 || b.Released() {
		t.Fatal("Move from a copy sharing the hold moved a count")
	}
	var r dal.Array[float32]
	must(t, r.Release())
	wantErr(t, b.Move(&r), dal.ErrReleased)
	if b.Released() || !r.Released() {
		t.Fatal("a failed Move changed the handles")
	}
	must(t, b.Release())
	da.want(t, 1, "after b's release")
}

func TestClone(t *testing.T) {
	var d deleter
	data := randFloat64(32)
	orig := slices.Clone(data)
	a := dal.WrapWithDeleter(data, d.fn())
	sl, err := a.Slice(4, 20)
	must(t, err)
	c, err := sl.Clone()
	must(t, err)
	if !c.HasMutableData() || c.Count() != 16 || same(c.Data(), data[4:20]) || !slices.Equal(c.Data(), orig[4:20]) ||
		c.UseCount() != 1 || a.UseCount() != 2 || sl.HasMutableData() {
		t.Fatal("Clone did not give a private mutable copy, or changed the source")
	}
	md, err := c.MutableData()
	must(t, err)
	for i, x := range randFloat64(16) {
		md[i] = x
	}
	if !slices.Equal(data, orig) {
		t.Fatal("a write to the clone reached the source")
	}
	must(t, c.Release())
	must(t, sl.Release())

	// Clone then Move drops the original block at once.
	n, err := a.Clone()
	must(t, err)
	must(t, a.Move(&n))
	d.want(t, 1, "after Clone and Move")
	if !a.HasMutableData() || !slices.Equal(a.Data(), orig) || a.UseCount() != 1 {
		t.Fatal("Clone and Move did not leave a mutable copy")
	}
	must(t, a.Release())

	var empty dal.Array[int]
	e, err := empty.Clone()
	must(t, err)
	if e.Count() != 0 || e.Allocation() != nil {
		t.Fatal("Clone of the empty array is not empty")
	}
	must(t, empty.Release())
	_, err = empty.Clone()
	wantErr(t, err, dal.ErrReleased)
}
