//go:build ignore

// mkstream writes stream_amd64.s, the AVX2 forms of the elementwise
// helpers of stream.go: go run mkstream.go (go generate in package kernel).
//
// Each function takes the element index in AX and runs, in order: with
// the stream flag, single elements until the destination is 32-byte
// aligned, then blocks of four vectors stored with non-temporal stores
// (SFENCE after them); then blocks of four vectors (nstream's with its
// operands prefetched ahead), single vectors and single elements with
// plain loads and stores. Every product is its own
// instruction, rounded, before the sum that takes it (no fused
// multiply-add), so each element is what the scalar loop computes.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

// dotPrefetch is how far ahead of the element it adds, in bytes, the
// ordered dot product prefetches each of its two sources.
const dotPrefetch = 1024

// nstreamPrefetch is how far ahead of its step, in bytes, nstream's plain
// loop prefetches its three operands: 512 bytes ran it at 1.2 times the
// speed without on two threads over arrays of 256 MiB (medians of 16
// alternating runs, 26.4-27.6 against 18.0-22.3 GB/s).
const nstreamPrefetch = 512

// elem is an element type: its name in the helpers, size, and the
// instructions of its vector and scalar forms.
type elem struct {
	name    string
	size    int
	float   bool
	vload   string // vector move (load and store)
	vnt     string // non-temporal vector store
	bcast   string // broadcast of the scalar argument
	add     string // vector add, sub, mul ("" where there is none)
	sub     string
	mul     string
	sload   string // scalar load into X (floats) or a general register (integers)
	sadd    string
	ssub    string
	smul    string
	sreg    string // scalar register size suffix for integer moves
	argSize int    // size of the scalar argument s
}

var elems = []elem{
	{name: "Float64", size: 8, float: true, vload: "VMOVUPD", vnt: "VMOVNTPD", bcast: "VBROADCASTSD",
		add: "VADDPD", sub: "VSUBPD", mul: "VMULPD", sload: "VMOVSD", sadd: "VADDSD", ssub: "VSUBSD", smul: "VMULSD", argSize: 8},
	{name: "Float32", size: 4, float: true, vload: "VMOVUPS", vnt: "VMOVNTPS", bcast: "VBROADCASTSS",
		add: "VADDPS", sub: "VSUBPS", mul: "VMULPS", sload: "VMOVSS", sadd: "VADDSS", ssub: "VSUBSS", smul: "VMULSS", argSize: 4},
	{name: "Int64", size: 8, vload: "VMOVDQU", vnt: "VMOVNTDQ",
		add: "VPADDQ", sub: "VPSUBQ", sload: "MOVQ", sadd: "ADDQ", ssub: "SUBQ", sreg: "Q"},
	{name: "Int32", size: 4, vload: "VMOVDQU", vnt: "VMOVNTDQ",
		add: "VPADDD", sub: "VPSUBD", mul: "VPMULLD", sload: "MOVL", sadd: "ADDL", ssub: "SUBL", smul: "IMULL", sreg: "L"},
}

// op is an elementwise operation: its operands (p, q, the scalar s) and
// how one vector k (or the scalar, k < 0) is computed into register k.
type op struct {
	name     string
	q, s     bool
	floats   bool // floats only
	prefetch int  // bytes ahead that the plain loop prefetches each operand, 0 for none
	ok       func(e elem) bool
	vec      func(e elem, k int, off string) []string
	scalar   func(e elem, off string) []string
}

// mem returns the operand at base register r for element offset off.
func mem(e elem, r, off string) string {
	return fmt.Sprintf("%s(%s)(AX*%d)", off, r, e.size)
}

func binary(name string, pick func(e elem) (string, string)) op {
	return op{name: name, q: true,
		ok: func(e elem) bool { v, _ := pick(e); return v != "" },
		vec: func(e elem, k int, off string) []string {
			v, _ := pick(e)
			y := fmt.Sprintf("Y%d", k)
			return []string{
				fmt.Sprintf("%s %s, %s", e.vload, mem(e, "SI", off), y),
				fmt.Sprintf("%s %s, %s, %s", v, mem(e, "DX", off), y, y),
			}
		},
		scalar: func(e elem, off string) []string {
			_, s := pick(e)
			if e.float {
				return []string{
					fmt.Sprintf("%s %s, X0", e.sload, mem(e, "SI", off)),
					fmt.Sprintf("%s %s, X0, X0", s, mem(e, "DX", off)),
				}
			}
			return []string{
				fmt.Sprintf("%s %s, BX", e.sload, mem(e, "SI", off)),
				fmt.Sprintf("%s %s, BX", s, mem(e, "DX", off)),
			}
		},
	}
}

