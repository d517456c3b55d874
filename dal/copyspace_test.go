package dal_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/dal"
)

// copySpace is a kokkos.CopySpace whose blocks are Go memory that the host
// may not touch: it stands for GPU memory. Allocate without zero fills a
// block with garbage bytes, so that missing writes show. Setting fail makes
// CopyBytes and FillBytes return it.
type copySpace struct {
	mu     sync.Mutex
	blocks map[uintptr][]byte
	copies int
	fills  int
	frees  int
	fail   error
}

func newCopySpace() *copySpace { return &copySpace{blocks: make(map[uintptr][]byte)} }

func (s *copySpace) Name() string         { return "TestCopyDevice" }
func (s *copySpace) HostAccessible() bool { return false }

func (s *copySpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	buf := make([]byte, bytes+1)
	if !zero {
		for i := range buf {
			buf[i] = 0xA5
		}
	}
	addr := uintptr(unsafe.Pointer(&buf[0]))
	s.mu.Lock()
	s.blocks[addr] = buf
	s.mu.Unlock()
	return backend.Block{Addr: addr, Free: func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.blocks, addr)
		s.frees++
		return nil
	}}, nil
}

// mem returns the n bytes at address a of one of the space's blocks.
func (s *copySpace) mem(a uintptr, n int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	for base, b := range s.blocks {
		if a >= base && a+uintptr(n) <= base+uintptr(len(b)) {
			o := int(a - base)
			return b[o : o+n]
		}
	}
	panic(fmt.Sprintf("test device: no block holds [%#x, +%d)", a, n))
}

func (s *copySpace) bytes(e backend.Endpoint, n int) []byte {
	if e.Host != nil {
		return unsafe.Slice((*byte)(e.Host), n)
	}
	if e.Space != kokkos.MemorySpace(s) {
		panic("test device: an endpoint of another space")
	}
	return s.mem(e.Addr, n)
}

func (s *copySpace) CopyBytes(dst, src backend.Endpoint, n int) error {
	s.mu.Lock()
	s.copies++
	err := s.fail
	s.mu.Unlock()
	if err != nil {
		return err
	}
	copy(s.bytes(dst, n), s.bytes(src, n))
	return nil
}

func (s *copySpace) FillBytes(dst uintptr, pattern []byte, count int) error {
	s.mu.Lock()
	s.fills++
	err := s.fail
	s.mu.Unlock()
	if err != nil {
		return err
	}
	m := s.mem(dst, len(pattern)*count)
	for i := range count {
		copy(m[i*len(pattern):], pattern)
	}
	return nil
}

func (s *copySpace) counts() (copies, fills, frees int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.copies, s.fills, s.frees
}

func (s *copySpace) wantFrees(t *testing.T, n int, when string) {
	t.Helper()
	if _, _, got := s.counts(); got != n {
		t.Fatalf("%s: %d frees, want %d", when, got, n)
	}
}

// download returns a's elements, copied to the host through a.View and
// kokkos.DeepCopy.
func download[T any](t *testing.T, a dal.Array[T]) []T {
	t.Helper()
	v, err := a.View()
	must(t, err)
	host, err := kokkos.NewView1[T]("host", a.Count())
	must(t, err)
	must(t, kokkos.DeepCopy(host, v))
	must(t, v.Release())
	return slices.Clone(host.Data())
}

// upload writes data into the mutable array a through a.View and
// kokkos.DeepCopy.
func upload[T any](t *testing.T, a dal.Array[T], data []T) {
	t.Helper()
	v, err := a.View()
	must(t, err)
	host, err := kokkos.WrapView1(data, len(data))
	must(t, err)
	must(t, kokkos.DeepCopy(v, host))
	must(t, v.Release())
}

func TestFullInCopySpace(t *testing.T) {
	s := newCopySpace()
	x := randFloat64(1)[0]
	a, err := dal.Full(1000, x, dal.InSpace(s), dal.WithLabel("full"))
	must(t, err)
	if a.Space() != s || a.Addr() == 0 || !a.HasMutableData() || a.UseCount() != 1 || a.Allocation().Label() != "full" {
		t.Fatal("Full in a copy space: wrong space, address, mutability, holders or label")
	}
	wantPanic(t, kokkos.ErrNotHostAccessible, func() { a.Data() })
	if _, fills, _ := s.counts(); fills == 0 {
		t.Fatal("Full did not fill through the space's FillBytes")
	}
	for i, got := range download(t, a) {
		if got != x {
			t.Fatalf("Full: element %d is %v, want %v", i, got, x)
		}
	}

	// An element of several words, and a slice of the block.
	y := [3]float32(randFloat32(3))
	b, err := dal.Full(17, y, dal.InSpace(s))
	must(t, err)
	sl, err := b.Slice(5, 9)
	must(t, err)
	for i, got := range download(t, sl) {
		if got != y {
			t.Fatalf("Full: element %d of the slice is %v, want %v", i, got, y)
		}
	}

	z, err := dal.Full(0, x, dal.InSpace(s))
	must(t, err)
	if z.Count() != 0 || z.Space() != s {
		t.Fatal("Full(0) in a copy space: want an empty array in that space")
	}

	for _, h := range []*dal.Array[[3]float32]{&b, &sl} {
		must(t, h.Release())
	}
	must(t, a.Release())
	must(t, z.Release())
	s.wantFrees(t, 3, "after every Full was released")
}

