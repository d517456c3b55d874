//go:build !race

#include "textflag.h"

// CMPXCHG16B compares DX:AX with the 16 bytes at its operand; if equal it
// stores CX:BX there and sets ZF, otherwise it loads them into DX:AX and
// clears ZF. The operand must be 16-byte aligned.

// func load16CX(p unsafe.Pointer) (lo, hi uint64)
TEXT ·load16CX(SB), NOSPLIT, $0-24
	MOVQ	p+0(FP), DI
	XORQ	AX, AX
	XORQ	DX, DX
	XORQ	BX, BX
	XORQ	CX, CX
	LOCK
	CMPXCHG16B	(DI)
	MOVQ	AX, lo+8(FP)
	MOVQ	DX, hi+16(FP)
	RET

// func store16CX(p unsafe.Pointer, lo, hi uint64)
TEXT ·store16CX(SB), NOSPLIT, $0-24
	MOVQ	p+0(FP), DI
	MOVQ	lo+8(FP), BX
	MOVQ	hi+16(FP), CX
	// A guess at the old value, torn or not: a failed CMPXCHG16B loads
	// the value it found, so the second try succeeds unless another
	// store came in between.
	MOVQ	(DI), AX
	MOVQ	8(DI), DX
loop:
	LOCK
	CMPXCHG16B	(DI)
	JNE	loop
	RET

// func cas16CX(p unsafe.Pointer, o0, o1, n0, n1 uint64) bool
TEXT ·cas16CX(SB), NOSPLIT, $0-41
	MOVQ	p+0(FP), DI
	MOVQ	o0+8(FP), AX
	MOVQ	o1+16(FP), DX
	MOVQ	n0+24(FP), BX
	MOVQ	n1+32(FP), CX
	LOCK
	CMPXCHG16B	(DI)
	SETEQ	ret+40(FP)
	RET
