package mpi

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// AnySource and AnyTag, passed to Recv or Irecv, match a message from any
// rank, or with any tag.
const (
	AnySource = -1 << 20
	AnyTag    = -1 << 21
)

// Status describes a received message.
type Status struct {
	Source, Tag int
	Count       int // elements received
}

func (c *Comm) source(src int) uintptr {
	if src == AnySource {
		return uintptr(lib.anySource)
	}
	return uintptr(int32(src))
}

func tagArg(tag int) uintptr {
	if tag == AnyTag {
		return uintptr(lib.anyTag)
	}
	return uintptr(int32(tag))
}

// Send sends the elements of v to rank dest of c, with tag tag (MPI_Send),
// and returns when v may be reused. v may be a view of any rank, layout and
// kind (View0..View8, OffsetView, DynRankView), read-only or not, but
// neither of elements that hold Go pointers nor with the Atomic trait
// (errors wrapping ErrType). Its elements travel as kokkos-comm sends
// them: a view whose elements fill their span goes from its own memory,
// in the order of that memory (first index fastest for LayoutLeft, last
// index fastest for LayoutRight); any other is packed first, by the copy
// planner of DeepCopy, first index fastest (c.PackLayout(); see
// WithPackLayout). Device views are staged through pinned host memory
// unless the library is CUDA-aware.
func Send[T any](c *Comm, v kokkos.View[T], dest, tag int) error {
	if err := c.check("Send"); err != nil {
		return err
	}
	if serial {
		o := &sendOp[T]{c: c, dest: dest, tag: tag}
		if err := o.b.prepare("Send", v, false, true, c.PackLayout()); err != nil {
			return err
		}
		r, err := isend(o, "MPI_Send")
		if err != nil {
			return err
		}
		_, err = r.Wait()
		return err
	}
	var b buffer[T]
	if err := b.prepare("Send", v, false, false, c.PackLayout()); err != nil {
		return err
	}
	dt, count := datatype[T](b.n)
	code := call(lib.fSend, b.addr, uintptr(count), dt, uintptr(int32(dest)), uintptr(int32(tag)), c.h)
	runtime.KeepAlive(v)
	b.release()
	if code != 0 {
		return mpiErr("MPI_Send", code, "view %q of %d elements to rank %d of %s, tag %d", b.label(), b.n, dest, c.name, tag)
	}
	return nil
}

// Recv receives a message from rank src of c (or AnySource) with tag tag
// (or AnyTag) into v (MPI_Recv). A message larger than v is an error
// wrapping ErrTruncate, and one that is not a whole number of v's elements
// an error wrapping ErrType; both name the two sizes. A contiguous v may
// receive fewer elements than it holds (Status.Count says how many); a
// packed one must receive exactly its size.
func Recv[T any](c *Comm, v kokkos.View[T], src, tag int) (Status, error) {
	if err := c.check("Recv"); err != nil {
		return Status{}, err
	}
	if serial {
		o := &recvOp[T]{c: c, src: src, tag: tag}
		if err := o.b.prepare("Recv", v, true, true, c.PackLayout()); err != nil {
			return Status{}, err
		}
		r, err := irecv(o, "MPI_Recv")
		if err != nil {
			return Status{}, err
		}
		return r.Wait()
	}
	var b buffer[T]
	if err := b.prepare("Recv", v, true, false, c.PackLayout()); err != nil {
		return Status{}, err
	}
	st := statusPool.Get().(*[32]byte)
	dt, count := datatype[T](b.n)
	code := call(lib.fRecv, b.addr, uintptr(count), dt, c.source(src), tagArg(tag), c.h, uintptr(unsafe.Pointer(&st[0])))
	runtime.KeepAlive(v)
	status, bytes := readStatus(code, st)
	statusPool.Put(st)
	n, err := recvDone(c, &b, "MPI_Recv", src, tag, code, bytes, status.Source)
	status.Count = n
	return status, err
}

// statusPool holds the MPI_Status buffers of blocking receives, on the
// heap, where the library may write them (see call).
var statusPool = sync.Pool{New: func() any { return new([32]byte) }}

// readStatus returns the source and tag of a status, and the bytes
// received where the call succeeded or truncated.
func readStatus(code int32, st *[32]byte) (Status, int) {
	s := Status{
		Source: int(*(*int32)(unsafe.Pointer(&st[lib.srcOff]))),
		Tag:    int(*(*int32)(unsafe.Pointer(&st[lib.tagOff]))),
	}
	// The byte count, read as MPI_Get_count(status, MPI_BYTE) would: Open
	// MPI's size_t _ucount at offset 16; MPICH's count_lo and the high
	// bits of count_hi_and_cancelled (above the cancel bit) at 0 and 4.
	bytes := 0
	if lib.impl == OpenMPI {
		bytes = int(*(*uint64)(unsafe.Pointer(&st[16])))
	} else {
		lo := *(*uint32)(unsafe.Pointer(&st[0]))
		hi := *(*uint32)(unsafe.Pointer(&st[4])) >> 1
		bytes = int(uint64(hi)<<32 | uint64(lo))
	}
	return s, bytes
}

