package dal_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// FuzzArrayOwnership runs a sequence of operations, decoded from the input,
// on a few Array variables, and after each one compares every variable and
// every block with a reference model: the elements each handle reads, its
// mutability, whether it is released, the holders of each block, and the
// deleter and space frees of each block, which must happen exactly once,
// when the block's last holder is released. At the end it releases every
// hold still live and checks that every block was freed once.
//
// The operations are those of oneDAL's array and their Go forms: making an
// array (Wrap and its deleter and mutable forms, Full in Go memory or in a
// block space, ResetCount, ResetWithDeleter), sharing (Share, Slice,
// ResetAlias, Clone), copying the value (b = a), copy and move assignment
// (Assign, Move), NeedMutableData, DiscardMutableData, Release, Reset,
// reading, writing through MutableData, and a view of the elements.
func FuzzArrayOwnership(f *testing.F) {
	// Each seed is a sequence of operations; see (*ownershipRun).step for
	// the encoding: an operation byte, then its arguments.
	f.Add([]byte{})
	f.Add([]byte{
		opWrap, 0, 4, 0, // a := dal.Wrap(4 elements)
		opFull, 1, 4, 0, // ones := dal.Full(4, v)
		opShare, 2, 0, // arr_mdata := arr_data (the copy constructor)
		opNeedMutable, 2, // arr_mdata.NeedMutableData()
		opWrite, 2, 1, // write through arr_mdata
		opRead, 0, opRead, 2,
		opRelease, 0, opRelease, 1, opRelease, 2,
	})
	f.Add([]byte{
		opWrap, 0, 5, 2, opWrap, 1, 3, 3, // two arrays with deleters
		opShare, 2, 0, opAssign, 1, 0, // b = a: b's deleter runs
		opAssign, 1, 1, opAssign, 2, 1, // self-assignment, assignment from a sharer
		opMove, 3, 1, opRelease, 1, opRelease, 3,
		opRelease, 0, opRelease, 2, opRelease, 2,
	})
	f.Add([]byte{
		opFull, 0, 8, 1, // in a block space
		opSlice, 1, 0, 2, 5, opDiscard, 1, opCopy, 2, 1,
		opNeedMutable, 2, opNeedMutable, 1, opWrite, 1, 0, opWrite, 2, 3,
		opView, 2, opClone, 3, 2, opMove, 0, 3,
		opReset, 1, opResetCount, 2, 6, opRelease, 0, opRelease, 0,
	})
	f.Add([]byte{
		opWrap, 0, 6, 1, opResetAlias, 1, 0, 1, 4, 1,
		opCopy, 2, 1, opRelease, 2, opRead, 1, opNeedMutable, 1,
		opResetWithDeleter, 0, 3, 1, opRelease, 3, opRelease, 3,
		opShare, 3, 1, opRelease, 0,
	})
	f.Fuzz(func(t *testing.T, ops []byte) {
		r := newOwnershipRun(t, ops)
		for i := 0; i < 256 && r.more(); i++ {
			r.step()
			r.check()
		}
		r.finish()
	})
}

// The operations of FuzzArrayOwnership.
const (
	opWrap             = iota // slot, count, kind (bit 0 mutable, bit 1 deleter)
	opFull                    // slot, count, space (bit 0: the block space)
	opShare                   // dst, src
	opCopy                    // dst, src: arrs[dst] = arrs[src]
	opAssign                  // dst, src
	opMove                    // dst, src
	opNeedMutable             // slot
	opDiscard                 // slot
	opRelease                 // slot
	opReset                   // slot
	opResetCount              // slot, count
	opResetWithDeleter        // slot, count, mutable
	opSlice                   // dst, src, first, last
	opResetAlias              // dst, owner, first, last, mutable
	opClone                   // dst, src
	opRead                    // slot
	opWrite                   // slot, index
	opView                    // slot
	numOps
)

const (
	numSlots = 4
	maxCount = 12
)

// mBlock is the model of a block.
type mBlock struct {
	vals    []float64 // the elements
	holders int
	deleter *deleter // nil without one
	caller  []float64
	heap    bool // in the test's block space, which counts frees
	rec     *kokkos.Allocation
}

