package containers

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos"
)

//go:generate go run ./internal/scattergen

// ScatterView1 to ScatterView6 (scatter_gen.go) are Kokkos's
// Kokkos::Experimental::ScatterView: a view that many concurrent units of
// work update with one associative, commutative operation (a histogram's
// counts, a sum of forces), without each update being an atomic on
// shared memory. The operation is the type parameter Op (ScatterSum,
// ScatterProd, ScatterMin, ScatterMax), as in Kokkos. Two choices, made
// when the ScatterView is made, say how the updates land:
//
//   - duplicated (ScatterDuplicated): each holder of an id of a
//     kokkos.UniqueToken of the execution space updates a copy of its own
//     with plain loads and stores; Contribute then combines the copies
//     into a view. The default on a host space of more than one worker.
//   - non-duplicated (ScatterNonDuplicated): the updates land in the view
//     itself, atomically (ScatterAtomic, the default on a device) or not
//     (ScatterNonAtomic, the default on kokkos.Serial).
//
// A ScatterView is a small handle: copies share the same state.

// ScatterOp is the operation of a ScatterView: one of ScatterSum,
// ScatterProd, ScatterMin and ScatterMax.
type ScatterOp interface {
	ScatterSum | ScatterProd | ScatterMin | ScatterMax
}

// ScatterSum adds: the accessor's Add, Sub and Update (which adds); the
// copies start at 0.
type ScatterSum struct{}

// ScatterProd multiplies: the accessor's Mul, Div and Update (which
// multiplies); the copies start at 1.
type ScatterProd struct{}

// ScatterMin keeps the least value: the accessor's Update; the copies
// start at the greatest value of the element type (+Inf for floats).
type ScatterMin struct{}

// ScatterMax keeps the greatest value: the accessor's Update; the copies
// start at the least value of the element type (-Inf for floats).
type ScatterMax struct{}

// ScatterDuplication says whether a ScatterView keeps a copy of the view
// per id of a unique token (ScatterDuplicated) or updates the view itself
// (ScatterNonDuplicated). It is a ScatterOption.
type ScatterDuplication uint8

const (
	ScatterDuplicated ScatterDuplication = iota + 1
	ScatterNonDuplicated
)

// ScatterContribution says whether a ScatterView's updates are atomic
// (ScatterAtomic) or plain loads and stores (ScatterNonAtomic). It is a
// ScatterOption.
type ScatterContribution uint8

const (
	ScatterAtomic ScatterContribution = iota + 1
	ScatterNonAtomic
)

// A ScatterOption chooses how a ScatterView is made: ScatterOn(space),
// ScatterDuplicated or ScatterNonDuplicated, ScatterAtomic or
// ScatterNonAtomic.
type ScatterOption interface {
	applyScatter(*scatterConfig)
}

type scatterConfig struct {
	space   kokkos.ExecutionSpace
	dup     ScatterDuplication
	contrib ScatterContribution
}

func (d ScatterDuplication) applyScatter(c *scatterConfig)  { c.dup = d }
func (d ScatterContribution) applyScatter(c *scatterConfig) { c.contrib = d }

type spaceOption struct{ s kokkos.ExecutionSpace }

func (o spaceOption) applyScatter(c *scatterConfig) { c.space = o.s }

// ScatterOn makes the ScatterView for work on the instance space: its
// defaults (duplicated and non-atomic on a host space of more than one
// worker, non-duplicated and non-atomic on one of one worker, as
// kokkos.Serial, non-duplicated and atomic on a device), the unique token
// of its copies, and the instance that Reset and Contribute run on. By
// default it is kokkos.DefaultExecutionSpace() for a view in host memory,
// and a device for a view the host cannot access.
func ScatterOn(space kokkos.ExecutionSpace) ScatterOption { return spaceOption{space} }

// ErrScatterView is matched (errors.Is) by the errors of ScatterViews: a
// view a ScatterView cannot be made of (read-only, with the Atomic trait,
// duplicated in device memory), a Contribute destination of other
// extents, a read-only destination.
var ErrScatterView = errors.New("containers: ScatterView")

// opKind is a ScatterView's operation, known at run time.
type opKind uint8

const (
	opSum opKind = iota
	opProd
	opMin
	opMax
)

func (k opKind) String() string {
	return [...]string{"ScatterSum", "ScatterProd", "ScatterMin", "ScatterMax"}[k]
}

func opOf[Op ScatterOp]() opKind {
	var o Op
	switch any(o).(type) {
	case ScatterProd:
		return opProd
	case ScatterMin:
		return opMin
	case ScatterMax:
		return opMax
	}
	return opSum
}

