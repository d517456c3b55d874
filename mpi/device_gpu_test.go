package mpi

import (
	"slices"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/internal/testutil"
)

// One rank per GPU: each process takes cuda.SelectDevice's device (the
// launcher's local rank modulo the visible devices), so that on a machine
// with as many GPUs as ranks the ring's neighbours are on different GPUs.
// Views of every layout and rank 1 to 3 in that device's memory go
// ring-wise, blocking and with Isend/Irecv overlapped with a copy on a
// stream of the device.
var _ = rankTest("CUDARankPerGPU", func(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	w := World()
	sel, err := cuda.ChooseDevice(cuda.AutoDevice)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := sel.Device()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rank %d → %v: %s", w.Rank(), sel, dev.Name())
	if w.Rank() == 0 {
		how := "staged through pinned host memory of each view's device"
		if CUDAAware() {
			how = "device addresses passed to the library directly"
		}
		impl, path, version := Library()
		t.Logf("%s (%s, %s): CUDA-aware %v: contiguous device views are %s", impl, path, firstLine(version), CUDAAware(), how)
	}
	// Every rank took the device its local rank maps to; with as many
	// devices as ranks on the host, the ring's neighbours differ.
	ords := kokkos.Must(kokkos.NewDynRankView[int64]("ordinals", []int{w.Size()}))
	mine := kokkos.Must(kokkos.NewDynRankView[int64]("mine", []int{1}))
	mine.Set(int64(dev.Ordinal()), 0)
	if err := Allgather[int64](w, &mine, &ords); err != nil {
		t.Fatal(err)
	}
	if w.Rank() == 0 {
		got := make([]int64, w.Size())
		for r := range got {
			got[r] = ords.At(r)
		}
		t.Logf("devices of ranks 0..%d: %v", w.Size()-1, got)
	}
	st, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	space := cuda.SpaceOn(dev.Ordinal())
	deviceRing(t, space, st)
})

// The ring of every layout and shape through the fake device, whose views
// are staged as CUDA's are when the library is not CUDA-aware.
var _ = rankTest("DeviceRing", func(t *testing.T) { deviceRing(t, fake, nil) })

// deviceRing runs ringDevice for every shape and layout, blocking and
// overlapped with a copy on exec.
func deviceRing(t *testing.T, space kokkos.MemorySpace, exec kokkos.ExecutionSpace) {
	for _, ext := range testShapes {
		for _, layout := range append(slices.Clone(testLayouts), "stride") {
			for _, overlap := range []bool{false, true} {
				name := shapeName(ext, layout)
				if overlap {
					name += "/overlapped"
				}
				t.Run(name, func(t *testing.T) { ringDevice(t, space, exec, ext, layout, overlap) })
			}
		}
	}
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

// strideFor returns LayoutStride strides for ext that are neither
// LayoutRight's nor LayoutLeft's: the middle dimension (the last for rank
// 2) varies fastest, with a gap of one element after every dimension.
func strideFor(ext []int) []int {
	order := make([]int, len(ext)) // fastest first
	for i := range order {
		order[i] = i
	}
	if len(ext) > 1 {
		order[0], order[len(ext)/2] = order[len(ext)/2], order[0]
	}
	s := make([]int, len(ext))
	next := 1
	for _, d := range order {
		s[d] = next
		next = next*ext[d] + 1
	}
	return s
}

// devView is a view in device memory built from a host view, and how to
// read it back.
type devView struct {
	d      kokkos.DynRankView[float64] // the view sent or received
	parent kokkos.DynRankView[float64] // the device allocation d lies in
	host   kokkos.DynRankView[float64] // parent's elements as built
	box    []int                       // for a subview, its offset in parent
	opt    kokkos.Option               // parent's layout
}

// buildDevice returns a device view of extents ext and the named layout
// in space, its elements fill(seed) and, for a strided subview, the
// elements around it fill(99).
func buildDevice(t *testing.T, space kokkos.MemorySpace, ext []int, layout string, seed uint64) devView {
	t.Helper()
	var opt kokkos.Option
	big, args, box := ext, []any(nil), []int(nil)
	switch layout {
	case "right", "strided-right":
		opt = kokkos.LayoutRight
	case "left", "strided-left":
		opt = kokkos.LayoutLeft
	case "stride":
		opt = kokkos.WithStrides(strideFor(ext)...)
	default:
		t.Fatalf("layout %q", layout)
	}
	if layout == "strided-right" || layout == "strided-left" {
		big = make([]int, len(ext))
		for i, e := range ext {
			big[i] = e + 3
			args = append(args, kokkos.Pair(1, 1+e))
			box = append(box, 1)
		}
	}
	h := kokkos.Must(kokkos.NewDynRankView[float64]("host", big, opt))
	fill[float64](&h, 99)
	hs := h
	if args != nil {
		hs = h.Subview(args...)
	}
	fill[float64](&hs, seed)
	p, err := kokkos.NewDynRankView[float64]("device", big, kokkos.InSpace(space), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Release(); err != nil {
			t.Error(err)
		}
	})
	if err := kokkos.DeepCopy[float64](&p, &h); err != nil {
		t.Fatal(err)
	}
	d := p
	if args != nil {
		d = p.Subview(args...)
	}
	return devView{d: d, parent: p, host: h, box: box, opt: opt}
}

