package tools_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	stdtime "time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// recorder is a Tool that records every event as a line of text, with
// the kernel and fence ids replaced by the order of their begins.
type recorder struct {
	mu     sync.Mutex
	events []string
	ids    map[uint64]int
	final  int
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) begin(kind, name string, dev uint32, id uint64) {
	r.mu.Lock()
	if r.ids == nil {
		r.ids = map[uint64]int{}
	}
	if _, dup := r.ids[id]; dup || id == 0 {
		r.events = append(r.events, fmt.Sprintf("bad id %d", id))
	}
	r.ids[id] = len(r.ids) + 1
	n := r.ids[id]
	r.mu.Unlock()
	space, _, _ := tools.DeviceType(dev)
	r.add("begin %s %q %s #%d", kind, name, space, n)
}

func (r *recorder) end(kind string, id uint64) {
	r.mu.Lock()
	n, ok := r.ids[id]
	r.mu.Unlock()
	if !ok {
		r.add("end of unknown id %d", id)
		return
	}
	r.add("end %s #%d", kind, n)
}

func (r *recorder) BeginParallelFor(name string, dev uint32, id uint64) {
	r.begin("for", name, dev, id)
}
func (r *recorder) EndParallelFor(id uint64) { r.end("for", id) }
func (r *recorder) BeginParallelReduce(name string, dev uint32, id uint64) {
	r.begin("reduce", name, dev, id)
}
func (r *recorder) EndParallelReduce(id uint64) { r.end("reduce", id) }
func (r *recorder) BeginParallelScan(name string, dev uint32, id uint64) {
	r.begin("scan", name, dev, id)
}
func (r *recorder) EndParallelScan(id uint64) { r.end("scan", id) }
func (r *recorder) BeginFence(name string, dev uint32, id uint64) {
	r.begin("fence", name, dev, id)
}
func (r *recorder) EndFence(id uint64) { r.end("fence", id) }
func (r *recorder) AllocateData(space, label string, ptr uintptr, size uint64) {
	r.add("alloc %s %q %d nonzero=%v", space, label, size, ptr != 0)
}
func (r *recorder) DeallocateData(space, label string, ptr uintptr, size uint64) {
	r.add("dealloc %s %q %d nonzero=%v", space, label, size, ptr != 0)
}
func (r *recorder) BeginDeepCopy(ds, dl string, d uintptr, ss, sl string, s uintptr, size uint64) {
	r.add("copy %s %q <- %s %q %d nonzero=%v", ds, dl, ss, sl, size, d != 0 && s != 0)
}
func (r *recorder) EndDeepCopy()        { r.add("end copy") }
func (r *recorder) PushRegion(n string) { r.add("push %q", n) }
func (r *recorder) PopRegion()          { r.add("pop") }
func (r *recorder) Finalize()           { r.final++ }

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.events
	r.events = nil
	return e
}

