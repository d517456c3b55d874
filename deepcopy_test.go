package kokkos

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// newViewR allocates a view of rank len(ext) as the View0..View8 kind.
func newViewR[T any](label string, ext []int, opts ...Option) (View[T], error) {
	e := func(i int) int { return ext[i] }
	switch len(ext) {
	case 0:
		v, err := NewView0[T](label, opts...)
		return v, err
	case 1:
		v, err := NewView1[T](label, e(0), opts...)
		return v, err
	case 2:
		v, err := NewView2[T](label, e(0), e(1), opts...)
		return v, err
	case 3:
		v, err := NewView3[T](label, e(0), e(1), e(2), opts...)
		return v, err
	case 4:
		v, err := NewView4[T](label, e(0), e(1), e(2), e(3), opts...)
		return v, err
	case 5:
		v, err := NewView5[T](label, e(0), e(1), e(2), e(3), e(4), opts...)
		return v, err
	case 6:
		v, err := NewView6[T](label, e(0), e(1), e(2), e(3), e(4), e(5), opts...)
		return v, err
	case 7:
		v, err := NewView7[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), opts...)
		return v, err
	case 8:
		v, err := NewView8[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), opts...)
		return v, err
	}
	panic("rank")
}

// subviewR returns the subview of v (rank len(a)) keeping the same rank.
func subviewR[T any](v View[T], a []any) View[T] {
	switch v := v.(type) {
	case View0[T]:
		return v
	case View1[T]:
		return v.Subview1(a[0])
	case View2[T]:
		return v.Subview2(a[0], a[1])
	case View3[T]:
		return v.Subview3(a[0], a[1], a[2])
	case View4[T]:
		return v.Subview4(a[0], a[1], a[2], a[3])
	case View5[T]:
		return v.Subview5(a[0], a[1], a[2], a[3], a[4])
	case View6[T]:
		return v.Subview6(a[0], a[1], a[2], a[3], a[4], a[5])
	case View7[T]:
		return v.Subview7(a[0], a[1], a[2], a[3], a[4], a[5], a[6])
	case View8[T]:
		return v.Subview8(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
	}
	panic("kind")
}

// layoutOpts returns the options of layout kind k (0 Right, 1 Left, 2 a
// permuted LayoutStride with gaps) for extents ext.
func layoutOpts(rng *rand.Rand, k int, ext []int) []Option {
	switch k {
	case 0:
		return []Option{LayoutRight}
	case 1:
		return []Option{LayoutLeft}
	}
	return []Option{WithStrides(testutil.GappedStrides(rng, ext)...)}
}

// testView is a view under test and its parent's elements.
type testView struct {
	v      View[float64]
	parent []float64
}

// makeTestView allocates a view of extents ext in layout kind k filled with
// random non-zero values; when sub, it is a subview of a larger parent.
func makeTestView(t *testing.T, rng *rand.Rand, label string, ext []int, k int, sub bool) testView {
	t.Helper()
	pext := append([]int(nil), ext...)
	args := make([]any, len(ext))
	for r := range ext {
		args[r] = All
		if sub {
			pext[r] += 1 + rng.IntN(2)
			b := rng.IntN(pext[r] - ext[r] + 1)
			args[r] = Pair(b, b+ext[r])
		}
	}
	p, err := newViewR[float64](label, pext, layoutOpts(rng, k, pext)...)
	if err != nil {
		t.Fatal(err)
	}
	pd := p.viewDesc()
	for i := range pd.data {
		pd.data[i] = float64(1 + rng.IntN(1<<20))
	}
	v := p
	if sub {
		v = subviewR(p, args)
	}
	return testView{v, pd.data}
}

func offsetOf(str, idx []int) int {
	o := 0
	for r, i := range idx {
		o += i * str[r]
	}
	return o
}

// checkCopied verifies dst == src element by element and that the parent of
// dst changed nowhere else than in dst.
func checkCopied(t *testing.T, dst, src View[float64], before []float64, parent []float64, name string) {
	t.Helper()
	d, s := dst.viewDesc(), src.viewDesc()
	inside := make([]bool, len(parent))
	base := d.off
	bad := 0
	testutil.ForEachIndex(d.extents(), func(idx []int) {
		od, os := offsetOf(d.strides(), idx), offsetOf(s.strides(), idx)
		inside[base+od] = true
		if d.data[od] != s.data[os] && bad < 3 {
			bad++
			t.Errorf("%s: element %v = %v, want %v", name, idx, d.data[od], s.data[os])
		}
	})
	for i := range parent {
		if !inside[i] && parent[i] != before[i] && bad < 3 {
			bad++
			t.Errorf("%s: parent element %d outside the view changed", name, i)
		}
	}
}

func randExt(rng *rand.Rand, rank int) []int {
	ext := make([]int, rank)
	hi := 5
	if rank >= 5 {
		hi = 3
	}
	for r := range ext {
		ext[r] = 1 + rng.IntN(hi)
	}
	return ext
}

func TestDeepCopyLayoutsRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for rank := 0; rank <= MaxRank; rank++ {
		for dk := range 3 {
			for sk := range 3 {
				for c := range 4 {
					dsub, ssub := c&1 != 0, c&2 != 0
					ext := randExt(rng, rank)
					name := fmt.Sprintf("rank%d/dst%d-sub%v/src%d-sub%v/%v", rank, dk, dsub, sk, ssub, ext)
					dv := makeTestView(t, rng, "dst", ext, dk, dsub)
					sv := makeTestView(t, rng, "src", ext, sk, ssub)
					before := append([]float64(nil), dv.parent...)
					if err := DeepCopy(dv.v, sv.v); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkCopied(t, dv.v, sv.v, before, dv.parent, name)
				}
			}
		}
	}
}