// mHold is the model of a hold: it holds one block at a time.
type mHold struct {
	released bool
	block    int // -1: none
}

// mSlot is the model of an Array variable.
type mSlot struct {
	hold       int // -1: no hold (the empty array)
	block      int // -1: no block
	off, count int
	mutable    bool
}

func emptySlot() mSlot { return mSlot{hold: -1, block: -1} }

type ownershipRun struct {
	t      *testing.T
	in     []byte
	rng    *rand.Rand
	space  *heapSpace
	arrs   [numSlots]dal.Array[float64]
	slots  [numSlots]mSlot
	blocks []*mBlock
	holds  []*mHold
	// holders has, for each hold, a copy of an array that shares it, to
	// release it at the end.
	holders []dal.Array[float64]
	log     []string
}

func newOwnershipRun(t *testing.T, in []byte) *ownershipRun {
	h := fnv.New64a()
	h.Write(in)
	r := &ownershipRun{t: t, in: in, rng: rand.New(rand.NewPCG(h.Sum64(), 1)), space: newHeapSpace()}
	for i := range r.slots {
		r.slots[i] = emptySlot()
	}
	return r
}

func (r *ownershipRun) more() bool { return len(r.in) > 0 }

func (r *ownershipRun) next() int {
	if len(r.in) == 0 {
		return 0
	}
	b := r.in[0]
	r.in = r.in[1:]
	return int(b)
}

func (r *ownershipRun) slot() int  { return r.next() % numSlots }
func (r *ownershipRun) count() int { return r.next() % (maxCount + 1) }

// value returns a random element, never zero.
func (r *ownershipRun) value() float64 { return 1 + r.rng.Float64() }

func (r *ownershipRun) values(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.value()
	}
	return v
}

func (r *ownershipRun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nafter: %v", fmt.Sprintf(format, args...), r.log)
}

func (r *ownershipRun) wantErr(err, kind error, op string) {
	r.t.Helper()
	if kind == nil {
		if err != nil {
			r.fatalf("%s: %v", op, err)
		}
		return
	}
	if !errors.Is(err, kind) {
		r.fatalf("%s: error %v, want %q", op, err, kind)
	}
}

// wantPanic checks that f panics with an error wrapping kind, or does not
// panic when kind is nil.
func (r *ownershipRun) wantPanic(kind error, op string, f func()) {
	r.t.Helper()
	p := recovered(f)
	if kind == nil {
		if p != nil {
			r.fatalf("%s panicked: %v", op, p)
		}
		return
	}
	if err, ok := p.(error); !ok || !errors.Is(err, kind) {
		r.fatalf("%s: panic %v, want an error wrapping %q", op, p, kind)
	}
}

// released reports whether the variable's handle is released: its hold
// was, or moved to another block (NeedMutableData through a copy).
func (r *ownershipRun) released(s mSlot) bool {
	if s.hold < 0 {
		return false
	}
	h := r.holds[s.hold]
	return h.released || h.block != s.block
}

// ended reports whether the variable's hold was released.
func (r *ownershipRun) ended(s mSlot) bool { return s.hold >= 0 && r.holds[s.hold].released }

// newBlock adds a block with one holder and returns its id.
func (r *ownershipRun) newBlock(b *mBlock) int {
	b.holders = 1
	r.blocks = append(r.blocks, b)
	return len(r.blocks) - 1
}

// newHold adds a hold on block (-1: none), shared by the array a, and
// returns its id.
func (r *ownershipRun) newHold(a dal.Array[float64], block int) int {
	r.holds = append(r.holds, &mHold{block: block})
	r.holders = append(r.holders, a)
	return len(r.holds) - 1
}

// retain adds a hold on block, shared by a, and returns its id.
func (r *ownershipRun) retain(a dal.Array[float64], block int) int {
	r.blocks[block].holders++
	return r.newHold(a, block)
}

// end ends a hold, if it is one and it is live.
func (r *ownershipRun) end(hold int) {
	if hold < 0 || r.holds[hold].released {
		return
	}
	h := r.holds[hold]
	h.released = true
	if h.block >= 0 {
		r.blocks[h.block].holders--
	}
}

