package kokkos

import (
	"fmt"
	"math"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos/internal/typeinfo"
)

// A Ref refers to one element of a view, as the reference that Kokkos's
// operator() returns for a view with the Atomic trait: each of its methods
// is one atomic operation on the element, so that v.Ref(i).Add(x) from many
// goroutines at once loses no update, as atomic_view(i) += x does. The Ref
// method of each view kind returns one (View2.Ref(i, j), OffsetView1.Ref(i),
// DynRankView.Ref2(i, j) or DynRankView.Ref(i, j)).
//
// On a view with the Atomic trait a Ref is the only access to the elements:
// At, Set, Ptr, Access, Data, Row and Col panic there, since each would
// allow a plain load or store. On other views a Ref's operations are atomic
// too (Kokkos's atomic functions work on any memory), but only with respect
// to each other: a plain access of the same element at the same time, by At,
// Set, Ptr or a slice from Data, is a data race.
//
// The element type must hold no Go pointers and have a non-zero size (the
// Atomic trait checks this when the view is made; on other views the
// methods panic for other types). An element of 1 or 2 bytes is
// updated by a compare-and-swap on the aligned 4-byte word that holds it,
// as AtomicAdd does: a plain write to a neighbouring byte of that word,
// outside the view or through a view without the Atomic trait, races with
// it. (The allocating constructors give an Atomic view of such elements
// whole words, so only wrapped slices and views without the trait have such
// neighbours.)
//
// An element of 16 bytes (complex128, [2]float64, struct{ a, b float64 })
// is updated on amd64, where it is 16-byte aligned, by LOCK CMPXCHG16B,
// lock-free; a Load there is a compare-and-swap too, which needs writable
// memory. The allocating constructors align an Atomic view's 16-byte
// elements so, as Go's allocator aligns any slice of them on the heap.
// Elsewhere (other GOARCH, a misaligned element, such as one in a wrapped
// slice of a struct or on the stack, and every build with the race
// detector) each operation holds one of 256 locks, chosen by the element's
// address, for the time of one read or update: not lock-free, but atomic
// all the same. On either path a Ref's operations are atomic only with
// respect to each other and to the Atomic functions: a plain load of a
// 16-byte element (At, a slice from Data, on a view without the trait) can
// see half of an update, and a plain store can tear one. Elements of other
// sizes ([3]float64, a struct of 24 bytes, [3]byte) take the lock path
// always, as Kokkos's desul does for types it has no instruction for: Load,
// Store and Update serve them, and the Atomic trait takes them.
//
// Load, Store and Update take any such type. T is not constrained to
// numbers, so the arithmetic methods check the type when called and panic
// for a type they do not fit: Add, Sub, Mul, Div, Inc and Dec need an
// integer, floating-point or complex type; Min and Max an integer or
// floating-point one; Mod, And, Or, Xor, Nand, Lshift and Rshift an integer
// one. They compute as the AtomicFetch functions of the same name do
// (integer division and Mod by zero panic).
//
// The update methods return the value the element held before the update,
// as Kokkos's atomic_fetch_add and its siblings. Floating-point values are
// updated by a compare-and-swap loop on their bits. A Ref of a read-only
// view can Load; its other methods panic. The zero Ref refers to no element
// and its methods panic. A Ref is valid as long as the view's memory is:
// not after the allocation's final Release.
type Ref[T any] struct {
	p     *T
	rec   *Allocation
	flags viewFlags
}

// Each method starts with the decoding of the Ref's flags by ready, which
// inlines. Only where ready finds no kind does the method call check,
// through checked, and then itself again on the Ref that checked returns,
// a tail call that leaves r in the registers on the common path: a few
// compares, a switch on the kind (the switches on the size fold away) and
// the operation. The 8-byte integer and floating-point cases are written
// out (a sync/atomic intrinsic, or fetch64 with the operation inlined) or
// call the Atomic function of the concrete type directly, as a call of it
// on a pointer does; other sizes go through byUint, byInt, byFloat and
// byComplex.

