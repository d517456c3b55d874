package tools

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gokkos/kokkos/internal/prof"
)

// ErrLibrary is matched (errors.Is) by the error of LoadLibrary.
var ErrLibrary = errors.New("tools: cannot load Kokkos Tools library")

// interfaceVersion is the KOKKOSP_INTERFACE_VERSION this package speaks,
// passed to kokkosp_init_library.
const interfaceVersion = 20240906

func init() {
	// The core warns of a KOKKOS_TOOLS_LIBS that no package loads.
	prof.SetLoader()
	libs := os.Getenv("KOKKOS_TOOLS_LIBS")
	if libs == "" {
		return
	}
	for _, path := range splitLibs(libs) {
		if err := LoadLibrary(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
}

// splitLibs splits the value of KOKKOS_TOOLS_LIBS at semicolons and
// colons, dropping empty names.
func splitLibs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ':' })
}

var loads struct {
	sync.Mutex
	n int // libraries loaded so far: the next one's load sequence number
}

// LoadLibrary loads the Kokkos Tools shared library at path (a tool of
// kokkos-tools, or any library with kokkosp_* entry points), calls its
// kokkosp_init_library as Kokkos does, and registers it as a Tool:
// Finalize calls its kokkosp_finalize_library. The package's
// initialisation loads every library that KOKKOS_TOOLS_LIBS names
// (separated by semicolons or colons), printing errors to standard error
// as Kokkos does. The error wraps ErrLibrary; it names the file and says
// why it could not be loaded.
//
// The library receives the events of every goroutine as one stream of the
// kind a C++ Kokkos program sends: it is called from one goroutine at a
// time, with at most one kernel, fence or deep copy open in it; one that
// begins while another is open is begun in the library when that one
// ends. The first library loaded makes C's stdout line-buffered, and
// Finalize flushes C's streams after each kokkosp_finalize_library, so
// that what the library prints reaches a file or a pipe.
//
// The library is loaded without cgo (through github.com/ebitengine/purego)
// on Linux and macOS, on amd64 and arm64; elsewhere LoadLibrary returns an
// error.
func LoadLibrary(path string) error {
	loads.Lock()
	defer loads.Unlock()
	l, err := openLibrary(path)
	if err != nil {
		return fmt.Errorf("%w %s: %v; KOKKOS_TOOLS_LIBS must name shared libraries with kokkosp_* entry points", ErrLibrary, path, err)
	}
	l.init(loads.n)
	loads.n++
	Register(l)
	return nil
}
