//go:build !amd64

package kernel

import "unsafe"

// Off amd64 useAVX2 is false: the helpers of stream.go are the scalar
// loops, and the vector forms below are never called.

func noVector() { panic("kernel: no vector form on this architecture") }

func addFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func addFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func addInt64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                  { noVector() }
func addInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                  { noVector() }
func subFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func subFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func subInt64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                  { noVector() }
func subInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                  { noVector() }
func mulFloat64AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func mulFloat32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                { noVector() }
func mulInt32AVX2(dst, p, q unsafe.Pointer, n int, stream bool)                  { noVector() }
func scaleFloat64AVX2(dst, p unsafe.Pointer, s float64, n int, stream bool)      { noVector() }
func scaleFloat32AVX2(dst, p unsafe.Pointer, s float32, n int, stream bool)      { noVector() }
func triadFloat64AVX2(dst, p, q unsafe.Pointer, s float64, n int, stream bool)   { noVector() }
func triadFloat32AVX2(dst, p, q unsafe.Pointer, s float32, n int, stream bool)   { noVector() }
func nstreamFloat64AVX2(dst, p, q unsafe.Pointer, s float64, n int, stream bool) { noVector() }
func nstreamFloat32AVX2(dst, p, q unsafe.Pointer, s float32, n int, stream bool) { noVector() }
func dotOrderedFloat64AVX2(s float64, p, q unsafe.Pointer, n int) float64        { noVector(); return 0 }
func dotOrderedFloat32AVX2(s float32, p, q unsafe.Pointer, n int) float32        { noVector(); return 0 }
