package kernel

import "unsafe"

// useAVX2 reports whether the processor has AVX2 and the operating system
// saves the YMM registers: the helpers of stream.go then run
// stream_amd64.s. Tests clear it to check the scalar loops.
var useAVX2 = hasAVX2Asm()

func hasAVX2Asm() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return xgetbv()&6 == 6 && ebx7&(1<<5) != 0
}

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() uint32

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
