package mpi

import (
	"fmt"
	"reflect"
	"runtime"

	"github.com/gokkos/kokkos"
)

// Op is a reduction of Allreduce and Reduce.
type Op int

// The predefined reductions. Sum, Prod, Min and Max take integer and
// floating-point elements (Sum and Prod complex ones too); LAnd, LOr and
// LXor take integers and bool (non-zero is true); BAnd, BOr and BXor take
// integers.
const (
	Sum Op = iota
	Prod
	Min
	Max
	LAnd
	LOr
	LXor
	BAnd
	BOr
	BXor
	nOps
)

var opNames = [nOps]string{"Sum", "Prod", "Min", "Max", "LAnd", "LOr", "LXor", "BAnd", "BOr", "BXor"}

func (o Op) String() string {
	if o >= 0 && o < nOps {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// checkOp returns the error of reducing elements of T with o, where MPI
// defines no such reduction.
func checkOp[T any](name string, o Op) error {
	k := kindOf[T]()
	ok := false
	if o >= 0 && o < nOps {
		switch {
		case k == kBytes:
		case k == kBool:
			ok = o == LAnd || o == LOr || o == LXor
		case k == kComplex64 || k == kComplex128:
			ok = o == Sum || o == Prod
		case k == kFloat32 || k == kFloat64:
			ok = o <= Max
		default:
			ok = true
		}
	}
	if !ok {
		return errorf(ErrType, "mpi: %s with %v of elements of type %s: MPI defines no such reduction", name, o, reflect.TypeFor[T]())
	}
	return nil
}

// collective runs one collective call over the prepared buffers and, for
// the receiving buffer, unpacks on success.
func finishColl[T any](name string, code int32, recv *buffer[T], bufs ...*buffer[T]) error {
	for _, b := range bufs {
		if b != nil && b != recv {
			defer b.release()
		}
	}
	if recv != nil {
		defer recv.release()
	}
	if code != 0 {
		return mpiErr(name, code, "")
	}
	if recv != nil {
		return recv.unpack(name, recv.n)
	}
	return nil
}

func ptrOf[T any](b *buffer[T]) uintptr {
	if b == nil {
		return 0
	}
	return b.addr
}

// Allreduce combines the elements of send over every process of c with op,
// element by element, and gives each process the result in recv
// (MPI_Allreduce). send and recv must have the same size; their ranks and
// layouts may differ (elements pair up in each view's message order, see
// Send). Passing the same view as send and recv reduces in place.
func Allreduce[T any](c *Comm, send, recv kokkos.View[T], op Op) error {
	return reduce("Allreduce", c, send, recv, op, -1)
}

// Reduce is Allreduce with the result on rank root only (MPI_Reduce);
// recv is not touched on other ranks and may be nil there.
func Reduce[T any](c *Comm, send, recv kokkos.View[T], op Op, root int) error {
	return reduce("Reduce", c, send, recv, op, root)
}

func reduce[T any](name string, c *Comm, send, recv kokkos.View[T], op Op, root int) error {
	if err := c.check(name); err != nil {
		return err
	}
	if err := checkOp[T](name, op); err != nil {
		return err
	}
	isRoot := root < 0 || c.rank == root
	if isRoot && recv == nil {
		return errorf(ErrShape, "mpi: %s: no recv view on rank %d, which receives the result", name, c.rank)
	}
	inPlace := isRoot && recv != nil && sameView(send, recv)
	var sb, rb *buffer[T]
	var sbuf, rbuf buffer[T]
	if isRoot {
		if err := rbuf.prepare(name, recv, true, false, c.PackLayout()); err != nil {
			return err
		}
		rb = &rbuf
	}
	if inPlace {
		// The result replaces send's elements, which are recv's: pack them
		// into recv's buffer.
		if rb.store != nil {
			if err := rb.pack(); err != nil {
				rb.release()
				return err
			}
		}
	} else {
		if err := sbuf.prepare(name, send, false, false, c.PackLayout()); err != nil {
			if rb != nil {
				rb.release()
			}
			return err
		}
		sb = &sbuf
	}
	n := 0
	if sb != nil {
		n = sb.n
	} else {
		n = rb.n
	}
	if rb != nil && rb.n != n {
		rb.release()
		sb.release()
		return errorf(ErrShape, "mpi: %s: send view %q has %d elements, recv view %q has %d; they must be equal", name, sb.label(), sb.n, rb.label(), rb.n)
	}
	dt, count := datatype[T](n)
	sp := ptrOf(sb)
	if inPlace {
		sp = lib.inPlace
	}
	var code int32
	if root < 0 {
		code = call(lib.fAllreduce, sp, ptrOf(rb), uintptr(count), dt, lib.op[op], c.h)
	} else {
		code = call(lib.fReduce, sp, ptrOf(rb), uintptr(count), dt, lib.op[op], uintptr(int32(root)), c.h)
	}
	runtime.KeepAlive(sb)
	runtime.KeepAlive(rb)
	return finishColl(name, code, rb, sb)
}

// Bcast copies the elements of v on rank root into v on every other rank
// of c (MPI_Bcast). Every rank's v must have the same size.
func Bcast[T any](c *Comm, v kokkos.View[T], root int) error {
	if err := c.check("Bcast"); err != nil {
		return err
	}
	b, err := prepare("Bcast", v, c.rank != root, c.PackLayout())
	if err != nil {
		return err
	}
	dt, count := datatype[T](b.n)
	code := call(lib.fBcast, b.addr, uintptr(count), dt, uintptr(int32(root)), c.h)
	runtime.KeepAlive(b)
	if c.rank == root {
		return finishColl("MPI_Bcast", code, nil, b)
	}
	return finishColl("MPI_Bcast", code, b)
}

// gatherLike runs a collective whose receiving view holds Size() blocks
// of the sending view's size (Gather, Allgather: recv is Size() times
// send; Scatter: send is Size() times recv; Alltoall: both are Size()
// blocks). sendOn and recvOn say whether this rank passes each view.
func gatherLike[T any](name string, c *Comm, send, recv kokkos.View[T], root int, fn uintptr, sendOn, recvOn bool, sendBlocks, recvBlocks int) error {
	if err := c.check(name); err != nil {
		return err
	}
	var sb, rb *buffer[T]
	var err error
	if sendOn && send == nil || recvOn && recv == nil {
		return errorf(ErrShape, "mpi: %s: rank %d passed no view where it sends (%v) or receives (%v)", name, c.rank, sendOn, recvOn)
	}
	if sendOn {
		if sb, err = prepare(name, send, false, c.PackLayout()); err != nil {
			return err
		}
	}
	if recvOn {
		if rb, err = prepare(name, recv, true, c.PackLayout()); err != nil {
			if sb != nil {
				sb.release()
			}
			return err
		}
	}
	block := -1
	if sb != nil {
		if sb.n%sendBlocks != 0 {
			return shapeErr(name, sb, rb, sendBlocks, recvBlocks)
		}
		block = sb.n / sendBlocks
	}
	if rb != nil {
		if rb.n%recvBlocks != 0 || block >= 0 && rb.n/recvBlocks != block {
			return shapeErr(name, sb, rb, sendBlocks, recvBlocks)
		}
		block = rb.n / recvBlocks
	}
	dt, count := datatype[T](block)
	var code int32
	if root >= 0 {
		code = call(fn, ptrOf(sb), uintptr(count), dt, ptrOf(rb), uintptr(count), dt, uintptr(int32(root)), c.h)
	} else {
		code = call(fn, ptrOf(sb), uintptr(count), dt, ptrOf(rb), uintptr(count), dt, c.h)
	}
	runtime.KeepAlive(sb)
	runtime.KeepAlive(rb)
	return finishColl("MPI_"+name, code, rb, sb)
}

func shapeErr[T any](name string, sb, rb *buffer[T], sendBlocks, recvBlocks int) error {
	s, r := -1, -1
	if sb != nil {
		s = sb.n
		sb.release()
	}
	if rb != nil {
		r = rb.n
		rb.release()
	}
	return errorf(ErrShape, "mpi: %s: send view of %d elements and recv view of %d: the send view must be %d block(s) and the recv view %d block(s) of one size", name, s, r, sendBlocks, recvBlocks)
}

// Gather collects the elements of send from every rank of c into recv on
// rank root, rank i's at block i (MPI_Gather): recv holds Size() times
// send's elements, in its message order (see Send). recv may be nil on
// other ranks.
func Gather[T any](c *Comm, send, recv kokkos.View[T], root int) error {
	return gatherLike("Gather", c, send, recv, root, lib0(func(a *abi) uintptr { return a.fGather }), true, c.Rank() == root, 1, c.Size())
}

// Allgather is Gather with the result on every rank (MPI_Allgather).
func Allgather[T any](c *Comm, send, recv kokkos.View[T]) error {
	return gatherLike("Allgather", c, send, recv, -1, lib0(func(a *abi) uintptr { return a.fAllgather }), true, true, 1, c.Size())
}

// Scatter sends block i of send on rank root to rank i's recv
// (MPI_Scatter): send holds Size() times recv's elements. send may be nil
// on other ranks.
func Scatter[T any](c *Comm, send, recv kokkos.View[T], root int) error {
	return gatherLike("Scatter", c, send, recv, root, lib0(func(a *abi) uintptr { return a.fScatter }), c.Rank() == root, true, c.Size(), 1)
}

// Alltoall sends block j of each rank's send to rank j, where it lands in
// block i of recv, i being the sender's rank (MPI_Alltoall). Both views
// hold Size() blocks of one size.
func Alltoall[T any](c *Comm, send, recv kokkos.View[T]) error {
	return gatherLike("Alltoall", c, send, recv, -1, lib0(func(a *abi) uintptr { return a.fAlltoall }), true, true, c.Size(), c.Size())
}

// lib0 reads a function of the loaded library, 0 before Init (where the
// communicator's check fails first).
func lib0(f func(*abi) uintptr) uintptr {
	if lib == nil {
		return 0
	}
	return f(lib)
}

// sameView reports whether a and b are the same elements in the same
// mapping.
func sameView[T any](a, b kokkos.View[T]) bool {
	if _, ok := a.(fastView[T]); ok && a == b { // the same pointer to a view
		return true
	}
	da, db := kokkos.Describe(a), kokkos.Describe(b)
	return da.Host == db.Host && da.Addr == db.Addr && da.Rank == db.Rank &&
		da.Extents == db.Extents && da.Strides == db.Strides && (da.Host != nil || da.Addr != 0)
}
