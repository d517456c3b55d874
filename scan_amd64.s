#include "textflag.h"

// PREFIX8 loads eight 32-bit integers from SI into X0 and X1 and leaves
// there their inclusive scan from the carry in every lane of X7; X7 gets
// the new carry. X5 and X6 keep the loaded values. The chain from one
// group of eight to the next is one addition and one shuffle.
#define PREFIX8 \
	MOVOU	(SI), X0; \
	MOVOU	16(SI), X1; \
	MOVO	X0, X5; \
	MOVO	X1, X6; \
	MOVO	X0, X2; \
	PSLLO	$4, X2; \
	PADDL	X2, X0; \
	MOVO	X1, X3; \
	PSLLO	$4, X3; \
	PADDL	X3, X1; \
	MOVO	X0, X2; \
	PSLLO	$8, X2; \
	PADDL	X2, X0; \
	MOVO	X1, X3; \
	PSLLO	$8, X3; \
	PADDL	X3, X1; \
	PSHUFL	$0xff, X0, X4; \
	PADDL	X4, X1; \
	PADDL	X7, X0; \
	PADDL	X7, X1; \
	PSHUFL	$0xff, X1, X7

// func scan32(dst, src unsafe.Pointer, n int, acc uint32, mode int, pf unsafe.Pointer) uint32
// Scans n 32-bit integers (n a positive multiple of 8) from src into dst,
// starting from acc, and returns acc plus their sum. mode: bit 0 set for
// an inclusive scan, bit 1 set to store with non-temporal stores (dst
// 16-byte aligned), not fenced. Each step prefetches the next 32 bytes
// from pf, 4n bytes in all.
TEXT ·scan32(SB), NOSPLIT, $0-52
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	MOVL	acc+24(FP), AX
	MOVQ	mode+32(FP), DX
	MOVQ	pf+40(FP), R8
	MOVQ	AX, X7
	PSHUFL	$0, X7, X7	// the carry in every lane
	CMPQ	DX, $1
	JEQ	inclusive
	CMPQ	DX, $2
	JEQ	exclusiveNT
	CMPQ	DX, $3
	JEQ	inclusiveNT
exclusive:
	PREFIX8
	PSUBL	X5, X0
	PSUBL	X6, X1
	MOVOU	X0, (DI)
	MOVOU	X1, 16(DI)
	ADDQ	$32, SI
	ADDQ	$32, DI
	PREFETCHT0	(R8)
	ADDQ	$32, R8
	SUBQ	$8, CX
	JNZ	exclusive
	JMP	done
inclusive:
	PREFIX8
	MOVOU	X0, (DI)
	MOVOU	X1, 16(DI)
	ADDQ	$32, SI
	ADDQ	$32, DI
	PREFETCHT0	(R8)
	ADDQ	$32, R8
	SUBQ	$8, CX
	JNZ	inclusive
	JMP	done
exclusiveNT:
	PREFIX8
	PSUBL	X5, X0
	PSUBL	X6, X1
	MOVNTO	X0, (DI)
	MOVNTO	X1, 16(DI)
	ADDQ	$32, SI
	ADDQ	$32, DI
	PREFETCHT0	(R8)
	ADDQ	$32, R8
	SUBQ	$8, CX
	JNZ	exclusiveNT
	JMP	done
inclusiveNT:
	PREFIX8
	MOVNTO	X0, (DI)
	MOVNTO	X1, 16(DI)
	ADDQ	$32, SI
	ADDQ	$32, DI
	PREFETCHT0	(R8)
	ADDQ	$32, R8
	SUBQ	$8, CX
	JNZ	inclusiveNT
done:
	MOVQ	X7, AX
	MOVL	AX, ret+48(FP)
	RET

// func sum32(src unsafe.Pointer, n int) uint32
// Returns the wrapping sum of n 32-bit integers at src (n a positive
// multiple of 8), in four vector accumulators of four lanes.
TEXT ·sum32(SB), NOSPLIT, $0-20
	MOVQ	src+0(FP), SI
	MOVQ	n+8(FP), CX
	PXOR	X0, X0
	PXOR	X1, X1
	PXOR	X2, X2
	PXOR	X3, X3
	CMPQ	CX, $16
	JB	sumTail
sumLoop:
	MOVOU	(SI), X4
	MOVOU	16(SI), X5
	MOVOU	32(SI), X6
	MOVOU	48(SI), X7
	PADDL	X4, X0
	PADDL	X5, X1
	PADDL	X6, X2
	PADDL	X7, X3
	ADDQ	$64, SI
	SUBQ	$16, CX
	CMPQ	CX, $16
	JAE	sumLoop
sumTail:
	TESTQ	CX, CX
	JZ	sumFold
	MOVOU	(SI), X4
	MOVOU	16(SI), X5
	PADDL	X4, X0
	PADDL	X5, X1
sumFold:
	PADDL	X1, X0
	PADDL	X3, X2
	PADDL	X2, X0
	PSHUFL	$0x4e, X0, X1
	PADDL	X1, X0
	PSHUFL	$0xb1, X0, X1
	PADDL	X1, X0
	MOVQ	X0, AX
	MOVL	AX, ret+16(FP)
	RET