// recvDone checks a completed receive into b of the given bytes, unpacks
// it and releases b; it returns the number of elements received.
func recvDone[T any](c *Comm, b *buffer[T], name string, src, tag int, code int32, bytes, from int) (int, error) {
	defer b.release()
	var z T
	size := int(unsafe.Sizeof(z))
	if code != 0 && errClass(code) == int32(lib.errTruncate) {
		// An *Error, which matches both ErrMPI and ErrTruncate.
		return 0, mpiErr(name, code, "from %s of %s, tag %d: the message is larger than view %q of %d elements (%d bytes); receive into a view as large as the message",
			peerName(src), c.name, tag, b.label(), b.n, b.n*size)
	}
	if code != 0 {
		return 0, mpiErr(name, code, "into view %q of %d elements from %s of %s, tag %d", b.label(), b.n, peerName(src), c.name, tag)
	}
	if size > 0 && bytes%size != 0 {
		return 0, errorf(ErrType, "mpi: %s into view %q of %d elements of %d bytes: the message from rank %d holds %d bytes, not a whole number of elements; sender and receiver must use the same element type",
			name, b.label(), b.n, size, from, bytes)
	}
	got := 0
	if size > 0 {
		got = bytes / size
	}
	return got, b.unpack(name, got)
}

// Isend starts sending v to rank dest of c (MPI_Isend); see Send for what
// travels. v's memory is held until the request completes.
func Isend[T any](c *Comm, v kokkos.View[T], dest, tag int) (*Request, error) {
	if err := c.check("Isend"); err != nil {
		return nil, err
	}
	o := &sendOp[T]{c: c, dest: dest, tag: tag}
	if err := o.b.prepare("Isend", v, false, true, c.PackLayout()); err != nil {
		return nil, err
	}
	return isend(o, "MPI_Isend")
}

// sendOp is the part of a send request that knows its element type: the
// message's buffer, its destination and tag.
type sendOp[T any] struct {
	b         buffer[T]
	c         *Comm
	dest, tag int
}

func (o *sendOp[T]) finish(s *reqState, code int32, _ int) (int, error) {
	o.b.release()
	if code != 0 {
		return 0, mpiErr(s.call, code, "%s", o.describe())
	}
	return o.b.n, nil
}

func (o *sendOp[T]) abandon() { o.b.release() }

func (o *sendOp[T]) describe() string {
	return fmt.Sprintf("view %q of %d elements to rank %d of %s, tag %d", o.b.label(), o.b.n, o.dest, o.c.name, o.tag)
}

// isend starts the send of o's prepared buffer.
func isend[T any](o *sendOp[T], name string) (*Request, error) {
	s := newRequest(name, false, o, o.b.ptr)
	dt, count := datatype[T](o.b.n)
	if code := call(lib.fIsend, o.b.addr, uintptr(count), dt, uintptr(int32(o.dest)), uintptr(int32(o.tag)), o.c.h, uintptr(unsafe.Pointer(&s.h))); code != 0 {
		s.complete(code)
		return nil, s.err
	}
	return s.start(), nil
}

// Irecv starts receiving a message from rank src of c with tag tag into v
// (MPI_Irecv); see Recv for the rules. v's elements hold the message once
// the request completes.
func Irecv[T any](c *Comm, v kokkos.View[T], src, tag int) (*Request, error) {
	if err := c.check("Irecv"); err != nil {
		return nil, err
	}
	o := &recvOp[T]{c: c, src: src, tag: tag}
	if err := o.b.prepare("Irecv", v, true, true, c.PackLayout()); err != nil {
		return nil, err
	}
	return irecv(o, "MPI_Irecv")
}

// recvOp is the part of a receive request that knows its element type:
// the message's buffer, its source and tag.
type recvOp[T any] struct {
	b        buffer[T]
	c        *Comm
	src, tag int
}

func (o *recvOp[T]) finish(s *reqState, code int32, bytes int) (int, error) {
	return recvDone(o.c, &o.b, s.call, o.src, o.tag, code, bytes, s.status.Source)
}

func (o *recvOp[T]) abandon() { o.b.release() }

func (o *recvOp[T]) describe() string {
	return fmt.Sprintf("view %q of %d elements from %s of %s, tag %d", o.b.label(), o.b.n, peerName(o.src), o.c.name, o.tag)
}

// peerName names the source of a receive: "rank 3", or "any rank".
func peerName(src int) string {
	if src == AnySource {
		return "any rank"
	}
	return fmt.Sprint("rank ", src)
}

// irecv starts the receive into o's prepared buffer.
func irecv[T any](o *recvOp[T], name string) (*Request, error) {
	s := newRequest(name, true, o, o.b.ptr)
	dt, count := datatype[T](o.b.n)
	if code := call(lib.fIrecv, o.b.addr, uintptr(count), dt, o.c.source(o.src), tagArg(o.tag), o.c.h, uintptr(unsafe.Pointer(&s.h))); code != 0 {
		s.complete(code)
		return nil, s.err
	}
	return s.start(), nil
}

// SendArray sends the elements of a (see Send).
func SendArray[T any](c *Comm, a dal.Array[T], dest, tag int) error {
	v, err := a.View()
	if err != nil {
		return err
	}
	defer v.Release()
	return Send[T](c, &v, dest, tag)
}

// RecvArray receives into the elements of a, which must have mutable data
// (see Recv).
func RecvArray[T any](c *Comm, a dal.Array[T], src, tag int) (Status, error) {
	v, err := a.View()
	if err != nil {
		return Status{}, err
	}
	defer v.Release()
	return Recv[T](c, &v, src, tag)
}

// IsendArray starts sending the elements of a (see Isend); a's block is
// held until the request completes.
func IsendArray[T any](c *Comm, a dal.Array[T], dest, tag int) (*Request, error) {
	v, err := a.View()
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return Isend[T](c, &v, dest, tag)
}

// IrecvArray starts receiving into the elements of a (see Irecv).
func IrecvArray[T any](c *Comm, a dal.Array[T], src, tag int) (*Request, error) {
	v, err := a.View()
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return Irecv[T](c, &v, src, tag)
}
