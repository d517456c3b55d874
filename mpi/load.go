package mpi

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// EnvLibrary names the environment variable that chooses the MPI library:
// a path or soname of libmpi.so (Open MPI) or libmpich.so (MPICH). When it
// is unset, Init tries the libraries of LibrarySearchPath, the one that
// matches the launcher first (Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE,
// MPICH's Hydra sets PMI_RANK).
const EnvLibrary = "GOKKOS_MPI_LIB"

// LibrarySearchPath lists the libraries tried, in order, when EnvLibrary is
// unset.
var LibrarySearchPath = []string{"libmpi.so.40", "libmpich.so.12", "libmpi.so", "libmpich.so"}

// Implementations the package drives.
const (
	OpenMPI = "Open MPI"
	MPICH   = "MPICH"
)

// abi is one loaded library: its functions and the values of its
// predefined handles. Open MPI's handles are addresses of global objects
// in libmpi.so; MPICH's are fixed integers of its stable ABI. Handles are
// kept as uintptr either way; MPICH's are 32-bit, stored zero-extended.
type abi struct {
	path, impl, version string
	handle              uintptr
	handleSize          int // bytes of an MPI_Comm, MPI_Request, MPI_Datatype

	// status layout: size in bytes and offsets of MPI_SOURCE, MPI_TAG.
	statusSize, srcOff, tagOff int
	errTruncate                int
	anySource, anyTag          int
	inPlace                    uintptr

	commWorld, commNull, errorsReturn, requestNull, datatypeNull uintptr
	dtByte                                                       uintptr
	dt                                                           [nKinds]uintptr
	op                                                           [nOps]uintptr

	fInitThread, fFinalize, fInitialized, fFinalized, fQueryThread  uintptr
	fCommRank, fCommSize, fCommSplit, fCommDup, fCommFree, fSetErrh uintptr
	fBarrier, fSend, fRecv, fIsend, fIrecv, fWait, fTest, fGetCount uintptr
	fErrorString, fAllreduce, fReduce, fBcast, fGather, fAllgather  uintptr
	fScatter, fAlltoall, fLibVersion, fAbort, fWtime, fTypeVector   uintptr
	fTypeCommit, fTypeFree, fRequestFree, fErrorClass               uintptr
	fCancel, fTestCancelled                                         uintptr
	cudaAware                                                       bool
}

// element kinds with a predefined MPI datatype.
const (
	kInt8 = iota
	kInt16
	kInt32
	kInt64
	kUint8
	kUint16
	kUint32
	kUint64
	kFloat32
	kFloat64
	kComplex64
	kComplex128
	kBool
	nKinds
	kBytes = -1 // no predefined type: sent as MPI_BYTE
)

var ompiTypeSyms = [nKinds]string{
	"ompi_mpi_int8_t", "ompi_mpi_int16_t", "ompi_mpi_int32_t", "ompi_mpi_int64_t",
	"ompi_mpi_uint8_t", "ompi_mpi_uint16_t", "ompi_mpi_uint32_t", "ompi_mpi_uint64_t",
	"ompi_mpi_float", "ompi_mpi_double", "ompi_mpi_c_float_complex", "ompi_mpi_c_double_complex",
	"ompi_mpi_c_bool",
}

// MPICH's datatype handles: 0x4c000000 | size<<8 | index (mpi.h).
var mpichTypes = [nKinds]uintptr{
	0x4c000137, 0x4c000238, 0x4c000439, 0x4c00083a,
	0x4c00013b, 0x4c00023c, 0x4c00043d, 0x4c00083e,
	0x4c00040a, 0x4c00080b, 0x4c000840, 0x4c001041,
	0x4c00013f,
}

var ompiOpSyms = [nOps]string{
	"ompi_mpi_op_sum", "ompi_mpi_op_prod", "ompi_mpi_op_min", "ompi_mpi_op_max",
	"ompi_mpi_op_land", "ompi_mpi_op_lor", "ompi_mpi_op_lxor",
	"ompi_mpi_op_band", "ompi_mpi_op_bor", "ompi_mpi_op_bxor",
}

var mpichOps = [nOps]uintptr{
	0x58000003, 0x58000004, 0x58000002, 0x58000001,
	0x58000005, 0x58000007, 0x58000009,
	0x58000006, 0x58000008, 0x5800000a,
}

func (a *abi) symbols() []struct {
	name string
	p    *uintptr
} {
	return []struct {
		name string
		p    *uintptr
	}{
		{"MPI_Init_thread", &a.fInitThread}, {"MPI_Finalize", &a.fFinalize},
		{"MPI_Initialized", &a.fInitialized}, {"MPI_Finalized", &a.fFinalized},
		{"MPI_Query_thread", &a.fQueryThread},
		{"MPI_Comm_rank", &a.fCommRank}, {"MPI_Comm_size", &a.fCommSize},
		{"MPI_Comm_split", &a.fCommSplit}, {"MPI_Comm_dup", &a.fCommDup},
		{"MPI_Comm_free", &a.fCommFree}, {"MPI_Comm_set_errhandler", &a.fSetErrh},
		{"MPI_Barrier", &a.fBarrier}, {"MPI_Send", &a.fSend}, {"MPI_Recv", &a.fRecv},
		{"MPI_Isend", &a.fIsend}, {"MPI_Irecv", &a.fIrecv}, {"MPI_Wait", &a.fWait},
		{"MPI_Test", &a.fTest}, {"MPI_Get_count", &a.fGetCount},
		{"MPI_Error_string", &a.fErrorString}, {"MPI_Allreduce", &a.fAllreduce},
		{"MPI_Reduce", &a.fReduce}, {"MPI_Bcast", &a.fBcast}, {"MPI_Gather", &a.fGather},
		{"MPI_Allgather", &a.fAllgather}, {"MPI_Scatter", &a.fScatter},
		{"MPI_Alltoall", &a.fAlltoall}, {"MPI_Get_library_version", &a.fLibVersion},
		{"MPI_Abort", &a.fAbort}, {"MPI_Wtime", &a.fWtime},
		{"MPI_Type_vector", &a.fTypeVector}, {"MPI_Type_commit", &a.fTypeCommit},
		{"MPI_Type_free", &a.fTypeFree}, {"MPI_Request_free", &a.fRequestFree},
		{"MPI_Error_class", &a.fErrorClass}, {"MPI_Cancel", &a.fCancel},
		{"MPI_Test_cancelled", &a.fTestCancelled},
	}
}

