package mpi

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gokkos/kokkos"
)

// Threading is the thread support an MPI library grants.
type Threading int

// The levels of MPI_Init_thread, in increasing order.
const (
	ThreadSingle     Threading = 0 // MPI_THREAD_SINGLE
	ThreadFunneled   Threading = 1 // MPI_THREAD_FUNNELED
	ThreadSerialized Threading = 2 // MPI_THREAD_SERIALIZED
	ThreadMultiple   Threading = 3 // MPI_THREAD_MULTIPLE
)

func (l Threading) String() string {
	switch l {
	case ThreadSingle:
		return "MPI_THREAD_SINGLE"
	case ThreadFunneled:
		return "MPI_THREAD_FUNNELED"
	case ThreadSerialized:
		return "MPI_THREAD_SERIALIZED"
	case ThreadMultiple:
		return "MPI_THREAD_MULTIPLE"
	}
	return fmt.Sprintf("Threading(%d)", int(l))
}

const (
	stateNone = iota
	stateInit
	stateFinal
)

var (
	initMu  sync.Mutex
	lib     *abi
	state   atomic.Int32
	granted Threading
	serial  bool       // granted < ThreadMultiple: every call holds callMu
	callMu  sync.Mutex // serialises calls when the library is not thread-safe
	world   *Comm
	initErr error // the failure of a first Init, which a second returns

	// requested is the level Init asks for; tests lower it to exercise
	// the serialised path.
	requested = ThreadMultiple
)

// call runs one MPI function and returns its result code. A pointer
// converted to uintptr in its arguments keeps its object on the heap and
// alive for the call (go:uintptrescapes, as purego.SyscallN): an address
// in a goroutine's stack would go stale when the stack moves (it grows and
// shrinks at garbage collections), and the library would write its
// results (a status, a flag, a handle) where nothing reads them.
//
//go:uintptrescapes
func call(fn uintptr, args ...uintptr) int32 {
	if serial {
		callMu.Lock()
		defer callMu.Unlock()
	}
	r, _, _ := purego.SyscallN(fn, args...)
	return int32(r)
}

// mpiErr builds the error of a failed call, with the library's string.
func mpiErr(name string, code int32, format string, a ...any) error {
	e := &Error{Call: name, Code: int(code), Class: int(errClass(code)), Detail: fmt.Sprintf(format, a...)}
	buf := make([]byte, 1024)
	var n int32
	if r, _, _ := purego.SyscallN(lib.fErrorString, uintptr(code), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&n))); int32(r) == 0 && n > 0 {
		e.Msg = strings.TrimRight(string(buf[:min(int(n), len(buf))]), "\x00")
	} else {
		e.Msg = "unknown error"
	}
	return e
}

// errClass returns the error class of an error code (MPI_Error_class):
// MPICH's codes carry more than the class.
func errClass(code int32) int32 {
	var class int32
	if r, _, _ := purego.SyscallN(lib.fErrorClass, uintptr(code), uintptr(unsafe.Pointer(&class))); int32(r) != 0 {
		return code
	}
	return class
}

