// Command heat-mpi solves the 2-D heat equation of examples/heat (an
// explicit 5-point stencil on an N×N grid, two hot spots, a fixed
// boundary) split over MPI processes in both dimensions:
//
//	mpirun -np 4 --oversubscribe go run ./examples/heat-mpi -n 256 -steps 500 -out /tmp
//
// (or build it first: go build -o heat-mpi ./examples/heat-mpi, then
// mpirun -np 4 ./heat-mpi). The processes form a px×py grid as near square
// as their number allows; each holds its block of the field with a halo of
// one point on each side. Every step, each process exchanges halo rows
// and columns with its neighbours by Isend and Irecv of subviews (rows are
// contiguous and go straight from memory; columns are strided and packed),
// then updates its interior. At the end rank 0 receives every block into
// the whole field, runs the same stencil in one process, and checks that
// the two fields are bit-identical (it exits with status 1 when they are
// not), prints the time per step and a checksum, and writes heat-mpi.png.
//
// With -space cuda each process runs its block on its own GPU, the one
// cuda.SelectDevice picks (the launcher's local rank modulo the visible
// devices; more processes than GPUs share them), with the //kokkos:kernel
// functions of package strip (examples/heat-mpi/strip), which go generate
// compiles into host loops and CUDA C without fused multiply-adds
// (strip_kernels_gen.go): the field is bit-identical to the host's. The
// blocks are then strips of rows; each step updates a strip's first and
// last rows on one stream, sends them to the neighbours with Isend and
// Irecv while the rows between are updated on a second stream, and rank 0
// checks the gathered field against one strip of the whole grid run on
// its GPU (and against the host stencil when the run is small). -halo
// says how the rows travel: device subviews given to MPI (staged through
// pinned memory by package mpi unless the library is CUDA-aware), or
// pinned host buffers the program fills on the stream (auto: the first
// where the library is CUDA-aware, else the second). -order says how a
// step's work is ordered: by events between the two streams, the host
// waiting only for the edge rows it sends, so that the next step's
// interior runs while the halos travel (events; auto's choice on a GPU
// unless package mpi stages the rows), or by fences of both streams at
// the end of each step (fences). -space pool runs the same kernels and
// schedule on the host pool (-order events there uses two asynchronous
// instances):
//
//	mpirun -np 4 ./heat-mpi -space cuda -n 8192 -steps 100 -out ""
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/mpi"
)

// alpha is the diffusion number dt*k/h², as in examples/heat.
const alpha = 0.2

func main() {
	n := flag.Int("n", 256, "grid points per side")
	steps := flag.Int("steps", 500, "time steps")
	out := flag.String("out", ".", "directory of heat-mpi.png (empty: no image)")
	space := flag.String("space", "host", "where each block runs: host (loops over host views), pool (the Go kernels on the host pool) or cuda (the Go kernels on the process's GPU, cuda.SelectDevice)")
	halo := flag.String("halo", "auto", "with -space cuda or pool, how halo rows travel: device (Isend/Irecv of the device rows), pinned (copied on a stream to pinned host buffers, sent from there) or auto (device where the library is CUDA-aware, else pinned)")
	order := flag.String("order", "auto", "with -space cuda or pool, how a step's kernels and copies are ordered: events (streams wait for one another's events; the host waits for the edge rows only), fences (the host waits for the whole step) or auto (events on a GPU whose halos are staged by the program or read by a CUDA-aware library, else fences)")
	flag.Parse()
	if err := mpi.Init(); err != nil {
		fmt.Fprintln(os.Stderr, "heat-mpi:", err)
		os.Exit(1)
	}
	code := 0
	if err := run(os.Stdout, *n, *steps, *out, *space, *halo, *order); err != nil {
		fmt.Fprintf(os.Stderr, "heat-mpi: rank %d: %v\n", mpi.World().Rank(), err)
		code = 1
	}
	if err := mpi.Finalize(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "heat-mpi:", err)
		code = 1
	}
	os.Exit(code)
}

// initial is the field at (i, j) of an n×n grid: zero, with a hot spot of
// 1 around (n/3, n/3) and one of 0.75 around (2n/3, 3n/5).
func initial(i, j, n int) float64 {
	r1, r2 := max(n/8, 1), max(n/10, 1)
	d1 := (i-n/3)*(i-n/3) + (j-n/3)*(j-n/3)
	d2 := (i-2*n/3)*(i-2*n/3) + (j-3*n/5)*(j-3*n/5)
	switch {
	case d1 <= r1*r1:
		return 1
	case d2 <= r2*r2:
		return 0.75
	}
	return 0
}

// update is the stencil at one interior point: c plus alpha times the
// 5-point Laplacian, rounded one operation at a time (the conversions
// keep Go from fusing a multiply-add), so that every process computes
// exactly what one process would.
func update(c, north, south, west, east float64) float64 {
	s := north + south + west + east
	return c + float64(alpha*float64(s-float64(4*c)))
}

