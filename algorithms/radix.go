package algorithms

import (
	"unsafe"

	"github.com/gokkos/kokkos"
)

// unsigned is the set of key types the radix sorts sort: a key of any
// number type is sorted as the unsigned integer of its width whose order
// is the key's (keyKind.toBits).
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// keyKind says how the bits of a number type order: as an unsigned
// integer, a two's complement one or an IEEE 754 float.
type keyKind uint8

const (
	kindUnsigned keyKind = iota
	kindSigned
	kindFloat
)

// kindOf returns the width in bytes and the kind of T.
func kindOf[T kokkos.Number]() (int, keyKind) {
	var zero, one T
	one = 1
	size := int(unsafe.Sizeof(zero))
	switch {
	case one/2 != 0:
		return size, kindFloat
	case zero-one < zero:
		return size, kindSigned
	}
	return size, kindUnsigned
}

// reinterpret returns s's memory as a slice of U, a type of T's width.
func reinterpret[U, T any](s []T) []U {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// toBits maps the bits k of a key of kind kind to an unsigned integer of
// the same order: the sign bit flipped for signed integers; for floats,
// every bit flipped for negative numbers and the sign bit for the others
// (IEEE 754 total order).
func toBits[U unsigned](k U, kind keyKind) U {
	w := uint(unsafe.Sizeof(k))*8 - 1
	sign := U(1) << w
	switch kind {
	case kindSigned:
		return k ^ sign
	case kindFloat:
		return k ^ (-(k >> w) | sign)
	}
	return k
}

// fromBits is toBits's inverse.
func fromBits[U unsigned](k U, kind keyKind) U {
	w := uint(unsafe.Sizeof(k))*8 - 1
	sign := U(1) << w
	switch kind {
	case kindSigned:
		return k ^ sign
	case kindFloat:
		return k ^ ((k >> w) - 1 | sign)
	}
	return k
}

// minRadixChunk is the fewest keys a worker of the radix sort takes: below
// it the counts' cost exceeds the keys'.
const minRadixChunk = 1 << 14

// radixSort sorts keys, the bits of keys of kind kind, as numbers and,
// when vals is not nil, moves vals' elements with their keys: a stable
// least-significant-digit radix sort with 8-bit digits, over p chunks
// of keys that the workers of pool count and scatter at once. A digit all
// keys share is skipped.
func radixSort[U unsigned, V any](pool *hostPool, keys []U, vals []V, kind keyKind) error {
	n := len(keys)
	if n < 2 {
		return nil
	}
	width := int(unsafe.Sizeof(keys[0]))
	p := max(1, min(pool.workers(), n/minRadixChunk))
	bound := func(c int) int { return c * n / p }
	// counts[c][d*256+v] counts the keys of chunk c whose digit d is v:
	// every digit in one read, so that the first pass needs no other and
	// the totals say which digits all keys share.
	counts := make([][]int, p)
	if err := pool.each("algorithms.radix.count", p, func(c int) {
		cnt := make([]int, width*256)
		ks := keys[bound(c):bound(c+1)]
		for i, k := range ks {
			k = toBits(k, kind)
			ks[i] = k
			for d := range width {
				cnt[d*256+int(uint8(k>>(8*d)))]++
			}
		}
		counts[c] = cnt
	}); err != nil {
		return err
	}
	bufK := make([]U, n)
	var bufV []V
	if vals != nil {
		bufV = make([]V, n)
	}
	src, dst := keys, bufK
	srcV, dstV := vals, bufV
	fresh := true // counts[c] holds the digits of the keys src's chunk c holds
	offs := make([][256]int, p)
	for d := range width {
		skip := false
		for v := range 256 {
			t := 0
			for c := range p {
				t += counts[c][d*256+v]
			}
			if t == n {
				skip = true
			}
		}
		if skip {
			continue
		}
		shift := 8 * d
		if !fresh {
			if err := pool.each("algorithms.radix.count", p, func(c int) {
				cnt := counts[c][d*256 : d*256+256]
				clear(cnt)
				for _, k := range src[bound(c):bound(c+1)] {
					cnt[uint8(k>>shift)]++
				}
			}); err != nil {
				return err
			}
		}
		fresh = false
		// offs[c][v]: where chunk c's first key of digit v goes; digits
		// in order, and the chunks in order within a digit: stable.
		at := 0
		for v := range 256 {
			for c := range p {
				offs[c][v] = at
				at += counts[c][d*256+v]
			}
		}
		if err := pool.each("algorithms.radix.scatter", p, func(c int) {
			o := &offs[c]
			lo, hi := bound(c), bound(c+1)
			if srcV == nil {
				for _, k := range src[lo:hi] {
					v := uint8(k >> shift)
					dst[o[v]] = k
					o[v]++
				}
				return
			}
			sv := srcV[lo:hi]
			for i, k := range src[lo:hi] {
				v := uint8(k >> shift)
				dst[o[v]] = k
				dstV[o[v]] = sv[i]
				o[v]++
			}
		}); err != nil {
			return err
		}
		src, dst = dst, src
		srcV, dstV = dstV, srcV
	}
	// Back to keys (and vals) if the last pass left them in the buffers,
	// and back to the keys' own bits.
	back := &src[0] != &keys[0]
	return pool.each("algorithms.radix.finish", p, func(c int) {
		lo, hi := bound(c), bound(c+1)
		if back {
			copy(keys[lo:hi], src[lo:hi])
			if vals != nil {
				copy(vals[lo:hi], srcV[lo:hi])
			}
		}
		if kind != kindUnsigned {
			ks := keys[lo:hi]
			for i, k := range ks {
				ks[i] = fromBits(k, kind)
			}
		}
	})
}

// radixSortNumbers sorts s (with vals, when not nil) by radixSort on the
// unsigned integers of T's width.
func radixSortNumbers[T kokkos.Number, V any](pool *hostPool, s []T, vals []V) error {
	size, kind := kindOf[T]()
	switch size {
	case 1:
		return radixSort(pool, reinterpret[uint8](s), vals, kind)
	case 2:
		return radixSort(pool, reinterpret[uint16](s), vals, kind)
	case 4:
		return radixSort(pool, reinterpret[uint32](s), vals, kind)
	}
	return radixSort(pool, reinterpret[uint64](s), vals, kind)
}
