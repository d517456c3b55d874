package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gokkos/kokkos/internal/sched"
)

// TestTeamCallSkippedPanics: a team call (TeamBarrier, TeamBroadcast,
// TeamReduce, TeamScan) that some threads of a team make and others skip
// can never end. It panics naming the call, the label and the team,
// whichever side comes last, and the pool keeps working.
func TestTeamCallSkippedPanics(t *testing.T) {
	th := NewThreads(3)
	defer th.Close()
	calls := map[string]func(m *TeamMember){
		"TeamBarrier":   func(m *TeamMember) { m.TeamBarrier() },
		"TeamBroadcast": func(m *TeamMember) { TeamBroadcast(m, 1.5, 0) },
		"TeamReduce":    func(m *TeamMember) { TeamReduce(m, Sum[int](), m.TeamRank()) },
		"TeamScan":      func(m *TeamMember) { TeamScan(m, Sum[int](), m.TeamRank()) },
	}
	for name, call := range calls {
		for _, size := range []int{2, 4} {
			for _, skipper := range []int{0, size - 1} {
				for _, skipLate := range []bool{false, true} {
					what := fmt.Sprintf("%s, team of %d, thread %d skips (late %v)", name, size, skipper, skipLate)
					var r any
					within(t, what, func() {
						defer func() { r = recover() }()
						ParallelForTeam("skip", Teams(5, size).On(th), func(m *TeamMember) {
							if m.LeagueRank() == 3 && m.TeamRank() == skipper {
								return
							}
							if m.LeagueRank() == 3 && skipLate && m.TeamRank() != skipper {
								// the skipper returns first, then the others arrive
								for range 1000 {
									_ = m.LeagueSize()
								}
							}
							call(m)
						})
					})
					var pe *PanicError
					err, _ := r.(error)
					if !errors.As(err, &pe) {
						t.Fatalf("%s: recovered %v, want a *PanicError", what, r)
					}
					msg := fmt.Sprint(pe.Value)
					for _, want := range []string{name, `"skip"`, "league rank 3", fmt.Sprintf("team of %d", size), fmt.Sprintf("thread %d returned", skipper)} {
						if !strings.Contains(msg, want) {
							t.Fatalf("%s: panic %q does not say %q", what, msg, want)
						}
					}
				}
			}
		}
	}
	// The pool and teams of every size keep working, and teams whose
	// threads all make the calls are not disturbed.
	for _, size := range []int{1, 2, 4} {
		got := ParallelReduceTeam("after", Teams(7, size).On(th), Sum[int](), func(m *TeamMember, acc *int) {
			m.TeamBarrier()
			*acc += TeamReduce(m, Sum[int](), 1)
		})
		if got != 7*size*size {
			t.Fatalf("team of %d after the panics: %d, want %d", size, got, 7*size*size)
		}
	}
}

// TestResizeFailureKeepsView: a Resize or Realloc that fails, here because
// its copy would wait for the instance whose work calls it, leaves the view
// as it was: same extents, same elements, same storage.
func TestResizeFailureKeepsView(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pool := NewThreads(2)
	defer pool.Close()
	inst := pool.NewInstance()
	want := make([]float64, 6)
	for i := range want {
		want[i] = rng.Float64()
	}
	d := Must(NewDynRankView[float64]("d", []int{2, 3}))
	v := Must(NewView1[float64]("v", 6))
	for i, x := range want {
		d.Set(x, i/3, i%3)
		v.Set(i, x)
	}
	var derr, verr error
	inst.Submit("resize", func() {
		derr = d.Resize([]int{5})
		verr = Resize(&v, [1]int{9})
	})
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(derr, ErrWouldDeadlock) || !errors.Is(verr, ErrWouldDeadlock) {
		t.Fatalf("Resize inside the instance's work: %v; %v, want ErrWouldDeadlock", derr, verr)
	}
	if !slices.Equal(d.Extents(), []int{2, 3}) || v.Extent(0) != 6 {
		t.Fatalf("after a failed Resize: extents %v and %d, want [2 3] and 6", d.Extents(), v.Extent(0))
	}
	for i, x := range want {
		if d.At(i/3, i%3) != x || v.At(i) != x {
			t.Fatalf("after a failed Resize, element %d: %v and %v, want %v", i, d.At(i/3, i%3), v.At(i), x)
		}
	}
	// Resize outside the work keeps the overlap, the reference being the
	// elements written above.
	if err := d.Resize([]int{3, 2}); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		for j := range 2 {
			if d.At(i, j) != want[i*3+j] {
				t.Fatalf("d(%d,%d) = %v after Resize, want %v", i, j, d.At(i, j), want[i*3+j])
			}
		}
	}
	if d.At(2, 0) != 0 || d.At(2, 1) != 0 {
		t.Fatalf("new elements %v %v, want 0", d.At(2, 0), d.At(2, 1))
	}
}