// check fails t unless the device view holds fill(seed) and, around a
// subview, its parent's elements are as built.
func (v devView) check(t *testing.T, what string, seed uint64) {
	t.Helper()
	got := kokkos.Must(kokkos.NewDynRankView[float64]("got", v.host.Extents(), v.opt))
	if err := kokkos.DeepCopy[float64](&got, &v.parent); err != nil {
		t.Fatal(err)
	}
	sub := got
	if v.box != nil {
		args := make([]any, len(v.box))
		for i, o := range v.box {
			args[i] = kokkos.Pair(o, o+v.d.Extents()[i])
		}
		sub = got.Subview(args...)
	}
	check[float64](t, what, &sub, seed)
	if v.box == nil {
		return
	}
	bad := 0
	ext := v.d.Extents()
	testutil.ForEachIndex(got.Extents(), func(idx []int) {
		for i, o := range v.box {
			if idx[i] < o || idx[i] >= o+ext[i] {
				if a, b := got.At(idx...), v.host.At(idx...); !sameBits(a, b) && bad < 3 {
					bad++
					t.Errorf("%s: element %v around the subview = %v, want %v as before", what, idx, a, b)
				}
				return
			}
		}
	})
}

// ringDevice sends a device view of ext and layout to the next rank and
// receives one from the previous, with Send and Irecv, or (overlap) with
// Isend and Irecv while a device-to-device copy runs on exec
// (nil: DeepCopy).
func ringDevice(t *testing.T, space kokkos.MemorySpace, exec kokkos.ExecutionSpace, ext []int, layout string, overlap bool) {
	w := World()
	next, prev := (w.Rank()+1)%w.Size(), (w.Rank()+w.Size()-1)%w.Size()
	send := buildDevice(t, space, ext, layout, uint64(w.Rank()))
	recv := buildDevice(t, space, ext, layout, uint64(1000+w.Rank()))
	rr, err := Irecv[float64](w, &recv.d, prev, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !overlap {
		if err := Send[float64](w, &send.d, next, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := rr.Wait(); err != nil {
			t.Fatal(err)
		}
		recv.check(t, "received", uint64(prev))
		send.check(t, "sent", uint64(w.Rank()))
		return
	}
	sr, err := Isend[float64](w, &send.d, next, 3)
	if err != nil {
		t.Fatal(err)
	}
	// While the messages travel, the stream copies a large view (8 MiB on
	// a GPU) on the same device.
	n := 1 << 10
	if exec != nil {
		n = 1 << 20
	}
	src := buildDevice(t, space, []int{n}, "right", uint64(7+w.Rank()))
	dst, err := kokkos.NewDynRankView[float64]("copy", []int{n}, kokkos.InSpace(space))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Release()
	if exec == nil {
		err = kokkos.DeepCopy[float64](&dst, &src.d)
	} else {
		err = kokkos.DeepCopyOn[float64](exec, &dst, &src.d)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := WaitAll(sr, rr); err != nil {
		t.Fatal(err)
	}
	if exec != nil {
		if err := exec.Fence(); err != nil {
			t.Fatal(err)
		}
	}
	recv.check(t, "received (overlapped)", uint64(prev))
	send.check(t, "sent (overlapped)", uint64(w.Rank()))
	copied := devView{d: dst, parent: dst, host: src.host, opt: kokkos.LayoutRight}
	copied.check(t, "copied on the stream during the exchange", uint64(7+w.Rank()))
}
