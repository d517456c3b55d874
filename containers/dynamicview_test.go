package containers_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestDynamicViewKokkos compares chunk sizes, chunk counts, extents and
// allocation extents, and the elements kept across a shrink and a growth,
// with what Kokkos 4.6.1 printed (testdata/dynamicview_sizes.cpp).
func TestDynamicViewKokkos(t *testing.T) {
	f, err := os.Open("testdata/dynamicview_sizes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch fields[0] {
		case "kept":
			d := kokkos.Must(containers.NewDynamicView[float64]("k", 4, 64))
			if err := d.Resize(10); err != nil {
				t.Fatal(err)
			}
			v := kokkos.Must(kokkos.NewView1[float64]("v", 10))
			for i := range 10 {
				v.Set(i, 1.5*float64(i)+1)
			}
			if err := containers.DeepCopyFromView(&d, v); err != nil {
				t.Fatal(err)
			}
			if err := d.Resize(5); err != nil {
				t.Fatal(err)
			}
			if err := d.Resize(8); err != nil {
				t.Fatal(err)
			}
			got := []string{"kept"}
			for i := range 8 {
				got = append(got, fmt.Sprint(d.At(i)))
			}
			if g := strings.Join(got, " "); g != sc.Text() {
				t.Errorf("got %q, Kokkos %q", g, sc.Text())
			}
			w := kokkos.Must(kokkos.NewView1[float64]("w", 12))
			if err := containers.DeepCopyToView(w, &d); err != nil {
				t.Fatal(err)
			}
			got = []string{"overlap"}
			for i := range 12 {
				got = append(got, fmt.Sprint(w.At(i)))
			}
			sc.Scan()
			if g := strings.Join(got, " "); g != sc.Text() {
				t.Errorf("got %q, Kokkos %q", g, sc.Text())
			}
			lines++
			continue
		}
		var mn, mx, cs, cm int
		fmt.Sscan(strings.Join(fields[:4], " "), &mn, &mx, &cs, &cm)
		d := kokkos.Must(containers.NewDynamicView[float64]("d", mn, mx))
		if d.ChunkSize() != cs || d.ChunkMax() != cm {
			t.Fatalf("min %d max %d: chunk size %d, chunk max %d; Kokkos %d, %d", mn, mx, d.ChunkSize(), d.ChunkMax(), cs, cm)
		}
		for _, step := range fields[4:] {
			var n, ext, alloc int
			fmt.Sscanf(step, "%d:%d:%d", &n, &ext, &alloc)
			if err := d.Resize(n); err != nil {
				t.Fatal(err)
			}
			if d.Extent(0) != ext || d.AllocationExtent() != alloc {
				t.Fatalf("min %d max %d, Resize(%d): extent %d, allocation extent %d; Kokkos %d, %d", mn, mx, n, d.Extent(0), d.AllocationExtent(), ext, alloc)
			}
		}
		lines++
	}
	if lines != 36 {
		t.Fatalf("%d lines read", lines)
	}
}

// dynModel is a slice model of a DynamicView: the elements of the chunks
// allocated, of which the first extent are visible.
type dynModel struct {
	chunk, extent int
	mem           []float64
}

func (m *dynModel) resize(n int) {
	nc := (n + m.chunk - 1) / m.chunk * m.chunk
	if nc > len(m.mem) {
		m.mem = append(m.mem, make([]float64, nc-len(m.mem))...)
	}
	m.mem = m.mem[:nc]
	m.extent = n
}

