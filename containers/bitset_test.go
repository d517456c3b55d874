package containers_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestBitsetKokkosTrace replays testdata/bitset_find.cpp's operations and
// compares every answer with Kokkos 4.6.1's (testdata/bitset_find.txt).
func TestBitsetKokkosTrace(t *testing.T) {
	f, err := os.Open("testdata/bitset_find.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		fields := strings.Fields(sc.Text())
		var n int
		fmt.Sscan(fields[0], &n)
		b := kokkos.Must(containers.NewBitset("", n))
		if b.Label() != "Bitset" || b.MaxHint() != (n+31)/32 {
			t.Fatalf("size %d: label %q, max hint %d", n, b.Label(), b.MaxHint())
		}
		for k := 1; k+2 < len(fields); k += 3 {
			op := fields[k]
			var arg, want uint64
			fmt.Sscan(fields[k+1], &arg)
			fmt.Sscan(fields[k+2], &want)
			var got uint64
			b2u := func(x bool) uint64 {
				if x {
					return 1
				}
				return 0
			}
			switch op {
			case "s":
				got = b2u(b.Set(int(arg)))
			case "r":
				got = b2u(b.Reset(int(arg)))
			case "t":
				got = b2u(b.Test(int(arg)))
			case "S", "U":
				find := b.FindAnySetNear
				if op == "U" {
					find = b.FindAnyUnsetNear
				}
				ok, i := find(int(arg/4), containers.ScanDirection(arg%4))
				got = b2u(ok)<<32 + uint64(i)
			case "A":
				if err := b.SetAll(); err != nil {
					t.Fatal(err)
				}
			case "Z":
				if err := b.ResetAll(); err != nil {
					t.Fatal(err)
				}
			case "c":
				c, err := b.Count()
				if err != nil {
					t.Fatal(err)
				}
				got = uint64(c)
			}
			if got != want {
				t.Fatalf("size %d, operation %d (%s %d): %d, Kokkos: %d", n, k/3, op, arg, got, want)
			}
		}
	}
	if lines != 10 {
		t.Fatalf("%d sizes in the trace", lines)
	}
}

// TestBitsetModel checks Set, Reset, Test, Count, SetAll, ResetAll and the
// searches against a []bool on random operations.
func TestBitsetModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 32, 33, 95, 96, 200, 1000} {
		b := kokkos.Must(containers.NewBitset("model", n))
		model := make([]bool, n)
		for k := range 3000 {
			i := rng.IntN(n+4) - 2
			in := i >= 0 && i < n
			switch op := rng.IntN(10); op {
			case 0, 1, 2:
				want := in && !model[i]
				if got := b.Set(i); got != want {
					t.Fatalf("n %d op %d: Set(%d) = %v, want %v", n, k, i, got, want)
				}
				if in {
					model[i] = true
				}
			case 3, 4:
				want := in && model[i]
				if got := b.Reset(i); got != want {
					t.Fatalf("n %d op %d: Reset(%d) = %v, want %v", n, k, i, got, want)
				}
				if in {
					model[i] = false
				}
			case 5:
				if rng.IntN(10) == 0 {
					if err := b.SetAll(); err != nil {
						t.Fatal(err)
					}
					for j := range model {
						model[j] = true
					}
				} else if rng.IntN(10) == 0 {
					if err := b.ResetAll(); err != nil {
						t.Fatal(err)
					}
					clear(model)
				}
			case 6, 7:
				// A search from a random hint finds a bit of the right
				// value in the hint's block, or none is there.
				set := op == 6
				hint := rng.IntN(max(1, b.MaxHint()*32))
				dir := containers.ScanDirection(rng.IntN(4))
				var ok bool
				var j int
				if set {
					ok, j = b.FindAnySetNear(hint, dir)
				} else {
					ok, j = b.FindAnyUnsetNear(hint, dir)
				}
				blk := hint / 32
				lo, hi := blk*32, min(n, blk*32+32)
				any := false
				for x := lo; x < hi; x++ {
					any = any || model[x] == set
				}
				if n == 0 {
					any = false
				}
				if ok != any {
					t.Fatalf("n %d: find(set=%v) near %d dir %d: found %v, the block has one: %v", n, set, hint, dir, ok, any)
				}
				if ok && (j < lo || j >= hi || model[j] != set) {
					t.Fatalf("n %d: find(set=%v) near %d dir %d: index %d, bits [%d, %d)", n, set, hint, dir, j, lo, hi)
				}
				if !ok && n > 0 {
					nb := b.MaxHint()
					next := (blk + 1) % nb
					if dir&containers.MoveHintBackward != 0 {
						next = (blk - 1 + nb) % nb
					}
					if j != next*32+hint%32 {
						t.Fatalf("n %d: find near %d dir %d: next hint %d, want %d", n, hint, dir, j, next*32+hint%32)
					}
				}
			default:
				want := in && model[i]
				if got := b.Test(i); got != want {
					t.Fatalf("n %d op %d: Test(%d) = %v, want %v", n, k, i, got, want)
				}
			}
		}
		count := 0
		for j, x := range model {
			if x {
				count++
			}
			if b.Test(j) != x {
				t.Fatalf("n %d: bit %d is %v, want %v", n, j, b.Test(j), x)
			}
		}
		c := b.Const()
		for _, got := range []func() (int, error){b.Count, c.Count} {
			if g, err := got(); err != nil || g != count {
				t.Fatalf("n %d: Count = %d, %v; want %d", n, g, err, count)
			}
		}
		if c.Size() != n || !c.IsAllocated() && n > 0 {
			t.Fatalf("ConstBitset: size %d", c.Size())
		}
	}
}

