package mpi

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
)

// dropReports collects the reports of dropped requests while a test runs.
type dropReports struct {
	mu   sync.Mutex
	errs []error
}

func catchDrops(t *testing.T) *dropReports {
	d := new(dropReports)
	prev := SetDropHandler(func(err error) {
		d.mu.Lock()
		d.errs = append(d.errs, err)
		d.mu.Unlock()
	})
	t.Cleanup(func() { SetDropHandler(prev) })
	return d
}

func (d *dropReports) get() []error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]error(nil), d.errs...)
}

// collect runs the garbage collector, so that the cleanups of unreachable
// Requests run, and gives them time to.
func collect() {
	for range 3 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitDrops collects and calls the package (a progress point) until want
// dropped requests were reported, or fails t after 30 s.
func awaitDrops(t *testing.T, d *dropReports, want int) []error {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(d.get()) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%d dropped request(s) reported after 30 s, want %d (%d in flight, %d of them dropped): %v", len(d.get()), want, inFlight(), nDropped.Load(), d.get())
		}
		collect()
		if _, err := World().WithPackLayout(kokkos.LayoutLeft); err != nil {
			t.Fatal(err)
		}
	}
	return d.get()
}

// wantReport fails t unless one of errs is a report wrapping ErrDropped
// that names the call, the view and this file as where it started.
func wantReport(t *testing.T, errs []error, call, label, how string) {
	t.Helper()
	for _, err := range errs {
		s := err.Error()
		if strings.Contains(s, call) && strings.Contains(s, label) {
			if !errors.Is(err, ErrDropped) || !strings.Contains(s, "request_test.go:") || !strings.Contains(s, how) {
				t.Errorf("report of %s of %s: %v", call, label, err)
			}
			t.Log(err)
			return
		}
	}
	t.Errorf("no report of %s of view %s among %v", call, label, errs)
}

// Requests dropped without Wait or Test: their pinned memory survives the
// garbage collector (which panicked with "found leaking pinned pointer"
// when a pinned Pinner became unreachable), their messages arrive, and
// each is reported once complete, naming where it started.
var _ = rankTest("DroppedRequests", func(t *testing.T) {
	w := World()
	drops := catchDrops(t)
	recordSites.Store(true) // as once a request was dropped
	newChunk()
	const n = 1000
	var kept kokkos.DynRankView[float64]
	switch w.Rank() {
	case 0:
		func() {
			// A contiguous view, pinned, and a packed one, whose packing
			// buffer only the request holds.
			v := makeView[float64]("dropped send", []int{n}, "right")
			fill[float64](&v, 1)
			if _, err := Isend[float64](w, &v, 1, 50); err != nil {
				t.Fatal(err)
			}
			s := makeView[float64]("dropped packed send", []int{6, 5}, "strided-right")
			fill[float64](&s, 2)
			if _, err := Isend[float64](w, &s, 1, 51); err != nil {
				t.Fatal(err)
			}
		}()
	case 1:
		// A packed receive: the message lands in kept when the dropped
		// request completes.
		kept = makeView[float64]("dropped recv", []int{n}, "strided-left")
		func() {
			if _, err := Irecv[float64](w, &kept, 0, 52); err != nil {
				t.Fatal(err)
			}
		}()
	}
	collect()
	switch w.Rank() {
	case 0:
		v := makeView[float64]("send", []int{n}, "right")
		fill[float64](&v, 3)
		if err := Send[float64](w, &v, 1, 52); err != nil {
			t.Fatal(err)
		}
		errs := awaitDrops(t, drops, 2)
		wantReport(t, errs, "MPI_Isend", `"dropped send" of 1000 elements to rank 1`, "it completed")
		wantReport(t, errs, "MPI_Isend", `"dropped packed send" of 30 elements to rank 1`, "it completed")
	case 1:
		r := makeView[float64]("recv", []int{n}, "right")
		if _, err := Recv[float64](w, &r, 0, 50); err != nil {
			t.Fatal(err)
		}
		check[float64](t, "message of a dropped Isend", &r, 1)
		r2 := makeView[float64]("recv packed", []int{6, 5}, "left")
		if _, err := Recv[float64](w, &r2, 0, 51); err != nil {
			t.Fatal(err)
		}
		check[float64](t, "message of a dropped packed Isend", &r2, 2)
		errs := awaitDrops(t, drops, 1)
		wantReport(t, errs, "MPI_Irecv", `"dropped recv" of 1000 elements from rank 0`, "it completed")
		check[float64](t, "message into the view of a dropped Irecv", &kept, 3)
	}
	if err := w.Barrier(); err != nil {
		t.Fatal(err)
	}
	if n := inFlight(); n != 0 {
		t.Errorf("%d requests still in flight", n)
	}
})

