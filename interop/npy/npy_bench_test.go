package npy

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// benchView returns a 1000×1000 float64 view of random numbers (8 MB).
func benchView() kokkos.View2[float64] {
	rng := rand.New(rand.NewPCG(1, 2))
	v := kokkos.Must(kokkos.NewView2[float64]("V", 1000, 1000))
	for i := range v.Data() {
		v.Data()[i] = rng.NormFloat64()
	}
	return v
}

// BenchmarkWrite writes a contiguous view, as it lies.
func BenchmarkWrite(b *testing.B) {
	v := benchView()
	var buf bytes.Buffer
	b.SetBytes(8 * 1000 * 1000)
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteStrided writes a subview of every other column, through
// the contiguous copy.
func BenchmarkWriteStrided(b *testing.B) {
	v := benchView()
	s := kokkos.Must(kokkos.WrapView2(v.Data(), 1000, 500, kokkos.WithStrides(1000, 2)))
	var buf bytes.Buffer
	b.SetBytes(8 * 1000 * 500)
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead reads the file of BenchmarkWrite into a new view.
func BenchmarkRead(b *testing.B) {
	v := benchView()
	var buf bytes.Buffer
	if err := Write(&buf, v); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(8 * 1000 * 1000)
	for b.Loop() {
		var w kokkos.View2[float64]
		if err := ReadView(bytes.NewReader(buf.Bytes()), &w, "W"); err != nil {
			b.Fatal(err)
		}
	}
}
