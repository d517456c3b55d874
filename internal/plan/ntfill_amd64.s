#include "textflag.h"

// func ntStore(p unsafe.Pointer, n uintptr, pat *[16]byte)
// Stores the 16 bytes of *pat over n bytes at p with non-temporal stores:
// p is 16-byte aligned, n a positive multiple of 64. No fence: see
// StoreFence.
TEXT ·ntStore(SB), NOSPLIT, $0-24
	MOVQ	p+0(FP), DI
	MOVQ	n+8(FP), CX
	MOVQ	pat+16(FP), SI
	MOVOU	(SI), X0
loop:
	MOVNTO	X0, 0(DI)
	MOVNTO	X0, 16(DI)
	MOVNTO	X0, 32(DI)
	MOVNTO	X0, 48(DI)
	ADDQ	$64, DI
	SUBQ	$64, CX
	JNZ	loop
	RET

// func StoreFence()
TEXT ·StoreFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
