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

// func sum32AVX2(src unsafe.Pointer, n int) uint32
// sum32 in four 32-byte accumulators.
TEXT ·sum32AVX2(SB), NOSPLIT, $0-20
	MOVQ	src+0(FP), SI
	MOVQ	n+8(FP), CX
	VPXOR	Y0, Y0, Y0
	VPXOR	Y1, Y1, Y1
	VPXOR	Y2, Y2, Y2
	VPXOR	Y3, Y3, Y3
avxSumLoop:
	CMPQ	CX, $32
	JB	avxSumTail
	VPADDD	(SI), Y0, Y0
	VPADDD	32(SI), Y1, Y1
	VPADDD	64(SI), Y2, Y2
	VPADDD	96(SI), Y3, Y3
	ADDQ	$128, SI
	SUBQ	$32, CX
	JMP	avxSumLoop
avxSumTail:
	TESTQ	CX, CX
	JZ	avxSumFold
	VPADDD	(SI), Y0, Y0
	ADDQ	$32, SI
	SUBQ	$8, CX
	JMP	avxSumTail
avxSumFold:
	VPADDD	Y1, Y0, Y0
	VPADDD	Y3, Y2, Y2
	VPADDD	Y2, Y0, Y0
	VEXTRACTI128	$1, Y0, X1
	VZEROUPPER
	PADDL	X1, X0
	PSHUFL	$0x4e, X0, X1
	PADDL	X1, X0
	PSHUFL	$0xb1, X0, X1
	PADDL	X1, X0
	MOVQ	X0, AX
	MOVL	AX, ret+16(FP)
	RET

// VPERMD's indices for scan32AVX512's step from fours to eights: lane 3
// for the first eight lanes, lane 11 for the last eight.
DATA scanIdx3<>+0(SB)/8, $0x0000000300000003
DATA scanIdx3<>+8(SB)/8, $0x0000000300000003
DATA scanIdx3<>+16(SB)/8, $0x0000000300000003
DATA scanIdx3<>+24(SB)/8, $0x0000000300000003
DATA scanIdx3<>+32(SB)/8, $0x0000000b0000000b
DATA scanIdx3<>+40(SB)/8, $0x0000000b0000000b
DATA scanIdx3<>+48(SB)/8, $0x0000000b0000000b
DATA scanIdx3<>+56(SB)/8, $0x0000000b0000000b
GLOBL scanIdx3<>(SB), RODATA|NOPTR, $64

// LANESCAN16 leaves in Z0 the inclusive scan of its sixteen 32-bit
// integers, with Z2 as scratch: pairs by a shift within 64-bit lanes, then
// fours, eights and sixteen, each by adding the total of the group before
// under a mask (K1, K2, K3), the totals broadcast by VPSHUFD and VPERMD
// (indices in Z14 and Z15). Z1 gets the total in every lane (index Z12).
#define LANESCAN16 \
	VPSLLQ	$32, Z0, Z2; \
	VPADDD	Z2, Z0, Z0; \
	VPSHUFD	$0x50, Z0, Z2; \
	VPADDD	Z2, Z0, K1, Z0; \
	VPERMD	Z0, Z14, Z2; \
	VPADDD	Z2, Z0, K2, Z0; \
	VPERMD	Z0, Z15, Z2; \
	VPADDD	Z2, Z0, K3, Z0; \
	VPERMD	Z0, Z12, Z1

// NEXT16 prefetches a line of the next block, moves on by sixteen integers
// and goes back to the loop at label.
#define NEXT16(label) \
	PREFETCHT0	(R8); \
	ADDQ	$64, SI; \
	ADDQ	$64, DI; \
	ADDQ	$64, R8; \
	SUBQ	$16, CX; \
	JMP	label

// func scan32AVX512(dst, src unsafe.Pointer, n int, acc uint32, mode int, pf unsafe.Pointer) uint32
// scan32 in 64-byte vectors, sixteen integers a step, the step's total
// added to the carry off the scan's chain, so the chain from one step to
// the next is one addition; a last eight under a mask. Non-temporal stores
// need dst 64-byte aligned.
TEXT ·scan32AVX512(SB), NOSPLIT, $0-52
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	MOVL	acc+24(FP), AX
	MOVQ	mode+32(FP), DX
	MOVQ	pf+40(FP), R8
	VPBROADCASTD	AX, Z7	// the carry in every lane
	MOVL	$7, AX
	VPBROADCASTD	AX, Z15
	MOVL	$15, AX
	VPBROADCASTD	AX, Z12
	VMOVDQU32	scanIdx3<>(SB), Z14
	MOVL	$0xcccc, AX
	KMOVW	AX, K1
	MOVL	$0xf0f0, AX
	KMOVW	AX, K2
	MOVL	$0xff00, AX
	KMOVW	AX, K3
	MOVL	$0x00ff, AX
	KMOVW	AX, K4
	BTQ	$0, DX
	JCC	z16Exclusive
	BTQ	$1, DX
	JCS	z16InclusiveNT
z16Inclusive:
	CMPQ	CX, $16
	JB	z16Tail
	VMOVDQU32	(SI), Z0
	LANESCAN16
	VPADDD	Z7, Z0, Z0
	VPADDD	Z1, Z7, Z7
	VMOVDQU32	Z0, (DI)
	NEXT16(z16Inclusive)
z16InclusiveNT:
	CMPQ	CX, $16
	JB	z16Tail
	VMOVDQU32	(SI), Z0
	LANESCAN16
	VPADDD	Z7, Z0, Z0
	VPADDD	Z1, Z7, Z7
	VMOVNTDQ	Z0, (DI)
	NEXT16(z16InclusiveNT)
z16Exclusive:
	BTQ	$1, DX
	JCS	z16ExclusiveNT
z16ExclusiveLoop:
	CMPQ	CX, $16
	JB	z16Tail
	VMOVDQU32	(SI), Z0
	LANESCAN16
	VPSUBD	(SI), Z0, Z0
	VPADDD	Z7, Z0, Z0
	VPADDD	Z1, Z7, Z7
	VMOVDQU32	Z0, (DI)
	NEXT16(z16ExclusiveLoop)
z16ExclusiveNT:
	CMPQ	CX, $16
	JB	z16Tail
	VMOVDQU32	(SI), Z0
	LANESCAN16
	VPSUBD	(SI), Z0, Z0
	VPADDD	Z7, Z0, Z0
	VPADDD	Z1, Z7, Z7
	VMOVNTDQ	Z0, (DI)
	NEXT16(z16ExclusiveNT)
z16Tail:
	// A last eight, under mask K4: the total of the zeroed upper lanes
	// adds nothing.
	TESTQ	CX, CX
	JZ	z16Done
	VMOVDQU32.Z	(SI), K4, Z0
	VMOVDQA64	Z0, Z3
	LANESCAN16
	BTQ	$0, DX
	JCS	z16TailStore
	VPSUBD	Z3, Z0, Z0
z16TailStore:
	VPADDD	Z7, Z0, Z0
	VPADDD	Z1, Z7, Z7
	VMOVDQU32	Z0, K4, (DI)
z16Done:
	VZEROUPPER
	MOVQ	X7, AX
	MOVL	AX, ret+48(FP)
	RET
