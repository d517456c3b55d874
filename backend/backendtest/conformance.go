package backendtest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// TestSpace checks that space keeps the contract of package backend, on
// random data compared against host references:
//
//   - its dynamic type is comparable;
//   - Allocate returns zeroed blocks when asked, with Host set exactly when
//     the space is host-accessible;
//   - CopyBytes (host to block, block to block, block to host) and
//     FillBytes (patterns of 1 to 16 bytes) write exactly their range,
//     when space is a backend.CopySpace;
//   - CopyBytes2D writes exactly its rows, when space is a
//     backend.Copy2DSpace;
//   - CopyBytesAsync, when space is a backend.AsyncCopySpace and exec is
//     not nil, has its bytes in place after exec's Fence;
//   - every block's Free succeeds once, and a CheckedSpace around space
//     reports a block never freed and a block freed twice.
//
// exec may be nil; the asynchronous copies are then not checked.
func TestSpace(t *testing.T, space backend.BlockSpace, exec backend.Exec) {
	t.Helper()
	if !reflect.TypeOf(space).Comparable() {
		t.Fatalf("space %s of type %T is not comparable: package kokkos compares spaces with ==", space.Name(), space)
	}
	if space.Name() == "" {
		t.Errorf("space of type %T has an empty Name", space)
	}
	c := &conformance{t: t, space: space, rng: rand.New(rand.NewPCG(1, uint64(len(space.Name()))))}
	t.Run("Allocate", c.allocate)
	if cs, ok := space.(backend.CopySpace); ok {
		c.cs = cs
		t.Run("CopyBytes", c.copyBytes)
		t.Run("FillBytes", c.fillBytes)
	}
	if c2, ok := space.(backend.Copy2DSpace); ok {
		t.Run("CopyBytes2D", func(t *testing.T) { c.copyBytes2D(t, c2) })
	}
	if as, ok := space.(backend.AsyncCopySpace); ok && exec != nil {
		t.Run("CopyBytesAsync", func(t *testing.T) { c.copyBytesAsync(t, as, exec) })
	}
	t.Run("Free", c.free)
}

type conformance struct {
	t     *testing.T
	space backend.BlockSpace
	cs    backend.CopySpace
	rng   *rand.Rand
}

func (c *conformance) random(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c.rng.Uint32())
	}
	return b
}

// alloc allocates n bytes and frees them when t ends.
func (c *conformance) alloc(t *testing.T, n int, zero bool) backend.Block {
	t.Helper()
	b, err := c.space.Allocate(fmt.Sprintf("conformance-%d", n), n, zero)
	if err != nil {
		t.Fatalf("Allocate(%d): %v", n, err)
	}
	if b.Free == nil {
		t.Fatalf("Allocate(%d): block without Free", n)
	}
	t.Cleanup(func() {
		if err := b.Free(); err != nil {
			t.Errorf("Free of a block of %d bytes: %v", n, err)
		}
	})
	return b
}

func (c *conformance) dev(b backend.Block, off int) backend.Endpoint {
	return backend.Endpoint{Space: c.space, Addr: b.Addr + uintptr(off)}
}

// host returns the Endpoint of buf, pinned in p.
func host(p *runtime.Pinner, buf []byte) backend.Endpoint {
	p.Pin(&buf[0])
	return backend.Endpoint{Host: unsafe.Pointer(&buf[0])}
}

// read returns n bytes of b from off, through Host or CopyBytes.
func (c *conformance) read(t *testing.T, b backend.Block, off, n int) []byte {
	t.Helper()
	out := make([]byte, n)
	if b.Host != nil {
		copy(out, unsafe.Slice((*byte)(unsafe.Add(b.Host, off)), n))
		return out
	}
	if c.cs == nil {
		t.Fatalf("space %s is neither host-accessible nor a CopySpace", c.space.Name())
	}
	var p runtime.Pinner
	defer p.Unpin()
	if err := c.cs.CopyBytes(host(&p, out), c.dev(b, off), n); err != nil {
		t.Fatalf("CopyBytes to the host: %v", err)
	}
	return out
}

