package backend

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"
)

// This file is the execution half of the contract: what an execution-space
// instance implements to run kernels. Package kernel launches a Go kernel
// (a //kokkos:kernel function) on the instance its policy names: host
// instances run the kernel's generated host code; any other instance must
// be a Launcher, and gets the kernel's description, the policy's index
// space and the bound arguments below. Nothing in package kernel knows
// which backend it talks to.

// MaxRank is the highest rank of a view a backend is handed.
const MaxRank = 8

// MaxShapeRank is the highest rank of a launch's index space.
const MaxShapeRank = 6

// Kind is the type of a scalar argument, of a view's elements or of a
// reduction's value.
type Kind uint8

const (
	KindInvalid Kind = iota
	KindBool
	KindInt8
	KindInt16
	KindInt32
	KindInt64
	KindInt // Go's int: 64 bits on every platform the module supports
	KindUint8
	KindUint16
	KindUint32
	KindUint64
	KindFloat32
	KindFloat64
	// KindStruct is a scalar parameter of a struct type (of numbers and
	// arrays and structs of them), passed as its bytes (Arg.Bytes). KindOf
	// does not give it: package kernel does, for a kernel's parameter.
	KindStruct
)

var kindNames = [...]string{"invalid", "bool", "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "struct"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Size is the size of a value of kind k in bytes (0 for KindInvalid).
func (k Kind) Size() int {
	switch k {
	case KindBool, KindInt8, KindUint8:
		return 1
	case KindInt16, KindUint16:
		return 2
	case KindInt32, KindUint32, KindFloat32:
		return 4
	case KindInt64, KindInt, KindUint64, KindFloat64:
		return 8
	}
	return 0
}

// KindOf returns the kind of values of type t: that of its underlying type
// when it is a bool or a number of a width Kind has, KindInvalid otherwise
// (uint, uintptr, complex types, composites).
func KindOf(t reflect.Type) Kind {
	switch t.Kind() {
	case reflect.Bool:
		return KindBool
	case reflect.Int8:
		return KindInt8
	case reflect.Int16:
		return KindInt16
	case reflect.Int32:
		return KindInt32
	case reflect.Int64:
		return KindInt64
	case reflect.Int:
		return KindInt
	case reflect.Uint8:
		return KindUint8
	case reflect.Uint16:
		return KindUint16
	case reflect.Uint32:
		return KindUint32
	case reflect.Uint64:
		return KindUint64
	case reflect.Float32:
		return KindFloat32
	case reflect.Float64:
		return KindFloat64
	}
	return KindInvalid
}

// An Owner is what keeps a view's memory alive: *kokkos.Allocation.
type Owner interface {
	// Released reports whether the memory is gone (the final Release ran).
	Released() bool
}

// A View is what a backend needs to run code over a view: where its
// elements start, its shape, and what the code may do with them.
// kokkos.Describe returns one.
type View struct {
	// Label is the view's label; Space its memory space; Owner what
	// holds its memory (nil for an unmanaged host view). A backend checks
	// Owner.Released() before it uses Addr or Host: the memory of a
	// released view is gone.
	Label string
	Space MemorySpace
	Owner Owner
	// Addr is the address of the view's origin (the element at index 0 in
	// every dimension) in Space, for memory outside the Go heap; 0 for Go
	// memory, whose elements Host points at instead. Host is the origin
	// for host access, nil where the host cannot access the memory or the
	// view is empty.
	Addr uintptr
	Host unsafe.Pointer
	// Rank, Extents[:Rank] and Strides[:Rank] (in elements) give the
	// shape; Elem is the element's kind (KindInvalid for a type that is
	// not a number or bool) and ElemSize its size in bytes.
	Rank     int
	Extents  [MaxRank]int
	Strides  [MaxRank]int
	Elem     Kind
	ElemSize int
	// ReadOnly forbids writes. Atomic makes every access atomic
	// (kokkos.Atomic); Restrict promises that no other bound view
	// aliases this one (kokkos.Restrict).
	ReadOnly, Atomic, Restrict bool
}

// Pattern is the parallel pattern of a kernel.
type Pattern uint8

const (
	PatternFor    Pattern = iota // once per index
	PatternReduce                // once per index, joining a value
	PatternScan                  // in index order, with a running value
)

func (p Pattern) String() string {
	switch p {
	case PatternFor:
		return "For"
	case PatternReduce:
		return "Reduce"
	case PatternScan:
		return "Scan"
	}
	return fmt.Sprintf("Pattern(%d)", uint8(p))
}

// A Param is a kernel parameter after the indices (and before a
// reduction's accumulator).
type Param struct {
	Name string
	// View says the parameter is a view of Rank dimensions of Elem, which
	// the kernel writes when Write is true; otherwise a scalar of Elem.
	View  bool
	Rank  int
	Elem  Kind
	Write bool
	// Token says the parameter is a unique token (kokkos.UniqueToken):
	// its Arg's Token is bound, the other fields are zero.
	Token bool
	// UMap says the parameter is a containers.UnorderedMap (umap.go): its
	// Arg's UMap is bound; Elem is the key's kind, Value the value's
	// (KindInvalid for a set), Write true.
	UMap  bool
	Value Kind
}

// A Kernel is a Go kernel as a backend sees it: its name, pattern, index
// rank and parameters, and its description, from which a device backend
// builds its own code. Package kernel makes one per kernel, once, and
// passes the same pointer to every launch, so that a backend may key its
// compiled code by it.
type Kernel struct {
	Name    string // package and function: "stream.Triad"
	Pattern Pattern
	Rank    int // the number of indices, 1 to MaxShapeRank
	Params  []Param
	// Acc is the kind of a reduction's or scan's accumulator.
	Acc Kind
	// IR is the kernel's description in the text form of package
	// backend/kernelir; NoDevice says why IR is empty (a construct with no
	// device form), and is what a device backend reports then.
	IR, NoDevice string
	// Team says the kernel is a team kernel (its first parameter a
	// kernel.Team; Rank 0): it is launched over a league of teams,
	// Shape.Team, instead of an index space.
	Team bool
}

// Order is the iteration order of a multidimensional index space.
type Order uint8

const (
	OrderDefault Order = iota // the backend's choice
	OrderLeft                 // the first index runs fastest
	OrderRight                // the last index runs fastest
)

// A Shape is the index space of a launch: Lower[d] <= i_d < Upper[d] for
// d < Rank. A RangePolicy is rank 1 (Chunk its chunk size, 0 for the
// backend's choice); an MDRangePolicy is rank 2 to MaxShapeRank, with Tile
// its tile sizes (0 for the backend's choice) and Inner the order within a
// tile.
//
// A team launch (Kernel.Team) has Rank 0 and its league in Team.
type Shape struct {
	Rank         int
	Lower, Upper [MaxShapeRank]int
	Tile         [MaxShapeRank]int
	Inner        Order
	Chunk        int
	Team         TeamShape
}

// TeamAuto, as a TeamShape's Size or Vector, leaves the choice to the
// backend (kokkos.Auto).
const TeamAuto = -1

// A TeamShape is the league of a team launch, a kokkos.TeamPolicy: League
// teams of Size threads (or TeamAuto) of Vector lanes each (or TeamAuto),
// and the scratch memory the kernel's scratch pads hold, in bytes:
// Scratch[level][0] per team and Scratch[level][1] per thread, for levels
// 0 and 1.
type TeamShape struct {
	League, Size, Vector int
	Scratch              [2][2]int
}

// Count is the number of indices of s.
func (s *Shape) Count() int {
	n := 1
	for d := 0; d < s.Rank; d++ {
		n *= s.Upper[d] - s.Lower[d]
	}
	return n
}

// An Arg is one bound argument of a launch, in the order of the kernel's
// Params: a view (View, described once by package kernel) or a scalar
// (Bits, the value's bits as Kind says: an integer sign-extended or
// zero-extended to 64 bits, a float32's bits in the low half, a bool as 0
// or 1), or a struct (KindStruct: Bytes, the value's bytes in memory,
// which C lays out as Go does: see kernelir.Layout).
type Arg struct {
	View  *View
	Kind  Kind
	Bits  uint64
	Bytes []byte // a struct's bytes, in C's layout (Kind is KindStruct)
	// Token is the argument of a token parameter (Param.Token).
	Token Token
	// UMap is the argument of a map parameter (Param.UMap).
	UMap *UMap
}

// A Token is a unique token bound to a launch: a kokkos.UniqueToken made
// for the launch's instance (package kernel checks that). A device
// backend keeps its ids in memory of its own, Size of them, for the
// kernel to acquire and release; a backend that runs the kernel on the
// host calls Acquire and Release.
type Token interface {
	Size() int
	Acquire() int
	Release(id int)
}

// ReduceOp is a built-in reduction: how contributions join.
type ReduceOp uint8

const (
	ReduceSum  ReduceOp = iota + 1 // +, identity 0
	ReduceProd                     // ×, identity 1
	ReduceMin                      // least value (Go's min: NaN wins), identity the greatest
	ReduceMax                      // greatest value, identity the least
	ReduceLAnd                     // logical and of bools, identity true
	ReduceLOr                      // logical or of bools, identity false
	ReduceBAnd                     // bitwise and of integers, identity all ones
	ReduceBOr                      // bitwise or of integers, identity 0
)

var reduceNames = [...]string{"", "Sum", "Prod", "Min", "Max", "LAnd", "LOr", "BAnd", "BOr"}

func (r ReduceOp) String() string {
	if r > 0 && int(r) < len(reduceNames) {
		return reduceNames[r]
	}
	return fmt.Sprintf("ReduceOp(%d)", uint8(r))
}

// A Reduction is the reducer of a Reduce or Scan launch, as a typed
// value: the join and the kind of the values it joins.
type Reduction struct {
	Op   ReduceOp
	Kind Kind
}

// A Launch is one launch of a kernel: its label (for errors and
// profiling), the kernel, the index space and the bound arguments. Check
// asks a device backend to check every view access against the view's
// extents and report the first access outside them as an error (host
// kernels always check); it may cost the backend a wait for the kernel.
type Launch struct {
	Label  string
	Kernel *Kernel
	Shape  Shape
	Args   []Arg
	Check  bool
}

// A Launcher is an execution-space instance that runs kernels: a device
// stream, or any instance that is not a host instance of package kokkos.
// Package kernel hands it every launch whose policy names it.
//
// A Launcher must implement For, Reduce and Scan for every kernel that has
// a description (Kernel.IR), and may refuse the rest; it returns an error
// for what it cannot run (a pattern, a rank, a kind or a space it does not
// handle), wrapping ErrUnsupported when the refusal is about the backend's
// reach rather than the arguments. It must check each view's Space and
// Owner (a released view is an error wrapping ErrReleased), and must not
// write a view that is ReadOnly or whose Param has Write false.
//
// A Launcher must not keep l, its Args or their Views after the call
// returns: the caller reuses their memory. What queued work needs of them
// it copies.
//
// For queues the kernel once per index of the shape and may return before
// it has run: the instance's Fence waits for it, and the memory of the
// views must stay allocated until then (the caller holds it). Reduce and
// Scan return the join by r of every index's contribution (Scan: the
// total, after writing the views in index order) as bits of r.Kind, as
// Arg.Bits holds a scalar; they wait for the result. For integers the
// result must not depend on the instance's concurrency; for floating
// point, a backend documents its order of joins.
type Launcher interface {
	Exec
	For(l *Launch) error
	Reduce(l *Launch, r Reduction) (uint64, error)
	Scan(l *Launch, r Reduction) (uint64, error)
}

// ErrUnsupported is wrapped by the error of a Launcher for work it cannot
// run at all (a pattern, a kind, a rank it does not implement).
var ErrUnsupported = errors.New("backend: not supported")

// A DeviceMemory is a memory space of an accelerator. Platform names the
// device API whose addresses its memory has ("cuda"), for libraries that
// take such addresses directly (a CUDA-aware MPI); Staging returns the
// host-accessible space through which its data passes fastest to and
// from the host (pinned memory of the same device), or nil for Go memory.
type DeviceMemory interface {
	MemorySpace
	Platform() string
	Staging() MemorySpace
}
