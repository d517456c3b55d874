package cuda

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// ErrBinding is matched (errors.Is) by the error of a device pattern given
// a bad binding: a name that is not a C identifier or is bound twice, a
// view of an element type the device cannot use, a view the device cannot
// reach (host memory) or of another device, a released view.
var ErrBinding = errors.New("cuda: bad binding")

// An Arg is one argument of a device pattern after its body: a view
// (Bind), a scalar (Scalar), or a compile or launch option (FMAD,
// CheckBounds).
type Arg interface{ apply(*argSet) }

// argSet is the arguments of one launch, sorted out.
type argSet struct {
	views   []viewArg
	scalars []scalarArg
	noFMAD  bool
	into    any // ReduceInto's view
	check   bool
	helpers string // Helpers' sources, in order
	errs    []error
}

type viewArg struct {
	name string
	elem elemType
	d    backend.View
}

type scalarArg struct {
	name string
	elem elemType
	bits uint64
}

type argFunc func(*argSet)

func (f argFunc) apply(s *argSet) { f(s) }

// Bind binds a view to name: the body reads and writes its elements as
// name(i0, i1, ...), and calls name.extent(r), name.stride(r),
// name.size() and name.data(). view is any view (View0 to View8,
// OffsetView, DynRankView, a value or a pointer) of float32, float64,
// int32, int64, uint32 or uint64 in a memory space the device reaches
// (cuda.Space, cuda.UVMSpace, cuda.HostPinnedSpace). A read-only view is
// const in the body; a view with the Atomic trait makes every access to
// its elements atomic. The body indexes a view from 0 in each dimension
// (an OffsetView's begins are not applied).
func Bind(name string, view any) Arg {
	return argFunc(func(s *argSet) {
		d, elem, ok := describeAny(view)
		if !ok || elem == elemBool {
			s.errs = append(s.errs, fmt.Errorf("%w %q: %T is not a view of float32, float64, int32, int64, uint32 or uint64", ErrBinding, name, view))
			return
		}
		s.views = append(s.views, viewArg{name: name, elem: elem, d: d})
	})
}

// describeAny describes v when it is a view of an element type a device
// body can use (or of bool, which it cannot).
func describeAny(v any) (backend.View, elemType, bool) {
	switch x := v.(type) {
	case kokkos.View[float32]:
		return kokkos.Describe(x), elemFloat32, true
	case kokkos.View[float64]:
		return kokkos.Describe(x), elemFloat64, true
	case kokkos.View[int32]:
		return kokkos.Describe(x), elemInt32, true
	case kokkos.View[int64]:
		return kokkos.Describe(x), elemInt64, true
	case kokkos.View[uint32]:
		return kokkos.Describe(x), elemUint32, true
	case kokkos.View[uint64]:
		return kokkos.Describe(x), elemUint64, true
	case kokkos.View[bool]:
		return kokkos.Describe(x), elemBool, true
	}
	return backend.View{}, 0, false
}

// Scalar binds a value to name: the body reads it as a const of its C
// type. x is a float32, float64, int32, int64, uint32, uint64, or an int
// (passed as int64).
func Scalar(name string, x any) Arg {
	return argFunc(func(s *argSet) {
		var a scalarArg
		switch v := x.(type) {
		case float32:
			a = scalarArg{name, elemFloat32, uint64(math.Float32bits(v))}
		case float64:
			a = scalarArg{name, elemFloat64, math.Float64bits(v)}
		case int32:
			a = scalarArg{name, elemInt32, uint64(uint32(v))}
		case int64:
			a = scalarArg{name, elemInt64, uint64(v)}
		case int:
			a = scalarArg{name, elemInt64, uint64(v)}
		case uint32:
			a = scalarArg{name, elemUint32, uint64(v)}
		case uint64:
			a = scalarArg{name, elemUint64, v}
		default:
			s.errs = append(s.errs, fmt.Errorf("%w %q: a scalar of type %T; use float32, float64, int32, int64, uint32, uint64 or int", ErrBinding, name, x))
			return
		}
		s.scalars = append(s.scalars, a)
	})
}

// FMAD sets whether the compiler may fuse a multiply and an add into one
// instruction (NVRTC's --fmad, on by default). Off, floating-point results
// round as the host's Go code does, operation by operation.
func FMAD(on bool) Arg { return argFunc(func(s *argSet) { s.noFMAD = !on }) }

// Helpers returns the option that places src, CUDA C++ source, at file
// scope before the body: __device__ functions, types and constants the
// body calls and uses. It comes after the package's own declarations
// (the gk_i64 and gk_u64 typedefs, the atomic functions, gk_idx) and
// before the views' accessor types and the body's function. Several
// Helpers are placed in the order given. The source is part of the
// kernel's identity: launches with other helpers compile their own
// kernel. Its names must not start with gk_ or __ (the generated code's
// own) nor be one of a binding's names.
func Helpers(src string) Arg {
	return argFunc(func(s *argSet) {
		if s.helpers != "" && !strings.HasSuffix(s.helpers, "\n") {
			s.helpers += "\n"
		}
		s.helpers += src
	})
}