// A dropped receive that no message matches is cancelled when MPI ends
// (reapDropped(true), as Finalize calls it), and reported; so is a held
// one, whose Wait then says so.
var _ = rankTest("DroppedAtFinalize", func(t *testing.T) {
	w := World()
	drops := catchDrops(t)
	v := makeView[int32]("never sent", []int{10}, "right")
	func() {
		if _, err := Irecv[int32](w, &v, AnySource, 70); err != nil {
			t.Fatal(err)
		}
	}()
	// The held request goes in a chunk of its own, which does not keep
	// the dropped one's chunk reachable.
	newChunk()
	h := makeView[int32]("held", []int{10}, "strided-right")
	held, err := Irecv[int32](w, &h, AnySource, 71)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for nDropped.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the dropped Irecv was not found unreachable in 30 s")
		}
		collect()
	}
	finishAll()
	wantReport(t, drops.get(), "MPI_Irecv", `"never sent" of 10 elements from any rank`, "Finalize cancelled the receive")
	if _, err := held.Wait(); !errors.Is(err, ErrNotInitialized) || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("Wait of a held receive that Finalize cancelled: %v", err)
	}
	if n := inFlight(); n != 0 {
		t.Errorf("%d requests still in flight", n)
	}
	if err := w.Barrier(); err != nil {
		t.Fatal(err)
	}
})

// TestDropReportWithoutSite: the report of a request whose start was not
// recorded (the first one dropped) still names the call, the view, the
// peer and the tag, and says why the line is missing; one recorded names
// this file. No MPI library is needed.
func TestDropReportWithoutSite(t *testing.T) {
	if underMPI {
		t.Skip("runs in a process without MPI")
	}
	var got []error
	prev := SetDropHandler(func(err error) { got = append(got, err) })
	defer func() { SetDropHandler(prev) }()
	c := &Comm{name: "MPI_COMM_WORLD"}
	v := kokkos.Must(kokkos.NewView1[float64]("halo", 12))
	b := buffer[float64]{n: 12, view: &v}
	s := &reqState{call: "MPI_Isend", op: &sendOp[float64]{c: c, b: b, dest: 3, tag: 9}}
	reportDrop(s)
	s = &reqState{call: "MPI_Irecv", op: &recvOp[float64]{c: c, b: b, src: AnySource, tag: 4}}
	s.pcs = new([4]uintptr)
	runtime.Callers(1, s.pcs[:])
	reportDrop(s)
	if len(got) != 2 {
		t.Fatalf("%d reports", len(got))
	}
	for i, want := range [][]string{
		{`MPI_Isend (view "halo" of 12 elements to rank 3 of MPI_COMM_WORLD, tag 9)`, "does not record", "keep every request"},
		{`MPI_Irecv (view "halo" of 12 elements from any rank of MPI_COMM_WORLD, tag 4) started at `, "request_test.go:"},
	} {
		for _, w := range want {
			if !errors.Is(got[i], ErrDropped) || !strings.Contains(got[i].Error(), w) {
				t.Errorf("report %d: %v does not say %q", i, got[i], w)
			}
		}
	}
}

// newChunk makes the next request start a chunk of Requests of its own.
func newChunk() {
	requests.mu.Lock()
	requests.next = chunkSize
	requests.mu.Unlock()
}
