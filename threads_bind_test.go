package kokkos

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/internal/affinity"
)

// TestDefaultPoolBinding: the default pool's constructor binds its
// workers as KOKKOS_PROC_BIND asks, panics with an error wrapping
// ErrOption that names the variable for an invalid value, and says on
// standard error why a binding that cannot be made is ignored.
func TestDefaultPoolBinding(t *testing.T) {
	t.Setenv("KOKKOS_PLACES", "")
	t.Setenv("OMP_PROC_BIND", "")
	t.Setenv("OMP_PLACES", "")

	t.Setenv("KOKKOS_PROC_BIND", "sprd")
	func() {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, ErrOption) || !errors.Is(err, affinity.ErrSetting) ||
				!strings.Contains(err.Error(), `kokkos: KOKKOS_PROC_BIND="sprd": "sprd" is not one of false, true, spread, close`) {
				t.Fatalf("panic %v", err)
			}
		}()
		newDefaultThreads(2)
	}()

	allowed, err := affinity.Allowed()
	if !affinity.Supported || err != nil {
		t.Skip("binding threads needs Linux")
	}
	t.Setenv("KOKKOS_PROC_BIND", "close")
	th := newDefaultThreads(len(allowed))
	if !th.pool.Bound() || th.Concurrency() != len(allowed) {
		t.Fatalf("bound %v, concurrency %d", th.pool.Bound(), th.Concurrency())
	}
	x := Must(NewView1[float64]("x", 1000))
	ParallelForChunks("fill", Range(0, 1000).On(th), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x.Set(i, float64(i))
		}
	})
	if got := ParallelReduce("sum", Range(0, 1000).On(th), Sum[float64](), func(i int, acc *float64) { *acc += x.At(i) }); got != 999*1000/2 {
		t.Fatalf("sum %v", got)
	}
	if err := th.Close(); err != nil {
		t.Fatal(err)
	}

	// More participants than allowed CPUs: unbound, and said so.
	r, w, _ := os.Pipe()
	stderr := os.Stderr
	os.Stderr = w
	th = newDefaultThreads(len(allowed) + 1)
	os.Stderr = stderr
	w.Close()
	msg, _ := io.ReadAll(r)
	want := "kokkos: KOKKOS_PROC_BIND=close is ignored: " + strconv.Itoa(len(allowed)+1) + " participants but " + strconv.Itoa(len(allowed)) + " threads places"
	if th.pool.Bound() || !strings.Contains(string(msg), want) || !strings.Contains(string(msg), "the default pool's workers run unbound") {
		t.Fatalf("bound %v, standard error %q, want %q", th.pool.Bound(), msg, want)
	}
	if err := th.Close(); err != nil {
		t.Fatal(err)
	}
}
