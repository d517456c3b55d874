package kokkos

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gokkos/kokkos/internal/affinity"
	"github.com/gokkos/kokkos/internal/errkind"
	"github.com/gokkos/kokkos/internal/sched"
)

// Binding the default pool's workers to CPUs, as OMP_PROC_BIND and
// OMP_PLACES bind an OpenMP program's threads (see package
// internal/affinity and docs/guide/parallel.md): the default pool reads
// KOKKOS_PROC_BIND and KOKKOS_PLACES (not OpenMP's variables) when it
// starts. Pools of NewThreads and PartitionSpace
// are not bound, so that two pools never share places.

// newDefaultThreads starts the default pool of n participants, its workers
// bound as the environment asks. An invalid value panics with an error
// wrapping ErrOption that names the variable; a binding that cannot be
// made (not Linux, fewer places than participants) leaves the workers
// unbound and says so on standard error.
func newDefaultThreads(n int) *Threads {
	pool, err := sched.BoundPoolFromEnv(n, os.Getenv, affinity.ReadMachine)
	if err != nil {
		if errors.Is(err, affinity.ErrSetting) {
			panic(errkind.Wrap(ErrOption, fmt.Errorf("kokkos: %w", err)))
		}
		fmt.Fprintf(os.Stderr, "kokkos: %v; the default pool's workers run unbound\n", err)
	}
	if pool == nil {
		return NewThreads(n)
	}
	t := &Threads{pool: pool}
	runtime.AddCleanup(t, (*sched.Pool).Close, t.pool)
	return t
}
