package kokkos

import (
	"math"
	"sync"
	"unsafe"
)

// Complex is the set of Go complex types. AtomicLoad, AtomicStore,
// AtomicExchange, AtomicCompareExchange and the Add, Sub, Mul and Div
// atomics take them besides Number.
type Complex interface {
	~complex64 | ~complex128
}

// 16-byte atomics (complex128, [2]float64, struct{ a, b float64 } and any
// other pointer-free type of 16 bytes), as Kokkos's desul does them: one
// instruction where the hardware has a 16-byte compare-and-swap, a table of
// locks otherwise.
//
// On amd64 with CMPXCHG16B (every x86-64 processor since about 2006), an
// element at a 16-byte aligned address is updated by LOCK CMPXCHG16B: a
// load is a compare-and-swap of a value with itself, a store and every
// update a compare-and-swap loop. This path is lock-free. The allocating
// constructors align the elements of an Atomic view of 16-byte elements to
// 16 bytes, and Go's allocator does so for any slice of them.
//
// Everywhere else (other GOARCH, a processor without CMPXCHG16B, an
// element at an address that is not a multiple of 16, such as one in a
// wrapped slice of a struct, and every 16-byte element under the race
// detector, which cannot see into assembly) an operation takes one of
// lockCount mutexes, chosen by a hash of the element's address, for the
// time of one read or one read-modify-write. That path is not lock-free:
// an operation waits while another one on an element of the same lock
// runs. Both paths are atomic only with respect to each other's
// operations on the same element (the Ref methods and the Atomic
// functions): a plain load of a 16-byte element is two or more machine
// loads, which can see half of a store, and a plain store can land in the
// middle of a locked update. An element's address decides its path, so
// that every atomic operation on one element takes the same one.

// The assembly and cx16, which says whether it is used, are in
// atomic16_amd64.go; atomic16_lock.go has the lock path alone.

const lockCount = 256

// lock16 is one lock of the table, alone on its cache line, so that
// updates of elements under different locks do not contend for the line.
type lock16 struct {
	sync.Mutex
	_ [64 - unsafe.Sizeof(sync.Mutex{})%64]byte
}

var locks16 [lockCount]lock16

// lockOf returns the lock of the element at p: a multiplicative hash of the
// address in 16-byte units, so that neighbouring elements take different
// locks.
func lockOf(p unsafe.Pointer) *lock16 {
	h := uint64(uintptr(p)>>4) * 0x9e3779b97f4a7c15
	return &locks16[h>>56]
}

// useCX16 says whether the element at p takes the CMPXCHG16B path.
func useCX16(p unsafe.Pointer) bool { return cx16 && uintptr(p)%16 == 0 }

// load16 returns the 16-byte *p, read atomically.
func load16[T any](p *T) T {
	if useCX16(unsafe.Pointer(p)) {
		lo, hi := load16CX(unsafe.Pointer(p))
		return bitcast[T]([2]uint64{lo, hi})
	}
	return loadLocked(p)
}

// store16 stores v in the 16-byte *p atomically.
func store16[T any](p *T, v T) {
	if useCX16(unsafe.Pointer(p)) {
		w := bitcast[[2]uint64](v)
		store16CX(unsafe.Pointer(p), w[0], w[1])
		return
	}
	storeLocked(p, v)
}

// cas16 stores n in the 16-byte *p if *p holds old's bit pattern.
func cas16[T any](p *T, old, n T) bool {
	if useCX16(unsafe.Pointer(p)) {
		o, w := bitcast[[2]uint64](old), bitcast[[2]uint64](n)
		_, _, ok := cas16CX(unsafe.Pointer(p), o[0], o[1], w[0], w[1])
		return ok
	}
	return casLocked(p, old, n)
}

// update16 replaces the 16-byte *p, holding old, by f(old) atomically and
// returns old, by a compare-and-swap loop that runs f outside any lock (f
// may be the caller's, which can panic or take locks). On the CMPXCHG16B
// path the first guess of old is two plain loads, torn or not, and each
// failed compare-and-swap gives the next: one locked instruction where no
// other goroutine updates *p.
func update16[T any](p *T, f func(T) T) T {
	if useCX16(unsafe.Pointer(p)) {
		lo, hi := peek16CX(unsafe.Pointer(p))
		for {
			o := bitcast[T]([2]uint64{lo, hi})
			n := bitcast[[2]uint64](f(o))
			var ok bool
			if lo, hi, ok = cas16CX(unsafe.Pointer(p), lo, hi, n[0], n[1]); ok {
				return o
			}
		}
	}
	for {
		o := load16(p)
		if cas16(p, o, f(o)) {
			return o
		}
	}
}

// fetchOp16 replaces the 16-byte *p, holding o, by op(o, v) atomically and
// returns o. op is one of the package's own operations, which neither
// panic nor take a lock, so the lock path runs it under the element's
// lock, in one acquisition.
func fetchOp16[T any](p *T, v T, op func(o, v T) T) T {
	if useCX16(unsafe.Pointer(p)) {
		return update16(p, func(o T) T { return op(o, v) })
	}
	l := lockOf(unsafe.Pointer(p))
	l.Lock()
	o := *p
	*p = op(o, v)
	l.Unlock()
	return o
}

