package random

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// The kernels of Fill on a device: one per generator, element type and
// rank 1 to 3, each Kokkos's fill_random_functor_begin_end for chunk c of
// fillChunk indices of the first dimension. They are written out for each
// case (the kernel subset has no generics); fillKernel picks one.

//kokkos:kernel
func fillK64F32R1(c int, pool XorShift64Pool, v kokkos.View1[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.FrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64F32R2(c int, pool XorShift64Pool, v kokkos.View2[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.FrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64F32R3(c int, pool XorShift64Pool, v kokkos.View3[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.FrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64F64R1(c int, pool XorShift64Pool, v kokkos.View1[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.DrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64F64R2(c int, pool XorShift64Pool, v kokkos.View2[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.DrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64F64R3(c int, pool XorShift64Pool, v kokkos.View3[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.DrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I32R1(c int, pool XorShift64Pool, v kokkos.View1[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.RandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I32R2(c int, pool XorShift64Pool, v kokkos.View2[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.RandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I32R3(c int, pool XorShift64Pool, v kokkos.View3[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.RandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I64R1(c int, pool XorShift64Pool, v kokkos.View1[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.Rand64Range(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I64R2(c int, pool XorShift64Pool, v kokkos.View2[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.Rand64Range(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64I64R3(c int, pool XorShift64Pool, v kokkos.View3[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.Rand64Range(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U32R1(c int, pool XorShift64Pool, v kokkos.View1[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.UrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U32R2(c int, pool XorShift64Pool, v kokkos.View2[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.UrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U32R3(c int, pool XorShift64Pool, v kokkos.View3[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.UrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U64R1(c int, pool XorShift64Pool, v kokkos.View1[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.Urand64Range(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U64R2(c int, pool XorShift64Pool, v kokkos.View2[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.Urand64Range(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK64U64R3(c int, pool XorShift64Pool, v kokkos.View3[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.Urand64Range(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F32R1(c int, pool XorShift1024Pool, v kokkos.View1[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.FrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F32R2(c int, pool XorShift1024Pool, v kokkos.View2[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.FrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F32R3(c int, pool XorShift1024Pool, v kokkos.View3[float32], begin, end float32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.FrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F64R1(c int, pool XorShift1024Pool, v kokkos.View1[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.DrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F64R2(c int, pool XorShift1024Pool, v kokkos.View2[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.DrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024F64R3(c int, pool XorShift1024Pool, v kokkos.View3[float64], begin, end float64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.DrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I32R1(c int, pool XorShift1024Pool, v kokkos.View1[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.RandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I32R2(c int, pool XorShift1024Pool, v kokkos.View2[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.RandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I32R3(c int, pool XorShift1024Pool, v kokkos.View3[int32], begin, end int32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.RandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I64R1(c int, pool XorShift1024Pool, v kokkos.View1[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.Rand64Range(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I64R2(c int, pool XorShift1024Pool, v kokkos.View2[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.Rand64Range(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024I64R3(c int, pool XorShift1024Pool, v kokkos.View3[int64], begin, end int64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.Rand64Range(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U32R1(c int, pool XorShift1024Pool, v kokkos.View1[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.UrandRange(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U32R2(c int, pool XorShift1024Pool, v kokkos.View2[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.UrandRange(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U32R3(c int, pool XorShift1024Pool, v kokkos.View3[uint32], begin, end uint32) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.UrandRange(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U64R1(c int, pool XorShift1024Pool, v kokkos.View1[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		v.Set(i, g.Urand64Range(begin, end))
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U64R2(c int, pool XorShift1024Pool, v kokkos.View2[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			v.Set(i, j, g.Urand64Range(begin, end))
		}
	}
	pool.FreeState(g)
}

//kokkos:kernel
func fillK1024U64R3(c int, pool XorShift1024Pool, v kokkos.View3[uint64], begin, end uint64) {
	g := pool.GetState()
	for i := c * fillChunk; i < min(v.Extent(0), (c+1)*fillChunk); i++ {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				v.Set(i, j, k, g.Urand64Range(begin, end))
			}
		}
	}
	pool.FreeState(g)
}

// fillKernels are the kernels above by generator, element type and rank:
// "64F64R2" is fillK64F64R2.
var fillKernels = map[string]any{
	"64F32R1":   fillK64F32R1,
	"64F32R2":   fillK64F32R2,
	"64F32R3":   fillK64F32R3,
	"64F64R1":   fillK64F64R1,
	"64F64R2":   fillK64F64R2,
	"64F64R3":   fillK64F64R3,
	"64I32R1":   fillK64I32R1,
	"64I32R2":   fillK64I32R2,
	"64I32R3":   fillK64I32R3,
	"64I64R1":   fillK64I64R1,
	"64I64R2":   fillK64I64R2,
	"64I64R3":   fillK64I64R3,
	"64U32R1":   fillK64U32R1,
	"64U32R2":   fillK64U32R2,
	"64U32R3":   fillK64U32R3,
	"64U64R1":   fillK64U64R1,
	"64U64R2":   fillK64U64R2,
	"64U64R3":   fillK64U64R3,
	"1024F32R1": fillK1024F32R1,
	"1024F32R2": fillK1024F32R2,
	"1024F32R3": fillK1024F32R3,
	"1024F64R1": fillK1024F64R1,
	"1024F64R2": fillK1024F64R2,
	"1024F64R3": fillK1024F64R3,
	"1024I32R1": fillK1024I32R1,
	"1024I32R2": fillK1024I32R2,
	"1024I32R3": fillK1024I32R3,
	"1024I64R1": fillK1024I64R1,
	"1024I64R2": fillK1024I64R2,
	"1024I64R3": fillK1024I64R3,
	"1024U32R1": fillK1024U32R1,
	"1024U32R2": fillK1024U32R2,
	"1024U32R3": fillK1024U32R3,
	"1024U64R1": fillK1024U64R1,
	"1024U64R2": fillK1024U64R2,
	"1024U64R3": fillK1024U64R3,
}
