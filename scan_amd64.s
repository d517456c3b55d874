#include "textflag.h"

// func scan32(dst, src unsafe.Pointer, n int, acc uint32, inclusive bool) uint32
// Scans n 32-bit integers (n a positive multiple of 8) from src into dst,
// starting from acc, and returns acc plus their sum. Each group of eight
// is summed in place in two registers of four lanes; the chain from one
// group to the next is one addition and one shuffle.
TEXT ·scan32(SB), NOSPLIT, $0-36
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	MOVL	acc+24(FP), AX
	MOVBLZX	inclusive+28(FP), DX
	MOVQ	AX, X7
	PSHUFL	$0, X7, X7	// the carry in every lane
	TESTQ	DX, DX
	JZ	exclusive
inclusive:
	MOVOU	(SI), X0
	MOVOU	16(SI), X1
	MOVO	X0, X2
	PSLLO	$4, X2
	PADDL	X2, X0
	MOVO	X1, X3
	PSLLO	$4, X3
	PADDL	X3, X1
	MOVO	X0, X2
	PSLLO	$8, X2
	PADDL	X2, X0
	MOVO	X1, X3
	PSLLO	$8, X3
	PADDL	X3, X1
	PSHUFL	$0xff, X0, X4
	PADDL	X4, X1
	PADDL	X7, X0
	PADDL	X7, X1
	MOVOU	X0, (DI)
	MOVOU	X1, 16(DI)
	PSHUFL	$0xff, X1, X7
	ADDQ	$32, SI
	ADDQ	$32, DI
	SUBQ	$8, CX
	JNZ	inclusive
	JMP	done
exclusive:
	MOVOU	(SI), X0
	MOVOU	16(SI), X1
	MOVO	X0, X5
	MOVO	X1, X6
	MOVO	X0, X2
	PSLLO	$4, X2
	PADDL	X2, X0
	MOVO	X1, X3
	PSLLO	$4, X3
	PADDL	X3, X1
	MOVO	X0, X2
	PSLLO	$8, X2
	PADDL	X2, X0
	MOVO	X1, X3
	PSLLO	$8, X3
	PADDL	X3, X1
	PSHUFL	$0xff, X0, X4
	PADDL	X4, X1
	PADDL	X7, X0
	PADDL	X7, X1
	PSHUFL	$0xff, X1, X7
	PSUBL	X5, X0
	PSUBL	X6, X1
	MOVOU	X0, (DI)
	MOVOU	X1, 16(DI)
	ADDQ	$32, SI
	ADDQ	$32, DI
	SUBQ	$8, CX
	JNZ	exclusive
done:
	MOVQ	X7, AX
	MOVL	AX, ret+32(FP)
	RET