// TestDeepCopyLarge exercises the parallel, tiled and row paths on sizes
// above their thresholds.
func TestDeepCopyLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][]int{{1 << 21}, {300, 517}, {67, 33, 129}, {1029, 1031}, {5, 200, 3, 170}}
	for _, ext := range cases {
		for dk := range 3 {
			for sk := range 3 {
				for c := range 4 {
					dsub, ssub := c&1 != 0, c&2 != 0
					if len(ext) == 1 && (dk == 2 || sk == 2) {
						continue
					}
					name := fmt.Sprintf("%v/dst%d-sub%v/src%d-sub%v", ext, dk, dsub, sk, ssub)
					dv := makeTestView(t, rng, "dst", ext, dk, dsub)
					sv := makeTestView(t, rng, "src", ext, sk, ssub)
					before := append([]float64(nil), dv.parent...)
					if err := DeepCopy(dv.v, sv.v); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkCopied(t, dv.v, sv.v, before, dv.parent, name)
				}
			}
		}
	}
}

func TestFillSubviews(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for rank := 0; rank <= MaxRank; rank++ {
		for k := range 3 {
			for _, sub := range []bool{false, true} {
				ext := randExt(rng, rank)
				name := fmt.Sprintf("rank%d/layout%d/sub%v/%v", rank, k, sub, ext)
				tv := makeTestView(t, rng, "fill", ext, k, sub)
				before := append([]float64(nil), tv.parent...)
				sumBefore := 0.0
				for _, x := range before {
					sumBefore += x
				}
				const x = 7.0
				d := tv.v.viewDesc()
				inside := 0.0
				n := 0
				testutil.ForEachIndex(d.extents(), func(idx []int) { inside += d.data[offsetOf(d.strides(), idx)]; n++ })
				if err := Fill(tv.v, x); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sum := 0.0
				for _, y := range tv.parent {
					sum += y
				}
				if want := sumBefore - inside + x*float64(n); sum != want {
					t.Errorf("%s: parent sum %v, want %v", name, sum, want)
				}
				testutil.ForEachIndex(d.extents(), func(idx []int) {
					if got := d.data[offsetOf(d.strides(), idx)]; got != x {
						t.Fatalf("%s: element %v = %v", name, idx, got)
					}
				})
			}
		}
	}
}

func TestFillLargeStrided(t *testing.T) {
	p, _ := NewView2[float64]("p", 513, 1030)
	for i := range p.Data() {
		p.Data()[i] = 1
	}
	v := p.Subview2(Pair(1, 512), Pair(3, 1027))
	s, _ := WrapView2(p.Data(), 513, 515, WithStrides(1030, 2))
	if err := Fill[float64](v, 0); err != nil {
		t.Fatal(err)
	}
	if err := Fill[float64](s, 2); err != nil {
		t.Fatal(err)
	}
	for i := range 513 {
		for j := range 1030 {
			want := 1.0
			if j%2 == 0 {
				want = 2
			} else if i >= 1 && i < 512 && j >= 3 && j < 1027 {
				want = 0
			}
			if got := p.At(i, j); got != want {
				t.Fatalf("(%d, %d) = %v, want %v", i, j, got, want)
			}
		}
	}
}