// Load returns the element, read atomically.
func (r Ref[T]) Load() T {
	if r.ready(false) <= kindNone {
		return r.checked("Load", false).Load()
	}
	return atomicLoad(r.p)
}

// Store stores x in the element atomically.
func (r Ref[T]) Store(x T) {
	if r.ready(true) <= kindNone {
		r.checked("Store", true).Store(x)
		return
	}
	atomicStore(r.p, x)
}

// Update replaces the element's value old by f(old) atomically and returns
// old: it stores f(old) only if the element still holds old (bit for bit),
// and otherwise calls f again with the value it holds now. f may therefore
// run more than once, and should do nothing but compute the new value.
func (r Ref[T]) Update(f func(old T) T) (old T) {
	if r.ready(true) <= kindNone {
		return r.checked("Update", true).Update(f)
	}
	return update(r.p, f)
}

func update[T any](p *T, f func(T) T) T {
	if unsafe.Sizeof(*p) == 16 {
		return update16(p, f)
	}
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, f(old)) {
			return old
		}
	}
}

// Add adds x to the element and returns the value it held before. Integers
// wrap around on overflow, as Go's + does.
func (r Ref[T]) Add(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Add", true).Add(x)
	}
	switch k {
	case kindInt, kindUint:
		switch unsafe.Sizeof(x) {
		case 8:
			u := bitcast[uint64](x)
			return bitcast[T](atomic.AddUint64(word64(r.p), u) - u)
		case 4:
			u := uint32(bitsOf(x))
			return fromBits[T](uint64(atomic.AddUint32((*uint32)(unsafe.Pointer(r.p)), u) - u))
		}
		return byUint(r.p, x, AtomicFetchAdd[uint8], AtomicFetchAdd[uint16], AtomicFetchAdd[uint32], AtomicFetchAdd[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			y := bitcast[float64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) + y) }))
		}
		return byFloat(r.p, x, AtomicFetchAdd[float32], AtomicFetchAdd[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchAdd[complex64], c128Add)
	}
	panic(r.typeMessage("Add", "an integer, floating-point or complex"))
}

// Sub subtracts x from the element and returns the value it held before.
func (r Ref[T]) Sub(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Sub", true).Sub(x)
	}
	switch k {
	case kindInt, kindUint:
		switch unsafe.Sizeof(x) {
		case 8:
			u := bitcast[uint64](x)
			return bitcast[T](atomic.AddUint64(word64(r.p), -u) + u)
		case 4:
			u := uint32(bitsOf(x))
			return fromBits[T](uint64(atomic.AddUint32((*uint32)(unsafe.Pointer(r.p)), -u) + u))
		}
		return byUint(r.p, x, AtomicFetchSub[uint8], AtomicFetchSub[uint16], AtomicFetchSub[uint32], AtomicFetchSub[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			y := bitcast[float64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) - y) }))
		}
		return byFloat(r.p, x, AtomicFetchSub[float32], AtomicFetchSub[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchSub[complex64], c128Sub)
	}
	panic(r.typeMessage("Sub", "an integer, floating-point or complex"))
}

// Min sets the element to the smaller of its value and x, and returns the
// value it held before: the element stays when it is less than x, and x is
// stored otherwise, as AtomicFetchMin does (so a NaN x replaces the element,
// and x replaces a NaN element).
func (r Ref[T]) Min(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Min", true).Min(x)
	}
	switch k {
	case kindInt:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMin(as[int64](r.p), bitcast[int64](x)))
		}
		return byInt(r.p, x, AtomicFetchMin[int8], AtomicFetchMin[int16], AtomicFetchMin[int32], AtomicFetchMin[int64])
	case kindUint:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMin(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchMin[uint8], AtomicFetchMin[uint16], AtomicFetchMin[uint32], AtomicFetchMin[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMin(as[float64](r.p), bitcast[float64](x)))
		}
		return byFloat(r.p, x, AtomicFetchMin[float32], AtomicFetchMin[float64])
	}
	panic(r.typeMessage("Min", "an integer or floating-point"))
}