// TestZeroDynRankViewExtent: Extent(r) past the rank is 1, as Kokkos's;
// for the zero DynRankView, as for Kokkos's default-constructed one
// (containers/unit_tests/TestDynViewAPI.hpp: dx.extent(0) == 0), it is 0
// below MaxDynRank.
func TestZeroDynRankViewExtent(t *testing.T) {
	var d DynRankView[float64]
	for r, want := range []int{0, 0, 0, 0, 0, 0, 0, 1} {
		if got := d.Extent(r); got != want {
			t.Fatalf("zero DynRankView: Extent(%d) = %d, want %d", r, got, want)
		}
	}
	e := Must(NewDynRankView[int]("e", []int{4, 0}))
	for r, want := range []int{4, 0, 1, 1, 1, 1, 1, 1} {
		if got := e.Extent(r); got != want {
			t.Fatalf("DynRankView (4, 0): Extent(%d) = %d, want %d", r, got, want)
		}
	}
}

// TestFenceFromGoroutineOfTheWork: work on an asynchronous instance that
// starts a goroutine and waits for it, while the goroutine waits for the
// instance (Fence, the package Fence, DeepCopy), can never end: the wait
// returns ErrWouldDeadlock once the work has stayed blocked, and the work
// then finishes. Waits that can end are not refused: from a goroutine the
// work started while the work computes, and from goroutines the work did
// not start while it is blocked.
func TestFenceFromGoroutineOfTheWork(t *testing.T) {
	pool := NewThreads(2)
	defer pool.Close()
	inst := pool.NewInstance()
	src := Must(NewView1[float64]("src", 8))
	dst := Must(NewView1[float64]("dst", 8))
	waits := map[string]func() error{
		"Threads.Fence": inst.Fence,
		"Fence":         Fence,
		"DeepCopy":      func() error { return DeepCopy[float64](dst, src) },
	}
	for name, wait := range waits {
		var err error
		within(t, name, func() {
			inst.Submit("starts a goroutine", func() {
				ch := make(chan error)
				go func() { ch <- wait() }()
				err = <-ch
			})
			if ferr := inst.Fence(); ferr != nil {
				t.Error(ferr)
			}
		})
		if !errors.Is(err, ErrWouldDeadlock) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "goroutine started by work") {
			t.Errorf("%s from a goroutine the blocked work waits for: %v, want ErrWouldDeadlock", name, err)
		}
		// Two generations down, from a body of a pattern on the instance.
		err = nil
		within(t, name+" from a body", func() {
			ParallelFor("body", Range(0, 1).On(inst), func(int) {
				ch := make(chan error)
				go func() {
					inner := make(chan error)
					go func() { inner <- wait() }()
					ch <- <-inner
				}()
				err = <-ch
			})
			if ferr := inst.Fence(); ferr != nil {
				t.Error(ferr)
			}
		})
		if !errors.Is(err, ErrWouldDeadlock) {
			t.Errorf("%s from a grandchild of a body: %v, want ErrWouldDeadlock", name, err)
		}
	}
	// The work computes (it is not blocked) while its goroutine fences: the
	// fence waits for it.
	var err error
	done := make(chan struct{})
	within(t, "computing work", func() {
		inst.Submit("computes", func() {
			go func() { err = inst.Fence(); close(done) }()
			for start := time.Now(); time.Since(start) < 2*sched.StarterBound; {
			}
		})
		<-done
	})
	if err != nil {
		t.Errorf("Fence from a goroutine of computing work: %v, want nil", err)
	}
	// The work is blocked, on a goroutine it did not start: the fences of
	// this goroutine and of another wait for it.
	release := make(chan struct{})
	inst.Submit("blocked", func() { <-release })
	errs := make(chan error, 2)
	go func() { errs <- inst.Fence() }()
	go func() { errs <- Fence() }()
	time.Sleep(3 * sched.StarterBound)
	close(release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("Fence of blocked work from a goroutine it did not start: %v, want nil", err)
		}
	}
}

