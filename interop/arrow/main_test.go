package arrow

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
)

// TestMain fails the tests when an allocation that owns memory (an Arrow
// buffer, a deleter) became unreachable before its last Release: every
// holder the tests take, they give back.
func TestMain(m *testing.M) {
	var mu sync.Mutex
	var leaks []string
	kokkos.SetLeakHandler(func(r kokkos.LeakReport) {
		mu.Lock()
		leaks = append(leaks, r.String())
		mu.Unlock()
	})
	code := m.Run()
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	for _, l := range leaks {
		fmt.Fprintf(os.Stderr, "leak: %s\n", l)
		code = 1
	}
	mu.Unlock()
	os.Exit(code)
}