// Max sets the element to the larger of its value and x, and returns the
// value it held before: the element stays when it is greater than x, and x
// is stored otherwise, as AtomicFetchMax does.
func (r Ref[T]) Max(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Max", true).Max(x)
	}
	switch k {
	case kindInt:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMax(as[int64](r.p), bitcast[int64](x)))
		}
		return byInt(r.p, x, AtomicFetchMax[int8], AtomicFetchMax[int16], AtomicFetchMax[int32], AtomicFetchMax[int64])
	case kindUint:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMax(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchMax[uint8], AtomicFetchMax[uint16], AtomicFetchMax[uint32], AtomicFetchMax[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMax(as[float64](r.p), bitcast[float64](x)))
		}
		return byFloat(r.p, x, AtomicFetchMax[float32], AtomicFetchMax[float64])
	}
	panic(r.typeMessage("Max", "an integer or floating-point"))
}

// And sets the element to its value & x and returns the value it held
// before.
func (r Ref[T]) And(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("And", true).And(x)
	}
	if k == kindInt || k == kindUint {
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](atomic.AndUint64(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchAnd[uint8], AtomicFetchAnd[uint16], AtomicFetchAnd[uint32], AtomicFetchAnd[uint64])
	}
	panic(r.typeMessage("And", "an integer"))
}

// Or sets the element to its value | x and returns the value it held
// before.
func (r Ref[T]) Or(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Or", true).Or(x)
	}
	if k == kindInt || k == kindUint {
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](atomic.OrUint64(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchOr[uint8], AtomicFetchOr[uint16], AtomicFetchOr[uint32], AtomicFetchOr[uint64])
	}
	panic(r.typeMessage("Or", "an integer"))
}

// Xor sets the element to its value ^ x and returns the value it held
// before.
func (r Ref[T]) Xor(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Xor", true).Xor(x)
	}
	if k == kindInt || k == kindUint {
		if unsafe.Sizeof(x) == 8 {
			u := bitcast[uint64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return o ^ u }))
		}
		return byUint(r.p, x, AtomicFetchXor[uint8], AtomicFetchXor[uint16], AtomicFetchXor[uint32], AtomicFetchXor[uint64])
	}
	panic(r.typeMessage("Xor", "an integer"))
}

// Inc adds 1 to the element and returns the value it held before.
func (r Ref[T]) Inc() (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Inc", true).Inc()
	}
	if unsafe.Sizeof(old) == 8 {
		switch k {
		case kindInt, kindUint:
			return bitcast[T](atomic.AddUint64(word64(r.p), 1) - 1)
		case kindFloat:
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) + 1) }))
		}
	}
	return r.incDec(k, "Inc")
}

// Dec subtracts 1 from the element and returns the value it held before.
func (r Ref[T]) Dec() (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Dec", true).Dec()
	}
	if unsafe.Sizeof(old) == 8 {
		switch k {
		case kindInt, kindUint:
			return bitcast[T](atomic.AddUint64(word64(r.p), ^uint64(0)) + 1)
		case kindFloat:
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) - 1) }))
		}
	}
	return r.incDec(k, "Dec")
}

// incDec is Inc's and Dec's path for the cases they do not write out: it
// adds 1 of T of kind k (or, for op "Dec", subtracts it) as Add and Sub do.
// It is one call, with r in the registers, so that the common case of Inc
// and Dec keeps r there too.
func (r Ref[T]) incDec(k elemKind, op string) T {
	if op == "Dec" {
		return r.Sub(r.one(k, op))
	}
	return r.Add(r.one(k, op))
}

