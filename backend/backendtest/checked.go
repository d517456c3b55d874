// Package backendtest helps test memory spaces (backend.BlockSpace
// implementations) and the code that allocates in them: TestSpace is a
// conformance suite any backend runs, FakeDevice a device without a GPU,
// and CheckedSpace a leak-checking decorator.
//
// CheckedSpace decorates any BlockSpace, as arrow-go's
// memory.CheckedAllocator decorates an allocator: it records every block
// still allocated, with the stack that allocated it, so that a test fails on
// a leak when it ends rather than whenever the garbage collector gets to it:
//
//	cs := backendtest.NewCheckedSpace(space)
//	defer cs.AssertNoLeaks(t)
//	v, err := kokkos.NewView1[float64]("x", n, kokkos.InSpace(cs))
//	...
//	v.Release()
package backendtest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gokkos/kokkos/backend"
)

// TestingT is the part of testing.TB that CheckedSpace's assertions use.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
}

// A CheckedSpace is a backend.BlockSpace that allocates in another one and
// records every block it handed out, with the allocating stack, until the
// block's Free, which then frees the block in the inner space. A second Free
// of a block frees nothing, returns an error wrapping backend.ErrReleased and
// is reported by AssertNoLeaks. Allocate views in the CheckedSpace itself
// (kokkos.InSpace(cs)): they report it, not the inner space, as their
// space. It is safe for concurrent use.
type CheckedSpace interface {
	backend.BlockSpace
	// CurrentAlloc returns the bytes of the blocks allocated and not yet
	// freed.
	CurrentAlloc() int
	// AssertSize fails the test if the blocks allocated and not yet
	// freed do not add up to bytes bytes, listing them.
	AssertSize(t TestingT, bytes int)
	// AssertNoLeaks fails the test once for every block allocated and
	// not yet freed, and for every block freed twice, naming the block's
	// label, size and space and the stack that allocated it.
	AssertNoLeaks(t TestingT)
	// inner returns the decorated space.
	inner() backend.BlockSpace
}

// NewCheckedSpace returns a CheckedSpace allocating in inner. Its Name and
// HostAccessible are inner's. It implements exactly those of
// backend.CopySpace, backend.Copy2DSpace and backend.AsyncCopySpace that inner
// implements, by calling inner with its own endpoints turned into inner's,
// so that the deep-copy planner takes the same paths as with inner. Its
// dynamic type is a pointer: it compares equal only to itself.
func NewCheckedSpace(inner backend.BlockSpace) CheckedSpace {
	live := make(map[*record]struct{})
	_, copies := inner.(backend.CopySpace)
	_, twoD := inner.(backend.Copy2DSpace)
	_, async := inner.(backend.AsyncCopySpace)
	switch {
	case twoD && async:
		return &checked2DAsync{checked2D{checkedCopy{base{in: inner, live: live}}}}
	case twoD:
		return &checked2D{checkedCopy{base{in: inner, live: live}}}
	case async:
		return &checkedAsync{checkedCopy{base{in: inner, live: live}}}
	case copies:
		return &checkedCopy{base{in: inner, live: live}}
	}
	return &checked{base{in: inner, live: live}}
}

// base is the bookkeeping every CheckedSpace shares.
type base struct {
	in backend.BlockSpace

	mu      sync.Mutex
	live    map[*record]struct{}
	bytes   int
	doubles []string // reports of blocks freed twice
}

// The variants, one per set of copy interfaces the inner space implements.
type (
	checked        struct{ base }
	checkedCopy    struct{ base }
	checked2D      struct{ checkedCopy }
	checkedAsync   struct{ checkedCopy }
	checked2DAsync struct{ checked2D }
)

var (
	_ CheckedSpace           = (*checked)(nil)
	_ backend.CopySpace      = (*checkedCopy)(nil)
	_ backend.Copy2DSpace    = (*checked2D)(nil)
	_ backend.AsyncCopySpace = (*checkedAsync)(nil)
	_ backend.Copy2DSpace    = (*checked2DAsync)(nil)
	_ backend.AsyncCopySpace = (*checked2DAsync)(nil)
)

// record is one block handed out by Allocate.
type record struct {
	label string
	bytes int
	stack []uintptr
	freed bool
}

func (c *base) inner() backend.BlockSpace { return c.in }

// Name returns the inner space's name.
func (c *base) Name() string { return c.in.Name() }

// HostAccessible reports whether the inner space is host accessible.
func (c *base) HostAccessible() bool { return c.in.HostAccessible() }

