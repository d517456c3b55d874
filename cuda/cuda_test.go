package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if os.Getenv("GOKKOS_CUDA_CHILD") == "" {
		if live := LiveAllocations(); len(live) > 0 {
			for _, a := range live {
				fmt.Fprintf(os.Stderr, "leak: %s\n", a)
			}
			code = 1
		}
		if c := TakeLeaked(); len(c) > 0 {
			for _, a := range c {
				fmt.Fprintf(os.Stderr, "leak: dropped without Free (never freed): %s\n", a)
			}
			code = 1
		}
	}
	os.Exit(code)
}

// gpu returns device 0 or skips the test.
func gpu(t testing.TB) *Device {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	dev, err := GetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

func randBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		v := r.Uint64() | 0x0101010101010101 // never a zero byte
		*(*uint64)(unsafe.Pointer(&b[i])) = v
	}
	for i := n &^ 7; i < n; i++ {
		b[i] = byte(r.IntN(255) + 1)
	}
	return b
}

func alloc(t testing.TB, s backend.BlockSpace, label string, n int) backend.Block {
	t.Helper()
	b, err := s.Allocate(label, n, false)
	if err != nil {
		t.Fatalf("Allocate(%q, %d) in %s: %v", label, n, s.Name(), err)
	}
	return b
}

func free(t testing.TB, b backend.Block) {
	t.Helper()
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
}

