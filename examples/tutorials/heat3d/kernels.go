package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// The surfaces of the body, as SurfaceDT's surface argument.
const (
	left = iota
	right
	down
	up
	front
	back
)

// InnerDT sets dT at an inner point (x, y, z) to q times the sum of the
// differences between its six neighbours' temperatures and its own.
//
//kokkos:kernel
func InnerDT(x, y, z int, T, dT kokkos.View3[float64], q float64) {
	t := T.At(x, y, z)
	d := 0.0
	d += q * (T.At(x-1, y, z) - t)
	d += q * (T.At(x+1, y, z) - t)
	d += q * (T.At(x, y-1, z) - t)
	d += q * (T.At(x, y+1, z) - t)
	d += q * (T.At(x, y, z-1) - t)
	d += q * (T.At(x, y, z+1) - t)
	dT.Set(x, y, z, d)
}

// SurfaceDT sets dT at point (i, j) of a surface of the body: conduction
// from the neighbours inside the body, the incoming power P on the x = 0
// face, and radiation sigma*T^4 out of each face the point lies on. The
// launches of the six surfaces cover each surface point once (up and
// down leave out the edges left and right have, front and back those of
// all four), as the tutorial's ComputeSurfaceDT.
//
//kokkos:kernel
func SurfaceDT(i, j int, T, dT kokkos.View3[float64], surface int, q, sigma, P float64) {
	nx, ny, nz := T.Extent(0), T.Extent(1), T.Extent(2)
	x, y, z := 0, 0, 0
	switch surface {
	case left:
		x, y, z = 0, i, j
	case right:
		x, y, z = nx-1, i, j
	case down:
		x, y, z = i, 0, j
	case up:
		x, y, z = i, ny-1, j
	case front:
		x, y, z = i, j, 0
	default:
		x, y, z = i, j, nz-1
	}
	t := T.At(x, y, z)
	d := 0.0
	if x > 0 {
		d += q * (T.At(x-1, y, z) - t)
	}
	if x < nx-1 {
		d += q * (T.At(x+1, y, z) - t)
	}
	if y > 0 {
		d += q * (T.At(x, y-1, z) - t)
	}
	if y < ny-1 {
		d += q * (T.At(x, y+1, z) - t)
	}
	if z > 0 {
		d += q * (T.At(x, y, z-1) - t)
	}
	if z < nz-1 {
		d += q * (T.At(x, y, z+1) - t)
	}
	if x == 0 {
		d += P
	}
	faces := 0
	if x == 0 {
		faces++
	}
	if x == nx-1 {
		faces++
	}
	if y == 0 {
		faces++
	}
	if y == ny-1 {
		faces++
	}
	if z == 0 {
		faces++
	}
	if z == nz-1 {
		faces++
	}
	d -= sigma * t * t * t * t * float64(faces)
	dT.Set(x, y, z, d)
}

// ComputeT adds T at (x, y, z) to acc, then advances it by dt*dT.
//
//kokkos:kernel
func ComputeT(x, y, z int, T, dT kokkos.View3[float64], dt float64, acc *float64) {
	t := T.At(x, y, z)
	*acc += t
	T.Set(x, y, z, t+dt*dT.At(x, y, z))
}
