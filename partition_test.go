package kokkos

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPartitionSizes checks the shares of participants against their
// ideal n*w/sum(w): each at least one, all summing to n, a heavier weight
// never with fewer, and none a whole participant from its ideal when no
// share had to be raised to one, on fixed and random weights; and the errors wrapping ErrPartition for bad weights.
func TestPartitionSizes(t *testing.T) {
	for _, c := range []struct {
		n       int
		weights []float64
		want    []int
	}{
		{4, []float64{1, 1}, []int{2, 2}},
		{4, []float64{1, 3}, []int{1, 3}},
		{4, []float64{0.001, 1}, []int{1, 3}},
		{7, []float64{1, 1, 1}, []int{3, 2, 2}},
		{3, []float64{5, 5, 5}, []int{1, 1, 1}},
		{1, []float64{2}, []int{1}},
		{10, []float64{math.MaxFloat64, math.MaxFloat64}, []int{5, 5}},
		{5, []float64{1e-300, 1e-300, 1}, []int{1, 1, 3}},
	} {
		if got, err := partitionSizes(c.n, c.weights); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("partitionSizes(%d, %v) = %v, %v; want %v", c.n, c.weights, got, err, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for range 500 {
		n := 1 + rng.IntN(64)
		w := make([]float64, 1+rng.IntN(n))
		total := 0.0
		for i := range w {
			w[i] = rng.ExpFloat64()
			total += w[i]
		}
		got, err := partitionSizes(n, w)
		if err != nil {
			t.Fatal(err)
		}
		sum, raised := 0, false
		for i := range w {
			raised = raised || float64(n)*w[i]/total < 1
		}
		for i, s := range got {
			sum += s
			ideal := float64(n) * w[i] / total
			if s < 1 || !raised && math.Abs(float64(s)-ideal) >= 1 {
				t.Fatalf("partitionSizes(%d, %v) = %v: share %d is %d, ideal %.3f", n, w, got, i, s, ideal)
			}
			for j := range w {
				if w[i] > w[j] && s < got[j] {
					t.Fatalf("partitionSizes(%d, %v) = %v: weight %d is heavier than %d but has fewer", n, w, got, i, j)
				}
			}
		}
		if sum != n {
			t.Fatalf("partitionSizes(%d, %v) = %v sums to %d", n, w, got, sum)
		}
	}
	for _, c := range []struct {
		weights []float64
		want    string
	}{
		{nil, "at least one weight"},
		{[]float64{1, 0}, "weight 1 is 0"},
		{[]float64{-1}, "weight 0 is -1"},
		{[]float64{math.NaN()}, "weight 0 is NaN"},
		{[]float64{math.Inf(1), 1}, "weight 0 is +Inf"},
		{[]float64{1, 1, 1, 1}, "3 participants into 4 instances"},
	} {
		_, err := partitionSizes(3, c.weights)
		if !errors.Is(err, ErrPartition) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("weights %v: %v, want ErrPartition with %q", c.weights, err, c.want)
		}
		if _, err := PartitionSpace(Serial{}, c.weights...); len(c.weights) < 4 { // Serial has no participants to run out of
			if !errors.Is(err, ErrPartition) {
				t.Errorf("Serial, weights %v: %v, want ErrPartition", c.weights, err)
			}
		} else if err != nil {
			t.Errorf("Serial, weights %v: %v", c.weights, err)
		}
	}
}

// TestPartitionSpaceThreads splits a pool of 5 participants by 2:3 (and
// the pool's asynchronous instance, and through the HostExecutionSpace
// interface) and checks that the instances are distinct asynchronous
// Threads instances whose pools sum to the pool's size; that work on one
// runs while work on the other is blocked, both ways; that a Fence waits
// for its own instance's work only; that reductions on both from two
// goroutines at once give the right sums; and that Close stops an
// instance's pool.
func TestPartitionSpaceThreads(t *testing.T) {
	pool := NewThreads(5)
	t.Cleanup(func() { pool.Close() })
	parts, err := PartitionSpace(pool, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	a, b := parts[0], parts[1]
	if a == b || a.pool == b.pool || a.pool == pool.pool || b.pool == pool.pool || !a.Async() || !b.Async() ||
		a.Concurrency() != 2 || b.Concurrency() != 3 {
		t.Fatalf("instances %p (%d, async %v), %p (%d, async %v) of pool %p", a, a.Concurrency(), a.Async(), b, b.Concurrency(), b.Async(), pool)
	}
	const timeout = 10 * time.Second
	// A waits for B's work, then B for A's: neither can finish unless the
	// two run at the same time.
	for _, order := range [][2]*Threads{{a, b}, {b, a}} {
		first, second := order[0], order[1]
		started, release := make(chan struct{}), make(chan struct{})
		var timedOut bool
		first.Submit("wait", func() {
			close(started)
			select {
			case <-release:
			case <-time.After(timeout):
				timedOut = true
			}
		})
		<-started
		// the fence of the other instance returns while first is blocked
		second.Submit("other", func() {})
		done := make(chan error)
		go func() { done <- second.Fence() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(timeout):
			t.Fatal("the Fence of one instance waited for the other's blocked work")
		}
		second.Submit("release", func() { close(release) })
		if err := first.Fence(); err != nil || timedOut {
			t.Fatalf("Fence: %v; the work on one instance did not run while the other's waited (timed out %v)", err, timedOut)
		}
	}
	// Kokkos's test: reductions on both instances from two goroutines.
	const n = 3910
	sums := make(chan int, 2)
	for _, inst := range parts {
		go func() {
			sums <- ParallelReduce("sum", Range(0, n).On(inst), Sum[int](), func(i int, acc *int) { *acc += i })
		}()
	}
	for range 2 {
		if s := <-sums; s != n*(n-1)/2 {
			t.Errorf("sum on a partition instance %d, want %d", s, n*(n-1)/2)
		}
	}
	// partitions of an asynchronous instance, through the interface
	var host HostExecutionSpace = pool.NewInstance()
	more, err := PartitionSpace(host, 1, 1, 1, 1, 1)
	if err != nil || len(more) != 5 {
		t.Fatalf("PartitionSpace of an asynchronous instance: %v, %v", more, err)
	}
	for _, m := range more {
		if m.Concurrency() != 1 {
			t.Errorf("a fifth of 5 participants: %d", m.Concurrency())
		}
		if err := m.(*Threads).Close(); err != nil {
			t.Error(err)
		}
	}
	for _, inst := range parts {
		if err := inst.Close(); err != nil {
			t.Fatal(err)
		}
		if !inst.pool.Closed() {
			t.Error("Close of a partition instance left its pool running")
		}
		if msg := panicMessage(func() { ParallelFor("after", Range(0, 4).On(inst), func(int) {}) }); !strings.Contains(msg, "pool closed") {
			t.Errorf("work after Close: %q", msg)
		}
	}
	if pool.pool.Closed() {
		t.Error("Close of the partition instances closed the partitioned pool")
	}
	ParallelFor("still", Range(0, 10).On(pool), func(int) {})
}

// TestPartitionSpaceSerial: Serial splits into Serial values that run work
// at once.
func TestPartitionSpaceSerial(t *testing.T) {
	parts, err := PartitionSpace(Serial{}, 1, 2, 3)
	if err != nil || len(parts) != 3 {
		t.Fatalf("%v, %v", parts, err)
	}
	for i, p := range parts {
		var ran bool
		p.Submit("serial", func() { ran = true })
		if !ran || p.Fence() != nil {
			t.Errorf("instance %d did not run its work at once", i)
		}
	}
}

// FuzzPartitionSizes checks, for any participants and weights, that
// partitionSizes either refuses with ErrPartition exactly when the weights
// are bad, or returns shares of at least one that sum to n.
func FuzzPartitionSizes(f *testing.F) {
	f.Add(4, 1.0, 1.0, 0.0)
	f.Add(7, 1.0, 2.0, 3.0)
	f.Add(2, 1e-300, 1e300, 1.0)
	f.Fuzz(func(t *testing.T, n int, w0, w1, w2 float64) {
		n = n%200 + 1
		if n <= 0 {
			n += 200
		}
		weights := []float64{w0, w1}
		if w2 != 0 {
			weights = append(weights, w2)
		}
		bad := len(weights) > n
		for _, w := range weights {
			bad = bad || !(w > 0) || math.IsInf(w, 1)
		}
		got, err := partitionSizes(n, weights)
		if bad != (err != nil) || err != nil && !errors.Is(err, ErrPartition) {
			t.Fatalf("partitionSizes(%d, %v): %v, %v", n, weights, got, err)
		}
		sum := 0
		for _, s := range got {
			if s < 1 {
				t.Fatalf("partitionSizes(%d, %v) = %v", n, weights, got)
			}
			sum += s
		}
		if err == nil && sum != n {
			t.Fatalf("partitionSizes(%d, %v) = %v sums to %d", n, weights, got, sum)
		}
	})
}
