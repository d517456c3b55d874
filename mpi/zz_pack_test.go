package mpi

import (
	"testing"

	"github.com/gokkos/kokkos"
)

func BenchmarkZZPack(b *testing.B) {
	for _, n := range []int{512, 4096} {
		a, _ := kokkos.NewView2[float64]("f", n, n, kokkos.AllowPadding)
		col := a.Subview1(kokkos.All, 7)
		b.Run("pack", func(b *testing.B) {
			for b.Loop() {
				var bf buffer[float64]
				if err := bf.prepare("Send", &col, false, false); err != nil {
					b.Fatal(err)
				}
				bf.release()
			}
		})
		b.Run("unpack", func(b *testing.B) {
			for b.Loop() {
				var bf buffer[float64]
				if err := bf.prepare("Recv", &col, true, false); err != nil {
					b.Fatal(err)
				}
				if err := bf.unpack("Recv", n); err != nil {
					b.Fatal(err)
				}
				bf.release()
			}
		})
		buf := make([]float64, n)
		d, st := a.Data(), a.Stride(0)
		b.Run("loop", func(b *testing.B) {
			for b.Loop() {
				for i := range buf {
					buf[i] = d[i*st+7]
				}
			}
		})
	}
}
