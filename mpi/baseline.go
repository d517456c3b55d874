package mpi

import (
	"unsafe"

	"github.com/gokkos/kokkos/internal/mpibaseline"
)

// setBaselines gives package mpibaseline the library's own calls.
func setBaselines() {
	mpibaseline.Send = func(p unsafe.Pointer, n, dest, tag int) error {
		if r := call(lib.fSend, uintptr(p), uintptr(n), lib.dtByte, uintptr(dest), uintptr(tag), lib.commWorld); r != 0 {
			return mpiErr("MPI_Send", r, "")
		}
		return nil
	}
	mpibaseline.Recv = func(p unsafe.Pointer, n, src, tag int) error {
		st := statusPool.Get().(*[32]byte)
		defer statusPool.Put(st)
		if r := call(lib.fRecv, uintptr(p), uintptr(n), lib.dtByte, uintptr(src), uintptr(tag), lib.commWorld, uintptr(unsafe.Pointer(&st[0]))); r != 0 {
			return mpiErr("MPI_Recv", r, "")
		}
		return nil
	}
	vector := func(count, stride int) (uintptr, error) {
		var t uintptr
		if r := call(lib.fTypeVector, uintptr(count), 1, uintptr(stride), lib.dt[kFloat64], uintptr(unsafe.Pointer(&t))); r != 0 {
			return 0, mpiErr("MPI_Type_vector", r, "")
		}
		if r := call(lib.fTypeCommit, uintptr(unsafe.Pointer(&t))); r != 0 {
			return 0, mpiErr("MPI_Type_commit", r, "")
		}
		return t, nil
	}
	free := func(t uintptr) { call(lib.fTypeFree, uintptr(unsafe.Pointer(&t))) }
	mpibaseline.SendVector = func(p unsafe.Pointer, count, stride, dest, tag int) error {
		t, err := vector(count, stride)
		if err != nil {
			return err
		}
		defer free(t)
		if r := call(lib.fSend, uintptr(p), 1, t, uintptr(dest), uintptr(tag), lib.commWorld); r != 0 {
			return mpiErr("MPI_Send", r, "")
		}
		return nil
	}
	mpibaseline.RecvVector = func(p unsafe.Pointer, count, stride, src, tag int) error {
		t, err := vector(count, stride)
		if err != nil {
			return err
		}
		defer free(t)
		st := statusPool.Get().(*[32]byte)
		defer statusPool.Put(st)
		if r := call(lib.fRecv, uintptr(p), 1, t, uintptr(src), uintptr(tag), lib.commWorld, uintptr(unsafe.Pointer(&st[0]))); r != 0 {
			return mpiErr("MPI_Recv", r, "")
		}
		return nil
	}
	mpibaseline.Allreduce = func(in, out *float64) error {
		if r := call(lib.fAllreduce, uintptr(unsafe.Pointer(in)), uintptr(unsafe.Pointer(out)), 1, lib.dt[kFloat64], lib.op[Sum], lib.commWorld); r != 0 {
			return mpiErr("MPI_Allreduce", r, "")
		}
		return nil
	}
}
