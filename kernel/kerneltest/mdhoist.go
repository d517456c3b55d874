package kerneltest

import "github.com/gokkos/kokkos"

// The MDRange kernels below have parts that depend only on the outer
// indices and the scalar parameters, which the host loops compute once
// per line of a tile (cmd/kokkos-kernelgen/host_md.go); mdhoist_test.go
// checks them, bit for bit, against the kernels called directly.

// MDWrite stores i/2 + j: the side-by-side harness's 2-D write.
//
//kokkos:kernel
func MDWrite(i, j int, a kokkos.View2[float64]) {
	a.Set(i, j, float64(i)*0.5+float64(j))
}

// MDRowMix mixes the outer index and the scalar parameters in branches,
// a loop of the body and after a return, with integer products that wrap,
// quotients and remainders by constants, shifts and a conversion of a
// float to an integer.
//
//kokkos:kernel
func MDRowMix(i, j int, out, in kokkos.View2[float64], cnt kokkos.View2[int64], s float64, n int, m int32) {
	if j == n {
		return
	}
	x := float64(i)*s + float64(n-i)/s
	y := in.At(i, j)
	if j%3 == 0 {
		out.Set(i, j, x*y-float64(i*n)/3)
	} else {
		for k := range 3 {
			y += float64(int32(i)*m+int32(k)) * s / 7
		}
		out.Set(i, j, y+float64(int64(float64(i)*s*1e17)))
	}
	cnt.Set(i, j, int64(i*n/5+i%7)<<3^int64(m)*int64(i)*0x7FFF_FFFF_FFFF+int64(j)-int64(-i>>2))
}

// MDRowMixNoCheck is MDRowMix without bounds checks on the host.
//
//kokkos:kernel nocheck
func MDRowMixNoCheck(i, j int, out, in kokkos.View2[float64], cnt kokkos.View2[int64], s float64, n int, m int32) {
	if j == n {
		return
	}
	x := float64(i)*s + float64(n-i)/s
	y := in.At(i, j)
	if j%3 == 0 {
		out.Set(i, j, x*y-float64(i*n)/3)
	} else {
		for k := range 3 {
			y += float64(int32(i)*m+int32(k)) * s / 7
		}
		out.Set(i, j, y+float64(int64(float64(i)*s*1e17)))
	}
	cnt.Set(i, j, int64(i*n/5+i%7)<<3^int64(m)*int64(i)*0x7FFF_FFFF_FFFF+int64(j)-int64(-i>>2))
}

// MDPlane scales a rank-3 view by float32 terms of each index.
//
//kokkos:kernel
func MDPlane(i, j, k int, out, in kokkos.View3[float32], h float32) {
	out.Set(i, j, k, in.At(i, j, k)*(float32(i)*h+float32(j)/h)-float32(k)*h*h+float32(uint8(i+j)))
}

// MDRowSum sums, per index, products of the view with terms of the outer
// indices.
//
//kokkos:kernel
func MDRowSum(i, j int, a kokkos.View2[float64], w float64, acc *float64) {
	*acc += a.At(i, j) * (float64(i)*w - float64(j)/w)
}
