package kernel

import (
	"unsafe"

	"github.com/gokkos/kokkos"
)

// The accessors of a team kernel's scratch views: the generated host code
// of a declaration s := kokkos.ScratchViewN[T](t.TeamScratch(level), ...)
// makes the view as written and binds it with ScratchN, so that the
// body's s.At, s.Set, s.Ptr and s.Extent are the accessors' (a bounds
// check and a load or store, the panic naming the kernel, the view, its
// label, the indices and the extents). A scratch view is host memory the
// team owns, writable and never released during the team, so the checks
// of View1 ... View6 do not apply; binding one costs one allocation (its
// names, for the panics), since it is made for every thread of every team.

// scratchInfo returns the names of scratch view name of kernel k, of
// label and extents ext, in one allocation.
func scratchInfo(k, name, label string, ext []int) *info {
	s := &struct {
		info
		ext [6]int
	}{}
	n := copy(s.ext[:], ext)
	s.info = info{kernel: k, name: name, label: label, ext: s.ext[:n:n], write: true}
	return &s.info
}

// base returns the address of the first element of data, or nil.
func base[T any](data []T) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(data)) }

// Scratch1 returns the accessor of scratch view v, the local name of
// kernel k, for the kernel's generated host code; the accessor writes.
func Scratch1[T any](k, name string, v kokkos.View1[T]) A1[T] {
	a := A1[T]{p: base(v.Data())}
	for r := range 1 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}

// Scratch2 is Scratch1 for a view of rank 2.
func Scratch2[T any](k, name string, v kokkos.View2[T]) A2[T] {
	a := A2[T]{p: base(v.Data())}
	for r := range 2 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}

// Scratch3 is Scratch1 for a view of rank 3.
func Scratch3[T any](k, name string, v kokkos.View3[T]) A3[T] {
	a := A3[T]{p: base(v.Data())}
	for r := range 3 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}

// Scratch4 is Scratch1 for a view of rank 4.
func Scratch4[T any](k, name string, v kokkos.View4[T]) A4[T] {
	a := A4[T]{p: base(v.Data())}
	for r := range 4 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}

// Scratch5 is Scratch1 for a view of rank 5.
func Scratch5[T any](k, name string, v kokkos.View5[T]) A5[T] {
	a := A5[T]{p: base(v.Data())}
	for r := range 5 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}

// Scratch6 is Scratch1 for a view of rank 6.
func Scratch6[T any](k, name string, v kokkos.View6[T]) A6[T] {
	a := A6[T]{p: base(v.Data())}
	for r := range 6 {
		a.ext[r], a.str[r] = v.Extent(r), v.Stride(r)*int(unsafe.Sizeof(*new(T)))
	}
	a.w0 = a.ext[0]
	a.in = scratchInfo(k, name, v.Label(), a.ext[:])
	return a
}