// Init loads the MPI library (GOKKOS_MPI_LIB, or the first found of
// LibrarySearchPath) and initialises it with MPI_Init_thread, asking for
// MPI_THREAD_MULTIPLE. If the library grants less, every later call of
// the package holds one lock, so that goroutines may still call it
// concurrently; ThreadLevel says which. The world communicator gets
// MPI_ERRORS_RETURN, so that failures come back as errors. A second Init
// does nothing; Init after Finalize is an error.
//
// Init compares the size of the world with what the launcher's
// environment says it started (OMPI_COMM_WORLD_SIZE of Open MPI's mpirun,
// PMI_SIZE and MPI_LOCALNRANKS of MPICH's mpiexec and other PMI
// launchers): a library of the other implementation than the launcher's
// (GOKKOS_MPI_LIB=libmpich.so.12 under Open MPI's mpirun, for one) runs
// every process as a job of its own, and Init returns an error wrapping
// ErrLauncher that names the library, the variable and what to do.
func Init() error {
	initMu.Lock()
	defer initMu.Unlock()
	switch state.Load() {
	case stateInit:
		return nil
	case stateFinal:
		return errorf(ErrNotInitialized, "mpi: Init after Finalize: MPI cannot be initialised twice in one process")
	}
	if initErr != nil {
		return initErr
	}
	if lib == nil {
		a, err := openLibrary()
		if err != nil {
			return err
		}
		lib = a
	}
	var flag int32
	purego.SyscallN(lib.fInitialized, uintptr(unsafe.Pointer(&flag)))
	var provided int32
	if flag == 0 {
		if r, _, _ := purego.SyscallN(lib.fInitThread, 0, 0, uintptr(requested), uintptr(unsafe.Pointer(&provided))); int32(r) != 0 {
			return fmt.Errorf("mpi: MPI_Init_thread of %s (%s) failed with code %d", lib.impl, lib.path, int32(r))
		}
	} else {
		purego.SyscallN(lib.fQueryThread, uintptr(unsafe.Pointer(&provided)))
	}
	granted = Threading(provided)
	serial = granted < ThreadMultiple
	lib.queryCUDA()
	state.Store(stateInit)
	w, err := newComm(lib.commWorld, false, "MPI_COMM_WORLD")
	if err != nil {
		return err
	}
	if err := checkLauncher(w.size, flag == 0); err != nil {
		state.Store(stateNone)
		initErr = err
		return err
	}
	world = w
	return nil
}

// launcherVars are the environment variables by which launchers tell a
// process how many processes they started: Open MPI's mpirun, and the PMI
// launchers (MPICH's Hydra mpiexec, Slurm's srun). MPI_LOCALNRANKS, which
// Hydra sets, counts those of one host only: a lower bound.
var launcherVars = []struct {
	name, launcher string
	atLeast        bool
}{
	{"OMPI_COMM_WORLD_SIZE", "Open MPI's mpirun", false},
	{"PMI_SIZE", "a PMI launcher (MPICH's mpiexec, Slurm's srun)", false},
	{"MPI_LOCALNRANKS", "MPICH's mpiexec", true},
}

// checkLauncher returns the error of a library whose world of size
// processes is not the job the launcher started, which is what a library
// of the other implementation than the launcher's does: it does not
// understand the launcher and runs each process as a job of its own.
// Where Init called MPI_Init_thread (initialised), it ends MPI again.
func checkLauncher(size int, initialised bool) error {
	for _, v := range launcherVars {
		n, err := strconv.Atoi(os.Getenv(v.name))
		if err != nil || n <= 0 || size == n || v.atLeast && size >= n {
			continue
		}
		from := "the first of LibrarySearchPath that loaded"
		if os.Getenv(EnvLibrary) != "" {
			from = EnvLibrary + "=" + os.Getenv(EnvLibrary)
		}
		want, do := "libmpich.so.12, MPICH's", "Open MPI's mpirun"
		if strings.HasPrefix(v.name, "OMPI_") {
			want, do = "libmpi.so.40, Open MPI's", "MPICH's mpiexec"
		}
		if initialised {
			purego.SyscallN(lib.fFinalize)
		}
		return errorf(ErrLauncher, "mpi: %s library %s (%s) sees a world of %d process(es), but %s=%s says %s started %d: a library of another MPI implementation than the launcher's runs every process alone; load the launcher's own library (unset %s, or set it to %s) or start the program with %s",
			lib.impl, lib.path, from, size, v.name, os.Getenv(v.name), v.launcher, n, EnvLibrary, want, do)
	}
	return nil
}

