package arrow

import (
	"errors"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
)

// misaligned returns a buffer of n float64s' bytes, random, whose first
// byte is not 8-byte aligned.
func misaligned(n int) *memory.Buffer {
	b := make([]byte, 8*n+8)
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	at := 1
	if uintptr(unsafe.Pointer(&b[at]))%8 == 0 {
		at = 2
	}
	return memory.NewBufferBytes(b[at : at+8*n])
}

// A buffer whose bytes are not aligned for the element type cannot be seen
// as elements in place (Go, and the atomic operations of views, require
// aligned elements): it is refused with an error wrapping kokkos.ErrLayout,
// whatever the length.
func TestBufferNotAlignedIsRefused(t *testing.T) {
	buf := misaligned(4)
	v, err := BufferToView1[float64](buf)
	if err == nil {
		_ = v.Release()
		t.Fatal("BufferToView1[float64] of a buffer that is not 8-byte aligned succeeded")
	}
	if !errors.Is(err, kokkos.ErrLayout) {
		t.Fatalf("BufferToView1 of a misaligned buffer: %v, want an error wrapping kokkos.ErrLayout", err)
	}
	if _, err := BufferToArray[float64](buf); !errors.Is(err, kokkos.ErrLayout) {
		t.Fatalf("BufferToArray of a misaligned buffer: %v", err)
	}
	// One-byte elements have no alignment to keep.
	u8, err := BufferToView1[uint8](buf)
	if err != nil {
		t.Fatal(err)
	}
	if u8.Extent(0) != 32 || u8.At(5) != buf.Bytes()[5] {
		t.Fatal("BufferToView1[uint8] of an unaligned buffer does not read its bytes")
	}
	if err := u8.Release(); err != nil {
		t.Fatal(err)
	}

	// An Arrow array over such a buffer is refused the same way.
	d := array.NewData(arrow.PrimitiveTypes.Float64, 4, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer d.Release()
	arr := array.NewFloat64Data(d)
	defer arr.Release()
	if _, err := ToView1[float64](arr); !errors.Is(err, kokkos.ErrLayout) {
		t.Fatalf("ToView1 of an array over a misaligned buffer: %v", err)
	}
}