func TestZerosAndEmptyInCopySpace(t *testing.T) {
	s := newCopySpace()
	z, err := dal.Zeros[float32](300, dal.InSpace(s))
	must(t, err)
	if z.Count() != 300 || !z.HasMutableData() {
		t.Fatal("Zeros in a copy space: wrong count or immutable")
	}
	// The space fills blocks allocated without zero with garbage: zeros
	// show that Zeros asked for zero-filled memory.
	for i, got := range download(t, z) {
		if got != 0 {
			t.Fatalf("Zeros: element %d is %v", i, got)
		}
	}

	e, err := dal.Empty[float32](300, dal.InSpace(s))
	must(t, err)
	if slices.Equal(download(t, e), download(t, z)) {
		t.Fatal("Empty in the test space: want its garbage, not zeros")
	}
	want := randFloat32(300)
	upload(t, e, want)
	if got := download(t, e); !slices.Equal(got, want) {
		t.Fatal("the round trip through the view of an Empty array changed its elements")
	}
	// Writes through a slice's view land in the parent's block.
	sl, err := e.Slice(100, 200)
	must(t, err)
	part := randFloat32(100)
	upload(t, sl, part)
	copy(want[100:], part)
	if got := download(t, e); !slices.Equal(got, want) {
		t.Fatal("a write through a slice's view did not reach the right elements")
	}

	for _, h := range []*dal.Array[float32]{&z, &e, &sl} {
		must(t, h.Release())
	}
	s.wantFrees(t, 2, "after every array was released")
}

func TestNeedMutableDataInCopySpace(t *testing.T) {
	s := newCopySpace()
	a, err := dal.Empty[float64](512, dal.InSpace(s), dal.WithLabel("device"))
	must(t, err)
	old := randFloat64(512)
	upload(t, a, old)
	ro := a.Share()
	ro.DiscardMutableData()
	sib := ro.Share()
	copies, _, _ := s.counts()

	must(t, ro.NeedMutableData())
	if !ro.HasMutableData() || ro.Space() != s || ro.Addr() == a.Addr() || ro.Allocation() == a.Allocation() ||
		ro.UseCount() != 1 || ro.Allocation().Label() != "device" {
		t.Fatal("NeedMutableData did not give the handle a mutable block of its own in the same space")
	}
	if c, _, _ := s.counts(); c != copies+1 {
		t.Fatalf("NeedMutableData made %d copies in the space, want one", c-copies)
	}
	// ro's hold gave up the original block at once: a and sib hold it.
	if sib.HasMutableData() || !a.HasMutableData() || sib.Addr() != a.Addr() || a.UseCount() != 2 {
		t.Fatalf("NeedMutableData changed a sibling's block or mutability, or kept its hold on the old block (%d holders, want 2)", a.UseCount())
	}
	if !slices.Equal(download(t, ro), old) {
		t.Fatal("NeedMutableData did not copy the elements")
	}
	upload(t, ro, randFloat64(512))
	if !slices.Equal(download(t, sib), old) || !slices.Equal(download(t, a), old) {
		t.Fatal("a write to the copy reached the original block")
	}

	// A slice copies only its elements.
	sl, err := sib.Slice(100, 164)
	must(t, err)
	must(t, sl.NeedMutableData())
	if sl.Count() != 64 || !sl.HasMutableData() || !slices.Equal(download(t, sl), old[100:164]) {
		t.Fatal("NeedMutableData of a slice did not copy its elements")
	}

	// A cast from a smaller type that starts inside an element of the new
	// type is copied as bytes.
	f, err := dal.Empty[float32](8, dal.InSpace(s))
	must(t, err)
	fv := randFloat32(8)
	upload(t, f, fv)
	odd, err := f.Slice(1, 7)
	must(t, err)
	odd.DiscardMutableData()
	c, err := dal.Cast[[3]float32](odd)
	must(t, err)
	if _, err := c.View(); err == nil {
		t.Fatal("the view of a cast that starts inside an element should fail")
	}
	must(t, c.NeedMutableData())
	if got := download(t, c); !slices.Equal(got, [][3]float32{[3]float32(fv[1:4]), [3]float32(fv[4:7])}) {
		t.Fatalf("NeedMutableData of an unaligned cast copied %v, want the elements of %v", got, fv[1:7])
	}

	// The holds that copied left the original block: a and sib were its
	// last holders.
	must(t, a.Release())
	s.wantFrees(t, 0, "while sib holds the original block")
	must(t, sib.Release())
	s.wantFrees(t, 1, "after the original block's last holder")
	must(t, ro.Release())
	s.wantFrees(t, 2, "after ro's release: its copy")
	must(t, sl.Release())
	s.wantFrees(t, 3, "after sl's release: its copy")
	must(t, odd.Release())
	must(t, f.Release())
	s.wantFrees(t, 4, "after f's block's last holder, c's hold having left it")
	must(t, c.Release())
	s.wantFrees(t, 5, "after every array was released")
}

