package kernel

import "unsafe"

// The AVX2 forms (stream_amd64.s): n elements from index 0; with stream,
// the vector stores of the aligned middle are non-temporal, then fenced.

//go:noescape
func addFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func addFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func addInt64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func addInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func subFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func subFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func subInt64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func subInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func mulFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func mulFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func mulInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)

//go:noescape
func scaleFloat64AVX2(dst, p unsafe.Pointer, s float64, n int, stream bool)

//go:noescape
func scaleFloat32AVX2(dst, p unsafe.Pointer, s float32, n int, stream bool)

//go:noescape
func triadFloat64AVX2(dst, p, q unsafe.Pointer, s float64, n int, stream bool)

//go:noescape
func triadFloat32AVX2(dst, p, q unsafe.Pointer, s float32, n int, stream bool)

//go:noescape
func nstreamFloat64AVX2(dst, p, q unsafe.Pointer, s float64, n int, stream bool)

//go:noescape
func nstreamFloat32AVX2(dst, p, q unsafe.Pointer, s float32, n int, stream bool)

// The ordered dot products (stream_amd64.s): s plus the n products, in
// index order.

//go:noescape
func dotOrderedFloat64AVX2(s float64, p, q unsafe.Pointer, n int) float64

//go:noescape
func dotOrderedFloat32AVX2(s float32, p, q unsafe.Pointer, n int) float32
