package arrow

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// elementNames and eachElement run a generic test for every Element type.
var elementNames = [...]string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"}

func eachElement(t *testing.T, fs [11]func(*testing.T)) {
	t.Helper()
	for i, f := range fs {
		t.Run(elementNames[i], f)
	}
}

// all11 instantiates a generic test for the 11 element types.
func all11(
	i8 func(*testing.T), i16 func(*testing.T), i32 func(*testing.T), i64 func(*testing.T),
	u8 func(*testing.T), u16 func(*testing.T), u32 func(*testing.T), u64 func(*testing.T),
	f16 func(*testing.T), f32 func(*testing.T), f64 func(*testing.T),
) [11]func(*testing.T) {
	return [11]func(*testing.T){i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64}
}

// rnd returns a random T (never NaN, so that values compare equal).
func rnd[T Element](r *rand.Rand) T {
	var x T
	switch p := any(&x).(type) {
	case *int8:
		*p = int8(r.Uint64())
	case *int16:
		*p = int16(r.Uint64())
	case *int32:
		*p = int32(r.Uint64())
	case *int64:
		*p = int64(r.Uint64())
	case *uint8:
		*p = uint8(r.Uint64())
	case *uint16:
		*p = uint16(r.Uint64())
	case *uint32:
		*p = uint32(r.Uint64())
	case *uint64:
		*p = r.Uint64()
	case *float16.Num:
		*p = float16.New(float32(r.NormFloat64() * 100))
	case *float32:
		*p = float32(r.NormFloat64() * 1e3)
	case *float64:
		*p = r.NormFloat64() * 1e6
	}
	return x
}

func randoms[T Element](r *rand.Rand, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = rnd[T](r)
	}
	return out
}

// newRand returns a generator seeded from the test's name, so that a
// failure repeats.
func newRand(t testing.TB) *rand.Rand {
	var h uint64 = 14695981039346656037
	for _, c := range t.Name() {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(h, 42))
}

// valueBuffer returns a mutable buffer of mem holding vals.
func valueBuffer[T Element](mem memory.Allocator, vals []T) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(vals) * sizeOf[T]())
	copy(unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), len(vals)), vals)
	return buf
}

// newData returns Arrow data of T's type over vals, allocated in mem,
// with a validity bitmap when valid is not nil.
func newData[T Element](mem memory.Allocator, vals []T, valid []bool) *array.Data {
	buf := valueBuffer(mem, vals)
	defer buf.Release()
	var bitmap *memory.Buffer
	nulls := 0
	if valid != nil {
		bitmap = memory.NewResizableBuffer(mem)
		defer bitmap.Release()
		bitmap.Resize(int(bitutil.BytesForBits(int64(len(vals)))))
		clear(bitmap.Bytes())
		for i, ok := range valid {
			if ok {
				bitutil.SetBit(bitmap.Bytes(), i)
			} else {
				nulls++
			}
		}
	}
	return array.NewData(DataType[T](), len(vals), []*memory.Buffer{bitmap, buf}, nil, nulls, 0)
}

// newArray is newData as an Arrow array.
func newArray[T Element](mem memory.Allocator, vals []T, valid []bool) arrow.Array {
	d := newData(mem, vals, valid)
	defer d.Release()
	return array.MakeFromData(d)
}

// valuer is what every Arrow numeric array offers.
type valuer[T Element] interface {
	arrow.Array
	Value(int) T
	Values() []T
}

// checkedAlloc returns a checked Go allocator that fails the test if
// anything is left allocated at its end.
func checkedAlloc(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}
