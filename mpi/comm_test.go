package mpi

import (
	"errors"
	"os"
	"testing"
)

var _ = rankTest("Comm", func(t *testing.T) {
	w := World()
	if impl, _, _ := Library(); impl != os.Getenv(envExpect) {
		t.Fatalf("Library() = %q, want %q", impl, os.Getenv(envExpect))
	}
	if w.Size() < 2 || w.Rank() < 0 || w.Rank() >= w.Size() {
		t.Fatalf("rank %d of %d", w.Rank(), w.Size())
	}
	want := ThreadMultiple
	if os.Getenv(envSerial) != "" {
		want = ThreadSerialized
	}
	if ThreadLevel() != want || serial != (want != ThreadMultiple) {
		t.Errorf("thread level %v, serialised %v; want %v", ThreadLevel(), serial, want)
	}
	if err := w.Barrier(); err != nil {
		t.Fatal(err)
	}
	half, err := w.Split(w.Rank()%2, -w.Rank())
	if err != nil {
		t.Fatal(err)
	}
	wantSize := (w.Size() + 1 - w.Rank()%2) / 2
	if half.Size() != wantSize {
		t.Errorf("Split: size %d, want %d", half.Size(), wantSize)
	}
	// key -rank reverses the order.
	if want := wantSize - 1 - w.Rank()/2; half.Rank() != want {
		t.Errorf("Split: rank %d, want %d", half.Rank(), want)
	}
	none, err := w.Split(-1, 0)
	if err != nil || none != nil {
		t.Errorf("Split with a negative color: %v, %v", none, err)
	}
	d, err := w.Dup()
	if err != nil || d.Rank() != w.Rank() || d.Size() != w.Size() {
		t.Fatalf("Dup: %v", err)
	}
	if err := d.Barrier(); err != nil {
		t.Fatal(err)
	}
	if err := d.Free(); err != nil {
		t.Fatal(err)
	}
	if err := d.Barrier(); !errors.Is(err, ErrNotInitialized) {
		t.Errorf("Barrier of a freed communicator: %v", err)
	}
	if err := half.Free(); err != nil {
		t.Fatal(err)
	}
	if err := w.Free(); err == nil {
		t.Error("Free of World succeeded")
	}
})

// An MPI error comes back as an *Error naming the call and the library's
// string: a send to a rank past the communicator.
var _ = rankTest("ErrorsReturn", func(t *testing.T) {
	w := World()
	err := w.Barrier()
	if err != nil {
		t.Fatal(err)
	}
	var me *Error
	err = sendInts(w, w.Size()+3)
	if !errors.As(err, &me) || !errors.Is(err, ErrMPI) || me.Call != "MPI_Send" || me.Msg == "" {
		t.Fatalf("Send to rank %d: %v", w.Size()+3, err)
	}
	t.Logf("%v", err)
})

func TestBeforeInit(t *testing.T) {
	if underMPI {
		t.Skip("runs in a process without MPI")
	}
	w := World()
	if w.Rank() != -1 || w.Size() != 0 {
		t.Errorf("World before Init: rank %d size %d", w.Rank(), w.Size())
	}
	if err := w.Barrier(); !errors.Is(err, ErrNotInitialized) {
		t.Errorf("Barrier before Init: %v", err)
	}
	if err := sendInts(w, 0); !errors.Is(err, ErrNotInitialized) {
		t.Errorf("Send before Init: %v", err)
	}
	if err := Finalize(); !errors.Is(err, ErrNotInitialized) {
		t.Errorf("Finalize before Init: %v", err)
	}
	if Initialized() || CUDAAware() {
		t.Error("Initialized or CUDAAware before Init")
	}
}
