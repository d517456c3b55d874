// Package mpi passes views and dal.Arrays between processes through an MPI
// library, in the manner of kokkos-comm: Send, Recv, Isend and Irecv (with
// Request's Wait and Test, and WaitAll) for views of any kind, rank and
// layout, and the collectives Allreduce, Reduce, Bcast, Gather,
// Allgather, Scatter and Alltoall.
//
// The library, Open MPI or MPICH, is loaded at run time through purego
// (GOKKOS_MPI_LIB, or the first of LibrarySearchPath that loads) and
// recognised from MPI_Get_library_version, so the package needs no cgo and
// no MPI headers. Init asks for MPI_THREAD_MULTIPLE and gives every
// communicator MPI_ERRORS_RETURN: failures come back as errors naming the
// MPI call and the library's error string, and calls before Init or after
// Finalize return ErrNotInitialized.
//
// A view whose elements fill their span goes straight from its memory, in
// the order of that memory; others are packed into a pooled buffer by the
// copy planner that kokkos.DeepCopy uses, first index fastest, as
// kokkos-comm packs them (Comm.WithPackLayout chooses last index fastest).
// Device views are staged through pinned host memory unless the library
// is CUDA-aware. A request dropped before it completes is kept, completed
// and reported (SetDropHandler). Run programs under mpirun:
//
//	mpirun -np 4 ./prog
//
// docs/guide/mpi.md describes the API against kokkos-comm's, the message
// layout, packing, device views and threads.
package mpi
