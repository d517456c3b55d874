package cuda

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// The core's copy hooks. DeepCopy, Fill and the mirror functions of package
// kokkos call them whenever one side of an operation is a view the host
// cannot access (a CudaSpace view); views in HostPinnedSpace and UVMSpace
// are host-accessible and are copied by the core's host code when the other
// side is host-accessible too.
//
// An Endpoint with Host set is either memory of this package (a pinned or
// unified block: the driver reads and writes it directly) or pageable Go
// memory (copied through the staged paths of CopyFromHost and CopyToHost).
// An Endpoint with Space set must be memory of this package's spaces.

// ops implements the copy methods of backend.CopySpace, Copy2DSpace and
// AsyncCopySpace once for the three spaces, which embed it: a copy's
// endpoints, not the receiver, say which memory it touches, so the method
// is the same for DeviceSpace, PinnedSpace and ManagedSpace.
type ops struct{}

var (
	_ backend.CopySpace      = DeviceSpace{}
	_ backend.Copy2DSpace    = DeviceSpace{}
	_ backend.AsyncCopySpace = DeviceSpace{}
	_ backend.AsyncCopySpace = PinnedSpace{}
	_ backend.Copy2DSpace    = PinnedSpace{}
	_ backend.AsyncCopySpace = ManagedSpace{}
	_ backend.Copy2DSpace    = ManagedSpace{}
)

// CopyBytes copies n bytes from src to dst, either of which may be host
// memory, and returns when the bytes are in place. It runs on the legacy
// default stream, so it starts after the work queued earlier on every
// Stream of the device. Pageable host memory of 1 MiB and more is staged
// through pinned buffers.
func (ops) CopyBytes(dst, src backend.Endpoint, n int) error { return copyBytes(dst, src, n) }

// FillBytes writes count copies of pattern to consecutive memory at dst
// and returns when they are in place. Patterns of 1, 2, 4 and 8 bytes are
// Fill's memsets; any other size is seeded by strided byte memsets and
// doubled by device-to-device copies.
func (ops) FillBytes(dst uintptr, pattern []byte, count int) error {
	return fillBytesOn(nil, dst, pattern, count)
}

// CopyBytes2D copies height rows of width bytes (cuMemcpy2D), the rows
// dpitch bytes apart in dst and spitch bytes apart in src, and returns when
// the copy is complete. Pageable host memory is pinned for the call and
// copied by the driver directly (not staged).
func (ops) CopyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	return copyBytes2D(dst, dpitch, src, spitch, width, height)
}

// CopyBytesAsync queues a copy of n bytes on exec, which must be a *Stream
// (for anything else it returns false, nil and the core copies
// synchronously). What the caller gets:
//   - between memory of this package (device, pinned, unified): the copy
//     is queued and CopyBytesAsync returns at once;
//   - from pageable Go memory: the bytes are staged into pinned buffers
//     before it returns (the Go memory is no longer needed then); the
//     transfers run on the stream, after its earlier work;
//   - to pageable Go memory: the copy runs after the stream's earlier work
//     and is complete when CopyBytesAsync returns (the destination is
//     valid only during the call).
//
// Pinned and unified memory must stay allocated until the stream is
// fenced, as in CUDA.
func (ops) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	return copyBytesAsync(exec, dst, src, n)
}

// endpoint is a resolved backend.Endpoint: an address the driver can use
// (memory of this package), or pageable Go memory.
type endpoint struct {
	addr  uintptr
	goMem []byte // non-nil for pageable Go memory
}

// resolve checks e for an n-byte access. Memory of a space that is not one
// of this package's is an error; a device range outside every live block
// is an error matching ErrFreed.
func resolve(e backend.Endpoint, n int) (endpoint, error) {
	if e.Host != nil {
		a := uintptr(e.Host)
		if _, err := lookup(a, n); err == nil {
			return endpoint{addr: a}, nil
		}
		return endpoint{goMem: unsafe.Slice((*byte)(e.Host), n)}, nil
	}
	switch e.Space.(type) {
	case DeviceSpace, PinnedSpace, ManagedSpace:
	default:
		name := "<nil>"
		if e.Space != nil {
			name = e.Space.Name()
		}
		return endpoint{}, fmt.Errorf("cuda: cannot copy memory of space %s", name)
	}
	if _, err := lookup(e.Addr, n); err != nil {
		return endpoint{}, err
	}
	return endpoint{addr: e.Addr}, nil
}