// Mul multiplies the element by x and returns the value it held before.
func (r Ref[T]) Mul(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Mul", true).Mul(x)
	}
	switch k {
	case kindInt, kindUint:
		if unsafe.Sizeof(x) == 8 {
			u := bitcast[uint64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return o * u }))
		}
		return byUint(r.p, x, AtomicFetchMul[uint8], AtomicFetchMul[uint16], AtomicFetchMul[uint32], AtomicFetchMul[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			y := bitcast[float64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) * y) }))
		}
		return byFloat(r.p, x, AtomicFetchMul[float32], AtomicFetchMul[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchMul[complex64], c128Mul)
	}
	panic(r.typeMessage("Mul", "an integer, floating-point or complex"))
}

// Div divides the element by x and returns the value it held before. An
// integer x of 0 panics.
func (r Ref[T]) Div(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Div", true).Div(x)
	}
	switch k {
	case kindInt:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchDiv(as[int64](r.p), bitcast[int64](x)))
		}
		return byInt(r.p, x, AtomicFetchDiv[int8], AtomicFetchDiv[int16], AtomicFetchDiv[int32], AtomicFetchDiv[int64])
	case kindUint:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchDiv(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchDiv[uint8], AtomicFetchDiv[uint16], AtomicFetchDiv[uint32], AtomicFetchDiv[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			y := bitcast[float64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return math.Float64bits(math.Float64frombits(o) / y) }))
		}
		return byFloat(r.p, x, AtomicFetchDiv[float32], AtomicFetchDiv[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchDiv[complex64], c128Div)
	}
	panic(r.typeMessage("Div", "an integer, floating-point or complex"))
}

// Mod sets the element to its value % x and returns the value it held
// before. An x of 0 panics.
func (r Ref[T]) Mod(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Mod", true).Mod(x)
	}
	switch k {
	case kindInt:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMod(as[int64](r.p), bitcast[int64](x)))
		}
		return byInt(r.p, x, AtomicFetchMod[int8], AtomicFetchMod[int16], AtomicFetchMod[int32], AtomicFetchMod[int64])
	case kindUint:
		if unsafe.Sizeof(x) == 8 {
			return bitcast[T](AtomicFetchMod(word64(r.p), bitcast[uint64](x)))
		}
		return byUint(r.p, x, AtomicFetchMod[uint8], AtomicFetchMod[uint16], AtomicFetchMod[uint32], AtomicFetchMod[uint64])
	}
	panic(r.typeMessage("Mod", "an integer"))
}

// Nand sets the element to ^(its value & x) and returns the value it held
// before.
func (r Ref[T]) Nand(x T) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Nand", true).Nand(x)
	}
	if k == kindInt || k == kindUint {
		if unsafe.Sizeof(x) == 8 {
			u := bitcast[uint64](x)
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return ^(o & u) }))
		}
		return byUint(r.p, x, AtomicFetchNand[uint8], AtomicFetchNand[uint16], AtomicFetchNand[uint32], AtomicFetchNand[uint64])
	}
	panic(r.typeMessage("Nand", "an integer"))
}

// Lshift shifts the element left by n bits and returns the value it held
// before.
func (r Ref[T]) Lshift(n uint) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Lshift", true).Lshift(n)
	}
	if k == kindInt || k == kindUint {
		if unsafe.Sizeof(old) == 8 {
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return o << n }))
		}
		return byUint(r.p, shiftCount[T](n), shiftBy(AtomicFetchLshift[uint8]), shiftBy(AtomicFetchLshift[uint16]),
			shiftBy(AtomicFetchLshift[uint32]), shiftBy(AtomicFetchLshift[uint64]))
	}
	panic(r.typeMessage("Lshift", "an integer"))
}

