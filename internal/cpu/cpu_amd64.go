package cpu

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() uint32

// x86 reads the features of cpu.go: AVX2, and AVX-512 Foundation, each
// where the processor has it and the operating system saves its
// registers (YMM state; opmask and ZMM state as well); CMPXCHG16B.
func x86() (avx2, avx512, cx16 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	_, _, ecx1, _ := cpuid(1, 0)
	cx16 = ecx1&(1<<13) != 0
	if maxID < 7 {
		return false, false, cx16
	}
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false, false, cx16
	}
	xcr0 := xgetbv()
	_, ebx7, _, _ := cpuid(7, 0)
	avx2 = xcr0&6 == 6 && ebx7&(1<<5) != 0
	return avx2, avx2 && xcr0&0xe6 == 0xe6 && ebx7&(1<<16) != 0, cx16
}
