package backend_test

import (
	"reflect"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

type celsius float32

// TestKindOf checks the kind of every type a kernel's values may have,
// named types by their underlying type, and the types that have none.
func TestKindOf(t *testing.T) {
	for _, c := range []struct {
		v    any
		want backend.Kind
		size int
	}{
		{true, backend.KindBool, 1}, {int8(0), backend.KindInt8, 1}, {int16(0), backend.KindInt16, 2},
		{int32(0), backend.KindInt32, 4}, {int64(0), backend.KindInt64, 8}, {0, backend.KindInt, 8},
		{uint8(0), backend.KindUint8, 1}, {uint16(0), backend.KindUint16, 2}, {uint32(0), backend.KindUint32, 4},
		{uint64(0), backend.KindUint64, 8}, {float32(0), backend.KindFloat32, 4}, {0.0, backend.KindFloat64, 8},
		{celsius(0), backend.KindFloat32, 4},
		{uint(0), backend.KindInvalid, 0}, {complex(1, 2), backend.KindInvalid, 0}, {"s", backend.KindInvalid, 0},
		{[2]float64{}, backend.KindInvalid, 0},
	} {
		k := backend.KindOf(reflect.TypeOf(c.v))
		if k != c.want || k.Size() != c.size {
			t.Errorf("KindOf(%T) = %v of size %d, want %v of size %d", c.v, k, k.Size(), c.want, c.size)
		}
		if c.size != 0 && int(reflect.TypeOf(c.v).Size()) != c.size {
			t.Errorf("%T: Size %d, the type's %d", c.v, c.size, reflect.TypeOf(c.v).Size())
		}
	}
	if s := backend.Kind(200).String(); s != "Kind(200)" {
		t.Errorf("String of an unknown kind: %q", s)
	}
	if s := backend.ReduceBOr.String(); s != "BOr" {
		t.Errorf("ReduceBOr.String() = %q", s)
	}
}
