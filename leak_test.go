//go:build unix

package kokkos_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// mmapSpace is a kokkos.BlockSpace of anonymous mappings, outside the Go
// heap, that Free unmaps, as CUDA unified memory is unmapped by cuMemFree:
// a host access after Free faults. With host false it stands for device
// memory and gives no host address.
type mmapSpace struct {
	name  string
	host  bool
	frees atomic.Int32
}

func (s *mmapSpace) Name() string         { return s.name }
func (s *mmapSpace) HostAccessible() bool { return s.host }

func (s *mmapSpace) Allocate(label string, n int, zero bool) (backend.Block, error) {
	mem, err := syscall.Mmap(-1, 0, max(n, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return backend.Block{}, fmt.Errorf("mmap of %d bytes for %q: %w", n, label, err)
	}
	b := backend.Block{Addr: uintptr(unsafe.Pointer(&mem[0]))}
	if s.host {
		b.Host = unsafe.Pointer(&mem[0])
	}
	b.Free = func() error { s.frees.Add(1); return syscall.Munmap(mem) }
	return b, nil
}

const leakChildEnv = "GOKKOS_LEAK_CHILD"

// TestSliceOutlivesDroppedView takes a row of a view in host-accessible
// memory outside the Go heap, drops the view without Release and collects
// garbage: the row must stay readable and writable (the block is leaked,
// never unmapped) and the leak must be reported on standard error. A
// fault would kill the process, so the scenario runs in a child process.
func TestSliceOutlivesDroppedView(t *testing.T) {
	if os.Getenv(leakChildEnv) != "" {
		sliceOutlivesDroppedView()
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSliceOutlivesDroppedView$", "-test.count=1")
	cmd.Env = append(os.Environ(), leakChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child process: %v (a fault means the garbage collector freed memory a slice still points to)\n%s", err, out)
	}
	for _, want := range []string{
		`kokkos: leak: allocation "uvm" of 2097152 bytes in FakeUVM became unreachable before its final Release; its memory is never freed`,
		"allocated at:",
		"kokkos_test.rowOfDroppedView",
		"child: row intact after the leak was reported",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

//go:noinline
func rowOfDroppedView(s backend.BlockSpace, rng *rand.Rand) (row, want []float64) {
	v := kokkos.Must(kokkos.NewView2[float64]("uvm", 512, 512, kokkos.InSpace(s)))
	for i := range 512 {
		for j := range 512 {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	row = v.Row(3)
	return row, append([]float64(nil), row...)
}

// sliceOutlivesDroppedView is the child's side of
// TestSliceOutlivesDroppedView. It reads its own standard error to know
// when the default leak handler has run.
func sliceOutlivesDroppedView() {
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stdout, "child: "+format+"\n", args...)
		os.Exit(3)
	}
	r, w, err := os.Pipe()
	if err != nil {
		fail("%v", err)
	}
	realStderr := os.Stderr
	os.Stderr = w
	var mu sync.Mutex
	var seen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			mu.Unlock()
			_, _ = realStderr.Write(buf[:n])
			if err == io.EOF || err != nil {
				return
			}
		}
	}()
	s := &mmapSpace{name: "FakeUVM", host: true}
	row, want := rowOfDroppedView(s, rand.New(rand.NewPCG(11, 12)))
	deadline := time.Now().Add(30 * time.Second)
	for {
		runtime.GC()
		mu.Lock()
		reported := strings.Contains(seen.String(), `allocation "uvm"`)
		mu.Unlock()
		if reported {
			break
		}
		if time.Now().After(deadline) {
			fail("no leak report within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := range row {
		if row[i] != want[i] {
			fail("row[%d] = %v, want %v", i, row[i], want[i])
		}
		row[i] = -want[i]
	}
	for i := range row {
		if row[i] != -want[i] {
			fail("row[%d] = %v after the write, want %v", i, row[i], -want[i])
		}
	}
	if n := s.frees.Load(); n != 0 {
		fail("%d frees of a leaked block, want 0", n)
	}
	fmt.Fprintln(os.Stdout, "child: row intact after the leak was reported")
}

// TestLastReleaseFreesOnce checks that a block outside the Go heap is freed
// by the Release that drops the count to zero, exactly once, also when
// goroutines race on Retain and Release; that the memory stays intact
// before that; and that a further Release is an error that frees nothing.
func TestLastReleaseFreesOnce(t *testing.T) {
	s := &mmapSpace{name: "FakeUVM", host: true}
	cs := backendtest.NewCheckedSpace(s)
	defer cs.AssertNoLeaks(t)
	rng := rand.New(rand.NewPCG(3, 4))
	const n0, n1 = 64, 48
	v := kokkos.Must(kokkos.NewView2[float64]("once", n0, n1, kokkos.InSpace(cs)))
	want := make([]float64, n0*n1)
	for i := range n0 {
		for j := range n1 {
			want[i*n1+j] = rng.Float64() + 1
			v.Set(i, j, want[i*n1+j])
		}
	}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			v.Retain()
			if err := v.Release(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	v.Retain()
	v.Retain()
	if v.UseCount() != 3 {
		t.Fatalf("UseCount = %d, want 3", v.UseCount())
	}
	for k := 2; k >= 1; k-- {
		if err := v.Release(); err != nil || s.frees.Load() != 0 || cs.CurrentAlloc() != n0*n1*8 || v.UseCount() != k {
			t.Fatalf("a Release leaving %d holders: err %v, %d frees, %d bytes live", k, err, s.frees.Load(), cs.CurrentAlloc())
		}
	}
	for i := range n0 {
		for j := range n1 {
			if v.At(i, j) != want[i*n1+j] {
				t.Fatalf("(%d, %d) = %v before the last Release, want %v", i, j, v.At(i, j), want[i*n1+j])
			}
		}
	}
	if err := v.Release(); err != nil || s.frees.Load() != 1 || cs.CurrentAlloc() != 0 || v.IsAllocated() || v.UseCount() != 0 {
		t.Fatalf("last Release: err %v, %d frees, %d bytes live", err, s.frees.Load(), cs.CurrentAlloc())
	}
	err := v.Release()
	if !errors.Is(err, kokkos.ErrReleased) || !strings.Contains(err.Error(), `allocation "once" released more times than it was held`) {
		t.Fatalf("Release after the last: %v", err)
	}
	func() {
		defer func() {
			if msg := fmt.Sprint(recover()); !strings.Contains(msg, `Retain of allocation "once" after its final Release`) {
				t.Errorf("Retain after the last Release: panic %q", msg)
			}
		}()
		v.Retain()
	}()
	h := kokkos.Must(kokkos.NewView2[float64]("h", n0, n1))
	if err := kokkos.DeepCopy(h, v); err == nil || !strings.Contains(err.Error(), "allocation was released") {
		t.Fatalf("DeepCopy from a released view: %v", err)
	}
	for range 3 {
		runtime.GC()
	}
	if s.frees.Load() != 1 {
		t.Fatalf("%d frees, want 1", s.frees.Load())
	}
}

// leakView allocates a view of n float32 in s and drops it unreleased.
//
//go:noinline
func leakView(s backend.BlockSpace, label string, n int, release bool) {
	v := kokkos.Must(kokkos.NewView1[float32](label, n, kokkos.InSpace(s)))
	if release {
		if err := v.Release(); err != nil {
			panic(err)
		}
	}
}

// TestLeakHandlerReceivesReport drops views in a host-accessible and in a
// device-only space, and an Allocation with a free function, without their
// final Release: the handler gets one report for each, naming label, space,
// size and allocation stack, and nothing is freed. A view released before
// it is dropped is not reported.
func TestLeakHandlerReceivesReport(t *testing.T) {
	reports := make(chan kokkos.LeakReport, 64)
	handler := func(r kokkos.LeakReport) {
		select {
		case reports <- r:
		default:
		}
	}
	prev := kokkos.SetLeakHandler(handler)
	defer func() {
		if got := kokkos.SetLeakHandler(prev); got == nil {
			t.Error("SetLeakHandler did not return the handler it replaced")
		}
	}()
	host := &mmapSpace{name: "FakeUVM", host: true}
	dev := &mmapSpace{name: "FakeDevice"}
	rng := rand.New(rand.NewPCG(5, 6))
	tag := fmt.Sprintf("-%d", rng.Uint32())
	nh, nd := 100+rng.IntN(900), 100+rng.IntN(900)
	leakView(host, "leak-host"+tag, nh, false)
	leakView(dev, "leak-dev"+tag, nd, false)
	leakView(host, "released"+tag, nh, true)
	freed := 0
	func() {
		if _, err := kokkos.NewAllocation("leak-free"+tag, dev, 1<<12, 24, func() error { freed++; return nil }); err != nil {
			t.Error(err)
		}
	}()
	want := map[string]kokkos.LeakReport{
		"leak-host" + tag: {Space: host, Bytes: 4 * nh},
		"leak-dev" + tag:  {Space: dev, Bytes: 4 * nd},
		"leak-free" + tag: {Space: dev, Bytes: 24},
	}
	got := map[string]kokkos.LeakReport{}
	deadline := time.Now().Add(30 * time.Second)
	for len(got) < len(want) && time.Now().Before(deadline) {
		runtime.GC()
		select {
		case r := <-reports:
			if strings.HasSuffix(r.Label, tag) {
				if _, dup := got[r.Label]; dup {
					t.Errorf("%q reported twice", r.Label)
				}
				got[r.Label] = r
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	for label, w := range want {
		r, ok := got[label]
		switch {
		case !ok:
			t.Errorf("no report for %q", label)
		case r.Space != w.Space || r.Bytes != w.Bytes:
			t.Errorf("report for %q: space %v, %d bytes; want %s, %d bytes", label, r.Space, r.Bytes, w.Space.Name(), w.Bytes)
		case !strings.Contains(r.Stack, "kokkos_test.TestLeakHandlerReceivesReport"):
			t.Errorf("report for %q: stack lacks the test:\n%s", label, r.Stack)
		case strings.HasPrefix(label, "leak-free") == strings.Contains(r.Stack, "kokkos_test.leakView"):
			t.Errorf("report for %q: wrong stack:\n%s", label, r.Stack)
		}
	}
	if r, ok := got["released"+tag]; ok {
		t.Errorf("a released view was reported: %v", r)
	}
	if host.frees.Load() != 1 || dev.frees.Load() != 0 || freed != 0 {
		t.Errorf("frees: host %d (want 1, the released view), device %d, free function %d (want 0)", host.frees.Load(), dev.frees.Load(), freed)
	}
}

func TestLeakReportString(t *testing.T) {
	r := kokkos.LeakReport{Label: "x", Space: kokkos.HostSpace, Bytes: 24, Stack: "main.f\n\t/a/b.go:7\nmain.main\n\t/a/m.go:3\n"}
	want := `kokkos: leak: allocation "x" of 24 bytes in HostSpace became unreachable before its final Release; its memory is never freed
allocated at:
	main.f
		/a/b.go:7
	main.main
		/a/m.go:3`
	if r.String() != want {
		t.Errorf("String:\n%s\nwant:\n%s", r, want)
	}
	r = kokkos.LeakReport{Label: "y", Bytes: 8}
	if want := `kokkos: leak: allocation "y" of 8 bytes in <nil> became unreachable before its final Release; its memory is never freed`; r.String() != want {
		t.Errorf("String without space or stack: %s", r)
	}
}
