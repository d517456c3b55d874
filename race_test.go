//go:build race

package kokkos

const raceEnabled = true
