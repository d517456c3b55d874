package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// The constants of the exercise's functors.
const (
	gasConstant = 1.0
	cV          = 1.0
)

// ComputePressure sets pressure(i) = density(i) * R * temperature(i), the
// exercise's ComputePressure functor.
//
//kokkos:kernel
func ComputePressure(i int, pressure, temperature, density kokkos.View1[float64]) {
	pressure.Set(i, density.At(i)*gasConstant*temperature.At(i))
}

// ComputeInternalEnergy sets energy(i) = C_v * temperature(i).
//
//kokkos:kernel
func ComputeInternalEnergy(i int, energy, temperature kokkos.View1[float64]) {
	energy.Set(i, cV*temperature.At(i))
}

// ComputeEnthalpy sets enthalpy(i) = energy(i) + pressure(i)/density(i).
//
//kokkos:kernel
func ComputeEnthalpy(i int, enthalpy, energy, pressure, density kokkos.View1[float64]) {
	enthalpy.Set(i, energy.At(i)+pressure.At(i)/density.At(i))
}
