// Package cpu reports the x86 vector and atomic instructions that the
// processor has and the operating system supports, read once at start-up
// by CPUID and XGETBV. Off amd64 every feature is false.
package cpu

// The features, each true only where the processor has the instructions
// and, for the vector ones, the operating system saves their registers.
var (
	// X86HasAVX2 reports AVX2 with the YMM state saved.
	X86HasAVX2 bool
	// X86HasAVX512 reports AVX-512 Foundation with the opmask and ZMM
	// state saved, on a processor that also has AVX2.
	X86HasAVX512 bool
	// X86HasCX16 reports CMPXCHG16B (CPUID leaf 1, ECX bit 13).
	X86HasCX16 bool
)

func init() { X86HasAVX2, X86HasAVX512, X86HasCX16 = x86() }
