// Package mpibaseline gives the benchmark command the MPI library's own
// calls on plain memory of MPI_COMM_WORLD, which package mpi measures its
// own against, without putting them in mpi's public API. Package mpi sets
// the functions in Init; a program that uses them imports mpi too.
package mpibaseline

import "unsafe"

var (
	// Send and Recv are MPI_Send and MPI_Recv of n bytes (MPI_BYTE) at p,
	// nothing of package mpi on the way.
	Send func(p unsafe.Pointer, n, dest, tag int) error
	Recv func(p unsafe.Pointer, n, src, tag int) error
	// SendVector and RecvVector move count float64 elements stride
	// elements apart from p, described by a derived datatype
	// (MPI_Type_vector of MPI_DOUBLE, created and freed each call), the
	// alternative to packing non-contiguous views.
	SendVector func(p unsafe.Pointer, count, stride, dest, tag int) error
	RecvVector func(p unsafe.Pointer, count, stride, src, tag int) error
	// Allreduce is MPI_Allreduce of one float64 with MPI_SUM.
	Allreduce func(in, out *float64) error
)