// CheckBounds returns the option that turns on bounds checking for the
// launch: every element access in the body checks its indices against the
// view's extents, and an access outside them is reported as a
// *BoundsError (the view's name, its label, the index and the extents)
// instead of touching memory. The launch then waits for the kernel. It is
// for debugging: it costs time.
func CheckBounds() Arg { return argFunc(func(s *argSet) { s.check = true }) }

// A BoundsError reports an access outside a view's extents in a loop body
// run with CheckBounds. When several accesses fail, one is reported.
type BoundsError struct {
	Kernel  string // the pattern's label
	View    string // the binding's name in the body
	Label   string // the view's label
	Index   []int
	Extents []int
}

// ErrOutOfBounds is matched (errors.Is) by every *BoundsError.
var ErrOutOfBounds = errors.New("cuda: index out of bounds")

func (e *BoundsError) Error() string {
	return fmt.Sprintf("cuda: %q: index %v out of bounds of view %s (label %q) with extents %v", e.Kernel, e.Index, e.View, e.Label, e.Extents)
}

// Is reports whether target is ErrOutOfBounds.
func (e *BoundsError) Is(target error) bool { return target == ErrOutOfBounds }

// deviceOf returns the device ordinal of a space a kernel can reach, or
// ok false for memory the device cannot reach.
func deviceOf(s kokkos.MemorySpace) (int, bool) {
	switch sp := s.(type) {
	case DeviceSpace:
		return sp.Device, true
	case ManagedSpace:
		return sp.Device, true
	case PinnedSpace:
		return sp.Device, true
	}
	return 0, false
}

// collect sorts args out and checks them for pattern label: names, types,
// spaces and liveness. It returns the device ordinal the views live on (-1
// when no view is bound).
func collect(s *argSet, label string, args []Arg) (int, error) {
	for _, a := range args {
		if a == nil {
			return 0, fmt.Errorf("%w: %q: a nil argument", ErrBinding, label)
		}
		a.apply(s)
	}
	if len(s.errs) > 0 {
		return 0, fmt.Errorf("cuda: %q: %w", label, errors.Join(s.errs...))
	}
	dev := -1
	for _, v := range s.views {
		if why := checkName(v.name); why != "" {
			return 0, fmt.Errorf("%w: %q: view %q: %s", ErrBinding, label, v.d.Label, why)
		}
		if s.boundTwice(v.name) {
			return 0, fmt.Errorf("%w: %q: %q is bound twice", ErrBinding, label, v.name)
		}
		if v.d.Owner != nil && v.d.Owner.Released() {
			return 0, fmt.Errorf("%w: %q: view %s (label %q) was released: %w", ErrBinding, label, v.name, v.d.Label, kokkos.ErrReleased)
		}
		o, ok := deviceOf(v.d.Space)
		if !ok {
			return 0, fmt.Errorf("%w: %q: view %s (label %q) is in %s, which the GPU cannot reach; "+
				"make it in cuda.Space (or a mirror there) and DeepCopy the data to it", ErrBinding, label, v.name, v.d.Label, v.d.Space.Name())
		}
		if dev >= 0 && o != dev {
			return 0, fmt.Errorf("%w: %q: view %s (label %q) is on device %d, other views on device %d", ErrBinding, label, v.name, v.d.Label, o, dev)
		}
		dev = o
	}
	for _, sc := range s.scalars {
		if why := checkName(sc.name); why != "" {
			return 0, fmt.Errorf("%w: %q: scalar: %s", ErrBinding, label, why)
		}
		if s.boundTwice(sc.name) {
			return 0, fmt.Errorf("%w: %q: %q is bound twice", ErrBinding, label, sc.name)
		}
	}
	return dev, nil
}

// boundTwice reports whether more than one view or scalar is named name.
func (s *argSet) boundTwice(name string) bool {
	n := 0
	for _, v := range s.views {
		if v.name == name {
			n++
		}
	}
	for _, sc := range s.scalars {
		if sc.name == name {
			n++
		}
	}
	return n > 1
}

// viewSigOf returns the code-generation signature of a bound view.
func viewSigOf(v *viewArg) viewSig {
	s := viewSig{name: v.name, elem: v.elem, rank: v.d.Rank, unit: -1, readOnly: v.d.ReadOnly,
		atomic: v.d.Atomic, restrict: v.d.Restrict}
	// The unit stride folded in: the last dimension, or else the first,
	// when its stride is 1 (as LayoutRight and LayoutLeft store them);
	// every other stride is an argument.
	switch {
	case v.d.Rank == 0:
	case v.d.Strides[v.d.Rank-1] == 1:
		s.unit = v.d.Rank - 1
	case v.d.Strides[0] == 1:
		s.unit = 0
	}
	return s
}