// learn records the allocation of a new block from the array that reads
// it.
func (r *ownershipRun) learn(block int, a dal.Array[float64]) {
	r.blocks[block].rec = a.Allocation()
}

func (r *ownershipRun) step() {
	op := r.next() % numOps
	switch op {
	case opWrap:
		s, n, kind := r.slot(), r.count(), r.next()
		data := r.values(n)
		b := &mBlock{vals: slices.Clone(data), caller: data}
		mutable := kind&1 != 0
		var a dal.Array[float64]
		switch kind & 3 {
		case 0:
			a = dal.Wrap(data)
		case 1:
			a = dal.WrapMutable(data)
		case 2:
			b.deleter = new(deleter)
			a = dal.WrapWithDeleter(data, b.deleter.fn())
		case 3:
			b.deleter = new(deleter)
			a = dal.WrapMutableWithDeleter(data, b.deleter.fn())
		}
		r.arrs[s] = a
		id := r.newBlock(b)
		r.learn(id, a)
		r.slots[s] = mSlot{hold: r.newHold(a, id), block: id, count: n, mutable: mutable}
		r.log = append(r.log, fmt.Sprintf("a%d = Wrap(%d, kind %d)", s, n, kind&3))

	case opFull:
		s, n, where := r.slot(), r.count(), r.next()
		v := r.value()
		b := &mBlock{vals: slices.Repeat([]float64{v}, n), heap: where&1 != 0}
		var opts []dal.Option
		if b.heap {
			opts = append(opts, dal.InSpace(r.space))
		}
		a, err := dal.Full(n, v, opts...)
		r.wantErr(err, nil, "Full")
		r.arrs[s] = a
		id := r.newBlock(b)
		r.learn(id, a)
		r.slots[s] = mSlot{hold: r.newHold(a, id), block: id, count: n, mutable: true}
		r.log = append(r.log, fmt.Sprintf("a%d = Full(%d, heap %v)", s, n, b.heap))

	case opShare:
		d, s := r.slot(), r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d = a%d.Share()", d, s))
		src := r.slots[s]
		if r.released(src) {
			r.wantPanic(dal.ErrReleased, "Share", func() { r.arrs[s].Share() })
			return
		}
		var a dal.Array[float64]
		r.wantPanic(nil, "Share", func() { a = r.arrs[s].Share() })
		r.arrs[d] = a
		if src.hold < 0 {
			r.slots[d] = emptySlot()
			return
		}
		src.hold = r.retain(a, src.block)
		r.slots[d] = src

	case opCopy:
		d, s := r.slot(), r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d = a%d", d, s))
		r.arrs[d] = r.arrs[s]
		r.slots[d] = r.slots[s]

	case opAssign:
		d, s := r.slot(), r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.Assign(a%d)", d, s))
		dst, src := r.slots[d], r.slots[s]
		err := r.arrs[d].Assign(r.arrs[s])
		switch {
		case r.released(src):
			r.wantErr(err, dal.ErrReleased, "Assign from a released array")
			return
		case src.hold < 0:
			r.end(dst.hold)
			r.slots[d] = emptySlot()
		case src.hold == dst.hold:
			r.slots[d] = src
		default:
			src.hold = r.retain(r.arrs[d], src.block)
			r.end(dst.hold)
			r.slots[d] = src
		}
		r.wantErr(err, nil, "Assign")

	case opMove:
		d, s := r.slot(), r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.Move(&a%d)", d, s))
		dst, src := r.slots[d], r.slots[s]
		err := r.arrs[d].Move(&r.arrs[s])
		switch {
		case d == s:
		case r.released(src):
			r.wantErr(err, dal.ErrReleased, "Move from a released array")
			return
		default:
			if dst.hold != src.hold {
				r.end(dst.hold)
			}
			r.slots[d], r.slots[s] = src, emptySlot()
		}
		r.wantErr(err, nil, "Move")

	case opNeedMutable:
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.NeedMutableData()", s))
		m := r.slots[s]
		err := r.arrs[s].NeedMutableData()
		switch {
		case r.released(m):
			r.wantErr(err, dal.ErrReleased, "NeedMutableData of a released array")
			return
		case m.hold < 0 || m.mutable || m.count == 0:
		default:
			old := r.blocks[m.block]
			id := r.newBlock(&mBlock{vals: slices.Clone(old.vals[m.off : m.off+m.count]), heap: old.heap})
			r.learn(id, r.arrs[s])
			// The hold moves to the new block and gives up the old one at
			// once; copies left on it are released.
			h := r.holds[m.hold]
			r.blocks[h.block].holders--
			h.block = id
			r.slots[s] = mSlot{hold: m.hold, block: id, count: m.count, mutable: true}
		}
		r.wantErr(err, nil, "NeedMutableData")

	case opDiscard:
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.DiscardMutableData()", s))
		if r.released(r.slots[s]) {
			r.wantPanic(dal.ErrReleased, "DiscardMutableData", func() { r.arrs[s].DiscardMutableData() })
			return
		}
		r.wantPanic(nil, "DiscardMutableData", func() { r.arrs[s].DiscardMutableData() })
		r.slots[s].mutable = false

	case opRelease:
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.Release()", s))
		m := r.slots[s]
		err := r.arrs[s].Release()
		switch {
		case m.hold < 0:
			// The empty array: Release holds nothing, and marks the
			// variable released.
			r.slots[s] = mSlot{hold: r.newHold(r.arrs[s], -1), block: -1}
			r.holds[r.slots[s].hold].released = true
		case r.ended(m):
			r.wantErr(err, dal.ErrReleasedTwice, "second Release")
			return
		default:
			r.end(m.hold)
		}
		r.wantErr(err, nil, "Release")

	case opReset:
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.Reset()", s))
		r.wantErr(r.arrs[s].Reset(), nil, "Reset")
		r.end(r.slots[s].hold)
		r.slots[s] = emptySlot()

	case opResetCount:
		s, n := r.slot(), r.count()
		r.log = append(r.log, fmt.Sprintf("a%d.ResetCount(%d)", s, n))
		r.wantErr(r.arrs[s].ResetCount(n), nil, "ResetCount")
		r.end(r.slots[s].hold)
		// The contents are unspecified: write known ones.
		md, err := r.arrs[s].MutableData()
		r.wantErr(err, nil, "MutableData after ResetCount")
		vals := r.values(n)
		copy(md, vals)
		id := r.newBlock(&mBlock{vals: vals})
		r.learn(id, r.arrs[s])
		r.slots[s] = mSlot{hold: r.newHold(r.arrs[s], id), block: id, count: n, mutable: true}

	case opResetWithDeleter:
		s, n, mutable := r.slot(), r.count(), r.next()&1 != 0
		r.log = append(r.log, fmt.Sprintf("a%d.ResetWithDeleter(%d, mutable %v)", s, n, mutable))
		data := r.values(n)
		b := &mBlock{vals: slices.Clone(data), caller: data, deleter: new(deleter)}
		var err error
		if mutable {
			err = r.arrs[s].ResetMutableWithDeleter(data, b.deleter.fn())
		} else {
			err = r.arrs[s].ResetWithDeleter(data, b.deleter.fn())
		}
		r.wantErr(err, nil, "ResetWithDeleter")
		r.end(r.slots[s].hold)
		id := r.newBlock(b)
		r.learn(id, r.arrs[s])
		r.slots[s] = mSlot{hold: r.newHold(r.arrs[s], id), block: id, count: n, mutable: mutable}

	case opSlice:
		d, s, first, last := r.slot(), r.slot(), r.next()%(maxCount+2), r.next()%(maxCount+2)
		r.log = append(r.log, fmt.Sprintf("a%d = a%d.Slice(%d, %d)", d, s, first, last))
		src := r.slots[s]
		a, err := r.arrs[s].Slice(first, last)
		switch {
		case r.released(src):
			r.wantErr(err, dal.ErrReleased, "Slice of a released array")
			return
		case first > last || last > src.count:
			r.wantErr(err, dal.ErrRange, "Slice out of range")
			return
		}
		r.wantErr(err, nil, "Slice")
		r.arrs[d] = a
		if src.hold < 0 {
			r.slots[d] = emptySlot()
			return
		}
		r.slots[d] = mSlot{hold: r.retain(a, src.block), block: src.block, off: src.off + first, count: last - first, mutable: src.mutable}

	case opResetAlias:
		d, s, first, last, mutable := r.slot(), r.slot(), r.next(), r.next(), r.next()&1 != 0
		r.log = append(r.log, fmt.Sprintf("a%d.ResetAlias(a%d, [%d:%d], mutable %v)", d, s, first, last, mutable))
		owner := r.slots[s]
		var part []float64
		if !r.released(owner) && owner.count > 0 {
			first, last = first%owner.count, last%owner.count
			first, last = min(first, last), max(first, last)
			part = r.arrs[s].Data()[first:last]
		}
		var err error
		if mutable {
			err = r.arrs[d].ResetAliasMutable(r.arrs[s], part)
		} else {
			err = r.arrs[d].ResetAlias(r.arrs[s], part)
		}
		switch {
		case r.released(owner):
			r.wantErr(err, dal.ErrReleased, "ResetAlias with a released owner")
			return
		}
		r.wantErr(err, nil, "ResetAlias")
		if owner.hold < 0 {
			// An empty owner: the handle wraps part (nil here) without
			// owning it, as Wrap.
			id := r.newBlock(&mBlock{vals: slices.Clone(part), caller: part})
			r.learn(id, r.arrs[d])
			r.end(r.slots[d].hold)
			r.slots[d] = mSlot{hold: r.newHold(r.arrs[d], id), block: id, count: len(part), mutable: mutable}
			return
		}
		if owner.count == 0 {
			first, last = 0, 0
		}
		hold := r.retain(r.arrs[d], owner.block)
		r.end(r.slots[d].hold)
		r.slots[d] = mSlot{hold: hold, block: owner.block, off: owner.off + first, count: last - first, mutable: mutable}

	case opClone:
		d, s := r.slot(), r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d = a%d.Clone()", d, s))
		src := r.slots[s]
		a, err := r.arrs[s].Clone()
		switch {
		case r.released(src):
			r.wantErr(err, dal.ErrReleased, "Clone of a released array")
			return
		case src.hold < 0:
			r.wantErr(err, nil, "Clone")
			r.arrs[d], r.slots[d] = a, emptySlot()
			return
		}
		r.wantErr(err, nil, "Clone")
		old := r.blocks[src.block]
		id := r.newBlock(&mBlock{vals: slices.Clone(old.vals[src.off : src.off+src.count]), heap: old.heap})
		r.learn(id, a)
		r.arrs[d] = a
		r.slots[d] = mSlot{hold: r.newHold(a, id), block: id, count: src.count, mutable: true}

	case opRead:
		// check reads every variable after every step; this one also
		// reads through Data.
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("read a%d", s))
		m := r.slots[s]
		if r.released(m) {
			r.wantPanic(dal.ErrReleased, "Data of a released array", func() { r.arrs[s].Data() })
			return
		}
		if m.hold >= 0 && !slices.Equal(r.arrs[s].Data(), r.blocks[m.block].vals[m.off:m.off+m.count]) {
			r.fatalf("a%d.Data() = %v, want %v", s, r.arrs[s].Data(), r.blocks[m.block].vals[m.off:m.off+m.count])
		}

	case opWrite:
		s, i := r.slot(), r.next()
		r.log = append(r.log, fmt.Sprintf("write a%d", s))
		m := r.slots[s]
		md, err := r.arrs[s].MutableData()
		switch {
		case r.released(m):
			r.wantErr(err, dal.ErrReleased, "MutableData of a released array")
			return
		case !m.mutable:
			r.wantErr(err, dal.ErrNoMutableData, "MutableData of an immutable array")
			return
		}
		r.wantErr(err, nil, "MutableData")
		if m.count == 0 {
			return
		}
		i %= m.count
		v := r.value()
		md[i] = v
		r.blocks[m.block].vals[m.off+i] = v

	case opView:
		s := r.slot()
		r.log = append(r.log, fmt.Sprintf("a%d.View()", s))
		m := r.slots[s]
		v, err := r.arrs[s].View()
		if r.released(m) {
			r.wantErr(err, dal.ErrReleased, "View of a released array")
			return
		}
		r.wantErr(err, nil, "View")
		if m.hold < 0 {
			return
		}
		b := r.blocks[m.block]
		if v.Extent(0) != m.count || v.IsReadOnly() == m.mutable || v.UseCount() != b.holders+1 {
			r.fatalf("a%d.View(): extent %d, read-only %v, holders %d; want %d, %v, %d", s, v.Extent(0), v.IsReadOnly(), v.UseCount(), m.count, !m.mutable, b.holders+1)
		}
		for i := range m.count {
			if v.At(i) != b.vals[m.off+i] {
				r.fatalf("a%d.View() element %d = %v, want %v", s, i, v.At(i), b.vals[m.off+i])
			}
		}
		r.wantErr(v.Release(), nil, "Release of the view")
	}
}

