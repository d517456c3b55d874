//go:build !race

#include "textflag.h"

// ADDSUB_C128 is the body of addC128CX and subC128CX: a compare-and-swap
// loop that replaces the complex128 at p by itself OP v, where OP is ADDSD
// or SUBSD on each half, as Go's + and - of complex128 compute, and
// returns the old value.
#define ADDSUB_C128(OP) \
	MOVQ	p+0(FP), DI; \
	MOVSD	re+8(FP), X2; \
	MOVSD	im+16(FP), X3; \
	MOVQ	(DI), AX; \
	MOVQ	8(DI), DX; \
loop: \
	MOVQ	AX, X0; \
	MOVQ	DX, X1; \
	OP	X2, X0; \
	OP	X3, X1; \
	MOVQ	X0, BX; \
	MOVQ	X1, CX; \
	LOCK; \
	CMPXCHG16B	(DI); \
	JNE	loop; \
	MOVQ	AX, ore+24(FP); \
	MOVQ	DX, oim+32(FP); \
	RET

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

// func cas16CX(p unsafe.Pointer, o0, o1, n0, n1 uint64) (c0, c1 uint64, ok bool)
TEXT ·cas16CX(SB), NOSPLIT, $0-57
	MOVQ	p+0(FP), DI
	MOVQ	o0+8(FP), AX
	MOVQ	o1+16(FP), DX
	MOVQ	n0+24(FP), BX
	MOVQ	n1+32(FP), CX
	LOCK
	CMPXCHG16B	(DI)
	MOVQ	AX, c0+40(FP)
	MOVQ	DX, c1+48(FP)
	SETEQ	ok+56(FP)
	RET

// func peek16CX(p unsafe.Pointer) (lo, hi uint64)
TEXT ·peek16CX(SB), NOSPLIT, $0-24
	MOVQ	p+0(FP), DI
	MOVQ	(DI), AX
	MOVQ	8(DI), DX
	MOVQ	AX, lo+8(FP)
	MOVQ	DX, hi+16(FP)
	RET

// func addC128CX(p unsafe.Pointer, re, im float64) (ore, oim float64)
TEXT ·addC128CX(SB), NOSPLIT, $0-40
	ADDSUB_C128(ADDSD)

// func subC128CX(p unsafe.Pointer, re, im float64) (ore, oim float64)
TEXT ·subC128CX(SB), NOSPLIT, $0-40
	ADDSUB_C128(SUBSD)