// write stores data at off in b, through Host or CopyBytes.
func (c *conformance) write(t *testing.T, b backend.Block, off int, data []byte) {
	t.Helper()
	if b.Host != nil {
		copy(unsafe.Slice((*byte)(unsafe.Add(b.Host, off)), len(data)), data)
		return
	}
	var p runtime.Pinner
	defer p.Unpin()
	if err := c.cs.CopyBytes(c.dev(b, off), host(&p, data), len(data)); err != nil {
		t.Fatalf("CopyBytes from the host: %v", err)
	}
}

func (c *conformance) allocate(t *testing.T) {
	for _, n := range []int{1, 7, 64, 4099, 1 << 16} {
		b := c.alloc(t, n, true)
		if b.Addr == 0 && b.Host == nil {
			t.Errorf("Allocate(%d): block without an address", n)
		}
		if (b.Host != nil) != c.space.HostAccessible() {
			t.Errorf("Allocate(%d): Host %v, but HostAccessible is %v", n, b.Host, c.space.HostAccessible())
		}
		if b.Host == nil && c.cs == nil {
			continue
		}
		if got := c.read(t, b, 0, n); !bytes.Equal(got, make([]byte, n)) {
			t.Errorf("Allocate(%d, zero): block not zeroed", n)
		}
	}
}

func (c *conformance) copyBytes(t *testing.T) {
	for _, n := range []int{1, 3, 64, 1000, 1<<16 + 5} {
		const pad = 16
		a, b := c.alloc(t, n+2*pad, false), c.alloc(t, n+2*pad, false)
		around := c.random(n + 2*pad)
		c.write(t, a, 0, around)
		c.write(t, b, 0, around)
		data := c.random(n)
		var p runtime.Pinner
		if err := c.cs.CopyBytes(c.dev(a, pad), host(&p, data), n); err != nil {
			t.Fatalf("CopyBytes host to block, %d bytes: %v", n, err)
		}
		if err := c.cs.CopyBytes(c.dev(b, pad), c.dev(a, pad), n); err != nil {
			t.Fatalf("CopyBytes block to block, %d bytes: %v", n, err)
		}
		out := make([]byte, n)
		if err := c.cs.CopyBytes(host(&p, out), c.dev(b, pad), n); err != nil {
			t.Fatalf("CopyBytes block to host, %d bytes: %v", n, err)
		}
		p.Unpin()
		if !bytes.Equal(out, data) {
			t.Errorf("CopyBytes round trip of %d bytes: data differ", n)
		}
		want := append(append(append([]byte(nil), around[:pad]...), data...), around[pad+n:]...)
		for _, blk := range []backend.Block{a, b} {
			if got := c.read(t, blk, 0, n+2*pad); !bytes.Equal(got, want) {
				t.Errorf("CopyBytes of %d bytes: bytes outside the range changed", n)
			}
		}
	}
}

func (c *conformance) fillBytes(t *testing.T) {
	for _, es := range []int{1, 2, 3, 4, 8, 12, 16} {
		for _, count := range []int{1, 5, 300, 4097} {
			const pad = 16
			n := es*count + 2*pad
			b := c.alloc(t, n, false)
			around := c.random(n)
			c.write(t, b, 0, around)
			pattern := c.random(es)
			if err := c.cs.FillBytes(b.Addr+pad, pattern, count); err != nil {
				t.Fatalf("FillBytes(%d bytes × %d): %v", es, count, err)
			}
			want := append([]byte(nil), around...)
			for i := range count {
				copy(want[pad+i*es:], pattern)
			}
			if got := c.read(t, b, 0, n); !bytes.Equal(got, want) {
				t.Errorf("FillBytes(%d bytes × %d): wrong bytes", es, count)
			}
		}
	}
}

