package affinity

import (
	"errors"
	"runtime"
	"slices"
	"testing"
)

// TestBindThread: a locked thread bound to each allowed CPU reads back
// that CPU from sched_getaffinity and runs on it (/proc/thread-self/stat).
func TestBindThread(t *testing.T) {
	m, err := ReadMachine()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Allowed) == 0 {
		t.Fatal("no allowed CPU")
	}
	for _, c := range m.Allowed {
		done := make(chan error)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			if err := Bind(CPUSet{c}); err != nil {
				done <- err
				return
			}
			got, err := Allowed()
			if err == nil && !slices.Equal(got, CPUSet{c}) {
				t.Errorf("bound to %d, sched_getaffinity %v", c, got)
			}
			runtime.Gosched()
			if cpu, err := ThreadCPU(); err != nil || cpu != c {
				t.Errorf("bound to %d, running on %d (%v)", c, cpu, err)
			}
			done <- err
		}()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	// The process's set is unchanged.
	if got, _ := Allowed(); !slices.Equal(got, m.Allowed) {
		t.Fatalf("allowed %v after binding other threads, was %v", got, m.Allowed)
	}
	if err := Bind(nil); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Bind(nil): %v", err)
	}
	// A CPU outside any possible set is refused by the kernel.
	refused := make(chan error)
	go func() {
		runtime.LockOSThread()
		refused <- Bind(CPUSet{1<<14 - 1})
	}()
	if err := <-refused; !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Bind to CPU 16383: %v", err)
	}
}