var ops = []op{
	binary("add", func(e elem) (string, string) { return e.add, e.sadd }),
	binary("sub", func(e elem) (string, string) { return e.sub, e.ssub }),
	binary("mul", func(e elem) (string, string) { return e.mul, e.smul }),
	{name: "scale", s: true, floats: true,
		// s*p[j]
		vec: func(e elem, k int, off string) []string {
			return []string{fmt.Sprintf("%s %s, Y8, Y%d", e.mul, mem(e, "SI", off), k)}
		},
		scalar: func(e elem, off string) []string {
			return []string{fmt.Sprintf("%s %s, X8, X0", e.smul, mem(e, "SI", off))}
		},
	},
	{name: "triad", q: true, s: true, floats: true,
		// p[j] + s*q[j]: the product rounded, then the sum
		vec: func(e elem, k int, off string) []string {
			y := fmt.Sprintf("Y%d", k)
			return []string{
				fmt.Sprintf("%s %s, Y8, %s", e.mul, mem(e, "DX", off), y),
				fmt.Sprintf("%s %s, %s, %s", e.add, mem(e, "SI", off), y, y),
			}
		},
		scalar: func(e elem, off string) []string {
			return []string{
				fmt.Sprintf("%s %s, X8, X0", e.smul, mem(e, "DX", off)),
				fmt.Sprintf("%s %s, X0, X0", e.sadd, mem(e, "SI", off)),
			}
		},
	},
	{name: "nstream", q: true, s: true, floats: true, prefetch: nstreamPrefetch,
		// dst[j] + (p[j] + s*q[j])
		vec: func(e elem, k int, off string) []string {
			y := fmt.Sprintf("Y%d", k)
			return []string{
				fmt.Sprintf("%s %s, Y8, %s", e.mul, mem(e, "DX", off), y),
				fmt.Sprintf("%s %s, %s, %s", e.add, mem(e, "SI", off), y, y),
				fmt.Sprintf("%s %s, %s, %s", e.add, mem(e, "DI", off), y, y),
			}
		},
		scalar: func(e elem, off string) []string {
			return []string{
				fmt.Sprintf("%s %s, X8, X0", e.smul, mem(e, "DX", off)),
				fmt.Sprintf("%s %s, X0, X0", e.sadd, mem(e, "SI", off)),
				fmt.Sprintf("%s %s, X0, X0", e.sadd, mem(e, "DI", off)),
			}
		},
	},
}

