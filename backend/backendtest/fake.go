package backendtest

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// A Fake is a device without a GPU: a backend.CopySpace whose memory is Go
// memory that package kokkos must treat as unreachable from the host
// (unless it was made host-accessible), so that every device copy path can
// be tested on any machine. Its blocks are one byte longer than asked, and
// filled with 0xAB unless zeroed (or with what SetGarbage says), so that
// reads past a block or of uninitialised memory show. Endpoints must name the Fake itself (or one of
// its With2D or WithAsync variants); it panics on memory that is not its
// own. It is safe for concurrent use; compare it by pointer.
type Fake struct {
	host   bool
	mu     sync.Mutex
	blocks map[uintptr][]byte
	calls  int
	// exec is the executor ExecutionSpace returns, made on first use;
	// garbage, if set, fills the blocks Allocate does not zero.
	exec    *FakeExecutor
	garbage func([]byte)
}

var _ backend.CopySpace = (*Fake)(nil)

// FakeDevice returns a new Fake; host says whether the host may access
// its memory.
func FakeDevice(host bool) *Fake {
	return &Fake{host: host, blocks: make(map[uintptr][]byte)}
}

// Name returns "FakeDeviceSpace".
// fakeAlign is the alignment of a fake device's blocks.
const fakeAlign = 64

func (f *Fake) Name() string { return "FakeDeviceSpace" }

// HostAccessible reports the host flag FakeDevice was given.
func (f *Fake) HostAccessible() bool { return f.host }

// Allocate returns a block of bytes+1 bytes of Go memory, aligned to 64
// bytes as a device allocator aligns its blocks (a small []byte of the Go
// heap may start at any byte).
func (f *Fake) Allocate(label string, n int, zero bool) (backend.Block, error) {
	raw := make([]byte, n+1+fakeAlign-1)
	off := (fakeAlign - int(uintptr(unsafe.Pointer(&raw[0]))%fakeAlign)) % fakeAlign
	buf := raw[off : off+n+1]
	if !zero {
		for i := range buf {
			buf[i] = 0xAB
		}
		f.mu.Lock()
		garbage := f.garbage
		f.mu.Unlock()
		if garbage != nil {
			garbage(buf[:n])
		}
	}
	addr := uintptr(unsafe.Pointer(&buf[0]))
	f.mu.Lock()
	f.blocks[addr] = buf
	f.mu.Unlock()
	b := backend.Block{Addr: addr, Free: func() error {
		f.mu.Lock()
		delete(f.blocks, addr)
		f.mu.Unlock()
		return nil
	}}
	if f.host {
		b.Host = unsafe.Pointer(&buf[0])
	}
	return b, nil
}

// Calls returns the number of CopyBytes, CopyBytes2D and FillBytes calls
// so far.
func (f *Fake) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// ResetCalls sets the count of Calls back to zero.
func (f *Fake) ResetCalls() {
	f.mu.Lock()
	f.calls = 0
	f.mu.Unlock()
}

// Blocks returns the number of blocks allocated and not yet freed.
func (f *Fake) Blocks() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.blocks)
}

func (f *Fake) count() {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
}

// mem returns the n bytes at device address a.
func (f *Fake) mem(a uintptr, n int) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	for base, b := range f.blocks {
		if a >= base && a+uintptr(n) <= base+uintptr(len(b)) {
			o := int(a - base)
			return b[o : o+n]
		}
	}
	panic(fmt.Sprintf("fake device: no block holds [%#x, +%d)", a, n))
}

func (f *Fake) bytes(e backend.Endpoint, n int) []byte {
	if e.Host != nil {
		return unsafe.Slice((*byte)(e.Host), n)
	}
	if e.Space != backend.MemorySpace(f) {
		panic("fake device: endpoint of another space")
	}
	return f.mem(e.Addr, n)
}