// The arithmetic of fetchC128.
type opC128 uint8

const (
	c128Add opC128 = iota
	c128Sub
	c128Mul
	c128Div
)

// fetchArith16 is fetchOp for the complex128 Add, Sub, Mul and Div, which
// fetchC128 computes in line rather than through a function, at a third of
// the time. (The Atomic functions test the size before they call it, so
// that it costs other types nothing.)
func fetchArith16[T any](p *T, v T, c opC128) T {
	return bitcast[T](fetchC128((*complex128)(unsafe.Pointer(p)), bitcast[complex128](v), c))
}

// fetchC128 replaces *p, holding o, by o op v atomically and returns o, as
// update16 and fetchOp16 do.
func fetchC128(p *complex128, v complex128, c opC128) complex128 {
	if useCX16(unsafe.Pointer(p)) {
		switch c {
		case c128Add:
			return complex(addC128CX(unsafe.Pointer(p), real(v), imag(v)))
		case c128Sub:
			return complex(subC128CX(unsafe.Pointer(p), real(v), imag(v)))
		}
		lo, hi := peek16CX(unsafe.Pointer(p))
		for {
			o := complex(math.Float64frombits(lo), math.Float64frombits(hi))
			n := arithC128(o, v, c)
			var ok bool
			if lo, hi, ok = cas16CX(unsafe.Pointer(p), lo, hi, math.Float64bits(real(n)), math.Float64bits(imag(n))); ok {
				return o
			}
		}
	}
	l := lockOf(unsafe.Pointer(p))
	l.Lock()
	o := *p
	*p = arithC128(o, v, c)
	l.Unlock()
	return o
}

func arithC128(o, v complex128, c opC128) complex128 {
	switch c {
	case c128Add:
		return o + v
	case c128Sub:
		return o - v
	case c128Mul:
		return o * v
	}
	return o / v
}

// sameBits reports whether a and b have the same bit pattern.
func sameBits[T any](a, b T) bool {
	switch s := unsafe.Sizeof(a); s {
	case 1, 2, 4, 8:
		return bitsOf(a) == bitsOf(b)
	case 16:
		return bitcast[[16]byte](a) == bitcast[[16]byte](b)
	default:
		return string(unsafe.Slice((*byte)(unsafe.Pointer(&a)), s)) == string(unsafe.Slice((*byte)(unsafe.Pointer(&b)), s))
	}
}

// Elements of a size the processor has no atomics for (3, 12, 24 bytes
// and more; Kokkos's desul serves them from a table of locks too) take the
// lock of the table that their address picks, for one read, one write or
// one compare-and-swap. Every atomic operation on one element takes the
// same lock, so they are atomic with respect to each other; the path is
// not lock-free, and a plain access of the element races with it. The
// lock path of 16-byte elements is these functions too.

// loadLocked returns *p, read under its lock.
func loadLocked[T any](p *T) T {
	l := lockOf(unsafe.Pointer(p))
	l.Lock()
	v := *p
	l.Unlock()
	return v
}

// storeLocked stores v in *p under its lock.
func storeLocked[T any](p *T, v T) {
	l := lockOf(unsafe.Pointer(p))
	l.Lock()
	*p = v
	l.Unlock()
}

// casLocked stores n in *p, under its lock, if *p holds old's bit pattern.
func casLocked[T any](p *T, old, n T) bool {
	l := lockOf(unsafe.Pointer(p))
	l.Lock()
	ok := sameBits(*p, old)
	if ok {
		*p = n
	}
	l.Unlock()
	return ok
}

// misaligned reports whether the element at p is not aligned as the atomic
// instructions for its size need: a multiple of its size for 2, 4 and 8
// bytes; 16-byte elements at any address take the lock path instead, and
// elements of other sizes always do.
func misaligned[T any](p *T) bool {
	switch s := unsafe.Sizeof(*p); s {
	case 2, 4, 8:
		return uintptr(unsafe.Pointer(p))%s != 0
	}
	return false
}

// alignAtomic16 returns data, or a zeroed copy of its length at a 16-byte
// aligned address where data does not start at one, for the elements of an
// Atomic view of 16-byte, pointer-free elements, so that they take the
// CMPXCHG16B path. (Go's allocator aligns every slice of them to 16 bytes
// already: its size classes from 16 bytes up are multiples of 16, except
// 24; the check keeps the promise independent of that.)
func alignAtomic16[T any](data []T) []T {
	if unsafe.Sizeof(*new(T)) != 16 || len(data) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(data)))%16 == 0 {
		return data
	}
	w := make([]uint64, 2*len(data)+1)
	off := uintptr(unsafe.Pointer(&w[0])) % 16 / 8
	return unsafe.Slice((*T)(unsafe.Pointer(&w[off])), len(data))
}