// split returns the first index and the count of part k of n points cut
// into p parts of sizes differing by at most one.
func split(n, p, k int) (first, count int) {
	q, r := n/p, n%p
	return k*q + min(k, r), q + btoi(k < r)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// grid returns px, py with px*py = p, px <= py, as near square as p allows.
func grid(p int) (px, py int) {
	px = int(math.Sqrt(float64(p)))
	for p%px != 0 {
		px--
	}
	return px, p / px
}

// block is one process's part of the field.
type block struct {
	gi, gj, ni, nj int                   // first global row and column, rows and columns
	cur, next      kokkos.View2[float64] // (ni+2)×(nj+2), with the halo
	north, south   int                   // neighbour ranks, -1 at the boundary
	west, east     int
}

func newBlock(w *mpi.Comm, n int) (*block, error) {
	px, py := grid(w.Size())
	rx, ry := w.Rank()/py, w.Rank()%py
	b := &block{north: -1, south: -1, west: -1, east: -1}
	b.gi, b.ni = split(n, px, rx)
	b.gj, b.nj = split(n, py, ry)
	if b.ni == 0 || b.nj == 0 {
		return nil, fmt.Errorf("a %d×%d grid has no points for process (%d, %d) of %d×%d", n, n, rx, ry, px, py)
	}
	if rx > 0 {
		b.north = w.Rank() - py
	}
	if rx < px-1 {
		b.south = w.Rank() + py
	}
	if ry > 0 {
		b.west = w.Rank() - 1
	}
	if ry < py-1 {
		b.east = w.Rank() + 1
	}
	var err error
	if b.cur, err = kokkos.NewView2[float64]("cur", b.ni+2, b.nj+2); err != nil {
		return nil, err
	}
	if b.next, err = kokkos.NewView2[float64]("next", b.ni+2, b.nj+2); err != nil {
		return nil, err
	}
	for i := range b.ni {
		for j := range b.nj {
			b.cur.Set(i+1, j+1, initial(b.gi+i, b.gj+j, n))
		}
	}
	return b, nil
}

// Halo tags: the direction a message travels.
const (
	tagSouth = iota
	tagNorth
	tagEast
	tagWest
)

// exchange fills cur's halo from the neighbours: the first and last
// interior rows (contiguous) and columns (strided) go to the neighbours,
// theirs come into the halo rows and columns.
func (b *block) exchange(w *mpi.Comm) error {
	u := &b.cur
	rows := kokkos.Pair(1, b.ni+1)
	cols := kokkos.Pair(1, b.nj+1)
	var reqs []*mpi.Request
	post := func(r *mpi.Request, err error) error {
		reqs = append(reqs, r)
		return err
	}
	type msg struct {
		peer, sendTag, recvTag int
		send, recv             kokkos.View1[float64]
	}
	msgs := []msg{
		{b.north, tagNorth, tagSouth, u.Subview1(1, cols), u.Subview1(0, cols)},
		{b.south, tagSouth, tagNorth, u.Subview1(b.ni, cols), u.Subview1(b.ni+1, cols)},
		{b.west, tagWest, tagEast, u.Subview1(rows, 1), u.Subview1(rows, 0)},
		{b.east, tagEast, tagWest, u.Subview1(rows, b.nj), u.Subview1(rows, b.nj+1)},
	}
	for _, m := range msgs {
		if m.peer < 0 {
			continue
		}
		if err := post(mpi.Irecv[float64](w, &m.recv, m.peer, m.recvTag)); err != nil {
			return err
		}
		if err := post(mpi.Isend[float64](w, &m.send, m.peer, m.sendTag)); err != nil {
			return err
		}
	}
	return mpi.WaitAll(reqs...)
}

// step updates the interior of the block into next; points on the global
// boundary keep their value.
func (b *block) step(n int) {
	u, v := &b.cur, &b.next
	for i := 1; i <= b.ni; i++ {
		gi := b.gi + i - 1
		for j := 1; j <= b.nj; j++ {
			gj := b.gj + j - 1
			if gi == 0 || gj == 0 || gi == n-1 || gj == n-1 {
				v.Set(i, j, u.At(i, j))
				continue
			}
			v.Set(i, j, update(u.At(i, j), u.At(i-1, j), u.At(i+1, j), u.At(i, j-1), u.At(i, j+1)))
		}
	}
	b.cur, b.next = b.next, b.cur
}

// serial runs the same stencil on the whole field in one process.
func serial(n, steps int) kokkos.View2[float64] {
	u := kokkos.Must(kokkos.NewView2[float64]("serial", n, n))
	v := kokkos.Must(kokkos.NewView2[float64]("serial next", n, n))
	for i := range n {
		for j := range n {
			u.Set(i, j, initial(i, j, n))
		}
	}
	for range steps {
		for i := range n {
			for j := range n {
				if i == 0 || j == 0 || i == n-1 || j == n-1 {
					v.Set(i, j, u.At(i, j))
					continue
				}
				v.Set(i, j, update(u.At(i, j), u.At(i-1, j), u.At(i+1, j), u.At(i, j-1), u.At(i, j+1)))
			}
		}
		u, v = v, u
	}
	return u
}

func run(out io.Writer, n, steps int, dir, space, halo, order string) error {
	w := mpi.World()
	if space != "host" {
		return runPlace(out, w, n, steps, dir, space, halo, order)
	}
	b, err := newBlock(w, n)
	if err != nil {
		return err
	}
	per, err := timeSteps(w, steps, func() error {
		if err := b.exchange(w); err != nil {
			return err
		}
		b.step(n)
		return nil
	}, func() error { return nil })
	if err != nil {
		return err
	}
	interior := b.cur.Subview2(kokkos.Pair(1, b.ni+1), kokkos.Pair(1, b.nj+1))
	px, py := grid(w.Size())
	return gather(out, w, n, steps, dir, interior, px, py, per, nil)
}

// timeSteps runs step steps times between two barriers, then fence, and
// returns the time per step.
func timeSteps(w *mpi.Comm, steps int, step, fence func() error) (time.Duration, error) {
	if err := w.Barrier(); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for range steps {
		if err := step(); err != nil {
			return 0, err
		}
	}
	if err := fence(); err != nil {
		return 0, err
	}
	if err := w.Barrier(); err != nil {
		return 0, err
	}
	return time.Since(t0) / time.Duration(max(steps, 1)), nil
}

// gather sends every process's interior (a host view, possibly strided)
// of a px×py decomposition to rank 0, into its place in the whole field
// (a strided subview there too); rank 0 prints the time per step and the
// checksum, and checks the field against ref's one-process run (when ref
// is not nil) and, unless the grid is large and ref is there, the
// single-process host stencil.
func gather(out io.Writer, w *mpi.Comm, n, steps int, dir string, interior kokkos.View2[float64], px, py int, per time.Duration, ref func() (kokkos.View2[float64], string, error)) error {
	const tagGather = 100
	if w.Rank() != 0 {
		return mpi.Send[float64](w, &interior, 0, tagGather)
	}
	field := kokkos.Must(kokkos.NewView2[float64]("field", n, n))
	for r := range w.Size() {
		gi, ni := split(n, px, r/py)
		gj, nj := split(n, py, r%py)
		dst := field.Subview2(kokkos.Pair(gi, gi+ni), kokkos.Pair(gj, gj+nj))
		if r == 0 {
			if err := kokkos.DeepCopy[float64](&dst, &interior); err != nil {
				return err
			}
			continue
		}
		if _, err := mpi.Recv[float64](w, &dst, r, tagGather); err != nil {
			return err
		}
	}
	impl, _, _ := mpi.Library()
	fmt.Fprintf(out, "%d×%d grid, %d steps, %d processes (%d×%d) on %s\n", n, n, steps, w.Size(), px, py, impl)
	fmt.Fprintf(out, "time per step %.4f ms (%d processes, %d steps)\n", float64(per.Nanoseconds())/1e6, w.Size(), steps)
	fmt.Fprintf(out, "checksum %016x\n", checksum(&field))
	if ref != nil {
		one, what, err := ref()
		if err != nil {
			return err
		}
		if i, j, ok := firstDiff(&field, &one); !ok {
			return fmt.Errorf("the field differs from %s at (%d, %d): %v against %v", what, i, j, field.At(i, j), one.At(i, j))
		}
		fmt.Fprintln(out, "bit-identical to", what)
	}
	if ref == nil || n*n*steps <= 1<<26 {
		host := serial(n, steps)
		if i, j, ok := firstDiff(&field, &host); !ok {
			return fmt.Errorf("the field differs from the single-process run at (%d, %d): %v against %v", i, j, field.At(i, j), host.At(i, j))
		}
		fmt.Fprintln(out, "bit-identical to the single-process run")
	}
	if dir != "" {
		name := filepath.Join(dir, "heat-mpi.png")
		if err := writeImage(name, &field); err != nil {
			return err
		}
		fmt.Fprintln(out, "wrote", name)
	}
	return nil
}

// checksum hashes the bits of every element, in row-major order.
func checksum(u *kokkos.View2[float64]) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			x := math.Float64bits(u.At(i, j))
			for k := range buf {
				buf[k] = byte(x >> (8 * k))
			}
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}

// firstDiff returns the first point where a and b differ in their bits.
func firstDiff(a, b *kokkos.View2[float64]) (int, int, bool) {
	for i := range a.Extent(0) {
		for j := range a.Extent(1) {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return i, j, false
			}
		}
	}
	return 0, 0, true
}

// writeImage draws u as a PNG, blue at zero to red at the hottest point.
func writeImage(name string, u *kokkos.View2[float64]) error {
	hot := 0.0
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			hot = max(hot, u.At(i, j))
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, u.Extent(1), u.Extent(0)))
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			t := 0.0
			if hot > 0 {
				t = min(max(u.At(i, j)/hot, 0), 1)
			}
			img.SetRGBA(j, i, color.RGBA{R: uint8(math.Round(255 * t)), G: uint8(math.Round(64 * (1 - math.Abs(2*t-1)))), B: uint8(math.Round(255 * (1 - t))), A: 255})
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