// TestDynamicViewModel checks random resizes, writes and copies against
// the slice model, in HostSpace and in device memory the host cannot
// reach (through the copies).
func TestDynamicViewModel(t *testing.T) {
	for _, space := range []kokkos.MemorySpace{kokkos.HostSpace, backendtest.FakeDevice(true), backendtest.FakeDevice(false)} {
		rng := rand.New(rand.NewPCG(11, 12))
		for _, minChunk := range []int{1, 3, 8, 33} {
			maxExt := 200
			d := kokkos.Must(containers.NewDynamicView[float64]("dyn", minChunk, maxExt, kokkos.InSpace(space)))
			m := &dynModel{chunk: d.ChunkSize()}
			direct := space.HostAccessible()
			for k := range 300 {
				switch rng.IntN(5) {
				case 0:
					n := rng.IntN(d.ChunkMax()*d.ChunkSize() + 1)
					if err := d.Resize(n); err != nil {
						t.Fatal(err)
					}
					m.resize(n)
				case 1, 2:
					if m.extent == 0 {
						break
					}
					i, x := rng.IntN(m.extent), rng.Float64()
					if direct {
						d.Set(i, x)
					} else {
						// Through a copy of the whole array.
						v := kokkos.Must(kokkos.NewView1[float64]("v", m.extent))
						copy(v.Data(), m.mem[:m.extent])
						v.Set(i, x)
						if err := containers.DeepCopyFromView(&d, v); err != nil {
							t.Fatal(err)
						}
					}
					m.mem[i] = x
				case 3:
					// A copy into a view of another extent copies the overlap.
					n := rng.IntN(m.extent + 5)
					v := kokkos.Must(kokkos.NewView1[float64]("w", n, kokkos.LayoutLeft))
					if err := containers.DeepCopyToView(v, &d); err != nil {
						t.Fatal(err)
					}
					want := make([]float64, n)
					copy(want, m.mem[:min(n, m.extent)])
					if !slices.Equal(v.Data(), want) {
						t.Fatalf("%s chunk %d op %d: DeepCopyToView of %d: %v, want %v", space.Name(), minChunk, k, n, v.Data(), want)
					}
				case 4:
					// Into another DynamicView of another chunk size.
					e := kokkos.Must(containers.NewDynamicView[float64]("e", 1+rng.IntN(20), 300))
					n := rng.IntN(m.extent + 3)
					if err := e.Resize(n); err != nil {
						t.Fatal(err)
					}
					if err := containers.DeepCopyDynamic(&e, &d); err != nil {
						t.Fatal(err)
					}
					for i := range min(n, m.extent) {
						if e.At(i) != m.mem[i] {
							t.Fatalf("%s: DeepCopyDynamic: element %d = %v, want %v", space.Name(), i, e.At(i), m.mem[i])
						}
					}
					back := kokkos.Must(containers.NewDynamicView[float64]("b", minChunk, 300, kokkos.InSpace(space)))
					if err := back.Resize(n); err != nil {
						t.Fatal(err)
					}
					if err := containers.DeepCopyDynamic(&back, &e); err != nil {
						t.Fatal(err)
					}
					got := kokkos.Must(kokkos.NewView1[float64]("g", n))
					if err := containers.DeepCopyToView(got, &back); err != nil {
						t.Fatal(err)
					}
					for i := range min(n, m.extent) {
						if got.At(i) != m.mem[i] {
							t.Fatalf("%s: DeepCopyDynamic back: element %d = %v, want %v", space.Name(), i, got.At(i), m.mem[i])
						}
					}
					_ = back.Release()
				}
				if d.Size() != m.extent || d.AllocationExtent() != len(m.mem) || d.IsAllocated() != (m.extent > 0) {
					t.Fatalf("%s chunk %d op %d: extent %d allocation %d, want %d %d", space.Name(), minChunk, k, d.Size(), d.AllocationExtent(), m.extent, len(m.mem))
				}
				if direct {
					for i := range m.extent {
						if d.At(i) != m.mem[i] || *d.Ptr(i) != m.mem[i] {
							t.Fatalf("%s chunk %d op %d: element %d = %v, want %v", space.Name(), minChunk, k, i, d.At(i), m.mem[i])
						}
					}
				}
			}
			if err := d.Release(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDynamicViewErrors: out-of-range access panics with the label, the
// index and the extent; device memory refuses element access; sizes
// beyond the maximum and bad arguments are errors wrapping ErrShape.
func TestDynamicViewErrors(t *testing.T) {
	d := kokkos.Must(containers.NewDynamicView[int]("dv", 4, 10))
	if d.ChunkMax() != 3 || d.ChunkSize() != 4 {
		t.Fatalf("chunk max %d size %d", d.ChunkMax(), d.ChunkSize())
	}
	if err := d.Resize(6); err != nil {
		t.Fatal(err)
	}
	msg := panics(func() { d.At(6) })
	for _, w := range []string{`"dv"`, "At(6)", "[0, 6)"} {
		if !strings.Contains(msg, w) {
			t.Errorf("panic %q lacks %q", msg, w)
		}
	}
	if msg := panics(func() { d.Set(-1, 0) }); !strings.Contains(msg, "Set(-1)") {
		t.Errorf("Set(-1): panic %q", msg)
	}
	if err := d.Resize(13); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), `"dv"`) || d.Size() != 6 {
		t.Errorf("Resize past the maximum: %v, size %d", err, d.Size())
	}
	if _, err := containers.NewDynamicView[int]("x", 0, 10); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("chunk size 0: %v", err)
	}
	if _, err := containers.NewDynamicView[int]("x", 2, -1); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("negative maximum: %v", err)
	}
	if _, err := containers.NewDynamicView[int]("x", 2, 8, kokkos.WithTraits(kokkos.Atomic)); !errors.Is(err, kokkos.ErrOption) {
		t.Errorf("Atomic trait: %v", err)
	}
	fake := backendtest.FakeDevice(false)
	dev := kokkos.Must(containers.NewDynamicView[int]("devdyn", 4, 10, kokkos.InSpace(fake)))
	if err := dev.Resize(5); err != nil {
		t.Fatal(err)
	}
	msg = panics(func() { dev.At(1) })
	if !strings.Contains(msg, `"devdyn"`) || !strings.Contains(msg, "DeepCopyToView") {
		t.Errorf("device At: panic %q", msg)
	}
	if err := dev.Release(); err != nil || fake.Blocks() != 0 {
		t.Errorf("Release: %v, %d blocks live", err, fake.Blocks())
	}
	// Copies share the chunks and the extent.
	c := d
	if err := c.Resize(9); err != nil || d.Size() != 9 {
		t.Errorf("a copy's Resize: %v, size %d", err, d.Size())
	}
	var z containers.DynamicView[int]
	if z.Size() != 0 || z.ChunkMax() != 0 || z.IsAllocated() || z.Resize(1) == nil {
		t.Error("the zero DynamicView")
	}
}
