package main

import (
	"fmt"
	"os"
	"slices"
	"time"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/mpi"
)

func init() {
	register(suite{name: "mpi", desc: "views over MPI (under mpirun -np 2): ping-pong latency and bandwidth against raw MPI_Send, a strided column, Allreduce of 8 bytes", run: runMPI})
}

// underMPIRun reports whether a launcher started this process: Open MPI's
// mpirun sets OMPI_COMM_WORLD_SIZE, MPICH's Hydra PMI_SIZE.
func underMPIRun() bool {
	return os.Getenv("OMPI_COMM_WORLD_SIZE") != "" || os.Getenv("PMI_SIZE") != ""
}

// runMPI measures on ranks 0 and 1 of MPI_COMM_WORLD; rank 0 reports, the
// other ranks finalise MPI and exit when the suite ends, so that only rank
// 0 goes on to the next suites and prints the table. Outside mpirun it
// reports that it did not run.
func runMPI(cfg config, add func(measure)) error {
	if !underMPIRun() {
		add(measure{NotRun: "needs 2 processes: mpirun -np 2 kokkos-bench -suite mpi"})
		return nil
	}
	if err := mpi.Init(); err != nil {
		return err
	}
	w := mpi.World()
	if w.Size() < 2 {
		return fmt.Errorf("the mpi suite needs 2 processes, has %d", w.Size())
	}
	err := measureMPI(cfg, w, add)
	if e := mpi.Finalize(); err == nil {
		err = e
	}
	if w.Rank() != 0 {
		if err != nil {
			fmt.Fprintf(os.Stderr, "rank %d: %v\n", w.Rank(), err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	impl, _, _ := mpi.Library()
	fmt.Fprintf(os.Stderr, "suite mpi: %s, %d processes, thread level %v\n", impl, w.Size(), mpi.ThreadLevel())
	return err
}

// pingPong times round trips between ranks 0 and 1 (rank 0 sends first),
// reps times iters of them, and returns the median seconds of one
// one-way message. Every rank calls it; ranks past 1 only wait.
func pingPong(w *mpi.Comm, reps, iters int, send, recv func() error) (float64, error) {
	var ts []float64
	for range reps {
		if err := w.Barrier(); err != nil {
			return 0, err
		}
		start := time.Now()
		for range iters {
			var err error
			switch w.Rank() {
			case 0:
				if err = send(); err == nil {
					err = recv()
				}
			case 1:
				if err = recv(); err == nil {
					err = send()
				}
			}
			if err != nil {
				return 0, err
			}
		}
		ts = append(ts, time.Since(start).Seconds()/float64(2*iters))
	}
	slices.Sort(ts)
	return ts[len(ts)/2], nil
}

func measureMPI(cfg config, w *mpi.Comm, add func(measure)) error {
	mr, err := openRawMPI()
	if err != nil {
		return err
	}
	st := new(mpiStatus)
	peer := 1 - min(w.Rank(), 1)
	scaled := func(n, least int) int { return max(least, int(float64(n)*cfg.scale)) }
	viewPair := func(v kokkos.View[float64]) (func() error, func() error) {
		return func() error { return mpi.Send(w, v, peer, 1) },
			func() error { _, err := mpi.Recv(w, v, peer, 1); return err }
	}
	rawPair := func(b []byte) (func() error, func() error) {
		p := unsafe.Pointer(&b[0])
		return func() error { return mr.sendBytes(p, len(b), peer, 2) },
			func() error { return mr.recvBytes(p, len(b), peer, 2, st) }
	}
	// Contiguous views against raw MPI_Send of the same bytes, the two
	// alternating rep by rep.
	for _, c := range []struct {
		name  string
		bytes int
		iters int
	}{{"8 B", 8, scaled(20000, 200)}, {"1 MiB", 1 << 20, scaled(400, 10)}, {"64 MiB", 64 << 20, scaled(10, 2)}} {
		v, err := kokkos.NewView1[float64]("pingpong", c.bytes/8)
		if err != nil {
			return err
		}
		raw := make([]byte, c.bytes)
		vs, vr := viewPair(&v)
		rs, rr := rawPair(raw)
		var tv, tr []float64
		for i := range cfg.reps {
			// Alternate which goes first, so that neither gains from its
			// place.
			var a, b float64
			if i%2 == 0 {
				a, err = pingPong(w, 1, c.iters, vs, vr)
				if err == nil {
					b, err = pingPong(w, 1, c.iters, rs, rr)
				}
			} else {
				b, err = pingPong(w, 1, c.iters, rs, rr)
				if err == nil {
					a, err = pingPong(w, 1, c.iters, vs, vr)
				}
			}
			if err != nil {
				return err
			}
			tv, tr = append(tv, a), append(tr, b)
		}
		_ = v.Release()
		slices.Sort(tv)
		slices.Sort(tr)
		view, base := tv[len(tv)/2], tr[len(tr)/2]
		if c.bytes == 8 {
			add(measure{Name: "ping-pong 8 B View1 latency", Unit: "µs", Value: view * 1e6, Baseline: base * 1e6,
				Note: "one way; baseline: raw MPI_Send/MPI_Recv of 8 bytes"})
			add(measure{Name: "ping-pong 8 B latency over raw", Unit: "µs", Value: (view - base) * 1e6, Goal: 0.5, GoalOp: "<="})
			continue
		}
		gb := float64(c.bytes) / 1e9
		add(measure{Name: "ping-pong " + c.name + " View1 bandwidth", Unit: "GB/s", Value: gb / view, Baseline: gb / base, Goal: 0.95, GoalOp: ">=",
			Note: "baseline: raw MPI_Send/MPI_Recv of the same bytes"})
	}

	// The strided column of an n² LayoutRight view (packed through
	// DeepCopy) against a contiguous view of the same bytes, and the same
	// column described by MPI_Type_vector instead of packed.
	n := 4096
	if cfg.scale < 1 {
		n = 512
	}
	iters := scaled(2000, 50)
	a, err := kokkos.NewView2[float64]("field", n, n)
	if err != nil {
		return err
	}
	defer a.Release()
	col := a.Subview1(kokkos.All, 7)
	// The same field with AllowPadding: rows 4104 float64s apart, off the
	// 4 KiB multiple that puts a column in a few cache sets.
	ap, err := kokkos.NewView2[float64]("field", n, n, kokkos.AllowPadding)
	if err != nil {
		return err
	}
	defer ap.Release()
	pcol := ap.Subview1(kokkos.All, 7)
	line, err := kokkos.NewView1[float64]("line", n)
	if err != nil {
		return err
	}
	defer line.Release()
	cs, cr := viewPair(&col)
	ps, pr := viewPair(&pcol)
	ls, lr := viewPair(&line)
	p := unsafe.Pointer(a.Ptr(0, 7))
	ts := func() error { return mr.sendVector(p, n, n, peer, 3) }
	tr := func() error { return mr.recvVector(p, n, n, peer, 3, st) }
	// The floor of packing: the column gathered by a plain loop into a
	// buffer sent with raw MPI_Send, and scattered by a plain loop on
	// receipt.
	fd, fs := a.Data(), a.Stride(0)
	buf := make([]float64, n)
	bp := unsafe.Pointer(&buf[0])
	hs := func() error {
		for i := range buf {
			buf[i] = fd[i*fs+7]
		}
		return mr.sendBytes(bp, n*8, peer, 4)
	}
	hr := func() error {
		if err := mr.recvBytes(bp, n*8, peer, 4, st); err != nil {
			return err
		}
		for i, x := range buf {
			fd[i*fs+7] = x
		}
		return nil
	}
	var tc, tp, tl, tt, th []float64
	for range cfg.reps {
		for _, x := range []struct {
			s, r func() error
			t    *[]float64
		}{{cs, cr, &tc}, {ps, pr, &tp}, {ls, lr, &tl}, {ts, tr, &tt}, {hs, hr, &th}} {
			v, err := pingPong(w, 1, iters, x.s, x.r)
			if err != nil {
				return err
			}
			*x.t = append(*x.t, v)
		}
	}
	for _, t := range [][]float64{tc, tp, tl, tt, th} {
		slices.Sort(t)
	}
	gb := float64(n*8) / 1e9
	contig := gb / tl[len(tl)/2]
	add(measure{Name: fmt.Sprintf("ping-pong column of %d² LayoutRight, packed", n), Unit: "GB/s", Value: gb / tc[len(tc)/2], Baseline: contig, Goal: 0.5, GoalOp: ">=",
		Note: fmt.Sprintf("%d KiB; baseline: a contiguous View1 of the same bytes; rows 32 KiB apart put the column in a few cache sets", n*8/1024)})
	add(measure{Name: fmt.Sprintf("ping-pong column of %d² LayoutRight, AllowPadding, packed", n), Unit: "GB/s", Value: gb / tp[len(tp)/2], Baseline: contig, Goal: 0.5, GoalOp: ">=",
		Note: fmt.Sprintf("rows %d float64s apart; baseline: a contiguous View1 of the same bytes", ap.Stride(0))})
	add(measure{Name: fmt.Sprintf("ping-pong column of %d², packed by hand", n), Unit: "GB/s", Value: gb / th[len(th)/2], Baseline: contig,
		Note: "the floor of packing: plain-loop gather and scatter around raw MPI_Send/MPI_Recv"})
	add(measure{Name: fmt.Sprintf("ping-pong column of %d², MPI_Type_vector", n), Unit: "GB/s", Value: gb / tt[len(tt)/2], Baseline: contig,
		Note: "the derived-datatype alternative to packing (raw calls, datatype made per message)"})

	// Allreduce of one float64.
	x, err := kokkos.NewView0[float64]("x")
	if err != nil {
		return err
	}
	defer x.Release()
	var in, out float64 = 1, 0
	var va, vb []float64
	ar := scaled(20000, 200)
	for range cfg.reps {
		for _, y := range []struct {
			f func() error
			t *[]float64
		}{
			{func() error { return mpi.Allreduce[float64](w, &x, &x, mpi.Sum) }, &va},
			{func() error { return mr.allreduceSum(&in, &out) }, &vb},
		} {
			if err := w.Barrier(); err != nil {
				return err
			}
			start := time.Now()
			for range ar {
				if err := y.f(); err != nil {
					return err
				}
			}
			*y.t = append(*y.t, time.Since(start).Seconds()/float64(ar))
		}
	}
	slices.Sort(va)
	slices.Sort(vb)
	add(measure{Name: "Allreduce of 8 B (View0, in place)", Unit: "µs", Value: va[len(va)/2] * 1e6, Baseline: vb[len(vb)/2] * 1e6,
		Note: fmt.Sprintf("baseline: raw MPI_Allreduce of one float64; %d processes", w.Size())})
	add(measure{Name: "Allreduce of 8 B over raw", Unit: "µs", Value: (va[len(va)/2] - vb[len(vb)/2]) * 1e6, Goal: 0.5, GoalOp: "<="})
	return nil
}
