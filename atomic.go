package kokkos

import (
	"sync/atomic"
	"unsafe"
)

// Integer is the set of Go integer types.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Float is the set of Go floating-point types.
type Float interface {
	~float32 | ~float64
}

// Number is the set of Go integer and floating-point types.
type Number interface {
	Integer | Float
}

// The atomic operations below act on *p as one indivisible step with
// respect to every other atomic operation on *p, as sync/atomic does, and
// order memory as sync/atomic does. 8- and 16-bit values are updated by a
// compare-and-swap on the aligned 32-bit word that holds them, so plain
// (non-atomic) writes to neighbouring bytes of that word race with them.
// Floating-point operations run as a compare-and-swap loop on the bits;
// CompareExchange compares bit patterns (so -0 != +0 and a NaN equals
// itself). 64-bit values must be 8-byte aligned, as sync/atomic requires.
// complex128 values take a 16-byte compare-and-swap (LOCK CMPXCHG16B) on
// amd64 where they are 16-byte aligned, as Go's allocator aligns every
// slice of them, and otherwise a lock from a table of locks indexed by the
// address, which is not lock-free; a plain load of a complex128 is not
// atomic with respect to either. complex64 values are updated as 8-byte
// ones.
//
// Each update op comes in Kokkos's three forms: AtomicOp (atomic_op)
// returns nothing, AtomicFetchOp (atomic_fetch_op) returns the value *p
// held before, and AtomicOpFetch (atomic_op_fetch) the value it holds
// after. The ops are Add, Sub, Mul, Div (numbers and complex numbers),
// Min, Max and Inc, Dec (numbers) and Mod, And, Or, Xor, Nand, Lshift,
// Rshift (integers). Load, Store, Exchange and CompareExchange take
// numbers and complex numbers.
// Integers wrap around on overflow as Go's operators do; integer Div and
// Mod by zero panic, as Go's / and % do, before *p is touched; a
// floating-point division by zero gives an infinity or NaN. Min and Max
// keep *p only when it is less (greater) than v and otherwise store v, as
// Kokkos does: a NaN v replaces *p, and a NaN in *p is replaced by v.

// AtomicLoad returns *p, read atomically (atomic_load).
func AtomicLoad[T Number | Complex](p *T) T { return atomicLoad(p) }

// AtomicStore stores v in *p atomically (atomic_store).
func AtomicStore[T Number | Complex](p *T, v T) { atomicStore(p, v) }

// AtomicAdd adds v to *p.
func AtomicAdd[T Number | Complex](p *T, v T) { AtomicFetchAdd(p, v) }

// AtomicFetchAdd adds v to *p and returns the old value.
func AtomicFetchAdd[T Number | Complex](p *T, v T) T {
	if isInteger[T]() {
		switch unsafe.Sizeof(v) {
		case 8:
			u := bitsOf(v)
			return fromBits[T](atomic.AddUint64((*uint64)(unsafe.Pointer(p)), u) - u)
		case 4:
			u := uint32(bitsOf(v))
			return fromBits[T](uint64(atomic.AddUint32((*uint32)(unsafe.Pointer(p)), u) - u))
		}
	}
	if unsafe.Sizeof(v) == 16 {
		return fetchArith16(p, v, c128Add)
	}
	return fetchOp(p, v, opAdd[T])
}

// AtomicAddFetch adds v to *p and returns the new value.
func AtomicAddFetch[T Number | Complex](p *T, v T) T { return AtomicFetchAdd(p, v) + v }

// AtomicSub subtracts v from *p.
func AtomicSub[T Number | Complex](p *T, v T) { AtomicFetchSub(p, v) }

// AtomicFetchSub subtracts v from *p and returns the old value.
func AtomicFetchSub[T Number | Complex](p *T, v T) T {
	if !isInteger[T]() {
		if unsafe.Sizeof(v) == 16 {
			return fetchArith16(p, v, c128Sub)
		}
		return fetchOp(p, v, opSub[T])
	}
	return AtomicFetchAdd(p, -v)
}

// AtomicSubFetch subtracts v from *p and returns the new value.
func AtomicSubFetch[T Number | Complex](p *T, v T) T { return AtomicFetchSub(p, v) - v }

// AtomicInc adds 1 to *p.
func AtomicInc[T Number](p *T) { AtomicFetchAdd(p, 1) }

// AtomicFetchInc adds 1 to *p and returns the old value.
func AtomicFetchInc[T Number](p *T) T { return AtomicFetchAdd(p, 1) }

// AtomicIncFetch adds 1 to *p and returns the new value.
func AtomicIncFetch[T Number](p *T) T { return AtomicFetchAdd(p, 1) + 1 }