// TestResizeOptionsApplyOrErr: Resize and Realloc of an allocated view
// keep its label, layout, memory space and traits, as Kokkos's (whose
// resize and realloc refuse a label among the properties), and take only
// WithoutInitializing; any other option is an error wrapping ErrOption,
// also when the extents do not change, and the view is left as it was.
func TestResizeOptionsApplyOrErr(t *testing.T) {
	refused := map[string]Option{
		"LayoutLeft":   LayoutLeft,
		"LayoutRight":  LayoutRight,
		"WithStrides":  WithStrides(1, 4),
		"AllowPadding": AllowPadding,
		"InSpace":      InSpace(HostSpace),
		"WithTraits":   WithTraits(RandomAccess),
		"WithLabel":    WithLabel("other"),
	}
	for name, opt := range refused {
		for _, n := range []int{4, 6} { // the same extents, and new ones
			v := Must(NewView2[float64]("v", 4, 4))
			v.Set(1, 2, 7)
			d := Must(NewDynRankView[float64]("d", []int{4, 4}))
			d.Set2(1, 2, 7)
			errs := map[string]error{
				"Resize":          Resize(&v, [2]int{n, 4}, opt),
				"Realloc":         Realloc(&v, [2]int{n, 4}, opt),
				"DynRank Resize":  d.Resize([]int{n, 4}, opt),
				"DynRank Realloc": d.Realloc([]int{n, 4}, opt),
			}
			for op, err := range errs {
				if !errors.Is(err, ErrOption) {
					t.Errorf("%s with %s to (%d, 4): %v, want ErrOption", op, name, n, err)
				}
			}
			if v.Extent(0) != 4 || v.At(1, 2) != 7 || d.Extent(0) != 4 || d.At2(1, 2) != 7 {
				t.Errorf("%s: a refused Resize changed the view", name)
			}
		}
	}
	// WithoutInitializing applies; so do options on a zero view, which
	// Resize allocates as a constructor would.
	v := Must(NewView1[float64]("v", 4))
	if err := Resize(&v, [1]int{8}, WithoutInitializing); err != nil || v.Extent(0) != 8 {
		t.Fatalf("Resize WithoutInitializing: %v, extent %d", err, v.Extent(0))
	}
	var z View2[float64]
	if err := Realloc(&z, [2]int{3, 5}, LayoutLeft); err != nil || z.Layout() != LayoutLeft || z.Stride(1) != 3 {
		t.Fatalf("Realloc of the zero View2 with LayoutLeft: %v, layout %v", err, z.Layout())
	}
}

// TestScratchViewOptionsApplyOrPanic: a scratch view takes a layout and
// traits; an option it cannot apply is a programmer error, a panic with an
// error wrapping ErrOption that names the option and the pattern, never
// dropped.
func TestScratchViewOptionsApplyOrPanic(t *testing.T) {
	refused := map[string]Option{
		"InSpace(HostSpace)":  InSpace(HostSpace),
		"AllowPadding":        AllowPadding,
		"WithoutInitializing": WithoutInitializing,
		`WithLabel("s")`:      WithLabel("s"),
	}
	policy := Teams(1, 1).SetScratchSize(0, 1024, 0)
	for name, opt := range refused {
		var r any
		ParallelForTeam("scratch", policy, func(m *TeamMember) {
			defer func() { r = recover() }()
			ScratchView2[float64](m.TeamScratch(0), 4, 4, opt)
		})
		err, _ := r.(error)
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), `"scratch"`) {
			t.Errorf("ScratchView2 with %s: recovered %v, want an error wrapping ErrOption naming it", name, r)
		}
	}
	var got [2]int
	ParallelForTeam("scratch", policy, func(m *TeamMember) {
		s := ScratchView2[float64](m.TeamScratch(0), 4, 5, LayoutLeft, WithTraits(RandomAccess))
		got = [2]int{s.Stride(0), s.Stride(1)}
	})
	if got != [2]int{1, 4} {
		t.Fatalf("LayoutLeft scratch view strides %v, want [1 4]", got)
	}
}

// TestFenceFromSyncPatternInInstanceWork: instance work that runs a
// pattern on the pool's synchronous instance, whose body waits for the
// instance, can never end. The wait on the workers returns
// ErrWouldDeadlock once the work has stayed blocked in the pattern; the
// one on the instance's own goroutine at once, as before.
func TestFenceFromSyncPatternInInstanceWork(t *testing.T) {
	pool := NewThreads(3)
	defer pool.Close()
	inst := pool.NewInstance()
	errs := make([]error, 6)
	within(t, "pattern on the synchronous pool", func() {
		inst.Submit("outer", func() {
			ParallelFor("inner", Range(0, len(errs)).WithChunk(1).On(pool), func(i int) {
				time.Sleep(time.Millisecond)
				errs[i] = inst.Fence()
			})
		})
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
	})
	for i, err := range errs {
		if !errors.Is(err, ErrWouldDeadlock) {
			t.Errorf("index %d: %v, want ErrWouldDeadlock", i, err)
		}
	}
}