// CopyBytes copies n bytes.
func (f *Fake) CopyBytes(dst, src backend.Endpoint, n int) error {
	f.count()
	copy(f.bytes(dst, n), f.bytes(src, n))
	return nil
}

// FillBytes writes count copies of p at dst.
func (f *Fake) FillBytes(dst uintptr, p []byte, count int) error {
	f.count()
	m := f.mem(dst, len(p)*count)
	for i := range count {
		copy(m[i*len(p):], p)
	}
	return nil
}

// With2D returns a space with f's memory that also implements
// backend.Copy2DSpace, one call per 2-D copy. Allocate in the result:
// views report it as their space.
func (f *Fake) With2D() backend.Copy2DSpace { return fake2D{f} }

// fake2D adds CopyBytes2D.
type fake2D struct{ *Fake }

func (f fake2D) own(e backend.Endpoint) backend.Endpoint {
	if e.Space == backend.MemorySpace(f) {
		e.Space = f.Fake
	}
	return e
}

func (f fake2D) CopyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	dst, src = f.own(dst), f.own(src)
	for r := range height {
		d, s := dst, src
		if d.Host != nil {
			d.Host = unsafe.Add(d.Host, r*dpitch)
		} else {
			d.Addr += uintptr(r * dpitch)
		}
		if s.Host != nil {
			s.Host = unsafe.Add(s.Host, r*spitch)
		} else {
			s.Addr += uintptr(r * spitch)
		}
		copy(f.Fake.bytes(d, width), f.Fake.bytes(s, width))
	}
	f.count()
	return nil
}

func (f fake2D) CopyBytes(dst, src backend.Endpoint, n int) error {
	return f.Fake.CopyBytes(f.own(dst), f.own(src), n)
}

// A FakeAsync is a Fake that also implements backend.AsyncCopySpace: it
// queues host-to-device and device-to-device copies on the work queue that
// its queue function returns for an execution space, and declines the rest
// (copies to the host, execution spaces without a queue).
type FakeAsync struct {
	*Fake
	queue  func(backend.Exec) backend.WorkQueue
	mu     sync.Mutex
	queued int
}

var _ backend.AsyncCopySpace = (*FakeAsync)(nil)

// WithAsync returns a FakeAsync with f's memory. queue returns the work
// queue of an execution space the fake knows, or nil; a nil queue function
// takes every execution space that implements backend.WorkQueue. Allocate
// in the result: views report it as their space.
func (f *Fake) WithAsync(queue func(backend.Exec) backend.WorkQueue) *FakeAsync {
	if queue == nil {
		queue = func(e backend.Exec) backend.WorkQueue {
			q, _ := e.(backend.WorkQueue)
			return q
		}
	}
	return &FakeAsync{Fake: f, queue: queue}
}

func (f *FakeAsync) own(e backend.Endpoint) backend.Endpoint {
	if e.Space == backend.MemorySpace(f) {
		e.Space = f.Fake
	}
	return e
}

// Queued returns the number of copies CopyBytesAsync queued.
func (f *FakeAsync) Queued() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queued
}

// CopyBytes copies n bytes.
func (f *FakeAsync) CopyBytes(dst, src backend.Endpoint, n int) error {
	return f.Fake.CopyBytes(f.own(dst), f.own(src), n)
}

// CopyBytesAsync queues the copy on exec's work queue; host memory is
// copied before it returns.
func (f *FakeAsync) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	q := f.queue(exec)
	if q == nil || dst.Host != nil {
		return false, nil
	}
	dst, src = f.own(dst), f.own(src)
	var staged []byte
	if src.Host != nil {
		staged = append([]byte(nil), unsafe.Slice((*byte)(src.Host), n)...)
	}
	f.mu.Lock()
	f.queued++
	f.mu.Unlock()
	q.Submit(func() error {
		if staged != nil {
			copy(f.Fake.bytes(dst, n), staged)
			return nil
		}
		return f.Fake.CopyBytes(dst, src, n)
	})
	return true, nil
}