func TestDeepCopyScalar(t *testing.T) {
	v, _ := NewView0[int]("s")
	if err := Fill[int](v, 42); err != nil {
		t.Fatal(err)
	}
	var x int
	if err := DeepCopyToScalar[int](&x, v); err != nil || x != 42 {
		t.Fatalf("got %d, %v", x, err)
	}
	w, _ := NewView2[int]("w", 3, 4)
	if err := DeepCopyToScalar[int](&x, w.Subview0(1, 2)); err != nil {
		t.Fatal(err)
	}
	err := DeepCopyToScalar[int](&x, w)
	wantErr(t, err, `DeepCopyToScalar from view "w" with extents (3, 4): the view must have rank 0, not 2`)
}

func TestDeepCopyConvert(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	src, _ := NewView3[float64]("src", 4, 5, 6, LayoutLeft)
	for i := range src.Data() {
		src.Data()[i] = rng.Float64()*200 - 100
	}
	dst, _ := NewView3[int32]("dst", 4, 5, 6)
	sub := src.Subview3(All, All, All)
	if err := DeepCopyConvert[int32, float64](dst, sub); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		for j := range 5 {
			for k := range 6 {
				if got, want := dst.At(i, j, k), int32(src.At(i, j, k)); got != want {
					t.Fatalf("(%d,%d,%d) = %d, want %d", i, j, k, got, want)
				}
			}
		}
	}
	bad, _ := NewView3[int32]("bad", 4, 5, 7)
	wantErr(t, DeepCopyConvert[int32, float64](bad, src), `DeepCopyConvert from view "src" with extents (4, 5, 6) to view "bad" with extents (4, 5, 7): the extents differ`)
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q, want it to contain %q", err, want)
	}
}

func TestDeepCopyErrors(t *testing.T) {
	a, _ := NewView2[float64]("A", 4, 3)
	b, _ := NewView2[float64]("B", 3, 4)
	c, _ := NewView3[float64]("C", 4, 3, 1)
	wantErr(t, DeepCopy[float64](a, b), `kokkos: DeepCopy from view "B" with extents (3, 4) to view "A" with extents (4, 3): the extents differ`)
	wantErr(t, DeepCopy[float64](a, c), `kokkos: DeepCopy from view "C" with extents (4, 3, 1) to view "A" with extents (4, 3): the ranks differ (3 and 2)`)
	wantErr(t, DeepCopy[float64](a.ReadOnly(), a.ReadOnly()), `to view "A" with extents (4, 3): the destination is read-only`)
	wantErr(t, Fill[float64](a.ReadOnly(), 1), `kokkos: Fill of view "A" with extents (4, 3): the view is read-only`)
	// Overlapping ranges of one allocation.
	wantErr(t, DeepCopy[float64](a.Subview2(Pair(0, 2), All), a.Subview2(Pair(1, 3), All)),
		`kokkos: DeepCopy from view "A" with extents (2, 3) to view "A" with extents (2, 3): the views overlap in memory`)
	// Same memory, another mapping.
	l, _ := WrapView2(a.Data(), 3, 4, LayoutLeft, WithLabel("L"))
	r, _ := WrapView2(a.Data(), 3, 4, WithLabel("R"))
	wantErr(t, DeepCopy[float64](l, r), `the views overlap in memory`)
	// The same view is a no-op; so are empty views.
	a.Set(1, 1, 5)
	if err := DeepCopy[float64](a, a); err != nil || a.At(1, 1) != 5 {
		t.Fatal(err)
	}
	e1, _ := NewView2[float64]("E1", 0, 3)
	e2, _ := NewView2[float64]("E2", 0, 3)
	if err := DeepCopy[float64](e1, e2); err != nil {
		t.Fatal(err)
	}
	var z View2[float64]
	if err := DeepCopy[float64](z, z); err != nil {
		t.Fatal(err)
	}
	wantErr(t, DeepCopy[float64](e1, b), `kokkos: DeepCopy from view "B" with extents (3, 4) to view "E1" with extents (0, 3): the extents differ`)
	// Released memory outside the Go heap.
	fs := checked(t, newFakeSpace(true))
	h, err := NewView2[float64]("H", 4, 3, InSpace(fs))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	wantErr(t, DeepCopy[float64](a, h), `kokkos: DeepCopy from view "H" with extents (4, 3) to view "A" with extents (4, 3): the source's allocation was released`)
	wantErr(t, DeepCopy[float64](h, a), `the destination's allocation was released`)
	wantErr(t, Fill[float64](h, 1), `kokkos: Fill of view "H" with extents (4, 3): its allocation was released`)
}