// Finalize ends MPI (MPI_Finalize). Every later call of the package
// returns an error wrapping ErrNotInitialized. A second Finalize does
// nothing. Requests still in flight are completed first: sends are waited
// for, and receives that no message matched yet are cancelled (their Wait
// then returns an error wrapping ErrNotInitialized); those dropped
// unreachable are reported to the handler of SetDropHandler.
func Finalize() error {
	initMu.Lock()
	defer initMu.Unlock()
	switch state.Load() {
	case stateNone:
		return errorf(ErrNotInitialized, "mpi: Finalize before Init")
	case stateFinal:
		return nil
	}
	// MPI_Finalize wants no request in flight: complete them, reporting
	// the dropped ones, while the package's calls still work.
	finishAll()
	state.Store(stateFinal)
	if r := call(lib.fFinalize); r != 0 {
		return mpiErr("MPI_Finalize", r, "")
	}
	return nil
}

// Initialized reports whether Init succeeded and Finalize was not called.
func Initialized() bool { return state.Load() == stateInit }

// ThreadLevel returns the thread support the library granted: below
// ThreadMultiple, the package serialises its calls under one lock (a
// blocking receive then waits by polling, without holding the lock).
func ThreadLevel() Threading { return granted }

// Library returns the implementation loaded (OpenMPI or MPICH), the path
// it was loaded from and its MPI_Get_library_version string; empty strings
// before Init.
func Library() (impl, path, version string) {
	initMu.Lock()
	defer initMu.Unlock()
	if lib == nil {
		return "", "", ""
	}
	return lib.impl, lib.path, lib.version
}

// CUDAAware reports whether the library takes CUDA device memory directly
// (Open MPI's MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support).
// Where it does not, device views are staged through pinned host memory.
func CUDAAware() bool { return lib != nil && state.Load() == stateInit && lib.cudaAware }

// Comm is a communicator: a group of processes, each with its rank, among
// which messages pass. World returns the one of every process; Split and
// Dup make others, which Free releases.
type Comm struct {
	h          uintptr
	rank, size int
	owned      bool
	name       string
	packRight  bool // pack non-contiguous views last index fastest
}

// World returns MPI_COMM_WORLD. Before Init and after Finalize it returns
// a communicator whose operations return ErrNotInitialized, of rank -1
// and size 0.
func World() *Comm {
	if state.Load() != stateInit {
		return &Comm{rank: -1, name: "MPI_COMM_WORLD"}
	}
	return world
}

func newComm(h uintptr, owned bool, name string) (*Comm, error) {
	c := &Comm{h: h, owned: owned, name: name}
	if r := call(lib.fSetErrh, h, lib.errorsReturn); r != 0 {
		return nil, mpiErr("MPI_Comm_set_errhandler", r, "%s", name)
	}
	var rank, size int32
	if r := call(lib.fCommRank, h, uintptr(unsafe.Pointer(&rank))); r != 0 {
		return nil, mpiErr("MPI_Comm_rank", r, "%s", name)
	}
	if r := call(lib.fCommSize, h, uintptr(unsafe.Pointer(&size))); r != 0 {
		return nil, mpiErr("MPI_Comm_size", r, "%s", name)
	}
	c.rank, c.size = int(rank), int(size)
	return c, nil
}

// Rank returns the calling process's rank in c, from 0 to Size()-1; -1 for
// a communicator of a process where MPI is not initialised, and for nil.
func (c *Comm) Rank() int {
	if c == nil {
		return -1
	}
	return c.rank
}

// Size returns the number of processes in c.
func (c *Comm) Size() int {
	if c == nil {
		return 0
	}
	return c.size
}

// check returns the error of an operation op on c before Init, after
// Finalize or on a freed communicator.
func (c *Comm) check(op string) error {
	switch {
	case state.Load() == stateNone:
		return errorf(ErrNotInitialized, "mpi: %s before Init", op)
	case state.Load() == stateFinal:
		return errorf(ErrNotInitialized, "mpi: %s after Finalize", op)
	case c == nil || c.h == 0:
		return errorf(ErrNotInitialized, "mpi: %s on a freed or zero communicator", op)
	}
	progress()
	return nil
}