// Rshift shifts the element right by n bits, arithmetically for a signed
// type, and returns the value it held before.
func (r Ref[T]) Rshift(n uint) (old T) {
	k := r.ready(true)
	if k <= kindNone {
		return r.checked("Rshift", true).Rshift(n)
	}
	switch k {
	case kindInt:
		if unsafe.Sizeof(old) == 8 {
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return uint64(int64(o) >> n) }))
		}
		return byInt(r.p, shiftCount[T](n), shiftBy(AtomicFetchRshift[int8]), shiftBy(AtomicFetchRshift[int16]),
			shiftBy(AtomicFetchRshift[int32]), shiftBy(AtomicFetchRshift[int64]))
	case kindUint:
		if unsafe.Sizeof(old) == 8 {
			return bitcast[T](fetch64(word64(r.p), func(o uint64) uint64 { return o >> n }))
		}
		return byUint(r.p, shiftCount[T](n), shiftBy(AtomicFetchRshift[uint8]), shiftBy(AtomicFetchRshift[uint16]),
			shiftBy(AtomicFetchRshift[uint32]), shiftBy(AtomicFetchRshift[uint64]))
	}
	panic(r.typeMessage("Rshift", "an integer"))
}

// word64 and as view the element at p as a uint64 or a U of the same size.
func word64[T any](p *T) *uint64 { return (*uint64)(unsafe.Pointer(p)) }
func as[U, T any](p *T) *U       { return (*U)(unsafe.Pointer(p)) }

// fetch64 replaces the 8-byte word at p by f(old), by a compare-and-swap
// loop, and returns old. It inlines, and so does f where it is a function
// literal.
func fetch64(p *uint64, f func(old uint64) uint64) uint64 {
	for {
		o := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, o, f(o)) {
			return o
		}
	}
}

// shiftCount carries the shift count n to byUint and byInt as a T: counts
// of 64 and more shift every bit out, so they are clipped to 64, which
// every integer type holds.
func shiftCount[T any](n uint) T { return fromBits[T](uint64(min(n, 64))) }

// shiftBy adapts a shift to the signature byUint and byInt take, with the
// count passed as the element type (see shiftCount).
func shiftBy[U Integer](f func(*U, uint) U) func(*U, U) U {
	return func(p *U, n U) U { return f(p, uint(n)) }
}

// one returns 1 as a T of kind k for Inc and Dec, or panics naming op when
// T is not a number.
func (r Ref[T]) one(k elemKind, op string) T {
	switch k {
	case kindInt, kindUint:
		return fromBits[T](1)
	case kindFloat:
		if unsafe.Sizeof(*r.p) == 8 {
			return bitcast[T](float64(1))
		}
		return fromBits[T](uint64(math.Float32bits(1)))
	case kindComplex:
		if unsafe.Sizeof(*r.p) == 16 {
			return bitcast[T](complex128(1))
		}
		return bitcast[T](complex64(1))
	}
	panic(r.typeMessage(op, "an integer, floating-point or complex"))
}

// elemKind says what the Ref methods can do with an element type. A view
// records its element type's kind in its flags (see flagKindShift), so
// that a Ref's methods need not look at the type each time.
type elemKind uint8

const (
	kindUnknown elemKind = iota // not recorded: ask elemKindOf
	kindNone                    // nothing: no bytes, or Go pointers
	kindBits                    // Load, Store and Update: bool, arrays and structs
	kindInt                     // all methods, signed
	kindUint                    // all methods, unsigned
	kindFloat                   // all but the integer ones (Mod and the bit operations)
	kindComplex                 // complex64, complex128: Load, Store, Update, Add, Sub, Mul, Div, Inc and Dec
)

// elemKindOf returns the elemKind of T, through reflect; it walks the
// fields only of types that are not numbers.
func elemKindOf[T any]() elemKind {
	t := reflect.TypeFor[T]()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kindInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return kindUint
	case reflect.Float32, reflect.Float64:
		return kindFloat
	case reflect.Complex64, reflect.Complex128:
		return kindComplex
	}
	if t.Size() > 0 && !typeinfo.HasPointers(t) {
		return kindBits
	}
	return kindNone
}

// atomicTypeProblem returns "" when Ref can update elements of type T
// atomically, and otherwise why not: T holds Go pointers, which an atomic
// store would write without the garbage collector's write barrier, or T
// has no bytes.
func atomicTypeProblem[T any]() string {
	t := reflect.TypeFor[T]()
	if typeinfo.HasPointers(t) {
		return fmt.Sprintf("element type %v holds Go pointers, which an atomic store would write without the garbage collector's write barrier", t)
	}
	if t.Size() == 0 {
		return fmt.Sprintf("element type %v has no bytes to update", t)
	}
	return ""
}

