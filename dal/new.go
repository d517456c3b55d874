package dal

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/typeinfo"
)

// DefaultLabel labels the allocations of arrays made without WithLabel.
const DefaultLabel = "dal.Array"

// An Option adjusts how Empty, Zeros, Full and ResetCount allocate. A nil
// Option is ignored. Options that conflict make the call return an error
// wrapping ErrOption (and so kokkos.ErrOption), as kokkos's options do.
type Option func(*config)

type config struct {
	space kokkos.MemorySpace
	label string
	// given records the options given, to tell a repeated option from a
	// default; err is the first conflict, which the constructors return.
	given optionSet
	err   error
}

// optionSet records which options were given.
type optionSet uint8

const (
	givenSpace optionSet = 1 << iota
	givenLabel
)

// conflict records the first conflict between options.
func (c *config) conflict(format string, a ...any) {
	if c.err == nil {
		c.err = errorf(ErrOption, format, a...)
	}
}

// InSpace allocates in s instead of kokkos.HostSpace (nil names
// kokkos.HostSpace). A backend.BlockSpace allocates with its Allocate
// method, outside the Go heap, and its block is freed at the last Release.
// Two InSpace options naming different spaces conflict.
func InSpace(s kokkos.MemorySpace) Option {
	return func(c *config) {
		if c.given&givenSpace != 0 && c.space != s {
			c.conflict("options InSpace(%s) and InSpace(%s) conflict: give one memory space", spaceName(c.space), spaceName(s))
			return
		}
		c.space, c.given = s, c.given|givenSpace
	}
}

func spaceName(s kokkos.MemorySpace) string {
	if s == nil {
		return "nil"
	}
	return s.Name()
}

// WithLabel labels the allocation; the label appears in errors and in leak
// reports. Two WithLabel options naming different labels conflict.
func WithLabel(label string) Option {
	return func(c *config) {
		if c.given&givenLabel != 0 && c.label != label {
			c.conflict("options WithLabel(%q) and WithLabel(%q) conflict: give one label", c.label, label)
			return
		}
		c.label, c.given = label, c.given|givenLabel
	}
}

// makeConfig applies opts over the defaults; op and n name the call in the
// error of a conflict.
func makeConfig(op string, n int, opts []Option) (config, error) {
	c := config{space: kokkos.HostSpace, label: DefaultLabel}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.space == nil {
		c.space = kokkos.HostSpace
	}
	if c.err != nil {
		return c, fmt.Errorf("dal: %s(%d): %w", op, n, c.err)
	}
	return c, nil
}

// Empty returns a mutable array owning a new block of n elements whose
// contents are unspecified (Go memory is zeroed; other spaces are not). It
// returns an error when n is negative, when options conflict (ErrOption)
// and when the space cannot allocate.
func Empty[T any](n int, opts ...Option) (Array[T], error) {
	cfg, err := makeConfig("Empty", n, opts)
	if err != nil {
		return Array[T]{}, err
	}
	return allocate[T]("Empty", n, cfg, false)
}

// Zeros returns a mutable array owning a new block of n zero elements. Go
// memory starts zeroed; a backend.BlockSpace, host-accessible or not, is
// asked for zero-filled memory (Allocate with zero true). It returns an
// error when n is negative, when options conflict (ErrOption) and when the
// space cannot allocate.
func Zeros[T any](n int, opts ...Option) (Array[T], error) {
	cfg, err := makeConfig("Zeros", n, opts)
	if err != nil {
		return Array[T]{}, err
	}
	return allocate[T]("Zeros", n, cfg, true)
}

// Full returns a mutable array owning a new block of n elements equal to v.
// The elements are stored by kokkos.Fill over a view of the block, so a
// space the host cannot access (such as GPU memory) is filled through its
// backend.CopySpace methods. It returns an error when n is negative, when
// options conflict (ErrOption), when the space cannot allocate or fill, and
// when the host cannot access the space and the space does not implement
// backend.CopySpace.
func Full[T any](n int, v T, opts ...Option) (Array[T], error) {
	cfg, err := makeConfig("Full", n, opts)
	if err != nil {
		return Array[T]{}, err
	}
	if n > 0 && lacksCopySpace(cfg.space) {
		return Array[T]{}, errorf(kokkos.ErrNoCopySpace, "dal: Full(%d) of %s in %s: %s, so the elements cannot be filled; use Zeros or Empty", n, typeName[T](), cfg.space.Name(), noCopySpace)
	}
	a, err := allocate[T]("Full", n, cfg, false)
	if err != nil {
		return Array[T]{}, err
	}
	if err := fillBlock(a, v); err != nil {
		return Array[T]{}, fmt.Errorf("dal: Full(%d) of %s in %s: %w", n, typeName[T](), cfg.space.Name(), errors.Join(err, a.s.rec.Release()))
	}
	return a, nil
}

