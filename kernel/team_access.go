package kernel

import "github.com/gokkos/kokkos"

// The accessors of a team kernel's scratch views: the generated host code
// of a declaration s := kokkos.ScratchViewN[T](t.TeamScratch(level), ...)
// makes the view as written and binds it as ScratchN does, so that the
// body's s.At, s.Set, s.Ptr and s.Extent are the accessors' (a bounds
// check and a load or store, the panic naming the kernel, the view, its
// label, the indices and the extents).

// Scratch1 returns the accessor of scratch view v, the local name of
// kernel k, writing. It panics if the host cannot run k on v, which a
// scratch view of a host team never causes.
func Scratch1[T any](k, name string, v kokkos.View1[T]) A1[T] { return must(View1(k, name, v, true)) }

// Scratch2 is Scratch1 for a view of rank 2.
func Scratch2[T any](k, name string, v kokkos.View2[T]) A2[T] { return must(View2(k, name, v, true)) }

// Scratch3 is Scratch1 for a view of rank 3.
func Scratch3[T any](k, name string, v kokkos.View3[T]) A3[T] { return must(View3(k, name, v, true)) }

// Scratch4 is Scratch1 for a view of rank 4.
func Scratch4[T any](k, name string, v kokkos.View4[T]) A4[T] { return must(View4(k, name, v, true)) }

// Scratch5 is Scratch1 for a view of rank 5.
func Scratch5[T any](k, name string, v kokkos.View5[T]) A5[T] { return must(View5(k, name, v, true)) }

// Scratch6 is Scratch1 for a view of rank 6.
func Scratch6[T any](k, name string, v kokkos.View6[T]) A6[T] { return must(View6(k, name, v, true)) }

func must[A any](a A, err error) A {
	if err != nil {
		panic(err)
	}
	return a
}