// TestNoDriver runs the package in a child process whose driver override
// names a missing file, and checks every entry point's error.
func TestNoDriver(t *testing.T) {
	if os.Getenv("GOKKOS_CUDA_CHILD") == "1" {
		checkNoDriver(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDriver$", "-test.v")
	cmd.Env = append(os.Environ(), "GOKKOS_CUDA_CHILD=1", EnvDriver+"=/nonexistent/libcuda.so.1", EnvNVRTC+"=/nonexistent/libnvrtc.so")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func checkNoDriver(t *testing.T) {
	want := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error without a driver", what)
		}
		if !errors.Is(err, ErrNoDriver) {
			t.Errorf("%s: error %v does not match ErrNoDriver", what, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "no CUDA driver found") || !strings.Contains(msg, "/nonexistent/libcuda.so.1") {
			t.Errorf("%s: error %q should say no driver was found and where it looked", what, msg)
		}
	}
	_, err := DeviceCount()
	want("DeviceCount", err)
	t.Logf("the error reads: %v", err)
	want("Available", Available())
	_, err = GetDevice(0)
	want("GetDevice", err)
	for _, s := range []backend.BlockSpace{Space, HostPinnedSpace, UVMSpace} {
		_, err = s.Allocate("x", 8, true)
		want(s.Name()+".Allocate", err)
	}
	_, err = NewStream()
	want("NewStream", err)
	_, err = DriverPath()
	want("DriverPath", err)
	if err := Synchronize(); err != nil {
		t.Errorf("Synchronize without a driver: %v", err)
	}
	if err := Copy(1, 2, 3); !errors.Is(err, ErrFreed) {
		t.Errorf("Copy of unknown addresses: %v", err)
	}
	_, _, err = NVRTC()
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/libnvrtc.so") {
		t.Errorf("NVRTC: %v", err)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Call: "cuMemAlloc_v2", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Msg: "out of memory", Label: "A", Detail: "8 bytes"}
	if !errors.Is(e, ErrOutOfMemory) || errors.Is(&Error{Code: 1}, ErrOutOfMemory) {
		t.Fatal("Is(ErrOutOfMemory)")
	}
	want := `cuda: cuMemAlloc_v2 (label "A") [8 bytes]: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory`
	if e.Error() != want {
		t.Fatalf("got %q want %q", e.Error(), want)
	}
	if SpaceOn(1).Name() != "CudaSpace" || HostPinnedSpace.Name() != "CudaHostPinnedSpace" || UVMSpace.Name() != "CudaUVMSpace" {
		t.Fatal("space names")
	}
	if Space.HostAccessible() || !HostPinnedSpace.HostAccessible() || !UVMSpace.HostAccessible() {
		t.Fatal("HostAccessible")
	}
}

func TestDevices(t *testing.T) {
	dev := gpu(t)
	n, _ := DeviceCount()
	v, _ := DriverVersion()
	p, _ := DriverPath()
	free, total, err := dev.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d device(s); device 0: %s, %d SMs, concurrency %d, %d/%d MiB free; driver %s, CUDA %d", n, dev.Name(), dev.Multiprocessors(), dev.Concurrency(), free>>20, total>>20, p, v)
	for _, bad := range []int{-1, n} {
		if _, err := GetDevice(bad); !errors.Is(err, ErrInvalidDevice) {
			t.Errorf("GetDevice(%d): %v", bad, err)
		}
		if _, err := SpaceOn(bad).Allocate("bad", 8, false); !errors.Is(err, ErrInvalidDevice) {
			t.Errorf("SpaceOn(%d).Allocate: %v", bad, err)
		}
	}
	if _, p, err := NVRTC(); err != nil {
		t.Logf("NVRTC: %v", err)
	} else {
		t.Logf("NVRTC loaded (handle %#x)", p)
	}
}

func TestAllocFree(t *testing.T) {
	gpu(t)
	for _, s := range []backend.BlockSpace{Space, HostPinnedSpace, UVMSpace} {
		for _, n := range []int{0, 1, 4097, 3 << 20} {
			label := fmt.Sprintf("%s-%d", s.Name(), n)
			b, err := s.Allocate(label, n, true)
			if err != nil {
				t.Fatal(err)
			}
			if (b.Host != nil) != s.HostAccessible() {
				t.Fatalf("%s: Host %v", label, b.Host)
			}
			found := false
			for _, a := range LiveAllocations() {
				if a.Addr == b.Addr && a.Label == label && a.Bytes == n && strings.Contains(a.Site, "cuda_test.go") {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s not in LiveAllocations: %v", label, LiveAllocations())
			}
			back := make([]byte, n)
			if n > 0 {
				for i := range back {
					back[i] = 0xee
				}
				if err := CopyToHost(back, b.Addr); err != nil {
					t.Fatal(err)
				}
				if bytes.Count(back, []byte{0}) != n {
					t.Fatalf("%s: not zeroed", label)
				}
				src := randBytes(n, uint64(n))
				if b.Host != nil {
					copy(unsafe.Slice((*byte)(b.Host), n), src)
				} else if err := CopyFromHost(b.Addr, src); err != nil {
					t.Fatal(err)
				}
				if err := CopyToHost(back, b.Addr); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(back, src) {
					t.Fatalf("%s: round trip differs", label)
				}
			}
			free(t, b)
			if err := b.Free(); !errors.Is(err, ErrFreed) {
				t.Fatalf("second Free: %v", err)
			}
			if n > 0 {
				if err := CopyToHost(back, b.Addr); !errors.Is(err, ErrFreed) {
					t.Fatalf("copy after Free: %v", err)
				}
				if err := Fill(b.Addr, 1, 3, n); !errors.Is(err, ErrFreed) {
					t.Fatalf("fill after Free: %v", err)
				}
			}
			if s == HostPinnedSpace && n > 0 {
				// Pinned memory stays valid Go memory after Free.
				h := unsafe.Slice((*byte)(b.Host), n)
				h[0]++
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	gpu(t)
	for _, n := range []int{1, 1000, stageMin - 1, stageMin + 3, 3*stageChunk + 4093, 37<<20 + 5} {
		src := randBytes(n, uint64(n)+1)
		d1 := alloc(t, Space, "d1", n)
		d2 := alloc(t, Space, "d2", n)
		p := alloc(t, HostPinnedSpace, "p", n)
		u := alloc(t, UVMSpace, "u", n)
		if err := CopyFromHost(d1.Addr, src); err != nil {
			t.Fatal(err)
		}
		for _, step := range [][2]uintptr{{d2.Addr, d1.Addr}, {p.Addr, d2.Addr}, {u.Addr, p.Addr}} {
			if err := Copy(step[0], step[1], n); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(unsafe.Slice((*byte)(p.Host), n), src) || !bytes.Equal(unsafe.Slice((*byte)(u.Host), n), src) {
			t.Fatalf("n=%d: pinned or unified copy differs", n)
		}
		back := make([]byte, n)
		if err := CopyToHost(back, d2.Addr); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, src) {
			i := 0
			for back[i] == src[i] {
				i++
			}
			t.Fatalf("n=%d: round trip differs first at byte %d", n, i)
		}
		// Offsets inside blocks, and a range past the end.
		if n > 16 {
			if err := Copy(d1.Addr+3, d2.Addr+5, n-8); err != nil {
				t.Fatal(err)
			}
			if err := Copy(d1.Addr+3, d2.Addr, n); !errors.Is(err, ErrFreed) {
				t.Fatalf("copy past the end: %v", err)
			}
		}
		for _, b := range []backend.Block{d1, d2, p, u} {
			free(t, b)
		}
	}
}

func TestCopy2D(t *testing.T) {
	gpu(t)
	const rows, width, hp, dp = 300, 1001, 1100, 1536
	src := randBytes(rows*hp, 11)
	d := alloc(t, Space, "pitched", rows*dp)
	defer free(t, d)
	d2 := alloc(t, Space, "pitched2", rows*dp)
	defer free(t, d2)
	if err := Fill(d.Addr, 1, 0x5a, rows*dp); err != nil {
		t.Fatal(err)
	}
	if err := Copy2DFromHost(d.Addr, dp, src, hp, width, rows); err != nil {
		t.Fatal(err)
	}
	// Device to device: the columns [7, 7+500) of rows 0..299 step 1.
	if err := Fill(d2.Addr, 1, 0x77, rows*dp); err != nil {
		t.Fatal(err)
	}
	if err := Copy2D(d2.Addr+13, dp, d.Addr+7, dp, 500, rows); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, rows*hp)
	for i := range out {
		out[i] = 0x33
	}
	if err := Copy2DToHost(out, hp, d.Addr, dp, width, rows); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		if !bytes.Equal(out[r*hp:r*hp+width], src[r*hp:r*hp+width]) {
			t.Fatalf("row %d differs", r)
		}
		if out[r*hp+width] != 0x33 && r*hp+width < len(out) {
			t.Fatalf("row %d: padding written", r)
		}
	}
	full := make([]byte, rows*dp)
	if err := CopyToHost(full, d2.Addr); err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		for c := range dp {
			want := byte(0x77)
			if c >= 13 && c < 513 {
				want = src[r*hp+c-13+7]
			}
			if full[r*dp+c] != want {
				t.Fatalf("d2 row %d col %d: %#x want %#x", r, c, full[r*dp+c], want)
			}
		}
	}
	if err := Copy2D(d2.Addr, dp, d.Addr, dp, dp+1, 2); err == nil {
		t.Fatal("width over pitch accepted")
	}
}

func TestFill(t *testing.T) {
	gpu(t)
	pats := map[int]uint64{1: 0xa5, 2: 0xbeef, 4: 0xdeadbeef, 8: 0x0123456789abcdef}
	for _, es := range []int{1, 2, 4, 8} {
		pat := pats[es]
		var pb [8]byte
		*(*uint64)(unsafe.Pointer(&pb)) = pat
		want := pb[:es]
		for _, shape := range [][3]int{{1001, 1, 0}, {5, 300, 64}, {300, 5, 2432}, {1, 1, 8}, {70001, 3, 0}, {1000, 1000, 8008}} {
			w, rows, pitch := shape[0], shape[1], shape[2]
			if pitch == 0 {
				pitch = w * es
			}
			n := pitch * rows
			b := alloc(t, Space, "fill", n+64)
			poison := randBytes(n+64, uint64(es))
			if err := CopyFromHost(b.Addr, poison); err != nil {
				t.Fatal(err)
			}
			var err error
			if rows == 1 {
				err = Fill(b.Addr, es, pat, w)
			} else {
				err = Fill2D(b.Addr, pitch, es, pat, w, rows)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, n+64)
			if err := CopyToHost(got, b.Addr); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				r, c := i/pitch, i%pitch
				exp := poison[i]
				if r < rows && c < w*es {
					exp = want[c%es]
				}
				if got[i] != exp {
					t.Fatalf("es %d shape %v: byte %d (row %d col %d) = %#x want %#x", es, shape, i, r, c, got[i], exp)
				}
			}
			free(t, b)
		}
	}
	b := alloc(t, Space, "misaligned", 64)
	defer free(t, b)
	if err := Fill(b.Addr+2, 4, 1, 4); err == nil {
		t.Fatal("misaligned fill accepted")
	}
}

func TestStreams(t *testing.T) {
	gpu(t)
	const n = 24<<20 + 12
	var ss [2]*Stream
	var blocks []backend.Block
	srcs := [2][]byte{randBytes(n, 21), randBytes(n, 22)}
	var pin, dev, out [2]backend.Block
	for i := range 2 {
		s, err := NewStream()
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
		if s.Name() != "Cuda" || s.Concurrency() <= 0 || s.MemorySpace() != Space {
			t.Fatalf("stream identity: %s %d %v", s.Name(), s.Concurrency(), s.MemorySpace())
		}
		pin[i] = alloc(t, HostPinnedSpace, fmt.Sprint("pin", i), n)
		dev[i] = alloc(t, Space, fmt.Sprint("dev", i), n)
		out[i] = alloc(t, HostPinnedSpace, fmt.Sprint("out", i), n)
		blocks = append(blocks, pin[i], dev[i], out[i])
		copy(unsafe.Slice((*byte)(pin[i].Host), n), srcs[i])
	}
	for i, s := range ss {
		if err := s.Copy(dev[i].Addr, pin[i].Addr, n); err != nil {
			t.Fatal(err)
		}
		if err := s.Fill(dev[i].Addr+8, 8, 0x1122334455667788, 4); err != nil {
			t.Fatal(err)
		}
		if err := s.Copy2D(out[i].Addr, 1<<20, dev[i].Addr, 1<<20, 1<<20, n>>20); err != nil {
			t.Fatal(err)
		}
		if err := s.Copy(out[i].Addr+uintptr(n&^(1<<20-1)), dev[i].Addr+uintptr(n&^(1<<20-1)), n%(1<<20)); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range ss {
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		want := append([]byte(nil), srcs[i]...)
		for k := range 4 {
			*(*uint64)(unsafe.Pointer(&want[8+8*k])) = 0x1122334455667788
		}
		if !bytes.Equal(unsafe.Slice((*byte)(out[i].Host), n), want) {
			t.Fatalf("stream %d: data differs", i)
		}
		back := make([]byte, n)
		if err := s.CopyToHost(back, dev[i].Addr); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, want) {
			t.Fatalf("stream %d: staged copy differs", i)
		}
		if err := s.CopyFromHost(dev[i].Addr, srcs[1-i]); err != nil {
			t.Fatal(err)
		}
		if err := s.CopyToHost(back, dev[i].Addr); err != nil || !bytes.Equal(back, srcs[1-i]) {
			t.Fatalf("stream %d: staged copy from host differs (%v)", i, err)
		}
		if err := s.Release(); err != nil {
			t.Fatal(err)
		}
		if err := s.Fence(); !errors.Is(err, ErrReleased) {
			t.Fatalf("Fence after Release: %v", err)
		}
		if err := s.Close(); !errors.Is(err, ErrReleased) {
			t.Fatalf("second Release: %v", err)
		}
	}
	for _, b := range blocks {
		free(t, b)
	}
}

func TestOutOfMemory(t *testing.T) {
	dev := gpu(t)
	_, total, err := dev.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []backend.BlockSpace{Space, UVMSpace} {
		_, err = s.Allocate("too-big", int(total+1<<30), false)
		if !errors.Is(err, ErrOutOfMemory) {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		msg := err.Error()
		t.Logf("%s: %s", s.Name(), msg)
		for _, w := range []string{"cuMemAlloc", "CUDA_ERROR_OUT_OF_MEMORY", `"too-big"`} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", s.Name(), msg, w)
			}
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Label != "too-big" {
			t.Errorf("not an *Error with the label: %#v", err)
		}
	}
}

func TestConcurrent(t *testing.T) {
	gpu(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Go(func() {
			for it := range 40 {
				n := 1 + (g*977+it*131)%70000
				src := randBytes(n, uint64(g*1000+it))
				b, err := Space.Allocate(fmt.Sprintf("g%d-%d", g, it), n, it%2 == 0)
				if err != nil {
					errs <- err
					return
				}
				back := make([]byte, n)
				err = CopyFromHost(b.Addr, src)
				if err == nil {
					runtime.Gosched()
					err = CopyToHost(back, b.Addr)
				}
				if err == nil && !bytes.Equal(back, src) {
					err = fmt.Errorf("goroutine %d iteration %d: data differs", g, it)
				}
				if ferr := b.Free(); err == nil {
					err = ferr
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDroppedBlockIsLeakedNotFreed drops a block without Free: the
// cleanup reports it as leaked and leaves it allocated (no longer live).
func TestDroppedBlockIsLeakedNotFreed(t *testing.T) {
	gpu(t)
	func() {
		_, err := Space.Allocate("forgotten", 1024, false)
		if err != nil {
			t.Fatal(err)
		}
	}()
	for range 50 {
		runtime.GC()
		for _, a := range TakeLeaked() {
			if a.Label == "forgotten" {
				for _, l := range LiveAllocations() {
					if l.Label == "forgotten" {
						t.Fatalf("leaked block still listed live: %s", l)
					}
				}
				return
			}
		}
		runtime.Gosched()
	}
	t.Fatal("the dropped block was not reported")
}
