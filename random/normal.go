package random

import "math"

// boxMuller is Kokkos's Box-Muller step from two uniform draws u and v.
func boxMuller(u, v float64) float64 {
	r := math.Sqrt(-2.0 * math.Log(u))
	theta := v * twoPi
	return r * math.Cos(theta)
}
