package kokkos

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos/internal/cpu"
)

// TestScanKernels checks each 32-bit scan and sum kernel that the
// processor runs (the 16-byte ones always, sum32AVX2 and scan32AVX512
// where it has them) against a one-at-a-time loop on random data: every
// length from 0 to 80 and some long ones, starts of source and destination
// at every 4-byte offset within 64 bytes (so streamed stores meet aligned
// and unaligned destinations), inclusive and exclusive, streamed or not,
// and in place.
func TestScanKernels(t *testing.T) {
	type kernels struct {
		name         string
		avx2, avx512 bool
	}
	ks := []kernels{{"SSE2", false, false}}
	if avx2, avx512 := cpu.X86HasAVX2, cpu.X86HasAVX512; avx2 {
		ks = append(ks, kernels{"AVX2 sum", true, false})
		if avx512 {
			ks = append(ks, kernels{"AVX2 sum, AVX-512 scan", true, true})
		}
	}
	defer func(a, b bool) { useAVX2, useAVX512 = a, b }(useAVX2, useAVX512)
	r := rand.New(rand.NewPCG(71, 72))
	var lengths []int
	for n := range 81 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4096, 2048+13)
	for _, k := range ks {
		useAVX2, useAVX512 = k.avx2, k.avx512
		for _, n := range lengths {
			for trial := range 3 {
				so, do := r.IntN(16), r.IntN(16)
				if trial == 0 {
					so, do = 0, 0
				}
				buf := make([]uint32, n+16)
				for i := range buf {
					buf[i] = r.Uint32()
				}
				src := buf[so : so+n]
				var sum uint32
				for _, v := range src {
					sum += v
				}
				got, m := sumVector(src)
				for _, v := range src[m:] {
					got += v
				}
				if got != sum {
					t.Fatalf("%s: sum of %d from offset %d = %d, want %d", k.name, n, so, got, sum)
				}
				for mode := range 8 {
					inclusive, stream, inPlace := mode&1 != 0, mode&2 != 0, mode&4 != 0
					acc0 := r.Uint32()
					want := make([]uint32, n)
					a := acc0
					for i, v := range src {
						if inclusive {
							a += v
							want[i] = a
						} else {
							want[i] = a
							a += v
						}
					}
					s := append(make([]uint32, 0, n+16), buf...)[so : so+n]
					d := make([]uint32, n+16)[do : do+n]
					if inPlace {
						d = s
					}
					acc, i := scanVector(d, s, acc0, inclusive, stream, nil)
					if i != n&^7 {
						t.Fatalf("%s: vector kernel took %d of %d", k.name, i, n)
					}
					for ; i < n; i++ {
						if inclusive {
							acc += s[i]
							d[i] = acc
						} else {
							v := s[i]
							d[i] = acc
							acc += v
						}
					}
					if acc != a {
						t.Fatalf("%s n %d offsets %d, %d inclusive %v stream %v in place %v: sum %d, want %d", k.name, n, so, do, inclusive, stream, inPlace, acc, a)
					}
					for j := range want {
						if d[j] != want[j] {
							t.Fatalf("%s n %d offsets %d, %d inclusive %v stream %v in place %v: [%d] = %d, want %d", k.name, n, so, do, inclusive, stream, inPlace, j, d[j], want[j])
						}
					}
				}
			}
		}
	}
}