// TestBitsetConcurrent: Set and Reset from many goroutines change each
// bit exactly once per call that reports a change.
func TestBitsetConcurrent(t *testing.T) {
	const n, workers = 1000, 8
	b := kokkos.Must(containers.NewBitset("conc", n))
	var wg sync.WaitGroup
	wins := make([]int, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if b.Set((i*7 + w) % n) {
					wins[w]++
				}
				_ = b.Test(i)
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, x := range wins {
		total += x
	}
	if c, _ := b.Count(); total != n || c != n {
		t.Fatalf("%d Sets reported a change and %d bits are set, want %d", total, c, n)
	}
	resets := make([]int, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i += 2 { // every worker resets the even bits
				if b.Reset(i) {
					resets[w]++
				}
				if ok, j := b.FindAnySetNear(i, containers.BitScanForwardMoveHintForward); ok && j >= n {
					t.Errorf("found bit %d of %d", j, n)
				}
			}
		}()
	}
	wg.Wait()
	total = 0
	for _, x := range resets {
		total += x
	}
	if c, _ := b.Count(); total != n/2 || c != n/2 {
		t.Fatalf("%d Resets reported a change, %d bits set; want %d each", total, c, n/2)
	}
}

// TestBitsetDevice: on memory the host cannot reach, single-bit access
// panics naming the bitset and the advice; SetAll, Count and the copies
// work, also through a ConstBitset.
func TestBitsetDevice(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	host := kokkos.Must(containers.NewBitset("h", 77))
	rng := rand.New(rand.NewPCG(1, 2))
	want := make([]bool, 77)
	for i := range want {
		if rng.IntN(3) == 0 {
			want[i] = true
			host.Set(i)
		}
	}
	dev := kokkos.Must(containers.NewBitset("d", 77, kokkos.InSpace(fake)))
	defer dev.Release()
	msg := panics(func() { dev.Test(3) })
	for _, w := range []string{`"d"`, "Test(3)", "77 bits", "DeepCopyBitset"} {
		if !strings.Contains(msg, w) {
			t.Errorf("Test on device memory: panic %q lacks %q", msg, w)
		}
	}
	if err := containers.DeepCopyBitset(&dev, &host); err != nil {
		t.Fatal(err)
	}
	c1, _ := host.Count()
	if c, err := dev.Count(); err != nil || c != c1 {
		t.Fatalf("device Count = %d, %v; want %d", c, err, c1)
	}
	back := kokkos.Must(containers.NewBitset("back", 77))
	cd := dev.Const()
	if err := containers.DeepCopyBitsetOn(kokkos.DefaultExecutionSpace(), &back, &cd); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DefaultExecutionSpace().Fence(); err != nil {
		t.Fatal(err)
	}
	for i, x := range want {
		if back.Test(i) != x {
			t.Fatalf("bit %d after the round trip: %v, want %v", i, back.Test(i), x)
		}
	}
	if err := dev.SetAll(); err != nil {
		t.Fatal(err)
	}
	if c, _ := dev.Count(); c != 77 {
		t.Fatalf("Count after SetAll on the device: %d", c)
	}
	if err := dev.ResetAll(); err != nil {
		t.Fatal(err)
	}
	if c, _ := dev.Count(); c != 0 {
		t.Fatalf("Count after ResetAll on the device: %d", c)
	}
	small := kokkos.Must(containers.NewBitset("small", 76))
	if err := containers.DeepCopyBitset(&small, &host); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), `"h" of 77 bits`) {
		t.Fatalf("copy between sizes: %v", err)
	}
	if _, err := containers.NewBitset("x", 5, kokkos.WithoutInitializing); !errors.Is(err, kokkos.ErrOption) {
		t.Fatalf("WithoutInitializing: %v", err)
	}
	if _, err := containers.NewBitset("x", -1); !errors.Is(err, kokkos.ErrShape) {
		t.Fatalf("negative size: %v", err)
	}
}

// TestBitsetZero: the zero Bitset has no bits.
func TestBitsetZero(t *testing.T) {
	var b containers.Bitset
	if b.Size() != 0 || b.Set(0) || b.Test(0) || b.IsAllocated() {
		t.Fatal("the zero Bitset has bits")
	}
	if ok, _ := b.FindAnyUnsetNear(0, 0); ok {
		t.Fatal("the zero Bitset finds an unset bit")
	}
	if c, err := b.Count(); c != 0 || err != nil {
		t.Fatalf("Count %d %v", c, err)
	}
}