// Access modes: the operation, plus modeAtomic for atomic updates. The
// accessors' fast paths compare the mode with modeSum or modeProd (plain
// updates) once per update.
const (
	modeSum    = uint8(opSum)
	modeProd   = uint8(opProd)
	modeMin    = uint8(opMin)
	modeMax    = uint8(opMax)
	modeAtomic = 4
)

// identity returns the neutral value of op for T: what the copies start
// at.
func identity[T kokkos.Number](op opKind) T {
	switch op {
	case opProd:
		return 1
	case opMin:
		return kokkos.Min[T]().Identity()
	case opMax:
		return kokkos.Max[T]().Identity()
	}
	return 0
}

// join combines b into a with op.
func join[T kokkos.Number](op opKind, a, b T) T {
	switch op {
	case opProd:
		return a * b
	case opMin:
		if b < a {
			return b
		}
		return a
	case opMax:
		if b > a {
			return b
		}
		return a
	}
	return a + b
}

// cacheLine is the alignment of each copy of a duplicated ScatterView, so
// that holders of different ids never write the same cache line.
const cacheLine = 128

// scatterState is what the copies of a ScatterView handle share, of any
// rank: the view's shape, the choices, and a duplicated ScatterView's
// copies.
type scatterState[T kokkos.Number] struct {
	label  string
	op     opKind
	dup    bool
	atomic bool
	host   bool // the view is in memory the host can access
	space  kokkos.ExecutionSpace
	tok    kokkos.UniqueToken // dup only
	rank   int
	ext    [6]int
	size   int
	// copies holds ndup copies of the view, each laid out right, the
	// first element of copy j at copies[j*cstride]; nil unless dup.
	copies  []T
	cstride int
	ndup    int
	// used has bit j%64 of word j/64 set once an accessor has taken
	// copy j since Reset last set it to the identity: Reset and
	// Contribute touch only those copies (and the first, once Subview
	// has handed it out: sub0), where Kokkos touches them all.
	used []atomic.Uint64
	sub0 bool
	// vp and vstr are the view's base and strides, for a non-duplicated
	// ScatterView of a view in host memory.
	vp   *T
	vstr [6]int
	// released: Release was called; every method but Release panics.
	released bool
	// ids are the accessors' scatterIDs: ids[id+2] is that of id (-2,
	// released; -1, none; 0 to ndup-1, a copy's).
	ids []scatterID[T]
}

// scatterID is what an accessor's slow path takes: its state and the
// token's id the accessor holds (-1 for none, -2 once released).
type scatterID[T kokkos.Number] struct {
	s  *scatterState[T]
	id int
}

// initIDs makes s's scatterIDs; s is where the ScatterView keeps its state.
func (s *scatterState[T]) initIDs() {
	s.ids = make([]scatterID[T], s.ndup+2)
	for i := range s.ids {
		s.ids[i] = scatterID[T]{s, i - 2}
	}
}

// idOf returns the scatterID of id.
func (s *scatterState[T]) idOf(id int) *scatterID[T] { return &s.ids[id+2] }

// The accessors' update methods, as scatterSlow1..6 take them.
const (
	mAdd uint8 = iota
	mSub
	mMul
	mDiv
	mUpdate
)

var methodNames = [...]string{"Add", "Sub", "Mul", "Div", "Update"}

// mode returns the accessors' mode.
func (s *scatterState[T]) mode() uint8 {
	m := uint8(s.op)
	if s.atomic {
		m |= modeAtomic
	}
	return m
}

// elem returns the address of the element at idx of the copy of id, or
// of the view.
func (s *scatterState[T]) elem(id int, idx []int) *T {
	if s.dup {
		off, mul := 0, 1
		for d := s.rank - 1; d >= 0; d-- {
			off += idx[d] * mul
			mul *= s.ext[d]
		}
		return &s.copies[id*s.cstride+off]
	}
	var z T
	off := 0
	for d := range s.rank {
		off += idx[d] * s.vstr[d]
	}
	return (*T)(unsafe.Add(unsafe.Pointer(s.vp), uintptr(off)*unsafe.Sizeof(z)))
}