// testQueue is a device-like execution-space instance for tests: a
// goroutine that runs submitted work in order (a WorkQueue).
type testQueue struct {
	work chan func() error
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

func newTestQueue() *testQueue {
	q := &testQueue{work: make(chan func() error, 64)}
	go func() {
		for w := range q.work {
			if err := w(); err != nil {
				q.mu.Lock()
				q.err = err
				q.mu.Unlock()
			}
			q.wg.Done()
		}
	}()
	return q
}

func (q *testQueue) Name() string             { return "TestQueue" }
func (q *testQueue) Concurrency() int         { return 1 }
func (q *testQueue) MemorySpace() MemorySpace { return HostSpace }

func (q *testQueue) Submit(w func() error) { q.wg.Add(1); q.work <- w }

func (q *testQueue) Fence() error {
	q.wg.Wait()
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

func TestDeepCopyOnTwoInstances(t *testing.T) {
	q1, q2 := newTestQueue(), newTestQueue()
	defer close(q1.work)
	defer close(q2.work)
	const n = 300
	a, _ := NewView2[float64]("a", n, n)
	b, _ := NewView2[float64]("b", n, n, LayoutLeft)
	c, _ := NewView2[float64]("c", n, n)
	d, _ := NewView2[float64]("d", n, n, LayoutLeft)
	for i := range a.Data() {
		a.Data()[i] = float64(i + 1)
		c.Data()[i] = float64(-i - 1)
	}
	// On q1: a → b, then b ← 2 at the diagonal block, in order.
	if err := DeepCopyOn[float64](q1, b, a); err != nil {
		t.Fatal(err)
	}
	if err := FillOn[float64](q1, b.Subview2(Pair(0, 10), Pair(0, 10)), 2); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopyOn[float64](q2, d, c); err != nil {
		t.Fatal(err)
	}
	if err := q1.Fence(); err != nil {
		t.Fatal(err)
	}
	if err := q2.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range n {
			want := a.At(i, j)
			if i < 10 && j < 10 {
				want = 2
			}
			if b.At(i, j) != want || d.At(i, j) != c.At(i, j) {
				t.Fatalf("(%d, %d): b %v want %v, d %v want %v", i, j, b.At(i, j), want, d.At(i, j), c.At(i, j))
			}
		}
	}
	// Errors of the arguments are immediate.
	wantErr(t, DeepCopyOn[float64](q1, a.ReadOnly(), b), `kokkos: DeepCopyOn from view "b" with extents (300, 300) to view "a" with extents (300, 300): the destination is read-only`)
}

func TestParallelRange(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 1001} {
		for _, g := range []int{0, 1, 3, 100, 2000} {
			seen := make([]int32, n)
			var mu sync.Mutex
			parallelRange(n, g, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("n %d grain %d: index %d seen %d times", n, g, i, c)
				}
			}
		}
	}
}

func TestDeepCopyOnThreadsInstances(t *testing.T) {
	pool := NewThreads(3)
	defer pool.Close()
	i1, i2 := pool.NewInstance(), pool.NewInstance()
	const n = 257
	a := Must(NewView2[float64]("a", n, n))
	b := Must(NewView2[float64]("b", n, n, LayoutLeft))
	c := Must(NewView1[float64]("c", n*n))
	d := Must(NewView1[float64]("d", n*n))
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range a.Data() {
		a.Data()[i] = rng.NormFloat64()
		c.Data()[i] = rng.NormFloat64()
	}
	// ordered on i1: the copy, then a fill of a corner, then a copy back
	if err := DeepCopyOn[float64](i1, b, a); err != nil {
		t.Fatal(err)
	}
	if err := FillOn[float64](i1, b.Subview2(Pair(0, 5), Pair(0, 5)), 7); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopyOn[float64](i2, d, c); err != nil {
		t.Fatal(err)
	}
	if err := i1.Fence(); err != nil {
		t.Fatal(err)
	}
	if err := Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range n {
			want := a.At(i, j)
			if i < 5 && j < 5 {
				want = 7
			}
			if b.At(i, j) != want {
				t.Fatalf("b(%d, %d) = %v, want %v", i, j, b.At(i, j), want)
			}
		}
	}
	if !slices.Equal(c.Data(), d.Data()) {
		t.Fatal("copy on the second instance")
	}
	// an error of queued work comes back from the instance's Fence
	ro := Must(NewView1[float64]("ro", n*n))
	ro.Release()
	if err := DeepCopyOn[float64](i2, ro, c); err == nil || !strings.Contains(err.Error(), "released") {
		t.Fatalf("argument errors come back at once: %v", err)
	}
}
