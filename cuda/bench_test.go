package cuda

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

// rawBound locks the benchmark goroutine to its thread with the device's
// context current, for timing the bare driver calls.
func rawBound(b *testing.B, dev *Device) func() {
	runtime.LockOSThread()
	if r, _, _ := purego.SyscallN(dev.drv.cuCtxSetCurrent, dev.ctx); r != 0 {
		b.Fatal("cuCtxSetCurrent", r)
	}
	return runtime.UnlockOSThread
}

func must(b *testing.B, call string, r uintptr) {
	if r != 0 {
		b.Fatalf("%s: %d", call, r)
	}
}

// BenchmarkCallOverhead times one cheap driver call (cuCtxGetCurrent)
// bare, and through the package's per-call context handling.
func BenchmarkCallOverhead(b *testing.B) {
	dev := gpu(b)
	var ctx uintptr
	p := uintptr(unsafe.Pointer(&ctx))
	const calls = 20000
	b.Run("raw", func(b *testing.B) {
		defer rawBound(b, dev)()
		for b.Loop() {
			for range calls {
				purego.SyscallN(dev.drv.cuCtxGetCurrent, p)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
	})
	b.Run("package", func(b *testing.B) {
		for b.Loop() {
			for range calls {
				if err := dev.call("cuCtxGetCurrent", "", dev.drv.cuCtxGetCurrent, p); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
	})
	b.Run("package-parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			var c uintptr
			for pb.Next() {
				if err := dev.call("cuCtxGetCurrent", "", dev.drv.cuCtxGetCurrent, uintptr(unsafe.Pointer(&c))); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

func BenchmarkDeviceToDevice2GiB(b *testing.B) {
	dev := gpu(b)
	const n = 2 << 30
	src, dst := alloc(b, Space, "src", n), alloc(b, Space, "dst", n)
	defer free(b, src)
	defer free(b, dst)
	if err := Fill(src.Addr, 4, 0x9e3779b9, n/4); err != nil {
		b.Fatal(err)
	}
	d := dev.drv
	b.Run("raw", func(b *testing.B) {
		defer rawBound(b, dev)()
		b.SetBytes(n)
		for b.Loop() {
			must(b, "cuMemcpyDtoD", func() uintptr { r, _, _ := purego.SyscallN(d.cuMemcpyDtoD, dst.Addr, src.Addr, n); return r }())
			must(b, "cuCtxSynchronize", func() uintptr { r, _, _ := purego.SyscallN(d.cuCtxSynchronize); return r }())
		}
	})
	b.Run("Copy", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			if err := Copy(dst.Addr, src.Addr, n); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPinnedToDevice1GiB(b *testing.B) {
	dev := gpu(b)
	const n = 1 << 30
	src, dst := alloc(b, HostPinnedSpace, "src", n), alloc(b, Space, "dst", n)
	defer free(b, src)
	defer free(b, dst)
	copy(unsafe.Slice((*byte)(src.Host), n), randBytes(n, 3))
	d := dev.drv
	b.Run("raw", func(b *testing.B) {
		defer rawBound(b, dev)()
		b.SetBytes(n)
		for b.Loop() {
			must(b, "cuMemcpyHtoD", func() uintptr { r, _, _ := purego.SyscallN(d.cuMemcpyHtoD, dst.Addr, src.Addr, n); return r }())
		}
	})
	b.Run("Copy", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			if err := Copy(dst.Addr, src.Addr, n); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPageable1GiB(b *testing.B) {
	dev := gpu(b)
	const n = 1 << 30
	host := randBytes(n, 5)
	dst := alloc(b, Space, "dst", n)
	defer free(b, dst)
	d := dev.drv
	b.Run("HtoD/raw", func(b *testing.B) {
		defer rawBound(b, dev)()
		b.SetBytes(n)
		for b.Loop() {
			must(b, "cuMemcpyHtoD", func() uintptr {
				r, _, _ := purego.SyscallN(d.cuMemcpyHtoD, dst.Addr, uintptr(unsafe.Pointer(&host[0])), n)
				return r
			}())
		}
	})
	b.Run("DtoH/raw", func(b *testing.B) {
		defer rawBound(b, dev)()
		b.SetBytes(n)
		for b.Loop() {
			must(b, "cuMemcpyDtoH", func() uintptr {
				r, _, _ := purego.SyscallN(d.cuMemcpyDtoH, uintptr(unsafe.Pointer(&host[0])), dst.Addr, n)
				return r
			}())
		}
	})
	b.Run("HtoD/staged", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			if err := CopyFromHost(dst.Addr, host); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DtoH/staged", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			if err := CopyToHost(host, dst.Addr); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkFill1GiB(b *testing.B) {
	gpu(b)
	const n = 1 << 30
	dst := alloc(b, Space, "dst", n)
	defer free(b, dst)
	for _, es := range []int{1, 4, 8} {
		if es == 8 {
			b.Run("elem8-2D-1024x131072", func(b *testing.B) {
				b.SetBytes(n)
				for b.Loop() {
					if err := Fill2D(dst.Addr, 8192, 8, 0x0123456789abcdef, 1024, n/8192); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprint("elem", es), func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				if err := Fill(dst.Addr, es, 0x0123456789abcdef, n/es); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