func TestCopySpaceErrors(t *testing.T) {
	s := newCopySpace()
	broken := errors.New("device lost")
	a, err := dal.Empty[float32](64, dal.InSpace(s))
	must(t, err)
	upload(t, a, randFloat32(64))
	ro := a.Share()
	ro.DiscardMutableData()

	s.mu.Lock()
	s.fail = broken
	s.mu.Unlock()
	err = ro.NeedMutableData()
	if !errors.Is(err, broken) {
		t.Fatalf("NeedMutableData does not wrap the space's error: %v", err)
	}
	if ro.HasMutableData() || ro.Addr() != a.Addr() || a.UseCount() != 2 {
		t.Fatal("a failed NeedMutableData changed the handle or the holders")
	}
	s.wantFrees(t, 1, "after a failed NeedMutableData")

	_, err = dal.Full(8, randFloat32(1)[0], dal.InSpace(s))
	if !errors.Is(err, broken) {
		t.Fatalf("Full does not wrap the space's error: %v", err)
	}
	s.wantFrees(t, 2, "after a failed Full")

	must(t, a.Release())
	must(t, ro.Release())
	s.wantFrees(t, 3, "after every array was released")
}

// Full and NeedMutableData in host memory go through the same calls.
func TestFullAndNeedMutableDataOfOtherElements(t *testing.T) {
	w := fmt.Sprint(randFloat64(1)[0])
	a, err := dal.Full(40, w)
	must(t, err)
	for i := range a.Count() {
		if a.At(i) != w {
			t.Fatalf("Full of strings: element %d is %q, want %q", i, a.At(i), w)
		}
	}
	e, err := dal.Full(5, struct{}{})
	must(t, err)
	if e.Count() != 5 || e.Size() != 0 {
		t.Fatal("Full of an empty struct: wrong count or size")
	}
	ro := a.Share()
	ro.DiscardMutableData()
	must(t, ro.NeedMutableData())
	if same(ro.Data(), a.Data()) || !slices.Equal(ro.Data(), a.Data()) {
		t.Fatal("NeedMutableData of strings did not copy")
	}
	er := e.Share()
	er.DiscardMutableData()
	must(t, er.NeedMutableData())
	if !er.HasMutableData() || er.Count() != 5 {
		t.Fatal("NeedMutableData of an empty struct: wrong count or mutability")
	}
	for _, h := range []*dal.Array[string]{&a, &ro} {
		must(t, h.Release())
	}
	for _, h := range []*dal.Array[struct{}]{&e, &er} {
		must(t, h.Release())
	}
}

// Clone of a device array copies within the device into a new block that
// the clone holds alone; Clone and Move drop the old block at once.
func TestCloneInCopySpace(t *testing.T) {
	s := newCopySpace()
	a, err := dal.Empty[float64](128, dal.InSpace(s))
	must(t, err)
	src := randFloat64(128)
	upload(t, a, src)
	a.DiscardMutableData()
	sl, err := a.Slice(32, 96)
	must(t, err)
	copies, _, _ := s.counts()
	c, err := sl.Clone()
	must(t, err)
	if n, _, _ := s.counts(); n != copies+1 {
		t.Fatalf("Clone made %d copies in the space, want one", n-copies)
	}
	if c.Space() != s || c.Addr() == sl.Addr() || !c.HasMutableData() || c.UseCount() != 1 || a.UseCount() != 2 {
		t.Fatal("Clone did not give a mutable block of its own in the same space")
	}
	if !slices.Equal(download(t, c), src[32:96]) {
		t.Fatal("Clone did not copy the elements")
	}
	must(t, sl.Release())
	must(t, a.Move(&c))
	s.wantFrees(t, 1, "after a.Move of the clone")
	if a.Count() != 64 || !slices.Equal(download(t, a), src[32:96]) {
		t.Fatal("a is not the clone after Move")
	}
	must(t, a.Release())
	s.wantFrees(t, 2, "after the clone's release")
}