// openLibrary loads the MPI library EnvLibrary names, or the first of
// LibrarySearchPath that loads, and fills in its ABI.
func openLibrary() (*abi, error) {
	paths := LibrarySearchPath
	if p := os.Getenv(EnvLibrary); p != "" {
		paths = []string{p}
	} else if os.Getenv("PMI_RANK") != "" && os.Getenv("OMPI_COMM_WORLD_SIZE") == "" {
		paths = []string{"libmpich.so.12", "libmpich.so", "libmpi.so.40", "libmpi.so"}
	}
	var tried []string
	for _, p := range paths {
		h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s (%v)", p, err))
			continue
		}
		a, err := newABI(p, h)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, errorf(ErrNoLibrary, "mpi: no MPI library found (install Open MPI or MPICH, or set %s to the path of libmpi.so or libmpich.so); tried %s", EnvLibrary, strings.Join(tried, "; "))
}

func newABI(path string, h uintptr) (*abi, error) {
	a := &abi{path: path, handle: h}
	for _, s := range a.symbols() {
		f, err := purego.Dlsym(h, s.name)
		if err != nil || f == 0 {
			return nil, errorf(ErrNoLibrary, "mpi: %s lacks %s: not an MPI library of version 3 or later", path, s.name)
		}
		*s.p = f
	}
	// MPI_Get_library_version may be called before MPI_Init.
	buf := make([]byte, 8192)
	var n int32
	purego.SyscallN(a.fLibVersion, uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&n)))
	a.version = strings.TrimSpace(strings.TrimRight(string(buf[:max(0, min(int(n), len(buf)))]), "\x00"))
	switch {
	case strings.Contains(a.version, "Open MPI"):
		return a, a.openMPI()
	case strings.Contains(a.version, "MPICH"):
		a.mpich()
		return a, nil
	}
	return nil, errorf(ErrNoLibrary, "mpi: %s is neither Open MPI nor MPICH (MPI_Get_library_version says %q); set %s to one of those", path, a.version, EnvLibrary)
}

func (a *abi) openMPI() error {
	a.impl = OpenMPI
	a.handleSize = 8
	// struct ompi_status_public_t { int MPI_SOURCE, MPI_TAG, MPI_ERROR; int _cancelled; size_t _ucount; }
	a.statusSize, a.srcOff, a.tagOff = 24, 0, 4
	a.errTruncate = 15
	a.anySource, a.anyTag = -1, -1
	a.inPlace = 1
	sym := func(name string) (uintptr, error) {
		p, err := purego.Dlsym(a.handle, name)
		if err != nil || p == 0 {
			return 0, errorf(ErrNoLibrary, "mpi: Open MPI library %s lacks the symbol %s", a.path, name)
		}
		return p, nil
	}
	var err error
	get := func(dst *uintptr, name string) {
		if err == nil {
			*dst, err = sym(name)
		}
	}
	get(&a.commWorld, "ompi_mpi_comm_world")
	get(&a.commNull, "ompi_mpi_comm_null")
	get(&a.errorsReturn, "ompi_mpi_errors_return")
	get(&a.requestNull, "ompi_request_null")
	get(&a.datatypeNull, "ompi_mpi_datatype_null")
	get(&a.dtByte, "ompi_mpi_byte")
	for i, s := range ompiTypeSyms {
		get(&a.dt[i], s)
	}
	for i, s := range ompiOpSyms {
		get(&a.op[i], s)
	}
	return err
}

func (a *abi) mpich() {
	a.impl = MPICH
	a.handleSize = 4
	// typedef struct MPI_Status { int count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR; }
	a.statusSize, a.srcOff, a.tagOff = 20, 8, 12
	a.errTruncate = 14
	a.anySource, a.anyTag = -2, -1
	a.inPlace = ^uintptr(0) // (void *) -1
	a.commWorld, a.commNull = 0x44000000, 0x04000000
	a.errorsReturn = 0x54000001
	a.requestNull = 0x2c000000
	a.datatypeNull = 0x0c000000
	a.dtByte = 0x4c00010d
	a.dt = mpichTypes
	a.op = mpichOps
}

// queryCUDA asks the library, once it is initialised, whether it takes
// CUDA device pointers: Open MPI's MPIX_Query_cuda_support(), MPICH's
// MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &flag).
func (a *abi) queryCUDA() {
	if f, e := purego.Dlsym(a.handle, "MPIX_Query_cuda_support"); e == nil && f != 0 {
		r, _, _ := purego.SyscallN(f)
		a.cudaAware = int32(r) != 0
		return
	}
	if f, e := purego.Dlsym(a.handle, "MPIX_GPU_query_support"); e == nil && f != 0 {
		var ok int32
		if r, _, _ := purego.SyscallN(f, 0, uintptr(unsafe.Pointer(&ok))); int32(r) == 0 {
			a.cudaAware = ok != 0
		}
	}
}