func (c *conformance) copyBytes2D(t *testing.T, c2 backend.Copy2DSpace) {
	for _, sh := range [][4]int{{1, 1, 1, 1}, {8, 8, 8, 4}, {5, 16, 24, 7}, {64, 80, 64, 33}} {
		width, dpitch, spitch, height := sh[0], sh[1], sh[2], sh[3]
		dn, sn := dpitch*(height-1)+width, spitch*(height-1)+width
		dst, src := c.alloc(t, dn, false), c.alloc(t, sn, false)
		dOld, sData := c.random(dn), c.random(sn)
		c.write(t, dst, 0, dOld)
		c.write(t, src, 0, sData)
		if err := c2.CopyBytes2D(c.dev(dst, 0), dpitch, c.dev(src, 0), spitch, width, height); err != nil {
			t.Fatalf("CopyBytes2D %v block to block: %v", sh, err)
		}
		want := append([]byte(nil), dOld...)
		for r := range height {
			copy(want[r*dpitch:r*dpitch+width], sData[r*spitch:])
		}
		if got := c.read(t, dst, 0, dn); !bytes.Equal(got, want) {
			t.Errorf("CopyBytes2D %v block to block: wrong bytes", sh)
		}
		// block to host, into a host buffer with the source's pitch
		out := c.random(sn)
		hwant := append([]byte(nil), out...)
		for r := range height {
			copy(hwant[r*spitch:r*spitch+width], want[r*dpitch:])
		}
		var p runtime.Pinner
		err := c2.CopyBytes2D(host(&p, out), spitch, c.dev(dst, 0), dpitch, width, height)
		p.Unpin()
		if err != nil {
			t.Fatalf("CopyBytes2D %v block to host: %v", sh, err)
		}
		if !bytes.Equal(out, hwant) {
			t.Errorf("CopyBytes2D %v block to host: wrong bytes", sh)
		}
	}
}

func (c *conformance) copyBytesAsync(t *testing.T, as backend.AsyncCopySpace, exec backend.Exec) {
	for _, n := range []int{1, 100, 1<<16 + 3} {
		a, b := c.alloc(t, n, true), c.alloc(t, n, true)
		data := c.random(n)
		want := append([]byte(nil), data...)
		var p runtime.Pinner
		queued, err := as.CopyBytesAsync(exec, c.dev(a, 0), host(&p, data), n)
		p.Unpin()
		if err != nil {
			t.Fatalf("CopyBytesAsync host to block, %d bytes: %v", n, err)
		}
		if !queued {
			t.Logf("CopyBytesAsync declined %s; copying synchronously", exec.Name())
			c.write(t, a, 0, data)
		}
		// The host buffer is valid only during the call: overwriting it
		// now must not change what lands in the block.
		clear(data)
		if err := exec.Fence(); err != nil {
			t.Fatalf("Fence: %v", err)
		}
		if got := c.read(t, a, 0, n); !bytes.Equal(got, want) {
			t.Errorf("CopyBytesAsync host to block, %d bytes: wrong bytes after Fence", n)
		}
		if q, err := as.CopyBytesAsync(exec, c.dev(b, 0), c.dev(a, 0), n); err != nil {
			t.Fatalf("CopyBytesAsync block to block, %d bytes: %v", n, err)
		} else if !q {
			if err := c.cs.CopyBytes(c.dev(b, 0), c.dev(a, 0), n); err != nil {
				t.Fatal(err)
			}
		}
		if err := exec.Fence(); err != nil {
			t.Fatalf("Fence: %v", err)
		}
		if got := c.read(t, b, 0, n); !bytes.Equal(got, want) {
			t.Errorf("CopyBytesAsync block to block, %d bytes: wrong bytes after Fence", n)
		}
	}
}

// recorder is a TestingT that keeps what it is told.
type recorder struct{ errs []string }

func (*recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (c *conformance) free(t *testing.T) {
	cs := NewCheckedSpace(c.space)
	kept, err := cs.Allocate("kept", 48, false)
	if err != nil {
		t.Fatal(err)
	}
	freed, err := cs.Allocate("freed", 16, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := freed.Free(); err != nil {
		t.Fatalf("Free: %v", err)
	}
	if cs.CurrentAlloc() != 48 {
		t.Errorf("CurrentAlloc = %d, want 48", cs.CurrentAlloc())
	}
	var r recorder
	cs.AssertNoLeaks(&r)
	if len(r.errs) != 1 {
		t.Errorf("a block never freed: %d reports, want 1: %q", len(r.errs), r.errs)
	}
	if err := kept.Free(); err != nil {
		t.Fatalf("Free: %v", err)
	}
	if err := freed.Free(); !errors.Is(err, backend.ErrReleased) {
		t.Errorf("second Free: %v, want an error wrapping backend.ErrReleased", err)
	}
	r = recorder{}
	cs.AssertNoLeaks(&r)
	if len(r.errs) != 1 {
		t.Errorf("a block freed twice: %d reports, want 1: %q", len(r.errs), r.errs)
	}
}