// AtomicDec subtracts 1 from *p.
func AtomicDec[T Number](p *T) { AtomicFetchSub(p, 1) }

// AtomicFetchDec subtracts 1 from *p and returns the old value.
func AtomicFetchDec[T Number](p *T) T { return AtomicFetchSub(p, 1) }

// AtomicDecFetch subtracts 1 from *p and returns the new value.
func AtomicDecFetch[T Number](p *T) T { return AtomicFetchSub(p, 1) - 1 }

// AtomicMul multiplies *p by v.
func AtomicMul[T Number | Complex](p *T, v T) { AtomicFetchMul(p, v) }

// AtomicFetchMul multiplies *p by v and returns the old value.
func AtomicFetchMul[T Number | Complex](p *T, v T) T {
	if unsafe.Sizeof(v) == 16 {
		return fetchArith16(p, v, c128Mul)
	}
	return fetchOp(p, v, opMul[T])
}

// AtomicMulFetch multiplies *p by v and returns the new value.
func AtomicMulFetch[T Number | Complex](p *T, v T) T { return AtomicFetchMul(p, v) * v }

// AtomicDiv divides *p by v; an integer v of 0 panics.
func AtomicDiv[T Number | Complex](p *T, v T) { AtomicFetchDiv(p, v) }

// AtomicFetchDiv divides *p by v and returns the old value; an integer v
// of 0 panics.
func AtomicFetchDiv[T Number | Complex](p *T, v T) T {
	checkDivisor("AtomicFetchDiv", v)
	if unsafe.Sizeof(v) == 16 {
		return fetchArith16(p, v, c128Div)
	}
	return fetchOp(p, v, opDiv[T])
}

// AtomicDivFetch divides *p by v and returns the new value; an integer v
// of 0 panics.
func AtomicDivFetch[T Number | Complex](p *T, v T) T { return AtomicFetchDiv(p, v) / v }

// AtomicMod sets *p to *p % v; a v of 0 panics.
func AtomicMod[T Integer](p *T, v T) { AtomicFetchMod(p, v) }

// AtomicFetchMod sets *p to *p % v and returns the old value; a v of 0
// panics.
func AtomicFetchMod[T Integer](p *T, v T) T {
	checkDivisor("AtomicFetchMod", v)
	return fetchOp(p, v, opMod[T])
}

// AtomicModFetch sets *p to *p % v and returns the new value; a v of 0
// panics.
func AtomicModFetch[T Integer](p *T, v T) T { return AtomicFetchMod(p, v) % v }

// AtomicMin sets *p to min(*p, v).
func AtomicMin[T Number](p *T, v T) { AtomicFetchMin(p, v) }

// AtomicFetchMin sets *p to min(*p, v) and returns the old value: *p stays
// when it is less than v, and v is stored otherwise (also when either is
// a NaN).
func AtomicFetchMin[T Number](p *T, v T) T {
	for {
		old := atomicLoad(p)
		if old < v || atomicCAS(p, old, v) {
			return old
		}
	}
}

// AtomicMinFetch sets *p to min(*p, v) and returns the new value.
func AtomicMinFetch[T Number](p *T, v T) T { return opMin(AtomicFetchMin(p, v), v) }

// AtomicMax sets *p to max(*p, v).
func AtomicMax[T Number](p *T, v T) { AtomicFetchMax(p, v) }

// AtomicFetchMax sets *p to max(*p, v) and returns the old value: *p stays
// when it is greater than v, and v is stored otherwise (also when either
// is a NaN).
func AtomicFetchMax[T Number](p *T, v T) T {
	for {
		old := atomicLoad(p)
		if old > v || atomicCAS(p, old, v) {
			return old
		}
	}
}

// AtomicMaxFetch sets *p to max(*p, v) and returns the new value.
func AtomicMaxFetch[T Number](p *T, v T) T { return opMax(AtomicFetchMax(p, v), v) }

// AtomicAnd sets *p to *p & v.
func AtomicAnd[T Integer](p *T, v T) { AtomicFetchAnd(p, v) }

// AtomicFetchAnd sets *p to *p & v and returns the old value.
func AtomicFetchAnd[T Integer](p *T, v T) T {
	switch unsafe.Sizeof(v) {
	case 8:
		return T(atomic.AndUint64((*uint64)(unsafe.Pointer(p)), uint64(v)))
	case 4:
		return T(atomic.AndUint32((*uint32)(unsafe.Pointer(p)), uint32(v)))
	}
	return fetchOp(p, v, opAnd[T])
}

// AtomicAndFetch sets *p to *p & v and returns the new value.
func AtomicAndFetch[T Integer](p *T, v T) T { return AtomicFetchAnd(p, v) & v }

// AtomicOr sets *p to *p | v.
func AtomicOr[T Integer](p *T, v T) { AtomicFetchOr(p, v) }

