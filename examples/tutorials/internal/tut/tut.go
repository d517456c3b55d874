// Package tut holds what the tutorial examples share: the command-line
// sizes of the Kokkos tutorial exercises (exponents of 2, as the C++
// programs read them), the JSON line each prints for the side-by-side
// harness, and the choice between the host pool and a CUDA stream.
package tut

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

// Pow2 returns 2 to the power e, or -1 when e is negative (a size the
// command line left unset): the C++ exercises read their sizes as
// exponents.
func Pow2(e int) int {
	if e < 0 {
		return -1
	}
	return int(math.Pow(2, float64(e)))
}

// Sizes are the rows N, the columns M, the total size S = N*M and the
// number of matrices E of the y^T*A*x exercises, -1 where unset.
type Sizes struct{ N, M, S, E int }

// Fill completes s as the exercises' checkSizes does: S defaults to
// defaultS (or the larger of N and M), M to 1024 (or S) when neither N nor
// M is given, and the one of N and M that is missing to S divided by the
// other; E defaults to defaultE when it is not -1. It returns an error when
// a size is not positive or N*M is not S.
func (s *Sizes) Fill(defaultS, defaultE int) error {
	if s.S == -1 && (s.N == -1 || s.M == -1) {
		s.S = max(defaultS, s.N, s.M)
	}
	if s.S == -1 {
		s.S = s.N * s.M
	}
	if s.N == -1 && s.M == -1 {
		s.M = min(s.S, 1024)
	}
	if s.M == -1 {
		s.M = s.S / s.N
	}
	if s.N == -1 {
		s.N = s.S / s.M
	}
	if s.E == -1 {
		s.E = defaultE
	}
	if s.S <= 0 || s.N <= 0 || s.M <= 0 || (defaultE > 0 && s.E <= 0) {
		return fmt.Errorf("sizes must be greater than 0 (S %d, N %d, M %d, E %d)", s.S, s.N, s.M, s.E)
	}
	if s.N*s.M != s.S {
		return fmt.Errorf("the rows times the columns are not the total size: N * M != S (%d * %d != %d)", s.N, s.M, s.S)
	}
	return nil
}

// Emit writes one JSON object {"name","unit","value"} on its own line:
// the figure the side-by-side harness compares with the C++ program's.
func Emit(w io.Writer, name, unit string, value float64) {
	b, _ := json.Marshal(struct {
		Name  string  `json:"name"`
		Unit  string  `json:"unit"`
		Value float64 `json:"value"`
	}{name, unit, value})
	fmt.Fprintf(w, "%s\n", b)
}

// Place is where an example runs: the host pool (Stream nil) or a CUDA
// stream, with the memory space its views are made in.
type Place struct {
	Stream *cuda.Stream
	Mem    kokkos.MemorySpace
}

// Space returns the execution space of the place's policies: nil (the
// host pool) or the stream.
func (p Place) Space() kokkos.ExecutionSpace {
	if p.Stream == nil {
		return nil
	}
	return p.Stream
}

// Name is "host" or "cuda".
func (p Place) Name() string {
	if p.Stream == nil {
		return "host"
	}
	return "cuda"
}

// Fence waits for the place's queued work (nothing on the host).
func (p Place) Fence() error {
	if p.Stream == nil {
		return nil
	}
	return p.Stream.Fence()
}

// Release releases the stream, if any.
func (p Place) Release() {
	if p.Stream != nil {
		p.Stream.Release()
	}
}

// Open returns the host place, or with gpu a new CUDA stream and
// cuda.Space; it fails when gpu is set and CUDA is unavailable.
func Open(gpu bool) (Place, error) {
	if !gpu {
		return Place{Mem: kokkos.HostSpace}, nil
	}
	if err := cuda.Available(); err != nil {
		return Place{}, fmt.Errorf("-cuda: %w", err)
	}
	st, err := cuda.NewStream()
	if err != nil {
		return Place{}, err
	}
	return Place{Stream: st, Mem: cuda.Space}, nil
}

// Fatal prints err prefixed with the program's name and exits with
// status 1.
func Fatal(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}
