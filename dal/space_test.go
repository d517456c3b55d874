//go:build unix

package dal_test

import (
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/dal"
)

// mmapSpace is a kokkos.BlockSpace of anonymous mappings, outside the Go
// heap. With host false it stands for device memory: it gives no host
// address.
type mmapSpace struct {
	name  string
	host  bool
	fail  error
	frees atomic.Int32
}

func (s *mmapSpace) Name() string         { return s.name }
func (s *mmapSpace) HostAccessible() bool { return s.host }

func (s *mmapSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	if s.fail != nil {
		return backend.Block{}, s.fail
	}
	mem, err := syscall.Mmap(-1, 0, max(bytes, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return backend.Block{}, err
	}
	b := backend.Block{Addr: uintptr(unsafe.Pointer(&mem[0]))}
	if s.host {
		b.Host = unsafe.Pointer(&mem[0])
	}
	b.Free = func() error { s.frees.Add(1); return syscall.Munmap(mem) }
	return b, nil
}

func (s *mmapSpace) wantFrees(t *testing.T, n int32, when string) {
	t.Helper()
	if got := s.frees.Load(); got != n {
		t.Fatalf("%s: %d frees, want %d", when, got, n)
	}
}

func TestHostBlockSpace(t *testing.T) {
	s := &mmapSpace{name: "TestPinned", host: true}
	v := randFloat64(1)[0]
	a, err := dal.Full(1024, v, dal.InSpace(s), dal.WithLabel("pinned"))
	must(t, err)
	if a.Space() != s || a.Addr() == 0 || a.Addr() != uintptr(unsafe.Pointer(&a.Data()[0])) || a.Allocation().Label() != "pinned" {
		t.Fatal("Full in a block space: wrong space, address or label")
	}
	if a.At(1023) != v || !a.HasMutableData() {
		t.Fatal("Full in a block space: wrong value or immutable")
	}
	sl, err := a.Slice(512, 1024)
	must(t, err)
	if sl.Addr() != a.Addr()+512*8 || &sl.Data()[0] != &a.Data()[512] {
		t.Fatal("a slice's address is not inside the block")
	}
	ro := a.Share()
	ro.DiscardMutableData()
	must(t, ro.NeedMutableData())
	if ro.Space() != s || ro.Addr() == a.Addr() || ro.At(7) != v {
		t.Fatal("NeedMutableData did not copy into a new block of the same space")
	}
	must(t, a.Release())
	s.wantFrees(t, 0, "while the slice holds the first block")
	must(t, sl.Release())
	s.wantFrees(t, 1, "after the first block's last holder: ro's hold left it at NeedMutableData")
	must(t, ro.Release())
	s.wantFrees(t, 2, "after ro's release: its copy")

	z, err := dal.Zeros[int64](0, dal.InSpace(s))
	must(t, err)
	if z.Count() != 0 || z.Data() == nil {
		t.Fatal("Zeros(0) in a host block space: want an empty non-nil slice")
	}
	must(t, z.Release())
}

func TestDeviceSpaceHasNoHostSlice(t *testing.T) {
	s := &mmapSpace{name: "TestDevice"}
	a, err := dal.Zeros[float32](256, dal.InSpace(s))
	must(t, err)
	if a.Count() != 256 || a.Size() != 1024 || !a.HasMutableData() || a.Addr() == 0 {
		t.Fatal("Zeros in a device space: wrong count, size, mutability or address")
	}
	wantPanic(t, kokkos.ErrNotHostAccessible, func() { a.Data() })
	wantPanic(t, kokkos.ErrNotHostAccessible, func() { a.At(3) })
	wantPanic(t, dal.ErrRange, func() { a.At(256) })
	_, err = a.MutableData()
	wantErr(t, err, kokkos.ErrNotHostAccessible)

	sl, err := a.Slice(64, 128)
	must(t, err)
	if sl.Addr() != a.Addr()+64*4 || sl.Count() != 64 {
		t.Fatal("a device slice's address or count is wrong")
	}
	c, err := dal.Cast[float64](sl)
	must(t, err)
	if c.Addr() != sl.Addr() || c.Count() != 32 {
		t.Fatal("a device cast's address or count is wrong")
	}
	v, err := c.View()
	must(t, err)
	if v.Extent(0) != 32 || v.Space() != s || !panics(func() { v.At(0) }) {
		t.Fatal("the view of a device array is wrong or readable from the host")
	}
	back, err := dal.FromView(v)
	must(t, err)
	if back.Addr() != c.Addr() || back.Count() != 32 {
		t.Fatal("the round trip through a view moved the device array")
	}

	// mmapSpace implements no kokkos.CopySpace: nothing can fill or copy
	// its memory.
	ro := a.Share()
	ro.DiscardMutableData()
	wantErr(t, ro.NeedMutableData(), kokkos.ErrNoCopySpace)
	if ro.HasMutableData() || ro.Addr() != a.Addr() || a.UseCount() != 6 {
		t.Fatal("a failed NeedMutableData changed the handle or the holders")
	}
	_, err = dal.Full(4, randFloat32(1)[0], dal.InSpace(s))
	wantErr(t, err, kokkos.ErrNoCopySpace)
	s.wantFrees(t, 0, "after a refused Full")
	f0, err := dal.Full(0, randFloat32(1)[0], dal.InSpace(s))
	must(t, err)
	if f0.Count() != 0 || f0.Space() != s {
		t.Fatal("Full(0) in a space without CopySpace: want an empty array in that space")
	}
	must(t, f0.Release())
	s.wantFrees(t, 1, "after Full(0)'s release")
	var alias dal.Array[byte]
	wantErr(t, alias.ResetAlias(a, nil), kokkos.ErrNotHostAccessible)

	for _, h := range []*dal.Array[float32]{&a, &sl, &ro} {
		must(t, h.Release())
	}
	must(t, c.Release())
	must(t, v.Release())
	s.wantFrees(t, 1, "with a holder alive")
	must(t, back.Release())
	s.wantFrees(t, 2, "after the last holder")
}

func TestBlockSpaceErrors(t *testing.T) {
	s := &mmapSpace{name: "TestDevice"}
	_, err := dal.Empty[*int](4, dal.InSpace(s))
	wantErr(t, err, kokkos.ErrElementType)
	oom := errors.New("out of memory")
	s.fail = oom
	_, err = dal.Empty[float64](4, dal.InSpace(s))
	if !errors.Is(err, oom) {
		t.Fatalf("the space's error is not wrapped: %v", err)
	}
	_, err = dal.Zeros[float64](4, dal.InSpace(nowhere{}))
	wantErr(t, err, kokkos.ErrNoCopySpace)
}
