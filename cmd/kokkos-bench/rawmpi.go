package main

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gokkos/kokkos/mpi"
)

// The baselines of the mpi suite call the MPI library directly, through
// this loader of the benchmark's own, with nothing of package mpi on the
// way: the library file package mpi loaded (mpi.Library, after mpi.Init),
// on plain memory and MPI_COMM_WORLD.

// rawMPI is the MPI library's functions and predefined handles. Open
// MPI's handles are addresses of global objects in libmpi.so, MPICH's
// fixed integers of its ABI (mpi.h).
type rawMPI struct {
	world, byteType, double, sum uintptr

	send, recv, allreduce, typeVector, typeCommit, typeFree uintptr
}

// openRawMPI binds the library package mpi loaded; call it after mpi.Init.
func openRawMPI() (*rawMPI, error) {
	impl, path, _ := mpi.Library()
	if path == "" {
		return nil, fmt.Errorf("baseline: MPI is not initialised")
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("baseline: %s: %w", path, err)
	}
	m := &rawMPI{}
	syms := []symbol{
		{"MPI_Send", &m.send}, {"MPI_Recv", &m.recv}, {"MPI_Allreduce", &m.allreduce},
		{"MPI_Type_vector", &m.typeVector}, {"MPI_Type_commit", &m.typeCommit}, {"MPI_Type_free", &m.typeFree},
	}
	switch impl {
	case mpi.OpenMPI:
		syms = append(syms, symbol{"ompi_mpi_comm_world", &m.world}, symbol{"ompi_mpi_byte", &m.byteType},
			symbol{"ompi_mpi_double", &m.double}, symbol{"ompi_mpi_op_sum", &m.sum})
	case mpi.MPICH:
		m.world, m.byteType, m.double, m.sum = 0x44000000, 0x4c00010d, 0x4c00080b, 0x58000003
	default:
		return nil, fmt.Errorf("baseline: MPI implementation %q is neither Open MPI nor MPICH", impl)
	}
	if err := bindSymbols(path, h, syms); err != nil {
		return nil, err
	}
	return m, nil
}

// mpiStatus is room for an MPI_Status of either implementation (24 bytes
// in Open MPI, 20 in MPICH), in heap memory.
type mpiStatus [32]byte

//go:uintptrescapes
func mpiCall(name string, fn uintptr, args ...uintptr) error {
	if r, _, _ := purego.SyscallN(fn, args...); int32(r) != 0 {
		return fmt.Errorf("baseline: %s failed with MPI error code %d", name, int32(r))
	}
	return nil
}

// sendBytes and recvBytes are MPI_Send and MPI_Recv of n bytes (MPI_BYTE)
// at p.
func (m *rawMPI) sendBytes(p unsafe.Pointer, n, dest, tag int) error {
	return mpiCall("MPI_Send", m.send, uintptr(p), uintptr(n), m.byteType, uintptr(dest), uintptr(tag), m.world)
}

func (m *rawMPI) recvBytes(p unsafe.Pointer, n, src, tag int, st *mpiStatus) error {
	return mpiCall("MPI_Recv", m.recv, uintptr(p), uintptr(n), m.byteType, uintptr(src), uintptr(tag), m.world, uintptr(unsafe.Pointer(st)))
}

// vector creates and commits MPI_Type_vector(count, 1, stride,
// MPI_DOUBLE); free frees it.
func (m *rawMPI) vector(count, stride int) (uintptr, error) {
	t := new(uintptr)
	if err := mpiCall("MPI_Type_vector", m.typeVector, uintptr(count), 1, uintptr(stride), m.double, uintptr(unsafe.Pointer(t))); err != nil {
		return 0, err
	}
	if err := mpiCall("MPI_Type_commit", m.typeCommit, uintptr(unsafe.Pointer(t))); err != nil {
		return 0, err
	}
	return *t, nil
}

func (m *rawMPI) free(t uintptr) {
	p := &t
	_ = mpiCall("MPI_Type_free", m.typeFree, uintptr(unsafe.Pointer(p)))
}

// sendVector and recvVector move count float64 elements stride elements
// apart from p, described by a derived datatype (MPI_Type_vector of
// MPI_DOUBLE, created and freed each call), the alternative to packing
// non-contiguous views.
func (m *rawMPI) sendVector(p unsafe.Pointer, count, stride, dest, tag int) error {
	t, err := m.vector(count, stride)
	if err != nil {
		return err
	}
	defer m.free(t)
	return mpiCall("MPI_Send", m.send, uintptr(p), 1, t, uintptr(dest), uintptr(tag), m.world)
}

func (m *rawMPI) recvVector(p unsafe.Pointer, count, stride, src, tag int, st *mpiStatus) error {
	t, err := m.vector(count, stride)
	if err != nil {
		return err
	}
	defer m.free(t)
	return mpiCall("MPI_Recv", m.recv, uintptr(p), 1, t, uintptr(src), uintptr(tag), m.world, uintptr(unsafe.Pointer(st)))
}

// allreduceSum is MPI_Allreduce of one float64 with MPI_SUM.
func (m *rawMPI) allreduceSum(in, out *float64) error {
	return mpiCall("MPI_Allreduce", m.allreduce, uintptr(unsafe.Pointer(in)), uintptr(unsafe.Pointer(out)), 1, m.double, m.sum, m.world)
}