// lacksCopySpace reports whether s is a backend.BlockSpace that the host
// cannot access and that cannot copy or fill its own memory, because it
// does not implement backend.CopySpace. Other spaces that the host cannot
// access are refused by allocate.
func lacksCopySpace(s kokkos.MemorySpace) bool {
	if s.HostAccessible() {
		return false
	}
	_, block := s.(backend.BlockSpace)
	_, copies := s.(backend.CopySpace)
	return block && !copies
}

// noCopySpace says what a space that lacksCopySpace is missing.
const noCopySpace = "the host cannot access that space's memory and the space does not implement backend.CopySpace"

// fillBlock stores v in every element of a, a handle on the whole of a new
// block, with kokkos.Fill over a rank-1 view of the block.
func fillBlock[T any](a Array[T], v T) (err error) {
	if a.s.count == 0 || sizeOf[T]() == 0 {
		return nil
	}
	view, err := kokkos.ViewOnAllocation1(a.s.rec, 0, a.s.count, a.data)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, view.Release()) }()
	return kokkos.Fill(view, v)
}

// allocate returns a mutable handle, with a hold of its own, on a new block
// of n elements.
func allocate[T any](op string, n int, cfg config, zero bool) (Array[T], error) {
	fail := func(kind error, format string, args ...any) (Array[T], error) {
		return Array[T]{}, errorf(kind, "dal: %s(%d) of %s in %s: %s", op, n, typeName[T](), cfg.space.Name(), fmt.Sprintf(format, args...))
	}
	size := sizeOf[T]()
	if n < 0 {
		return fail(ErrCount, "the count is negative")
	}
	if size > 0 && n > math.MaxInt/size {
		return fail(ErrCount, "%d elements of %d bytes overflow int", n, size)
	}
	bytes := n * size
	bs, ok := cfg.space.(backend.BlockSpace)
	if !ok {
		if !cfg.space.HostAccessible() {
			return fail(kokkos.ErrNoCopySpace, "the space is neither host memory nor a backend.BlockSpace")
		}
		rec, err := newAllocation(cfg.label, cfg.space, bytes, nil)
		if err != nil {
			return Array[T]{}, fmt.Errorf("dal: %s(%d) of %s in %s: %w", op, n, typeName[T](), cfg.space.Name(), err)
		}
		return Array[T]{s: &state{l: newHold(rec), rec: rec, count: n, mutable: true}, data: make([]T, n)}, nil
	}
	if typeinfo.HasPointers(reflect.TypeFor[T]()) {
		return fail(kokkos.ErrElementType, "the element type holds Go pointers, which cannot live outside the Go heap")
	}
	rec, blk, err := newBlockAllocation(cfg.label, bs, bytes, zero)
	if err != nil {
		return Array[T]{}, fmt.Errorf("dal: %s(%d) of %s in %s: %w", op, n, typeName[T](), cfg.space.Name(), err)
	}
	a := Array[T]{s: &state{l: newHold(rec), rec: rec, count: n, mutable: true}}
	switch {
	case !cfg.space.HostAccessible():
		// No host slice: the elements are reached through Addr.
	case n == 0:
		a.data = []T{}
	case blk.Host == nil:
		_ = rec.Release()
		return fail(kokkos.ErrNoCopySpace, "the space reports host access but gave no host address")
	default:
		a.data = unsafe.Slice((*T)(blk.Host), n)
	}
	return a, nil
}

// Wrap returns an immutable array over the caller's memory data, without
// copying. The array never frees data: the caller keeps it valid (in Go,
// reachable) and unchanged while any handle on it lives. Handles on it count
// holders like any other block.
func Wrap[T any](data []T) Array[T] { return wrap(data, false, nil) }

// WrapMutable is Wrap for memory the array may write: the handle has
// mutable data.
func WrapMutable[T any](data []T) Array[T] { return wrap(data, true, nil) }

// WrapWithDeleter returns an immutable array over the caller's memory data
// that owns it: deleter runs exactly once, when the last holder of the
// block (this handle's hold, and those of its shared copies, slices,
// aliases, casts and views) is released. Release every hold: the garbage
// collector is no substitute, and a hold never released keeps the deleter
// from running. A nil deleter makes it Wrap.
func WrapWithDeleter[T any](data []T, deleter func()) Array[T] {
	return wrap(data, false, deleter)
}

// WrapMutableWithDeleter is WrapWithDeleter for memory the array may write.
func WrapMutableWithDeleter[T any](data []T, deleter func()) Array[T] {
	return wrap(data, true, deleter)
}

func wrap[T any](data []T, mutable bool, deleter func()) Array[T] {
	var free func() error
	if deleter != nil {
		free = func() error { deleter(); return nil }
	}
	n := len(data)
	if data == nil {
		data = []T{}
	}
	rec, err := newAllocation(DefaultLabel, kokkos.HostSpace, n*sizeOf[T](), free)
	if err != nil {
		panic(err) // HostSpace and a size of at least 0 are always taken
	}
	return Array[T]{s: &state{l: newHold(rec), rec: rec, count: n, mutable: mutable}, data: data[:n:n]}
}