// TestEvents runs each kind of pattern, copy, fence and allocation with
// a recorder registered and checks the events and their arguments.
func TestEvents(t *testing.T) {
	r := &recorder{}
	tools.Register(r)
	defer tools.Finalize()

	n := 1000 + rand.IntN(1000)
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	y := kokkos.Must(kokkos.NewView1[float64]("y", n))
	want := []string{
		fmt.Sprintf("alloc Host %q %d nonzero=true", "x", 8*n),
		fmt.Sprintf("alloc Host %q %d nonzero=true", "y", 8*n),
	}
	check := func(what string) {
		t.Helper()
		if got := r.take(); !slices.Equal(got, want) {
			t.Fatalf("%s: events\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	check("allocations")

	vals := make([]float64, n)
	for i := range vals {
		vals[i] = rand.Float64()
	}
	kokkos.ParallelFor("init", kokkos.Range(0, n), func(i int) { x.Set(i, vals[i]) })
	kokkos.ParallelForChunks("chunks", kokkos.Range(0, n), func(lo, hi int) {})
	sum := kokkos.ParallelReduce("sum", kokkos.Range(0, n), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += x.At(i) })
	var ref float64
	for _, v := range vals {
		ref += v
	}
	if d := sum - ref; d > 1e-9 || d < -1e-9 {
		t.Fatalf("sum %v, want %v", sum, ref)
	}
	kokkos.ParallelScan("scan", kokkos.Range(0, n), kokkos.Sum[float64](), func(i int, acc *float64, final bool) {
		*acc += x.At(i)
		if final {
			y.Set(i, *acc)
		}
	})
	kokkos.ParallelForMD("md", kokkos.MDRange([]int{0, 0}, []int{4, 5}), func(i, j int) {})
	kokkos.ParallelForTeam("team", kokkos.Teams(3, kokkos.Auto), func(m *kokkos.TeamMember) {})
	kokkos.ParallelFor("serial", kokkos.Range(0, 3).On(kokkos.Serial{}), func(i int) {})
	want = []string{
		`begin for "init" Threads #1`, `end for #1`,
		`begin for "chunks" Threads #2`, `end for #2`,
		`begin reduce "sum" Threads #3`, `end reduce #3`,
		`begin scan "scan" Threads #4`, `end scan #4`,
		`begin for "md" Threads #5`, `end for #5`,
		`begin for "team" Threads #6`, `end for #6`,
		`begin for "serial" Serial #7`, `end for #7`,
	}
	check("kernels")

	if err := kokkos.DeepCopy(y, x); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.Fill(x, 2.5); err != nil {
		t.Fatal(err)
	}
	tools.PushRegion("outer")
	tools.PushRegion("inner")
	tools.PopRegion()
	tools.PopRegion()
	if err := kokkos.Fence(); err != nil {
		t.Fatal(err)
	}
	want = []string{
		fmt.Sprintf(`copy Host "y" <- Host "x" %d nonzero=true`, 8*n), "end copy",
		fmt.Sprintf(`copy Host "x" <- Host "Scalar" %d nonzero=true`, 8*n), "end copy",
		`push "outer"`, `push "inner"`, "pop", "pop",
		`begin fence "Kokkos::fence: Unnamed Global Fence" Serial #8`, `end fence #8`,
	}
	check("copies, regions, fence")

	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	kokkos.ParallelFor("async", kokkos.Range(0, 10).On(inst), func(i int) {})
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	// The kernel may start before or after the fence begins; the fence
	// ends last.
	got := r.take()
	sorted := slices.Sorted(slices.Values(got))
	want = []string{
		`begin fence "Kokkos::Threads::fence: Unnamed Instance Fence" Threads #9`,
		`begin for "async" Threads #10`,
		`end fence #9`, `end for #10`,
	}
	if !slices.Equal(sorted, want) {
		want = []string{
			`begin fence "Kokkos::Threads::fence: Unnamed Instance Fence" Threads #10`,
			`begin for "async" Threads #9`,
			`end fence #10`, `end for #9`,
		}
	}
	if !slices.Equal(sorted, want) || !strings.HasPrefix(got[3], "end fence") {
		t.Fatalf("asynchronous instance: events\n%s", strings.Join(got, "\n"))
	}

	if err := x.Release(); err != nil {
		t.Fatal(err)
	}
	want = []string{fmt.Sprintf("dealloc Host %q %d nonzero=true", "x", 8*n)}
	check("release")
	runtime.KeepAlive(y)
}

// TestKernelTimer checks the timer's table against known call counts.
func TestKernelTimer(t *testing.T) {
	var kt tools.KernelTimer
	var out bytes.Buffer
	kt.Out = &out
	tools.Register(&kt)
	calls := map[string]int{"a": 1 + rand.IntN(5), "b": 1 + rand.IntN(5), "c": 1 + rand.IntN(5)}
	for label, c := range calls {
		for range c {
			kokkos.ParallelFor(label, kokkos.Range(0, 100), func(int) {})
		}
	}
	for range calls["c"] {
		kokkos.ParallelReduce("c", kokkos.Range(0, 100), kokkos.Sum[int](), func(i int, acc *int) { *acc += i })
	}
	tools.Finalize()
	rows := kt.Stats()
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4: %+v", len(rows), rows)
	}
	var share float64
	for _, s := range rows {
		if s.Calls != calls[s.Label] {
			t.Errorf("%s %s: %d calls, want %d", s.Label, s.Kind, s.Calls, calls[s.Label])
		}
		if s.Total <= 0 || s.Mean != s.Total/stdtime.Duration(s.Calls) {
			t.Errorf("%s %s: total %v, mean %v", s.Label, s.Kind, s.Total, s.Mean)
		}
		share += s.Share
	}
	if share < 0.999 || share > 1.001 {
		t.Errorf("shares sum to %v, want 1", share)
	}
	if !slices.IsSortedFunc(rows, func(a, b tools.KernelStat) int { return int(b.Total - a.Total) }) {
		t.Errorf("rows not sorted by total: %+v", rows)
	}
	for _, label := range []string{"kernel", "parallel_reduce", "a", "b", "c"} {
		if !strings.Contains(out.String(), label) {
			t.Errorf("table lacks %q:\n%s", label, out.String())
		}
	}
	// Finalize unregistered the timer.
	kokkos.ParallelFor("a", kokkos.Range(0, 1), func(int) {})
	if got := kt.Stats()[0].Calls; got > 5 {
		t.Errorf("timer still registered after Finalize")
	}
}

// TestMemoryHighWater checks the high-water mark of a known sequence of
// allocations and releases.
func TestMemoryHighWater(t *testing.T) {
	var m tools.MemoryHighWater
	m.Out = &bytes.Buffer{}
	tools.Register(&m)
	defer tools.Finalize()
	sizes := []int{100 + rand.IntN(100), 200 + rand.IntN(100), 300 + rand.IntN(100)}
	var views []kokkos.View1[int32]
	var cur, high uint64
	for _, s := range sizes {
		views = append(views, kokkos.Must(kokkos.NewView1[int32]("m", s)))
		cur += uint64(4 * s)
		high = max(high, cur)
	}
	if err := views[1].Release(); err != nil {
		t.Fatal(err)
	}
	cur -= uint64(4 * sizes[1])
	views = append(views, kokkos.Must(kokkos.NewView1[int32]("m", 50)))
	cur += 200
	high = max(high, cur)
	got := m.Stats()
	want := []tools.MemoryStat{{Space: "Host", Current: cur, HighWater: high, Allocations: 4, Deallocations: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
	runtime.KeepAlive(views)
}

// TestEmptyRanges: patterns over empty ranges are reported, as Kokkos
// reports every pattern, and return their identities.
func TestEmptyRanges(t *testing.T) {
	r := &recorder{}
	tools.Register(r)
	defer tools.Finalize()
	var sink []float64
	if s := kokkos.ParallelReduce("r0", kokkos.Range(3, 3), kokkos.Sum[float64](), func(int, *float64) {}); s != 0 {
		t.Fatalf("empty reduce %v", s)
	}
	if s := kokkos.ParallelScan("s0", kokkos.Range(0, 0), kokkos.Sum[int](), func(int, *int, bool) {}); s != 0 {
		t.Fatalf("empty scan %v", s)
	}
	if s := kokkos.InclusiveScan("i0", kokkos.Range(0, 0), sink, sink); s != 0 {
		t.Fatalf("empty InclusiveScan %v", s)
	}
	if s := kokkos.ParallelReduceMD("m0", kokkos.MDRange([]int{0, 0}, []int{4, 0}), kokkos.Max[int](), func(int, int, *int) {}); s != kokkos.Max[int]().Identity() {
		t.Fatalf("empty MDRange reduce %v", s)
	}
	if s := kokkos.ParallelReduceTeam("t0", kokkos.Teams(0, kokkos.Auto), kokkos.Sum[int](), func(*kokkos.TeamMember, *int) {}); s != 0 {
		t.Fatalf("empty team reduce %v", s)
	}
	want := []string{
		`begin reduce "r0" Threads #1`, "end reduce #1",
		`begin scan "s0" Threads #2`, "end scan #2",
		`begin scan "i0" Threads #3`, "end scan #3",
		`begin reduce "m0" Threads #4`, "end reduce #4",
		`begin reduce "t0" Threads #5`, "end reduce #5",
	}
	if got := r.take(); !slices.Equal(got, want) {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