// check compares every variable and every block with the model.
func (r *ownershipRun) check() {
	r.t.Helper()
	for s := range r.arrs {
		a, m := r.arrs[s], r.slots[s]
		rel := r.released(m)
		count, mutable, uses := m.count, m.mutable, 0
		if m.block >= 0 {
			uses = r.blocks[m.block].holders
		}
		if rel {
			count, mutable, uses = 0, false, 0
		}
		if a.Released() != rel || a.Count() != count || a.HasMutableData() != mutable || a.UseCount() != uses {
			r.fatalf("a%d: released %v, count %d, mutable %v, holders %d; want %v, %d, %v, %d",
				s, a.Released(), a.Count(), a.HasMutableData(), a.UseCount(), rel, count, mutable, uses)
		}
		if rel {
			r.wantPanic(dal.ErrReleased, "At of a released array", func() { a.At(0) })
			continue
		}
		for i := range count {
			if got, want := a.At(i), r.blocks[m.block].vals[m.off+i]; got != want {
				r.fatalf("a%d.At(%d) = %v, want %v", s, i, got, want)
			}
		}
		r.wantPanic(dal.ErrRange, "At past the end", func() { a.At(count) })
	}
	frees := 0
	for id, b := range r.blocks {
		if b.holders < 0 {
			r.fatalf("block %d: %d holders in the model", id, b.holders)
		}
		if got := b.rec.UseCount(); got != b.holders {
			r.fatalf("block %d: %d holders, want %d", id, got, b.holders)
		}
		freed := b.holders == 0
		if b.deleter != nil {
			want := int32(0)
			if freed {
				want = 1
			}
			if got := b.deleter.calls.Load(); got != want {
				r.fatalf("block %d: deleter called %d times, want %d", id, got, want)
			}
		}
		if b.caller != nil && !slices.Equal(b.caller, b.vals) {
			r.fatalf("block %d: the caller's memory is %v, want %v", id, b.caller, b.vals)
		}
		if b.heap && freed {
			frees++
		}
	}
	if _, got, bad := r.space.counts(); got != frees || bad != 0 {
		r.fatalf("the block space freed %d blocks (%d not live), want %d", got, bad, frees)
	}
}

// finish releases every live hold and checks that every block was freed
// exactly once.
func (r *ownershipRun) finish() {
	r.t.Helper()
	for id, h := range r.holds {
		if h.released {
			continue
		}
		r.log = append(r.log, fmt.Sprintf("release hold %d", id))
		r.wantErr(r.holders[id].Release(), nil, "Release at the end")
		r.end(id)
		r.check()
	}
	heap := 0
	for id, b := range r.blocks {
		if b.holders != 0 || b.rec.UseCount() != 0 {
			r.fatalf("block %d has holders after every release", id)
		}
		if b.heap {
			heap++
		}
	}
	if allocs, frees, bad := r.space.counts(); allocs != heap || frees != heap || bad != 0 {
		r.fatalf("the block space: %d allocations, %d frees (%d not live); want %d and %d", allocs, frees, bad, heap, heap)
	}
}