// atomicTypeError returns nil when T can be the element type of a view
// with the Atomic trait, and otherwise an error wrapping ErrElementType that
// names T and says why not (see atomicTypeProblem).
func atomicTypeError[T any]() error {
	if p := atomicTypeProblem[T](); p != "" {
		return errorf(ErrElementType, "the Atomic trait needs elements that Ref can update atomically: %s", p)
	}
	return nil
}

// atomicDataError returns an error wrapping ErrElementType when flags has
// the Atomic trait and data, the elements of a new view, does not start at
// a multiple of the element size: every element would then be misaligned,
// which the atomic instructions do not allow (64-bit ones on 32-bit
// platforms, all of them on some others). Go's allocator aligns the slices
// it makes; a slice of a wrapped array of structs need not be. 16-byte
// elements may lie anywhere: those not aligned to 16 bytes take the lock
// path (see load16).
func atomicDataError[T any](flags viewFlags, data []T) error {
	s := unsafe.Sizeof(*new(T))
	if flags&flagAtomic == 0 || len(data) == 0 || (s != 2 && s != 4 && s != 8) || uintptr(unsafe.Pointer(unsafe.SliceData(data)))%s == 0 {
		return nil
	}
	return errorf(ErrElementType, "the Atomic trait needs elements aligned to their size: the first %d-byte element of type %v lies at %p",
		s, reflect.TypeFor[T](), unsafe.SliceData(data))
}

// ready decodes the flags the Ref holds: it returns the element type's
// kind where an operation may act on the element at once (the view recorded
// the kind, which neither the zero Ref nor a view of memory outside the Go
// heap has; the view is writable where write says the operation stores;
// the element is aligned as the atomic instructions need), and a kind of
// at most kindNone otherwise, where check finds the kind or the reason to
// panic. It inlines into the methods.
func (r Ref[T]) ready(write bool) elemKind {
	// The alignment test is misaligned's, written out: a call of the
	// generic function, even inlined, loads its dictionary.
	s := unsafe.Sizeof(*r.p)
	if write && r.flags&flagReadOnly != 0 || (s == 2 || s == 4 || s == 8) && uintptr(unsafe.Pointer(r.p))%s != 0 {
		return kindUnknown
	}
	return elemKind(r.flags >> flagKindShift)
}

// checked calls check for op and returns r with the kind that check found
// recorded in its flags, for the method to call itself again on: ready
// then finds the kind, since check panics for each other reason that it
// finds none. (For a view of memory outside the Go heap, which records no
// kind so that each operation checks its allocation, check has just done
// so.)
func (r Ref[T]) checked(op string, write bool) Ref[T] {
	k := r.check(op, write)
	r.flags = r.flags&(1<<flagKindShift-1) | viewFlags(k)<<flagKindShift
	return r
}

// check is the methods' slow path, where ready finds no kind: it finds the
// kind of a view that did not record it (one made by dal's Array.View, or
// of memory outside the Go heap), and panics with the reason for any other
// failure: the zero Ref, a write to a read-only view, an element type that
// Ref cannot update atomically, a misaligned element and a view whose
// memory outside the Go heap was freed by its allocation's final Release.
func (r Ref[T]) check(op string, write bool) elemKind {
	if r.p == nil {
		panic("kokkos: " + op + " through the zero Ref, which refers to no element")
	}
	if released(r.rec, r.flags) {
		// A view with flagForeign records no element kind, so that each
		// operation of its Refs comes here.
		panic(fmt.Sprintf("kokkos: %s through a Ref of view %q after the final Release of its allocation: its memory in %s is freed", op, r.rec.Label(), r.rec.Space().Name()))
	}
	if write && r.flags&flagReadOnly != 0 {
		panic(fmt.Sprintf("kokkos: %s through a Ref of read-only view %q", op, r.rec.Label()))
	}
	k := elemKindOf[T]()
	if k == kindNone {
		panic(fmt.Sprintf("kokkos: %s through a Ref of view %q: %s", op, r.rec.Label(), atomicTypeProblem[T]()))
	}
	if misaligned(r.p) {
		panic(fmt.Sprintf("kokkos: %s through a Ref of view %q: the %d-byte element at %p is not aligned to its size, as atomic instructions need", op, r.rec.Label(), unsafe.Sizeof(*r.p), r.p))
	}
	return k
}