// Allocate allocates in the inner space and records the block with the
// caller's stack. The block's Free forgets the record and frees the block
// in the inner space; a second call frees nothing, returns an error
// wrapping backend.ErrReleased and makes AssertNoLeaks fail.
func (c *base) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	b, err := c.in.Allocate(label, bytes, zero)
	if err != nil {
		return b, err
	}
	var pcs [32]uintptr
	r := &record{label: label, bytes: bytes, stack: slices.Clone(pcs[:runtime.Callers(2, pcs[:])])}
	c.mu.Lock()
	c.live[r] = struct{}{}
	c.bytes += bytes
	c.mu.Unlock()
	free := b.Free
	b.Free = func() error {
		c.mu.Lock()
		if r.freed {
			msg := fmt.Sprintf("backendtest: block %q of %d bytes in %s freed twice", r.label, r.bytes, c.Name())
			c.doubles = append(c.doubles, msg+"\n"+r.where())
			c.mu.Unlock()
			return fmt.Errorf("%s: %w", msg, backend.ErrReleased)
		}
		r.freed = true
		delete(c.live, r)
		c.bytes -= r.bytes
		c.mu.Unlock()
		if free == nil {
			return nil
		}
		return free()
	}
	return b, nil
}

// CurrentAlloc returns the bytes of the blocks allocated and not yet freed.
func (c *base) CurrentAlloc() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// AssertSize fails the test if the blocks allocated and not yet freed do
// not add up to bytes bytes, listing them.
func (c *base) AssertSize(t TestingT, bytes int) {
	t.Helper()
	c.mu.Lock()
	got, live := c.bytes, c.liveLocked()
	c.mu.Unlock()
	if got != bytes {
		t.Errorf("backendtest: %d bytes allocated in %s, want %d; live blocks:\n%s", got, c.Name(), bytes, strings.Join(live, "\n"))
	}
}

// AssertNoLeaks fails the test once for every block allocated and not yet
// freed, and for every block freed twice, naming the block's label, size
// and space and the stack that allocated it.
func (c *base) AssertNoLeaks(t TestingT) {
	t.Helper()
	c.mu.Lock()
	live, doubles := c.liveLocked(), slices.Clone(c.doubles)
	c.mu.Unlock()
	for _, msg := range live {
		t.Errorf("%s", msg)
	}
	for _, msg := range doubles {
		t.Errorf("%s", msg)
	}
}

// liveLocked returns a report per live block, by label, then size.
func (c *base) liveLocked() []string {
	recs := make([]*record, 0, len(c.live))
	for r := range c.live {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b *record) int {
		if n := strings.Compare(a.label, b.label); n != 0 {
			return n
		}
		return a.bytes - b.bytes
	})
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = fmt.Sprintf("backendtest: leak: block %q of %d bytes in %s was never freed\n%s", r.label, r.bytes, c.Name(), r.where())
	}
	return out
}

// where formats the allocating stack, innermost call first.
func (r *record) where() string {
	var b strings.Builder
	b.WriteString("allocated at:")
	frames := runtime.CallersFrames(r.stack)
	for {
		f, more := frames.Next()
		if f.Function != "" {
			fmt.Fprintf(&b, "\n\t%s\n\t\t%s:%d", f.Function, f.File, f.Line)
		}
		if !more {
			return b.String()
		}
	}
}

// unwrap replaces a CheckedSpace in e by the space it decorates.
func unwrap(e backend.Endpoint) backend.Endpoint {
	for {
		c, ok := e.Space.(CheckedSpace)
		if !ok {
			return e
		}
		e.Space = c.inner()
	}
}

// CopyBytes is the inner space's CopyBytes.
func (c *checkedCopy) CopyBytes(dst, src backend.Endpoint, n int) error {
	return c.in.(backend.CopySpace).CopyBytes(unwrap(dst), unwrap(src), n)
}

// FillBytes is the inner space's FillBytes.
func (c *checkedCopy) FillBytes(dst uintptr, pattern []byte, count int) error {
	return c.in.(backend.CopySpace).FillBytes(dst, pattern, count)
}

// CopyBytes2D is the inner space's CopyBytes2D.
func (c *checked2D) CopyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	return c.in.(backend.Copy2DSpace).CopyBytes2D(unwrap(dst), dpitch, unwrap(src), spitch, width, height)
}

// CopyBytesAsync is the inner space's CopyBytesAsync.
func (c *checkedAsync) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	return c.in.(backend.AsyncCopySpace).CopyBytesAsync(exec, unwrap(dst), unwrap(src), n)
}

// CopyBytesAsync is the inner space's CopyBytesAsync.
func (c *checked2DAsync) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	return c.in.(backend.AsyncCopySpace).CopyBytesAsync(exec, unwrap(dst), unwrap(src), n)
}