// AtomicFetchOr sets *p to *p | v and returns the old value.
func AtomicFetchOr[T Integer](p *T, v T) T {
	switch unsafe.Sizeof(v) {
	case 8:
		return T(atomic.OrUint64((*uint64)(unsafe.Pointer(p)), uint64(v)))
	case 4:
		return T(atomic.OrUint32((*uint32)(unsafe.Pointer(p)), uint32(v)))
	}
	return fetchOp(p, v, opOr[T])
}

// AtomicOrFetch sets *p to *p | v and returns the new value.
func AtomicOrFetch[T Integer](p *T, v T) T { return AtomicFetchOr(p, v) | v }

// AtomicXor sets *p to *p ^ v.
func AtomicXor[T Integer](p *T, v T) { fetchOp(p, v, opXor[T]) }

// AtomicFetchXor sets *p to *p ^ v and returns the old value.
func AtomicFetchXor[T Integer](p *T, v T) T { return fetchOp(p, v, opXor[T]) }

// AtomicXorFetch sets *p to *p ^ v and returns the new value.
func AtomicXorFetch[T Integer](p *T, v T) T { return fetchOp(p, v, opXor[T]) ^ v }

// AtomicNand sets *p to ^(*p & v).
func AtomicNand[T Integer](p *T, v T) { fetchOp(p, v, opNand[T]) }

// AtomicFetchNand sets *p to ^(*p & v) and returns the old value.
func AtomicFetchNand[T Integer](p *T, v T) T { return fetchOp(p, v, opNand[T]) }

// AtomicNandFetch sets *p to ^(*p & v) and returns the new value.
func AtomicNandFetch[T Integer](p *T, v T) T { return opNand(fetchOp(p, v, opNand[T]), v) }

// AtomicLshift shifts *p left by n bits (0 from n >= the width of T).
func AtomicLshift[T Integer](p *T, n uint) { AtomicFetchLshift(p, n) }

// AtomicFetchLshift shifts *p left by n bits and returns the old value.
func AtomicFetchLshift[T Integer](p *T, n uint) T {
	return update(p, func(o T) T { return o << n })
}

// AtomicLshiftFetch shifts *p left by n bits and returns the new value.
func AtomicLshiftFetch[T Integer](p *T, n uint) T { return AtomicFetchLshift(p, n) << n }

// AtomicRshift shifts *p right by n bits, arithmetically for signed T
// (0 or -1 from n >= the width of T).
func AtomicRshift[T Integer](p *T, n uint) { AtomicFetchRshift(p, n) }

// AtomicFetchRshift shifts *p right by n bits and returns the old value.
func AtomicFetchRshift[T Integer](p *T, n uint) T {
	return update(p, func(o T) T { return o >> n })
}

// AtomicRshiftFetch shifts *p right by n bits and returns the new value.
func AtomicRshiftFetch[T Integer](p *T, n uint) T { return AtomicFetchRshift(p, n) >> n }

// AtomicExchange stores v in *p and returns the old value.
func AtomicExchange[T Number | Complex](p *T, v T) T {
	switch unsafe.Sizeof(v) {
	case 8:
		return fromBits[T](atomic.SwapUint64((*uint64)(unsafe.Pointer(p)), bitsOf(v)))
	case 4:
		return fromBits[T](uint64(atomic.SwapUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(v)))))
	}
	return fetchOp(p, v, opSecond[T])
}

// AtomicCompareExchange stores desired in *p if *p holds expected, and
// returns the value *p held: the swap happened if that equals expected
// (bit for bit).
func AtomicCompareExchange[T Number | Complex](p *T, expected, desired T) T {
	for {
		old := atomicLoad(p)
		if !sameBits(old, expected) {
			return old
		}
		if atomicCAS(p, old, desired) {
			return old
		}
	}
}

// The binary operations of the updates: each returns the new value of an
// element that holds o, updated with v.

func opAdd[T Number | Complex](o, v T) T    { return o + v }
func opSub[T Number | Complex](o, v T) T    { return o - v }
func opMul[T Number | Complex](o, v T) T    { return o * v }
func opDiv[T Number | Complex](o, v T) T    { return o / v }
func opMod[T Integer](o, v T) T             { return o % v }
func opXor[T Integer](o, v T) T             { return o ^ v }
func opAnd[T Integer](o, v T) T             { return o & v }
func opOr[T Integer](o, v T) T              { return o | v }
func opNand[T Integer](o, v T) T            { return ^(o & v) }
func opSecond[T Number | Complex](_, v T) T { return v }

func opMin[T Number](o, v T) T {
	if o < v {
		return o
	}
	return v
}

func opMax[T Number](o, v T) T {
	if o > v {
		return o
	}
	return v
}