// maxNarrow is the largest index, extent, stride or span for which the
// kernel uses 32-bit index arithmetic.
const maxNarrow = 1 << 30

// fitsNarrow reports whether every view's offsets fit 32-bit indices.
func (s *argSet) fitsNarrow() bool {
	for i := range s.views {
		d := &s.views[i].d
		span := 1
		for r := 0; r < d.Rank; r++ {
			if d.Extents[r] == 0 {
				span = 0
				break
			}
			if d.Extents[r] >= maxNarrow || d.Strides[r] >= maxNarrow {
				return false
			}
			span += (d.Extents[r] - 1) * d.Strides[r]
			if span >= maxNarrow {
				return false
			}
		}
	}
	return true
}

// paramBuf lays out kernel arguments: each at its alignment in buf, with
// ptrs[k] pointing at argument k, as cuLaunchKernel's kernelParams wants.
// Both live outside the Go heap (an anonymous mapping), so the driver may
// read them with no pinning: the memory never moves and holds no Go
// pointers.
type paramBuf struct {
	mem  []byte    // the mapping, for munmap
	buf  []byte    // paramBytes bytes
	ptrs []uintptr // paramSlots pointers
	n    int       // bytes used
	k    int       // arguments written
	over bool
}

const (
	paramBytes = 4096
	paramSlots = 128
)

// newParamBuf maps the memory of a paramBuf. Buffers are pooled; one the
// pool drops is unmapped by a cleanup.
func newParamBuf() paramBuf {
	mem, err := syscall.Mmap(-1, 0, paramBytes+paramSlots*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		panic(fmt.Sprintf("cuda: mapping %d bytes for kernel arguments: %v", paramBytes+paramSlots*8, err))
	}
	return paramBuf{mem: mem, buf: mem[:paramBytes:paramBytes], ptrs: unsafe.Slice((*uintptr)(unsafe.Pointer(&mem[paramBytes])), paramSlots)}
}

func (p *paramBuf) reset() { p.n, p.k, p.over = 0, 0, false }

// arg reserves size bytes aligned to align and returns them.
func (p *paramBuf) arg(size, align int) []byte {
	off := (p.n + align - 1) &^ (align - 1)
	if off+size > len(p.buf) || p.k >= len(p.ptrs)-1 {
		p.over = true
		return make([]byte, size)
	}
	p.ptrs[p.k] = uintptr(unsafe.Pointer(&p.buf[off]))
	p.k++
	p.n = off + size
	return p.buf[off : off+size : off+size]
}

func put64(b []byte, v uint64) { *(*uint64)(unsafe.Pointer(&b[0])) = v }
func put32(b []byte, v uint32) { *(*uint32)(unsafe.Pointer(&b[0])) = v }

// idx writes one index in the kernel's index width.
func (p *paramBuf) idx(wide bool, v int) {
	if wide {
		put64(p.arg(8, 8), uint64(v))
	} else {
		put32(p.arg(4, 4), uint32(int32(v)))
	}
}

// u64 writes a pointer-sized argument.
func (p *paramBuf) u64(v uint64) { put64(p.arg(8, 8), v) }

// i32 writes an int argument.
func (p *paramBuf) i32(v int) { put32(p.arg(4, 4), uint32(int32(v))) }

// view writes a view's accessor struct: pointer, extents, strides and,
// with bounds checking, the report pointer.
func (p *paramBuf) view(v *viewArg, wide bool, rep uintptr) {
	w := 4
	if wide {
		w = 8
	}
	size := 8 + 2*v.d.Rank*w
	if rep != 0 {
		size = (size+7)&^7 + 8
	}
	size = (size + 7) &^ 7
	b := p.arg(size, 8)
	put64(b, uint64(v.d.Addr))
	for r := 0; r < v.d.Rank; r++ {
		for k, x := range [2]int{v.d.Extents[r], v.d.Strides[r]} {
			o := 8 + (k*v.d.Rank+r)*w
			if wide {
				put64(b[o:], uint64(x))
			} else {
				put32(b[o:], uint32(int32(x)))
			}
		}
	}
	if rep != 0 {
		put64(b[size-8:], uint64(rep))
	}
}

// scalars writes the bound scalars.
func (p *paramBuf) scalars(s []scalarArg) {
	for _, a := range s {
		if a.elem.size() == 8 {
			put64(p.arg(8, 8), a.bits)
		} else {
			put32(p.arg(4, 4), uint32(a.bits))
		}
	}
}