// typeMessage explains that op does not fit the element type.
func (r Ref[T]) typeMessage(op, need string) string {
	return fmt.Sprintf("kokkos: %s through a Ref of view %q needs %s element type, not %v; Update takes any function of the old value",
		op, r.rec.Label(), need, reflect.TypeFor[T]())
}

// bitcast reinterprets the bits of x as a U of the same size.
func bitcast[U, T any](x T) U { return *(*U)(unsafe.Pointer(&x)) }

// byUint applies the fetch-and-op f8, f16, f32 or f64 of the unsigned
// integer type of T's size to *p and x, and returns the old value as a T.
// The unused functions are never called: the switch is on a constant.
func byUint[T any](p *T, x T, f8 func(*uint8, uint8) uint8, f16 func(*uint16, uint16) uint16,
	f32 func(*uint32, uint32) uint32, f64 func(*uint64, uint64) uint64) T {
	switch unsafe.Sizeof(x) {
	case 8:
		return bitcast[T](f64((*uint64)(unsafe.Pointer(p)), bitcast[uint64](x)))
	case 4:
		return fromBits[T](uint64(f32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(x)))))
	case 2:
		return fromBits[T](uint64(f16((*uint16)(unsafe.Pointer(p)), uint16(bitsOf(x)))))
	}
	return fromBits[T](uint64(f8((*uint8)(unsafe.Pointer(p)), uint8(bitsOf(x)))))
}

// byInt is byUint for the signed integer types.
func byInt[T any](p *T, x T, f8 func(*int8, int8) int8, f16 func(*int16, int16) int16,
	f32 func(*int32, int32) int32, f64 func(*int64, int64) int64) T {
	switch unsafe.Sizeof(x) {
	case 8:
		return bitcast[T](f64((*int64)(unsafe.Pointer(p)), bitcast[int64](x)))
	case 4:
		return fromBits[T](uint64(uint32(f32((*int32)(unsafe.Pointer(p)), int32(bitsOf(x))))))
	case 2:
		return fromBits[T](uint64(uint16(f16((*int16)(unsafe.Pointer(p)), int16(bitsOf(x))))))
	}
	return fromBits[T](uint64(uint8(f8((*int8)(unsafe.Pointer(p)), int8(bitsOf(x))))))
}

// byComplex is byUint for complex64 and complex128, with the arithmetic of
// complex128 named by c (fetchC128), which saves a call.
func byComplex[T any](p *T, x T, f64 func(*complex64, complex64) complex64, c opC128) T {
	if unsafe.Sizeof(x) == 16 {
		return bitcast[T](fetchC128((*complex128)(unsafe.Pointer(p)), bitcast[complex128](x), c))
	}
	return bitcast[T](f64((*complex64)(unsafe.Pointer(p)), bitcast[complex64](x)))
}

// byFloat is byUint for float32 and float64.
func byFloat[T any](p *T, x T, f32 func(*float32, float32) float32, f64 func(*float64, float64) float64) T {
	if unsafe.Sizeof(x) == 8 {
		return bitcast[T](f64((*float64)(unsafe.Pointer(p)), bitcast[float64](x)))
	}
	return fromBits[T](uint64(bitcast[uint32](f32((*float32)(unsafe.Pointer(p)), fromBits[float32](bitsOf(x))))))
}
