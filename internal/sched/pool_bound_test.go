package sched

import (
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos/internal/affinity"
	"github.com/gokkos/kokkos/internal/errs"
)

// boundPlaces returns n places cycling over the allowed CPUs (a CPU may
// hold several workers), or skips the test where threads cannot be bound.
func boundPlaces(t testing.TB, n int) []affinity.CPUSet {
	t.Helper()
	if !affinity.Supported {
		t.Skip("binding threads needs Linux")
	}
	allowed, err := affinity.Allowed()
	if err != nil {
		t.Fatal(err)
	}
	places := make([]affinity.CPUSet, n)
	for i := range places {
		places[i] = affinity.CPUSet{allowed[i%len(allowed)]}
	}
	return places
}

// newBound returns a bound pool of n participants.
func newBound(t testing.TB, n int) *Pool {
	t.Helper()
	p, err := NewBoundPool(boundPlaces(t, n))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Bound() || p.Size() != n {
		t.Fatalf("Bound %v, Size %d", p.Bound(), p.Size())
	}
	return p
}

// TestBoundPoolCovers: on bound pools, every unit of a region runs once,
// in chunks of the given size, chunk-wise and index-wise, over random
// ranges of more chunks than participants or not.
func TestBoundPoolCovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for _, n := range []int{1, 2, 3, 5} {
		p := newBound(t, n)
		for range 50 {
			begin := rng.IntN(100) - 20
			end := begin + rng.IntN(2000)
			chunk := 1 + rng.IntN(300)
			counts := make([]atomic.Int32, end-begin)
			byIndex := rng.IntN(2) == 0
			d := &Dispatch{Label: "test", Kind: KindFor, Begin: begin, End: end, Chunk: chunk}
			if byIndex {
				d.Index = func(i int) { counts[i-begin].Add(1) }
			} else {
				d.Body = func(lo, hi int) {
					if hi-lo > chunk || hi-lo < 1 || (lo-begin)%chunk != 0 {
						t.Errorf("chunk [%d,%d) of size %d from %d", lo, hi, chunk, begin)
					}
					for i := lo; i < hi; i++ {
						counts[i-begin].Add(1)
					}
				}
			}
			if err := Execute(d, p, nil); err != nil {
				t.Fatal(err)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("n %d, [%d,%d) chunk %d index-wise %v: unit %d ran %d times", n, begin, end, chunk, byIndex, begin+i, c)
				}
			}
		}
		p.Close()
	}
}

// threadAffinity is what a body saw of the thread it ran on.
type threadAffinity struct {
	tid     int
	allowed affinity.CPUSet
	cpu     int
}

func readThread(t *testing.T) threadAffinity {
	allowed, err := affinity.Allowed()
	if err != nil {
		t.Error(err)
	}
	cpu, err := affinity.ThreadCPU()
	if err != nil {
		t.Error(err)
	}
	return threadAffinity{affinity.ThreadID(), allowed, cpu}
}

