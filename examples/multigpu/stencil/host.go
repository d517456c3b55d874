package stencil

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// SimulateHost runs steps steps of the same split on the host: d bands
// of host views with their halos, Init and Rows on the host pool band
// after band, and the halo rows copied with kokkos.DeepCopy after each
// step. It returns the gathered n×n field, which must equal the one of
// any other split bit for bit.
func SimulateHost(n, d, steps int) (kokkos.View2[float64], error) {
	var field kokkos.View2[float64]
	if d < 1 || n < 3 || n < d {
		return field, fmt.Errorf("%w: a %d×%d grid across %d bands", ErrSize, n, n, d)
	}
	bands := Bands(n, d)
	buf := make([][2]kokkos.View2[float64], d)
	for k, b := range bands {
		for i := range 2 {
			v, err := kokkos.NewView2[float64](fmt.Sprintf("band %d buffer %d", k, i), b.Rows+2, n)
			if err != nil {
				return field, err
			}
			defer v.Release()
			buf[k][i] = v
		}
		if err := kernel.For("stencil.Init", kokkos.MDRange([]int{0, 0}, []int{b.Rows + 2, n}), Init, buf[k][0], b.First, n); err != nil {
			return field, err
		}
	}
	for s := range steps {
		par := s % 2
		for k, b := range bands {
			cur, next := buf[k][par], buf[k][1-par]
			for _, rows := range [][3]int{pack(b.boundary()), pack(b.interior())} {
				if rows[0] == 0 {
					continue
				}
				if err := forRows(next, cur, b, n, rows); err != nil {
					return field, err
				}
			}
		}
		for k, b := range bands {
			var above, below *kokkos.View2[float64]
			ar := 0
			if k > 0 {
				above, ar = &buf[k-1][1-par], bands[k-1].Rows
			}
			if k < d-1 {
				below = &buf[k+1][1-par]
			}
			dst, src := halos(&buf[k][1-par], b.Rows, above, ar, below)
			for h := range dst {
				if err := kokkos.DeepCopy[float64](&dst[h], &src[h]); err != nil {
					return field, err
				}
			}
		}
	}
	field, err := kokkos.NewView2[float64]("field", n, n)
	if err != nil {
		return field, err
	}
	for k, b := range bands {
		src := buf[k][steps%2].Subview2(kokkos.Pair(1, b.Rows+1), kokkos.All)
		dst := field.Subview2(kokkos.Pair(b.First, b.First+b.Rows), kokkos.All)
		if err := kokkos.DeepCopy[float64](&dst, &src); err != nil {
			return field, err
		}
	}
	return field, nil
}

func pack(count, i0, di int) [3]int { return [3]int{count, i0, di} }

// forRows runs Rows on the host over the rows (count, i0, di) of band b.
func forRows(next, cur kokkos.View2[float64], b Band, n int, rows [3]int) error {
	return kernel.For("stencil.Rows", kokkos.MDRange([]int{0, 0}, []int{rows[0], n}), Rows, next, cur.ReadOnly(), Alpha, b.First, n, rows[1], rows[2])
}
