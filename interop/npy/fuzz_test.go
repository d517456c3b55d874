package npy

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gokkos/kokkos"
)

// FuzzRead reads arbitrary bytes as a .npy file: the reader returns an
// error or a view whose shape is the header's and whose elements are the
// data's, and never panics.
func FuzzRead(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.npy")
	for _, name := range names {
		f.Add(kokkos.Must(os.ReadFile(name)))
	}
	f.Add(fileWith("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 1), }"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, d, _, err := readHeader(bytes.NewReader(b))
		v, rerr := readTyped(b, d)
		if err != nil {
			if rerr == nil {
				t.Fatalf("header error %v, read no error", err)
			}
			return
		}
		if rerr != nil {
			return
		}
		var s kokkos.Shape
		switch v := v.(type) {
		case kokkos.DynRankView[float64]:
			s = kokkos.ShapeOf(v)
		case kokkos.DynRankView[bool]:
			s = kokkos.ShapeOf(v)
			for _, x := range kokkos.ReadOnlyData(v) {
				if b := *(*byte)(unsafePointer(&x)); b > 1 {
					t.Fatalf("bool byte %d", b)
				}
			}
		default:
			return
		}
		if len(s.Extents) != len(h.Shape) {
			t.Fatalf("rank %d, header %v", len(s.Extents), h.Shape)
		}
		for i, e := range h.Shape {
			if s.Extents[i] != e {
				t.Fatalf("extents %v, header %v", s.Extents, h.Shape)
			}
		}
	})
}