// fetchOp replaces *p, holding o, by op(o, v) atomically, by a
// compare-and-swap loop, and returns o.
func fetchOp[T any](p *T, v T, op func(o, v T) T) T {
	if unsafe.Sizeof(v) == 16 {
		return fetchOp16(p, v, op)
	}
	return update(p, func(o T) T { return op(o, v) })
}

// checkDivisor panics when v, the divisor of op, is an integer 0, before
// the element is touched.
func checkDivisor[T Number | Complex](op string, v T) {
	if v == 0 && isInteger[T]() {
		panic("kokkos: " + op + " by an integer zero")
	}
}

// isInteger reports whether T is an integer type. The compiler folds it
// for integer and floating-point types, but computes a complex division at
// run time, which the size test spares complex128.
func isInteger[T Number | Complex]() bool {
	return unsafe.Sizeof(*new(T)) != 16 && T(1)/T(2) == 0
}

// The helpers below act on the bits of any T (bitsOf and fromBits of 1 to
// 8 bytes), so that Ref serves element types that are not Numbers too:
// elements of 1, 2, 4 and 8 bytes by the processor's atomics, of 16 bytes
// by a 16-byte compare-and-swap where there is one, and of any other size
// under a lock of the table (see locked).

// bitsOf returns v's bit pattern, zero-extended.
func bitsOf[T any](v T) uint64 {
	switch unsafe.Sizeof(v) {
	case 8:
		return *(*uint64)(unsafe.Pointer(&v))
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&v)))
	case 2:
		return uint64(*(*uint16)(unsafe.Pointer(&v)))
	}
	return uint64(*(*uint8)(unsafe.Pointer(&v)))
}

// fromBits returns the T whose bit pattern is the low bits of u.
func fromBits[T any](u uint64) T {
	var v T
	switch unsafe.Sizeof(v) {
	case 8:
		*(*uint64)(unsafe.Pointer(&v)) = u
	case 4:
		*(*uint32)(unsafe.Pointer(&v)) = uint32(u)
	case 2:
		*(*uint16)(unsafe.Pointer(&v)) = uint16(u)
	default:
		*(*uint8)(unsafe.Pointer(&v)) = uint8(u)
	}
	return v
}

// atomicLoad returns *p, read atomically.
func atomicLoad[T any](p *T) T {
	switch unsafe.Sizeof(*p) {
	case 16:
		return load16(p)
	case 8:
		return fromBits[T](atomic.LoadUint64((*uint64)(unsafe.Pointer(p))))
	case 4:
		return fromBits[T](uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(p)))))
	case 1, 2:
	default:
		return loadLocked(p)
	}
	w, shift, mask := subword(p)
	return fromBits[T](uint64(atomic.LoadUint32(w) >> shift & mask))
}

// atomicStore stores v in *p atomically.
func atomicStore[T any](p *T, v T) {
	switch unsafe.Sizeof(v) {
	case 16:
		store16(p, v)
		return
	case 8:
		atomic.StoreUint64((*uint64)(unsafe.Pointer(p)), bitsOf(v))
		return
	case 4:
		atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(v)))
		return
	case 1, 2:
	default:
		storeLocked(p, v)
		return
	}
	for {
		if atomicCAS(p, atomicLoad(p), v) {
			return
		}
	}
}

// atomicCAS stores n in *p if *p holds old's bit pattern.
func atomicCAS[T any](p *T, old, n T) bool {
	switch unsafe.Sizeof(old) {
	case 16:
		return cas16(p, old, n)
	case 8:
		return atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(p)), bitsOf(old), bitsOf(n))
	case 4:
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(old)), uint32(bitsOf(n)))
	case 1, 2:
	default:
		return casLocked(p, old, n)
	}
	w, shift, mask := subword(p)
	for {
		cur := atomic.LoadUint32(w)
		if cur>>shift&mask != uint32(bitsOf(old)) {
			return false
		}
		next := cur&^(mask<<shift) | uint32(bitsOf(n))<<shift
		if atomic.CompareAndSwapUint32(w, cur, next) {
			return true
		}
	}
}

// subword returns the aligned 32-bit word holding the 8- or 16-bit *p, the
// shift of *p's bits within the word's value, and their mask.
func subword[T any](p *T) (w *uint32, shift, mask uint32) {
	size := uint32(unsafe.Sizeof(*p))
	off := uint32(uintptr(unsafe.Pointer(p)) & 3)
	w = (*uint32)(unsafe.Add(unsafe.Pointer(p), -int(off)))
	mask = 1<<(8*size) - 1
	if bigEndian {
		return w, 8 * (4 - size - off), mask
	}
	return w, 8 * off, mask
}

var bigEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 0
}()