func resolvePair(dst, src backend.Endpoint, dn, sn int) (endpoint, endpoint, error) {
	d, err := resolve(dst, dn)
	if err != nil {
		return d, d, err
	}
	s, err := resolve(src, sn)
	return d, s, err
}

// copyBytes is the synchronous copy hook (s nil) and its stream form.
func copyBytes(dst, src backend.Endpoint, n int) error {
	if n <= 0 {
		return nil
	}
	d, s, err := resolvePair(dst, src, n, n)
	if err != nil {
		return err
	}
	switch {
	case d.goMem == nil && s.goMem == nil:
		return copyOn(nil, d.addr, s.addr, n)
	case d.goMem == nil:
		return copyFromHost(nil, d.addr, s.goMem)
	case s.goMem == nil:
		return copyToHost(nil, d.goMem, s.addr)
	}
	copy(d.goMem, s.goMem)
	return nil
}

func copyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	if err := check2D(dpitch, spitch, width, height); err != nil {
		return err
	}
	if width == 0 || height == 0 {
		return nil
	}
	d, s, err := resolvePair(dst, src, span2D(dpitch, width, height), span2D(spitch, width, height))
	if err != nil {
		return err
	}
	return copy2DOn(nil, d.addr, dpitch, d.goMem, s.addr, spitch, s.goMem, width, height)
}

func copyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	st, ok := exec.(*Stream)
	if !ok || st == nil {
		return false, nil
	}
	if n <= 0 {
		return true, nil
	}
	d, s, err := resolvePair(dst, src, n, n)
	if err != nil {
		return true, err
	}
	switch {
	case d.goMem == nil && s.goMem == nil:
		return true, copyOn(st, d.addr, s.addr, n)
	case d.goMem == nil:
		return true, copyFromHostAsync(st, d.addr, s.goMem)
	case s.goMem == nil:
		return true, copyToHost(st, d.goMem, s.addr)
	}
	// Both pageable: order after the stream's work, then copy.
	if err := st.Fence(); err != nil {
		return true, err
	}
	copy(d.goMem, s.goMem)
	return true, nil
}

// FillBytes queues count copies of pattern at dst on the stream; see
// DeviceSpace.FillBytes for the pattern sizes.
func (s *Stream) FillBytes(dst uintptr, pattern []byte, count int) error {
	return fillBytesOn(s, dst, pattern, count)
}

// fillBytesOn fills count elements of len(pattern) bytes.
func fillBytesOn(s *Stream, dst uintptr, pattern []byte, count int) error {
	es := len(pattern)
	if count <= 0 || es == 0 {
		return nil
	}
	if (es == 1 || es == 2 || es == 4 || es == 8) && dst%uintptr(min(es, 4)) == 0 {
		var b [8]byte
		copy(b[:], pattern)
		return fillOn(s, dst, es*count, es, binary.LittleEndian.Uint64(b[:]), count, 1)
	}
	e, c, h, dev, end, err := s.beginAt(dst, es*count)
	if err != nil {
		return err
	}
	defer end()
	if err := checkFillDevice(s, e); err != nil {
		return err
	}
	d := dev.drv
	// Seed the first elements one byte column at a time, then double the
	// filled prefix.
	seed := min(count, 256)
	for j := range es {
		if err := c.do("cuMemsetD2D8Async", e.Label, d.cuMemsetD2D8Async, dst+uintptr(j), uintptr(es), uintptr(pattern[j]), 1, uintptr(seed), h); err != nil {
			return err
		}
	}
	for k := seed; k < count; k *= 2 {
		if err := c.do("cuMemcpyAsync", e.Label, d.cuMemcpyAsync, dst+uintptr(k*es), dst, uintptr(min(k, count-k)*es), h); err != nil {
			return err
		}
	}
	if s == nil {
		return c.do("cuStreamSynchronize", e.Label, d.cuStreamSynchronize, 0)
	}
	return nil
}