// newScatterState makes the state of a ScatterView of a view of label,
// extents ext, in host memory or not.
func newScatterState[T kokkos.Number](fn string, op opKind, label string, ext []int, host bool, opts []ScatterOption) (*scatterState[T], error) {
	var c scatterConfig
	for _, o := range opts {
		if o != nil {
			o.applyScatter(&c)
		}
	}
	s := &scatterState[T]{label: label, op: op, host: host, rank: len(ext), size: 1}
	copy(s.ext[:], ext)
	for _, e := range ext {
		s.size *= e
	}
	space := c.space
	_, hostSpace := space.(kokkos.HostExecutionSpace)
	if space == nil && host {
		space, hostSpace = kokkos.DefaultExecutionSpace(), true
	}
	s.space = space
	switch {
	case space == nil || !hostSpace:
		s.dup, s.atomic = false, true
	case space.Concurrency() > 1:
		s.dup, s.atomic = true, false
	default:
		s.dup, s.atomic = false, false
	}
	if c.dup != 0 {
		s.dup = c.dup == ScatterDuplicated
	}
	if c.contrib != 0 {
		s.atomic = c.contrib == ScatterAtomic
	}
	if s.dup && (!host || !hostSpace) {
		where := "a view the host cannot access"
		if host {
			where = "work on " + space.Name()
		}
		return nil, fmt.Errorf("%w: %s(%q): a duplicated ScatterView is for a host space and a view in host memory, not %s: make it ScatterNonDuplicated", ErrScatterView, fn, label, where)
	}
	if s.dup {
		s.tok = kokkos.NewUniqueToken(space)
		s.ndup = s.tok.Size()
		s.used = make([]atomic.Uint64, (s.ndup+63)/64)
		s.allocCopies()
		s.markAll()
		s.resetCopies(0)
	}
	return s, nil
}

// allocCopies allocates ndup copies of size elements, each aligned to a
// cache line.
func (s *scatterState[T]) allocCopies() {
	var z T
	line := cacheLine / int(unsafe.Sizeof(z))
	s.cstride = (s.size + line - 1) / line * line
	if s.cstride == 0 {
		s.cstride = line
	}
	buf := make([]T, s.cstride*s.ndup+line)
	// Skip to the first element on a cache line.
	mis := int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))) % cacheLine / unsafe.Sizeof(z))
	skip := 0
	if mis != 0 {
		skip = line - mis
	}
	s.copies = buf[skip : skip+s.cstride*s.ndup]
}

// check panics for a released ScatterView.
func (s *scatterState[T]) check(method string) {
	if s.released {
		panic(fmt.Sprintf("containers: ScatterView %q: %s after Release", s.label, method))
	}
}

// hostSpace returns the host instance that Reset and Contribute run on.
func (s *scatterState[T]) hostSpace() kokkos.HostExecutionSpace {
	if h, ok := s.space.(kokkos.HostExecutionSpace); ok {
		return h
	}
	return kokkos.DefaultExecutionSpace()
}

// parallel runs body over [0, n) in chunks on the host instance.
func (s *scatterState[T]) parallel(label string, n int, body func(lo, hi int)) {
	if n == 0 {
		return
	}
	kokkos.ParallelForChunks(label, kokkos.Range(0, n).On(s.hostSpace()), body)
}

// markUsed records that an accessor has taken copy id: an atomic Or the
// first time, a load afterwards.
func (s *scatterState[T]) markUsed(id int) {
	w, bit := &s.used[id>>6], uint64(1)<<(id&63)
	if w.Load()&bit == 0 {
		w.Or(bit)
	}
}

// markAll records every copy as used.
func (s *scatterState[T]) markAll() {
	for j := range s.ndup {
		s.markUsed(j)
	}
}

// usedCopies returns the copies from..ndup-1 that an accessor has taken
// since their last reset, in order, and the first copy, from 0, once
// Subview has handed it out.
func (s *scatterState[T]) usedCopies(from int) []int {
	var list []int
	for j := from; j < s.ndup; j++ {
		if s.used[j>>6].Load()&(1<<(j&63)) != 0 || j == 0 && s.sub0 {
			list = append(list, j)
		}
	}
	return list
}

// resetCopies sets the used copies among from..ndup-1 to the identity, in
// parallel over their elements, as Kokkos's ResetDuplicates (which
// resets every copy), and records them as unused.
func (s *scatterState[T]) resetCopies(from int) {
	id := identity[T](s.op)
	list := s.usedCopies(from)
	c, cs := s.copies, s.cstride
	s.parallel("ScatterView::ResetDuplicates", len(list)*cs, func(lo, hi int) {
		for lo < hi {
			k, off := lo/cs, lo%cs
			n := min(hi-lo, cs-off)
			base := list[k]*cs + off
			fill(c[base:base+n], id)
			lo += n
		}
	})
	for _, j := range list {
		s.used[j>>6].And(^(uint64(1) << (j & 63)))
	}
}