// Barrier returns when every process of c has called it (MPI_Barrier).
func (c *Comm) Barrier() error {
	if err := c.check("Barrier"); err != nil {
		return err
	}
	if r := call(lib.fBarrier, c.h); r != 0 {
		return mpiErr("MPI_Barrier", r, "%s", c.name)
	}
	return nil
}

// Split partitions c (MPI_Comm_split): processes that pass the same color
// form a new communicator, ranked by key, then by their rank in c. It is
// collective over c. A process that passes a negative color is in none,
// and gets a nil *Comm and a nil error.
func (c *Comm) Split(color, key int) (*Comm, error) {
	if err := c.check("Split"); err != nil {
		return nil, err
	}
	col := int32(color)
	if color < 0 {
		col = -32766 // MPI_UNDEFINED, the same in both libraries
	}
	var h uintptr
	if r := call(lib.fCommSplit, c.h, uintptr(col), uintptr(int32(key)), uintptr(unsafe.Pointer(&h))); r != 0 {
		return nil, mpiErr("MPI_Comm_split", r, "%s, color %d, key %d", c.name, color, key)
	}
	if color < 0 || h == lib.commNull {
		return nil, nil
	}
	return newComm(h, true, fmt.Sprintf("Split(%s, color %d)", c.name, color))
}

// Dup returns a communicator of the same processes and ranks as c, whose
// messages never match c's (MPI_Comm_dup). It is collective over c.
func (c *Comm) Dup() (*Comm, error) {
	if err := c.check("Dup"); err != nil {
		return nil, err
	}
	var h uintptr
	if r := call(lib.fCommDup, c.h, uintptr(unsafe.Pointer(&h))); r != 0 {
		return nil, mpiErr("MPI_Comm_dup", r, "%s", c.name)
	}
	return newComm(h, true, "Dup("+c.name+")")
}

// PackLayout returns the order in which operations on c pack a view whose
// elements do not fill their span (a strided subview, a padded view):
// kokkos.LayoutLeft, first index fastest, as kokkos-comm packs every such
// view, unless WithPackLayout chose kokkos.LayoutRight.
func (c *Comm) PackLayout() kokkos.Layout {
	if c != nil && c.packRight {
		return kokkos.LayoutRight
	}
	return kokkos.LayoutLeft
}

// WithPackLayout returns a communicator of the same processes and MPI
// handle as c whose operations pack non-contiguous views in the order l:
// kokkos.LayoutLeft (first index fastest, the default, kokkos-comm's
// order) or kokkos.LayoutRight (last index fastest, the order of a C
// array). Both sides of a message must pack alike. Any other layout is an
// error wrapping kokkos.ErrLayout. The result shares c's handle: Free c,
// not the result, and use neither after that.
func (c *Comm) WithPackLayout(l kokkos.Layout) (*Comm, error) {
	if err := c.check("WithPackLayout"); err != nil {
		return nil, err
	}
	if l != kokkos.LayoutLeft && l != kokkos.LayoutRight {
		return nil, fmt.Errorf("mpi: WithPackLayout(%v) on %s: a packed message is in LayoutLeft or LayoutRight order: %w", l, c.name, kokkos.ErrLayout)
	}
	d := *c
	d.owned = false
	d.packRight = l == kokkos.LayoutRight
	d.name = fmt.Sprintf("%s packed %v", c.name, l)
	return &d, nil
}

// Free releases a communicator made by Split or Dup (MPI_Comm_free); it is
// collective over c. Freeing World is an error; later operations on c
// return ErrNotInitialized.
func (c *Comm) Free() error {
	if err := c.check("Free"); err != nil {
		return err
	}
	if !c.owned {
		return fmt.Errorf("mpi: Free of %s, which the package did not make (free the communicator that Split or Dup returned, not World or a WithPackLayout copy)", c.name)
	}
	h := c.h
	if r := call(lib.fCommFree, uintptr(unsafe.Pointer(&h))); r != 0 {
		return mpiErr("MPI_Comm_free", r, "%s", c.name)
	}
	c.h = 0
	return nil
}
