package random

import (
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// A rowFiller fills n elements of type T from p on, stride bytes apart,
// with draws of g in [begin, end), one after the other: the draw of an
// element as Kokkos's rand<Generator, T>::draw(gen, begin, end) makes it
// (integers of 32 bits or fewer from rand or urand, 64-bit ones from
// rand64 or urand64, floats from frand or drand). Each is a loop over a
// generator of a concrete type, whose draws inline, rather than a call
// per element. The address of element k is computed from p, so that no
// pointer goes past the row's last element.
type rowFiller[G any] func(g *G, p unsafe.Pointer, n int, stride uintptr)

// rows64 returns the row filler of T in [begin, end) for XorShift64
// generators (see rowFiller).
func rows64[T kokkos.Number](begin, end T) rowFiller[XorShift64] {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		b, e := int32(begin), int32(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.RandRange(b, e))
			}
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		b, e := uint32(begin), uint32(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.UrandRange(b, e))
			}
		}
	case reflect.Int64, reflect.Int:
		b, e := int64(begin), int64(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.Rand64Range(b, e))
			}
		}
	case reflect.Float32:
		b, e := float32(begin), float32(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.FrandRange(b, e))
			}
		}
	case reflect.Float64:
		b, e := float64(begin), float64(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.DrandRange(b, e))
			}
		}
	default: // uint64, uint, uintptr
		b, e := uint64(begin), uint64(end)
		return func(g *XorShift64, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.Urand64Range(b, e))
			}
		}
	}
}

// rows1024 returns the row filler of T in [begin, end) for XorShift1024
// generators (see rowFiller).
func rows1024[T kokkos.Number](begin, end T) rowFiller[XorShift1024] {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		b, e := int32(begin), int32(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.RandRange(b, e))
			}
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		b, e := uint32(begin), uint32(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.UrandRange(b, e))
			}
		}
	case reflect.Int64, reflect.Int:
		b, e := int64(begin), int64(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.Rand64Range(b, e))
			}
		}
	case reflect.Float32:
		b, e := float32(begin), float32(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.FrandRange(b, e))
			}
		}
	case reflect.Float64:
		b, e := float64(begin), float64(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.DrandRange(b, e))
			}
		}
	default: // uint64, uint, uintptr
		b, e := uint64(begin), uint64(end)
		return func(g *XorShift1024, p unsafe.Pointer, n int, stride uintptr) {
			for k := range n {
				*(*T)(unsafe.Add(p, uintptr(k)*stride)) = T(g.Urand64Range(b, e))
			}
		}
	}
}