// fill sets every element of d to x: clear (memclr) for 0, otherwise
// copies of a doubling prefix (memmove).
func fill[T kokkos.Number](d []T, x T) {
	if x == 0 {
		clear(d)
		return
	}
	if len(d) == 0 {
		return
	}
	d[0] = x
	for k := 1; k < len(d); k *= 2 {
		copy(d[k:], d[:k])
	}
}

// flat is a rank-independent host view: its elements, extents and
// strides.
type flat[T any] struct {
	data  []T
	rank  int
	ext   [6]int
	str   [6]int
	right bool // laid out right and contiguous: element e at data[e]
}

func newFlat[T any](data []T, ext, str []int) flat[T] {
	f := flat[T]{data: data, rank: len(ext), right: true}
	copy(f.ext[:], ext)
	copy(f.str[:], str)
	want := 1
	for d := len(ext) - 1; d >= 0; d-- {
		if ext[d] > 1 && str[d] != want {
			f.right = false
		}
		want *= ext[d]
	}
	return f
}

// offset returns the offset of the element at position e in the right
// order of the indices.
func (f *flat[T]) offset(e int) int {
	if f.right {
		return e
	}
	off := 0
	for d := f.rank - 1; d >= 0; d-- {
		off += e % f.ext[d] * f.str[d]
		e /= f.ext[d]
	}
	return off
}

// contributeCopies combines the used copies among from..ndup-1 (the
// others hold the identity) into dst, in parallel over the elements, as
// Kokkos's ReduceDuplicates (which combines every copy): each chunk of a
// destination laid out right takes the copies' slices of the chunk in
// turn, four at a time, so that its loops run over contiguous elements
// without bounds checks; each element is combined with the copies in
// their order, as Kokkos does.
func (s *scatterState[T]) contributeCopies(dst flat[T], from int) {
	op, c, cs := s.op, s.copies, s.cstride
	list := s.usedCopies(from)
	nd := len(list)
	if nd == 0 {
		return
	}
	if !dst.right {
		s.parallel("ScatterView::ReduceDuplicates", s.size, func(lo, hi int) {
			for e := lo; e < hi; e++ {
				p := &dst.data[dst.offset(e)]
				x := *p
				for _, j := range list {
					x = join(op, x, c[j*cs+e])
				}
				*p = x
			}
		})
		return
	}
	data := dst.data
	s.parallel("ScatterView::ReduceDuplicates", s.size, func(lo, hi int) {
		d := data[lo:hi]
		k := 0
		for ; k+4 <= nd; k += 4 {
			a, b, e, f := list[k]*cs, list[k+1]*cs, list[k+2]*cs, list[k+3]*cs
			joinSlices4(op, d, c[a+lo:a+hi], c[b+lo:b+hi], c[e+lo:e+hi], c[f+lo:f+hi])
		}
		for ; k < nd; k++ {
			j := list[k] * cs
			joinSlices(op, d, c[j+lo:j+hi])
		}
	})
}

// combine joins src into dst, element by element, in parallel.
func (s *scatterState[T]) combine(dst, src flat[T]) {
	op := s.op
	if dst.right && src.right {
		dd, sd := dst.data, src.data
		s.parallel("ScatterView::ReduceDuplicates", s.size, func(lo, hi int) {
			joinSlices(op, dd[lo:hi], sd[lo:hi])
		})
		return
	}
	s.parallel("ScatterView::ReduceDuplicates", s.size, func(lo, hi int) {
		for e := lo; e < hi; e++ {
			p := &dst.data[dst.offset(e)]
			*p = join(op, *p, src.data[src.offset(e)])
		}
	})
}

// joinSlices sets d[i] to op(d[i], a[i]) for each i of d; a is at least
// as long.
func joinSlices[T kokkos.Number](op opKind, d, a []T) {
	a = a[:len(d)]
	switch op {
	case opSum:
		for i := range d {
			d[i] += a[i]
		}
	case opProd:
		for i := range d {
			d[i] *= a[i]
		}
	case opMin:
		for i, x := range a {
			if x < d[i] {
				d[i] = x
			}
		}
	default:
		for i, x := range a {
			if x > d[i] {
				d[i] = x
			}
		}
	}
}

