package typeinfo

import (
	"reflect"
	"testing"
)

func TestHasPointers(t *testing.T) {
	type flat struct {
		A float64
		B [3]int32
	}
	type deep struct {
		A [2]struct{ S []int }
	}
	for _, c := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[float64](), false},
		{reflect.TypeFor[flat](), false},
		{reflect.TypeFor[[0]*int](), false},
		{reflect.TypeFor[*int](), true},
		{reflect.TypeFor[string](), true},
		{reflect.TypeFor[deep](), true},
		{reflect.TypeFor[any](), true},
		{reflect.TypeFor[map[int]int](), true},
	} {
		if got := HasPointers(c.t); got != c.want {
			t.Errorf("HasPointers(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}
