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

// Load returns the element, read atomically.
func (r Ref[T]) Load() T {
	r.kind("Load", false)
	return atomicLoad(r.p)
}

// Store stores x in the element atomically.
func (r Ref[T]) Store(x T) {
	r.kind("Store", true)
	atomicStore(r.p, x)
}

// Update replaces the element's value old by f(old) atomically and returns
// old: it stores f(old) only if the element still holds old (bit for bit),
// and otherwise calls f again with the value it holds now. f may therefore
// run more than once, and should do nothing but compute the new value.
func (r Ref[T]) Update(f func(old T) T) (old T) {
	r.kind("Update", true)
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
	// The fast path, as Inc's.
	if unsafe.Sizeof(x) == 8 && r.intWord() {
		u := bitcast[uint64](x)
		return bitcast[T](atomic.AddUint64((*uint64)(unsafe.Pointer(r.p)), u) - u)
	}
	return r.add(x)
}

// add is Add's general path.
func (r Ref[T]) add(x T) (old T) {
	switch r.kind("Add", true) {
	case kindInt, kindUint:
		// The common sizes call the sync/atomic intrinsics directly: Add
		// is the most frequent update, and the calls through byUint and
		// AtomicFetchAdd measured as much time as the atomic instruction.
		switch unsafe.Sizeof(x) {
		case 8:
			u := bitsOf(x)
			return fromBits[T](atomic.AddUint64((*uint64)(unsafe.Pointer(r.p)), u) - u)
		case 4:
			u := uint32(bitsOf(x))
			return fromBits[T](uint64(atomic.AddUint32((*uint32)(unsafe.Pointer(r.p)), u) - u))
		}
		return byUint(r.p, x, AtomicFetchAdd[uint8], AtomicFetchAdd[uint16], AtomicFetchAdd[uint32], AtomicFetchAdd[uint64])
	case kindFloat:
		if unsafe.Sizeof(x) == 8 {
			p, y := (*uint64)(unsafe.Pointer(r.p)), bitcast[float64](x)
			for {
				o := atomic.LoadUint64(p)
				if atomic.CompareAndSwapUint64(p, o, math.Float64bits(math.Float64frombits(o)+y)) {
					return fromBits[T](o)
				}
			}
		}
		return byFloat(r.p, x, AtomicFetchAdd[float32], AtomicFetchAdd[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchAdd[complex64], c128Add)
	}
	panic(r.typeMessage("Add", "an integer, floating-point or complex"))
}

// Sub subtracts x from the element and returns the value it held before.
func (r Ref[T]) Sub(x T) (old T) {
	switch r.kind("Sub", true) {
	case kindInt, kindUint:
		return byUint(r.p, x, AtomicFetchSub[uint8], AtomicFetchSub[uint16], AtomicFetchSub[uint32], AtomicFetchSub[uint64])
	case kindFloat:
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
	switch r.kind("Min", true) {
	case kindInt:
		return byInt(r.p, x, AtomicFetchMin[int8], AtomicFetchMin[int16], AtomicFetchMin[int32], AtomicFetchMin[int64])
	case kindUint:
		return byUint(r.p, x, AtomicFetchMin[uint8], AtomicFetchMin[uint16], AtomicFetchMin[uint32], AtomicFetchMin[uint64])
	case kindFloat:
		return byFloat(r.p, x, AtomicFetchMin[float32], AtomicFetchMin[float64])
	}
	panic(r.typeMessage("Min", "an integer or floating-point"))
}

// Max sets the element to the larger of its value and x, and returns the
// value it held before: the element stays when it is greater than x, and x
// is stored otherwise, as AtomicFetchMax does.
func (r Ref[T]) Max(x T) (old T) {
	switch r.kind("Max", true) {
	case kindInt:
		return byInt(r.p, x, AtomicFetchMax[int8], AtomicFetchMax[int16], AtomicFetchMax[int32], AtomicFetchMax[int64])
	case kindUint:
		return byUint(r.p, x, AtomicFetchMax[uint8], AtomicFetchMax[uint16], AtomicFetchMax[uint32], AtomicFetchMax[uint64])
	case kindFloat:
		return byFloat(r.p, x, AtomicFetchMax[float32], AtomicFetchMax[float64])
	}
	panic(r.typeMessage("Max", "an integer or floating-point"))
}

// And sets the element to its value & x and returns the value it held
// before.
func (r Ref[T]) And(x T) (old T) {
	if k := r.kind("And", true); k == kindInt || k == kindUint {
		return byUint(r.p, x, AtomicFetchAnd[uint8], AtomicFetchAnd[uint16], AtomicFetchAnd[uint32], AtomicFetchAnd[uint64])
	}
	panic(r.typeMessage("And", "an integer"))
}

// Or sets the element to its value | x and returns the value it held
// before.
func (r Ref[T]) Or(x T) (old T) {
	if k := r.kind("Or", true); k == kindInt || k == kindUint {
		return byUint(r.p, x, AtomicFetchOr[uint8], AtomicFetchOr[uint16], AtomicFetchOr[uint32], AtomicFetchOr[uint64])
	}
	panic(r.typeMessage("Or", "an integer"))
}

// Xor sets the element to its value ^ x and returns the value it held
// before.
func (r Ref[T]) Xor(x T) (old T) {
	if k := r.kind("Xor", true); k == kindInt || k == kindUint {
		return byUint(r.p, x, AtomicFetchXor[uint8], AtomicFetchXor[uint16], AtomicFetchXor[uint32], AtomicFetchXor[uint64])
	}
	panic(r.typeMessage("Xor", "an integer"))
}

// Inc adds 1 to the element and returns the value it held before.
func (r Ref[T]) Inc() (old T) {
	// The fast path, for an 8-byte integer, checks the flags and the
	// alignment (intWord) and runs the atomic instruction, without the
	// calls of one, Add and kind that the general path makes: on a 2-core
	// EPYC it measured 3.5 times as fast as that path, and 1.2 to 1.45
	// times the time of AtomicAdd(v.Ptr(i), 1) (BenchmarkRefIncInt64
	// against BenchmarkAtomicAddPtrIncInt64), whose callee is a leaf. The
	// rest is Inc's frame: Inc cannot inline, as the call of the general
	// path alone takes most of the inlining budget. Every other case, and
	// every failure, takes the general path, which checks and panics as
	// before.
	if unsafe.Sizeof(old) == 8 && r.intWord() {
		return bitcast[T](atomic.AddUint64((*uint64)(unsafe.Pointer(r.p)), 1) - 1)
	}
	return r.inc()
}

// Dec subtracts 1 from the element and returns the value it held before.
func (r Ref[T]) Dec() (old T) {
	if unsafe.Sizeof(old) == 8 && r.intWord() {
		return bitcast[T](atomic.AddUint64((*uint64)(unsafe.Pointer(r.p)), ^uint64(0)) + 1)
	}
	return r.dec()
}

// inc and dec are the general paths of Inc and Dec: they add or subtract
// 1 of T, checking as Add and Sub do.
func (r Ref[T]) inc() T { return r.add(r.one("Inc")) }
func (r Ref[T]) dec() T { return r.Sub(r.one("Dec")) }

// intWord reports whether r may update its element as an 8-byte integer
// without further checks: the view recorded an integer element kind, it is
// writable, and the element lies at an 8-byte aligned address. It checks
// what kind checks for a write, for those kinds, so that where it reports
// false kind finds the reason (or the kind); callers check the size.
func (r Ref[T]) intWord() bool {
	k := elemKind(r.flags >> flagKindShift)
	// The zero Ref, whose p is nil, has no kind recorded.
	return k-kindInt <= kindUint-kindInt && r.flags&flagReadOnly == 0 && uintptr(unsafe.Pointer(r.p))%8 == 0
}

// Mul multiplies the element by x and returns the value it held before.
func (r Ref[T]) Mul(x T) (old T) {
	switch r.kind("Mul", true) {
	case kindInt, kindUint:
		return byUint(r.p, x, AtomicFetchMul[uint8], AtomicFetchMul[uint16], AtomicFetchMul[uint32], AtomicFetchMul[uint64])
	case kindFloat:
		return byFloat(r.p, x, AtomicFetchMul[float32], AtomicFetchMul[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchMul[complex64], c128Mul)
	}
	panic(r.typeMessage("Mul", "an integer, floating-point or complex"))
}

// Div divides the element by x and returns the value it held before. An
// integer x of 0 panics.
func (r Ref[T]) Div(x T) (old T) {
	switch r.kind("Div", true) {
	case kindInt:
		return byInt(r.p, x, AtomicFetchDiv[int8], AtomicFetchDiv[int16], AtomicFetchDiv[int32], AtomicFetchDiv[int64])
	case kindUint:
		return byUint(r.p, x, AtomicFetchDiv[uint8], AtomicFetchDiv[uint16], AtomicFetchDiv[uint32], AtomicFetchDiv[uint64])
	case kindFloat:
		return byFloat(r.p, x, AtomicFetchDiv[float32], AtomicFetchDiv[float64])
	case kindComplex:
		return byComplex(r.p, x, AtomicFetchDiv[complex64], c128Div)
	}
	panic(r.typeMessage("Div", "an integer, floating-point or complex"))
}

// Mod sets the element to its value % x and returns the value it held
// before. An x of 0 panics.
func (r Ref[T]) Mod(x T) (old T) {
	switch r.kind("Mod", true) {
	case kindInt:
		return byInt(r.p, x, AtomicFetchMod[int8], AtomicFetchMod[int16], AtomicFetchMod[int32], AtomicFetchMod[int64])
	case kindUint:
		return byUint(r.p, x, AtomicFetchMod[uint8], AtomicFetchMod[uint16], AtomicFetchMod[uint32], AtomicFetchMod[uint64])
	}
	panic(r.typeMessage("Mod", "an integer"))
}

// Nand sets the element to ^(its value & x) and returns the value it held
// before.
func (r Ref[T]) Nand(x T) (old T) {
	if k := r.kind("Nand", true); k == kindInt || k == kindUint {
		return byUint(r.p, x, AtomicFetchNand[uint8], AtomicFetchNand[uint16], AtomicFetchNand[uint32], AtomicFetchNand[uint64])
	}
	panic(r.typeMessage("Nand", "an integer"))
}

// Lshift shifts the element left by n bits and returns the value it held
// before.
func (r Ref[T]) Lshift(n uint) (old T) {
	if k := r.kind("Lshift", true); k == kindInt || k == kindUint {
		return byUint(r.p, shiftCount[T](n), shiftBy(AtomicFetchLshift[uint8]), shiftBy(AtomicFetchLshift[uint16]),
			shiftBy(AtomicFetchLshift[uint32]), shiftBy(AtomicFetchLshift[uint64]))
	}
	panic(r.typeMessage("Lshift", "an integer"))
}

// Rshift shifts the element right by n bits, arithmetically for a signed
// type, and returns the value it held before.
func (r Ref[T]) Rshift(n uint) (old T) {
	switch r.kind("Rshift", true) {
	case kindInt:
		return byInt(r.p, shiftCount[T](n), shiftBy(AtomicFetchRshift[int8]), shiftBy(AtomicFetchRshift[int16]),
			shiftBy(AtomicFetchRshift[int32]), shiftBy(AtomicFetchRshift[int64]))
	case kindUint:
		return byUint(r.p, shiftCount[T](n), shiftBy(AtomicFetchRshift[uint8]), shiftBy(AtomicFetchRshift[uint16]),
			shiftBy(AtomicFetchRshift[uint32]), shiftBy(AtomicFetchRshift[uint64]))
	}
	panic(r.typeMessage("Rshift", "an integer"))
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

// one returns 1 as a T for Inc and Dec, or panics naming op when T is not
// a number.
func (r Ref[T]) one(op string) T {
	switch r.kind(op, true) {
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

// kind checks that r refers to an element that op may act on, and returns
// the element type's kind; write says whether op stores. It panics for the
// zero Ref, a write to a read-only view, an element type that Ref cannot
// update atomically, a misaligned element and a view whose memory outside
// the Go heap was freed by its allocation's final Release.
func (r Ref[T]) kind(op string, write bool) elemKind {
	k := elemKind(r.flags >> flagKindShift)
	if k <= kindNone || r.p == nil || write && r.flags&flagReadOnly != 0 || misaligned(r.p) {
		return r.check(op, write)
	}
	return k
}

// check is kind's slow path: it finds the kind of a view that did not record
// it (one made by dal's Array.View), and panics with the reason for any
// other failure.
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