// joinSlices4 sets d[i] to op(op(op(op(d[i], a[i]), b[i]), c[i]), e[i])
// for each i of d: four copies in one pass over d.
func joinSlices4[T kokkos.Number](op opKind, d, a, b, c, e []T) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	switch op {
	case opSum:
		for i := range d {
			x := d[i]
			x += a[i]
			x += b[i]
			x += c[i]
			x += e[i]
			d[i] = x
		}
	case opProd:
		for i := range d {
			x := d[i]
			x *= a[i]
			x *= b[i]
			x *= c[i]
			x *= e[i]
			d[i] = x
		}
	default:
		joinSlices(op, d, a)
		joinSlices(op, d, b)
		joinSlices(op, d, c)
		joinSlices(op, d, e)
	}
}

// sameExtents returns an error unless ext are the ScatterView's extents.
func (s *scatterState[T]) sameExtents(method, label string, ext []int) error {
	for d, e := range ext {
		if e != s.ext[d] {
			return fmt.Errorf("%w: %q.%s(%q): the destination's extents %v are not the ScatterView's %v", ErrScatterView, s.label, method, label, ext, s.ext[:s.rank])
		}
	}
	return nil
}

// accessPanic panics for an accessor's update method on a ScatterView of
// op, or for indices idx outside extents ext.
func accessPanic(label string, op opKind, method string, idx []int, ext []uint) {
	if !fitsOp(op, method) {
		panic(fmt.Sprintf("containers: ScatterView %q: %s of a %s ScatterView: %s", label, method, op, opMethods(op)))
	}
	e := make([]string, len(ext))
	for d, x := range ext {
		e[d] = fmt.Sprint(x)
	}
	is := make([]string, len(idx))
	for d, x := range idx {
		is[d] = fmt.Sprint(x)
	}
	panic(fmt.Sprintf("containers: ScatterView %q: %s(%s) out of bounds: extents (%s)", label, method, strings.Join(is, ", "), strings.Join(e, ", ")))
}

// fitsOp reports whether the accessor method fits a ScatterView of op.
func fitsOp(op opKind, method string) bool {
	switch method {
	case "Add", "Sub":
		return op == opSum
	case "Mul", "Div":
		return op == opProd
	}
	return true // Update
}

// opMethods says which accessor methods a ScatterView of op takes.
func opMethods(op opKind) string {
	switch op {
	case opSum:
		return "call Add, Sub or Update"
	case opProd:
		return "call Mul, Div or Update"
	}
	return "call Update"
}

// update applies method (Add, Sub, Mul, Div, Update) with v to *p, as
// mode says: the accessors' slow path, which the caller reaches after
// checking the indices and the method's fit.
func update[T kokkos.Number](mode uint8, method string, p *T, v T) {
	atomic := mode&modeAtomic != 0
	switch method {
	case "Add":
	case "Sub":
		if atomic {
			kokkos.AtomicSub(p, v)
		} else {
			*p -= v
		}
		return
	case "Mul":
		if atomic {
			kokkos.AtomicMul(p, v)
		} else {
			*p *= v
		}
		return
	case "Div":
		if atomic {
			kokkos.AtomicDiv(p, v)
		} else {
			*p /= v
		}
		return
	default: // Update
		switch opKind(mode &^ modeAtomic) {
		case opProd:
			update(mode, "Mul", p, v)
			return
		case opMin:
			if atomic {
				kokkos.AtomicMin(p, v)
			} else if v < *p {
				*p = v
			}
			return
		case opMax:
			if atomic {
				kokkos.AtomicMax(p, v)
			} else if v > *p {
				*p = v
			}
			return
		}
	}
	if atomic {
		kokkos.AtomicAdd(p, v)
	} else {
		*p += v
	}
}

// isCopy0 reports whether data starts at the first copy.
func (s *scatterState[T]) isCopy0(data []T) bool {
	return s.dup && len(data) > 0 && len(s.copies) > 0 && unsafe.SliceData(data) == unsafe.SliceData(s.copies)
}

// setExtents gives the state new extents.
func (s *scatterState[T]) setExtents(ext []int) {
	s.size = 1
	for d, e := range ext {
		s.ext[d] = e
		s.size *= e
	}
}

// keepCopies copies into each copy the elements of old's copy of the
// same id whose indices are within both old's extents and s's.
func (s *scatterState[T]) keepCopies(old *scatterState[T]) {
	var idx [6]int
	for e := range old.size {
		r := e
		in := true
		off := 0
		mul := 1
		for d := s.rank - 1; d >= 0; d-- {
			idx[d] = r % old.ext[d]
			r /= old.ext[d]
			if idx[d] >= s.ext[d] {
				in = false
			}
			off += idx[d] * mul
			mul *= s.ext[d]
		}
		if !in {
			continue
		}
		for j := range s.ndup {
			s.copies[j*s.cstride+off] = old.copies[j*old.cstride+e]
		}
	}
}