// checkWorkers runs regions on p until every worker has run a chunk, and
// checks that each ran on its own thread, bound to its place
// (sched_getaffinity read on that thread) and running on a CPU of it
// (/proc/thread-self/stat).
func checkWorkers(t *testing.T, p *Pool, places []affinity.CPUSet) {
	t.Helper()
	byTid := map[int]int{} // thread id -> participant
	for i, w := range p.workers {
		byTid[int(w.bind.tid.Load())] = i + 1
	}
	if len(byTid) != len(p.workers) {
		t.Fatalf("worker threads %v", byTid)
	}
	seen := map[int]bool{}
	for try := 0; try < 200 && len(seen) < len(p.workers); try++ {
		var mu sync.Mutex
		var got []threadAffinity
		if err := run(p, 0, 8*p.Size(), 1, func(lo, hi int) {
			time.Sleep(200 * time.Microsecond)
			a := readThread(t)
			mu.Lock()
			got = append(got, a)
			mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
		for _, a := range got {
			k, ok := byTid[a.tid]
			if !ok {
				continue // the caller
			}
			seen[k] = true
			if !slices.Equal(a.allowed, places[k]) || !slices.Contains(places[k], a.cpu) {
				t.Fatalf("worker %d (thread %d) bound to %v: its thread allows %v and runs on CPU %d", k, a.tid, places[k], a.allowed, a.cpu)
			}
		}
	}
	if len(seen) < len(p.workers) {
		t.Fatalf("only workers %v ran chunks", seen)
	}
}

// TestBoundPoolPlaces: every worker runs on the CPUs it was given, also
// after a body ended a worker's goroutine with runtime.Goexit (a new
// goroutine, on a new thread, takes its place, bound again).
func TestBoundPoolPlaces(t *testing.T) {
	n := min(4, runtime.NumCPU())
	places := boundPlaces(t, n)
	// Reverse, so that worker i is not on CPU i by chance.
	slices.Reverse(places)
	p, err := NewBoundPool(places)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	checkWorkers(t, p, places)

	old := p.workers[0].bind.tid.Load()
	caller := affinity.ThreadID()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for try := 0; try < 100 && p.workers[0].bind.tid.Load() == old; try++ {
		err := run(p, 0, 8*n, 1, func(lo, hi int) {
			time.Sleep(100 * time.Microsecond)
			if int64(affinity.ThreadID()) == old {
				runtime.Goexit()
			}
		})
		var pe *errs.PanicError
		if err != nil && (!errors.As(err, &pe) || pe.Value != GoexitValue) {
			t.Fatal(err)
		}
		// The new goroutine binds before it records its thread.
		for range 100 {
			if p.workers[0].bind.tid.Load() != old {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	if tid := p.workers[0].bind.tid.Load(); tid == old || int(tid) == caller {
		t.Fatalf("worker 1's thread %d (was %d) not replaced", tid, old)
	}
	checkWorkers(t, p, places)
}

// taskIDs returns the ids of the process's threads.
func taskIDs(t *testing.T) map[int]bool {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int]bool{}
	for _, e := range ents {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			ids[id] = true
		}
	}
	return ids
}

// waitThreadsGone waits until none of tids is a thread of the process.
func waitThreadsGone(t *testing.T, tids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := []int{}
		ids := taskIDs(t)
		for _, id := range tids {
			if ids[id] {
				left = append(left, id)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("bound threads %v still running", left)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBoundPoolClose: closing a bound pool ends its workers and their
// bound threads, which no other goroutine ever runs on; a closed bound
// pool runs regions on their callers alone.
func TestBoundPoolClose(t *testing.T) {
	p := newBound(t, 3)
	if err := run(p, 0, 1000, 7, func(lo, hi int) {}); err != nil {
		t.Fatal(err)
	}
	var tids []int
	for _, w := range p.workers {
		tids = append(tids, int(w.bind.tid.Load()))
	}
	p.Close()
	waitThreadsGone(t, tids)
	var units atomic.Int64
	if err := run(p, 0, 1000, 7, func(lo, hi int) { units.Add(int64(hi - lo)) }); err != nil || units.Load() != 1000 {
		t.Fatalf("%v, %d units", err, units.Load())
	}
}

// TestBoundPoolRefused: a place the kernel refuses makes NewBoundPool
// return an error wrapping affinity.ErrUnsupported, having ended the
// workers it started.
func TestBoundPoolRefused(t *testing.T) {
	places := boundPlaces(t, 3)
	before := runtime.NumGoroutine()
	places[2] = affinity.CPUSet{1<<14 - 1}
	p, err := NewBoundPool(places)
	if p != nil || !errors.Is(err, affinity.ErrUnsupported) {
		t.Fatalf("%v, %v", p, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBoundPoolPanic: a panic in a region of a bound pool stops it and is
// reported; the pool runs the next region whole.
func TestBoundPoolPanic(t *testing.T) {
	p := newBound(t, 3)
	defer p.Close()
	for _, at := range []int{0, 450, 999} {
		err := run(p, 0, 1000, 10, func(lo, hi int) {
			if lo <= at && at < hi {
				panic("boom " + strconv.Itoa(at))
			}
		})
		var pe *errs.PanicError
		if !errors.As(err, &pe) || pe.Value != "boom "+strconv.Itoa(at) {
			t.Fatalf("panic at %d: %v", at, err)
		}
		var units atomic.Int64
		if err := run(p, 0, 1000, 10, func(lo, hi int) { units.Add(int64(hi - lo)) }); err != nil || units.Load() != 1000 {
			t.Fatalf("after a panic: %v, %d units", err, units.Load())
		}
	}
}

// TestBoundPoolFromEnv: the settings that bind, that do not, that are
// invalid, and that cannot be met, on fake machines.
func TestBoundPoolFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	machine := func(cpus ...int) func() (affinity.Machine, error) {
		return func() (affinity.Machine, error) { return affinity.Machine{Allowed: cpus}, nil }
	}
	noMachine := func() (affinity.Machine, error) {
		return affinity.Machine{}, errors.New("no sched_setaffinity here")
	}
	for _, tc := range []struct {
		env     []string
		machine func() (affinity.Machine, error)
		n       int
		kind    error // nil: no error
		errHas  string
	}{
		{nil, noMachine, 4, nil, ""},
		{[]string{"KOKKOS_PROC_BIND", "false", "OMP_PROC_BIND", "spread"}, noMachine, 4, nil, ""},
		{[]string{"OMP_PROC_BIND", "master", "OMP_PLACES", "{0:4}"}, noMachine, 4, nil, ""}, // not read
		{[]string{"KOKKOS_PROC_BIND", "spraed"}, noMachine, 4, affinity.ErrSetting, `KOKKOS_PROC_BIND="spraed": "spraed" is not one of`},
		{[]string{"KOKKOS_PLACES", "{0:4}"}, noMachine, 4, affinity.ErrSetting, `KOKKOS_PLACES="{0:4}": explicit place lists are not supported`},
		{[]string{"KOKKOS_PROC_BIND", "spread"}, noMachine, 4, affinity.ErrUnsupported, "KOKKOS_PROC_BIND=spread is ignored: no sched_setaffinity here"},
		{[]string{"KOKKOS_PROC_BIND", "close", "KOKKOS_PLACES", "threads"}, machine(0, 1), 3, affinity.ErrUnsupported,
			"KOKKOS_PROC_BIND=close KOKKOS_PLACES=threads is ignored: 3 participants but 2 threads places on the allowed CPUs 0-1; use at most 2 threads"},
	} {
		p, err := BoundPoolFromEnv(tc.n, env(tc.env...), tc.machine)
		if p != nil {
			t.Errorf("%v: a pool", tc.env)
			p.Close()
		}
		if tc.kind == nil && err != nil || tc.kind != nil && (!errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.errHas)) {
			t.Errorf("%v: error %v, want %v containing %q", tc.env, err, tc.kind, tc.errHas)
		}
	}
	if !affinity.Supported {
		t.Skip("binding threads needs Linux")
	}
	allowed, err := affinity.Allowed()
	if err != nil {
		t.Fatal(err)
	}
	n := len(allowed)
	p, err := BoundPoolFromEnv(n, env("KOKKOS_PROC_BIND", "close"), affinity.ReadMachine)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, _ := affinity.ReadMachine()
	places, _ := affinity.Assign(affinity.Settings{Policy: affinity.Close}, m, n)
	checkWorkers(t, p, places)
}