func main() {
	var b bytes.Buffer
	b.WriteString("// Code generated by mkstream.go; DO NOT EDIT.\n\n#include \"textflag.h\"\n")
	for _, o := range ops {
		for _, e := range elems {
			if o.floats && !e.float || o.ok != nil && !o.ok(e) {
				continue
			}
			writeFunc(&b, o, e)
		}
	}
	for _, e := range elems[:2] {
		writeDotOrdered(&b, e)
	}
	if err := os.WriteFile("stream_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

func writeFunc(b *bytes.Buffer, o op, e elem) {
	name := fmt.Sprintf("%s%sAVX2", o.name, e.name)
	// The frame: dst, p[, q][, s], n, stream.
	var sig []string
	var loads []string
	off := 0
	arg := func(n, typ string, size int, load string) {
		off = (off + size - 1) / size * size
		sig = append(sig, n+" "+typ)
		loads = append(loads, fmt.Sprintf(load, fmt.Sprintf("%s+%d(FP)", n, off)))
		off += size
	}
	arg("dst", "unsafe.Pointer", 8, "MOVQ %s, DI")
	arg("p", "unsafe.Pointer", 8, "MOVQ %s, SI")
	if o.q {
		arg("q", "unsafe.Pointer", 8, "MOVQ %s, DX")
	}
	if o.s {
		arg("s", strings.ToLower(e.name), e.argSize, e.bcast+" %s, Y8")
	}
	arg("n", "int", 8, "MOVQ %s, CX")
	arg("stream", "bool", 1, "MOVBQZX %s, R8")
	vec := 32 / e.size // elements per vector
	fmt.Fprintf(b, "\n// func %s(%s)\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", name, strings.Join(sig, ", "), name, off)
	for _, l := range loads {
		fmt.Fprintf(b, "\t%s\n", l)
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	label := func(l string) { fmt.Fprintf(b, "%s_%s:\n", name, l) }
	scalar := func() {
		for _, l := range o.scalar(e, "") {
			w("%s", l)
		}
		if e.float {
			w("%s X0, %s", e.sload, mem(e, "DI", ""))
		} else {
			w("MOV%s BX, %s", e.sreg, mem(e, "DI", ""))
		}
		w("INCQ AX")
	}
	block := func(k int, store string) {
		for j := range k {
			for _, l := range o.vec(e, j, fmt.Sprint(j*32)) {
				w("%s", l)
			}
		}
		for j := range k {
			w("%s Y%d, %s", store, j, mem(e, "DI", fmt.Sprint(j*32)))
		}
		w("ADDQ $%d, AX", k*vec)
	}
	w("XORQ AX, AX")
	w("TESTQ R8, R8")
	w("JZ %s_loop4", name)
	// Single elements until the destination is aligned.
	label("head")
	w("CMPQ AX, CX")
	w("JAE %s_done", name)
	w("LEAQ %s, BX", mem(e, "DI", ""))
	w("TESTQ $31, BX")
	w("JZ %s_nt4", name)
	scalar()
	w("JMP %s_head", name)
	label("nt4")
	w("LEAQ %d(AX), BX", 4*vec)
	w("CMPQ BX, CX")
	w("JA %s_ntend", name)
	block(4, e.vnt)
	w("JMP %s_nt4", name)
	label("ntend")
	w("SFENCE")
	label("loop4")
	w("LEAQ %d(AX), BX", 4*vec)
	w("CMPQ BX, CX")
	w("JA %s_loop1", name)
	if o.prefetch > 0 {
		// The block's 128 bytes of each operand are two lines.
		regs := []string{"SI"}
		if o.q {
			regs = append(regs, "DX")
		}
		for _, r := range append(regs, "DI") {
			w("PREFETCHT0 %s", mem(e, r, fmt.Sprint(o.prefetch)))
			w("PREFETCHT0 %s", mem(e, r, fmt.Sprint(o.prefetch+64)))
		}
	}
	block(4, e.vload)
	w("JMP %s_loop4", name)
	label("loop1")
	w("LEAQ %d(AX), BX", vec)
	w("CMPQ BX, CX")
	w("JA %s_tail", name)
	block(1, e.vload)
	w("JMP %s_loop1", name)
	label("tail")
	w("CMPQ AX, CX")
	w("JAE %s_done", name)
	scalar()
	w("JMP %s_tail", name)
	label("done")
	w("VZEROUPPER")
	w("RET")
}

// writeDotOrdered writes dotOrdered<T>AVX2(s, p, q, n), which returns s
// plus the n products p[j]*q[j], each rounded, added one at a time in
// index order: the bits of the scalar loop. The products of 64 bytes of
// each source are two vector multiplies; their elements are then added
// to s in order (the chain of additions is the loop's, and its latency
// the floor), each source prefetched dotPrefetch bytes ahead, since the
// chain holds back the loads that would otherwise run ahead of it.
func writeDotOrdered(b *bytes.Buffer, e elem) {
	name := fmt.Sprintf("dotOrdered%sAVX2", e.name)
	typ := strings.ToLower(e.name)
	vec := 32 / e.size
	sadd, mul := e.sadd, e.mul
	fmt.Fprintf(b, "\n// func %s(s %s, p unsafe.Pointer, q unsafe.Pointer, n int) %s\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", name, typ, typ, name, 32+e.size)
	w := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	label := func(l string) { fmt.Fprintf(b, "%s_%s:\n", name, l) }
	w("%s s+0(FP), X0", e.sload)
	w("MOVQ p+8(FP), SI")
	w("MOVQ q+16(FP), DX")
	w("MOVQ n+24(FP), CX")
	w("XORQ AX, AX")
	label("loop")
	w("LEAQ %d(AX), BX", 2*vec)
	w("CMPQ BX, CX")
	w("JA %s_tail", name)
	w("PREFETCHT0 %s", mem(e, "SI", fmt.Sprint(dotPrefetch)))
	w("PREFETCHT0 %s", mem(e, "DX", fmt.Sprint(dotPrefetch)))
	for k := range 2 {
		w("%s %s, Y%d", e.vload, mem(e, "SI", fmt.Sprint(32*k)), 1+k)
		w("%s %s, Y%d, Y%d", mul, mem(e, "DX", fmt.Sprint(32*k)), 1+k, 1+k)
	}
	for k := range 2 {
		y := 1 + k
		// The lanes of Y(y) in order: the low half from X(y), the high
		// half extracted to X3; each element moved to the bottom of X4.
		for h := range 2 {
			x := fmt.Sprintf("X%d", y)
			if h == 1 {
				w("VEXTRACTF128 $1, Y%d, X3", y)
				x = "X3"
			}
			for j := range vec / 2 {
				if j == 0 {
					w("%s %s, X0, X0", sadd, x)
					continue
				}
				if e.size == 8 {
					w("VPERMILPD $1, %s, X4", x)
				} else {
					w("VPERMILPS $%d, %s, X4", j, x)
				}
				w("%s X4, X0, X0", sadd)
			}
		}
	}
	w("ADDQ $%d, AX", 2*vec)
	w("JMP %s_loop", name)
	label("tail")
	w("CMPQ AX, CX")
	w("JAE %s_done", name)
	w("%s %s, X1", e.sload, mem(e, "SI", ""))
	w("%s %s, X1, X1", e.smul, mem(e, "DX", ""))
	w("%s X1, X0, X0", sadd)
	w("INCQ AX")
	w("JMP %s_tail", name)
	label("done")
	w("VZEROUPPER")
	w("%s X0, ret+32(FP)", e.sload)
	w("RET")
}
