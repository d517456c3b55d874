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

// AtomicAdd adds v to *p.
func AtomicAdd[T Number](p *T, v T) { AtomicFetchAdd(p, v) }

// AtomicFetchAdd adds v to *p and returns the old value.
func AtomicFetchAdd[T Number](p *T, v T) T {
	if !isFloat[T]() {
		switch unsafe.Sizeof(v) {
		case 8:
			return T(atomic.AddUint64((*uint64)(unsafe.Pointer(p)), uint64(v)) - uint64(v))
		case 4:
			return T(atomic.AddUint32((*uint32)(unsafe.Pointer(p)), uint32(v)) - uint32(v))
		}
	}
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, old+v) {
			return old
		}
	}
}

// AtomicSub subtracts v from *p.
func AtomicSub[T Number](p *T, v T) { AtomicFetchAdd(p, -v) }

// AtomicFetchSub subtracts v from *p and returns the old value.
func AtomicFetchSub[T Number](p *T, v T) T { return AtomicFetchAdd(p, -v) }

// AtomicMin sets *p to min(*p, v).
func AtomicMin[T Number](p *T, v T) { AtomicFetchMin(p, v) }

// AtomicFetchMin sets *p to min(*p, v) and returns the old value.
func AtomicFetchMin[T Number](p *T, v T) T {
	for {
		old := atomicLoad(p)
		if !(v < old) || atomicCAS(p, old, v) {
			return old
		}
	}
}

// AtomicMax sets *p to max(*p, v).
func AtomicMax[T Number](p *T, v T) { AtomicFetchMax(p, v) }

// AtomicFetchMax sets *p to max(*p, v) and returns the old value.
func AtomicFetchMax[T Number](p *T, v T) T {
	for {
		old := atomicLoad(p)
		if !(v > old) || atomicCAS(p, old, v) {
			return old
		}
	}
}

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
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, old&v) {
			return old
		}
	}
}

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
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, old|v) {
			return old
		}
	}
}

// AtomicXor sets *p to *p ^ v.
func AtomicXor[T Integer](p *T, v T) { AtomicFetchXor(p, v) }

// AtomicFetchXor sets *p to *p ^ v and returns the old value.
func AtomicFetchXor[T Integer](p *T, v T) T {
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, old^v) {
			return old
		}
	}
}

// AtomicExchange stores v in *p and returns the old value.
func AtomicExchange[T Number](p *T, v T) T {
	switch unsafe.Sizeof(v) {
	case 8:
		return fromBits[T](atomic.SwapUint64((*uint64)(unsafe.Pointer(p)), bitsOf(v)))
	case 4:
		return fromBits[T](uint64(atomic.SwapUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(v)))))
	}
	for {
		old := atomicLoad(p)
		if atomicCAS(p, old, v) {
			return old
		}
	}
}

// AtomicCompareExchange stores desired in *p if *p holds expected, and
// returns the value *p held: the swap happened if that equals expected
// (bit for bit).
func AtomicCompareExchange[T Number](p *T, expected, desired T) T {
	for {
		old := atomicLoad(p)
		if bitsOf(old) != bitsOf(expected) {
			return old
		}
		if atomicCAS(p, old, desired) {
			return old
		}
	}
}

// The helpers below act on the bits of any T of 1, 2, 4 or 8 bytes, so
// that Ref serves element types that are not Numbers too.

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
	case 8:
		return fromBits[T](atomic.LoadUint64((*uint64)(unsafe.Pointer(p))))
	case 4:
		return fromBits[T](uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(p)))))
	}
	w, shift, mask := subword(p)
	return fromBits[T](uint64(atomic.LoadUint32(w) >> shift & mask))
}

// atomicStore stores v in *p atomically.
func atomicStore[T any](p *T, v T) {
	switch unsafe.Sizeof(v) {
	case 8:
		atomic.StoreUint64((*uint64)(unsafe.Pointer(p)), bitsOf(v))
		return
	case 4:
		atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(v)))
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
	case 8:
		return atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(p)), bitsOf(old), bitsOf(n))
	case 4:
		return atomic.CompareAndSwapUint32((*uint32)(unsafe.Pointer(p)), uint32(bitsOf(old)), uint32(bitsOf(n)))
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
