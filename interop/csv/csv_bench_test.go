package csv

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// BenchmarkRead reads 10000 rows of 100 float64 (about 19 MB of text);
// the reported rate is in bytes of text.
func BenchmarkRead(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	v := kokkos.Must(kokkos.NewView2[float64]("V", 10000, 100))
	for i := range v.Data() {
		v.Data()[i] = rng.NormFloat64()
	}
	var buf bytes.Buffer
	if err := Write(&buf, v, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, _, err := Read[float64](bytes.NewReader(buf.Bytes()), "R", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite writes the same view.
func BenchmarkWrite(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	v := kokkos.Must(kokkos.NewView2[float64]("V", 10000, 100))
	for i := range v.Data() {
		v.Data()[i] = rng.NormFloat64()
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, v, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
