package kokkos

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// The fuzz targets below check views against a naive model over logical
// indices. `go test` runs their seed corpora (and testdata/fuzz); CI fuzzes
// each briefly; a longer run is
//
//	go test -run '^$' -fuzz '^FuzzSubview$' -fuzztime 10m .

// fuzzIn decodes a fuzzer's bytes into small numbers; past the end it
// gives zeros, so every input decodes.
type fuzzIn struct{ b []byte }

// n returns a number in [0, k).
func (f *fuzzIn) n(k int) int {
	if k <= 1 || len(f.b) == 0 {
		return 0
	}
	x := int(f.b[0])
	f.b = f.b[1:]
	return x % k
}

// rng returns a generator seeded by the next two bytes.
func (f *fuzzIn) rng() *rand.Rand {
	return rand.New(rand.NewPCG(uint64(f.n(256)), uint64(f.n(256))))
}

// fuzzExtents returns rank extents of at most maxExt each, smaller at high
// ranks so that a case stays under a few thousand elements.
func (f *fuzzIn) extents(rank, maxExt int) []int {
	if rank > 4 {
		maxExt = min(maxExt, 3)
	}
	ext := make([]int, rank)
	for r := range ext {
		ext[r] = f.n(maxExt + 1)
	}
	return ext
}

// layoutOpts picks a layout for extents ext: LayoutRight or LayoutLeft,
// padded or not, or LayoutStride with gapped strides.
func (f *fuzzIn) layoutOpts(rng *rand.Rand, ext []int) []Option {
	switch f.n(5) {
	case 0:
		return nil
	case 1:
		return []Option{LayoutLeft}
	case 2:
		return []Option{LayoutRight, AllowPadding}
	case 3:
		return []Option{LayoutLeft, AllowPadding}
	default:
		return []Option{WithStrides(testutil.GappedStrides(rng, ext)...)}
	}
}

// fillModel stores a distinct random value at every index of d and
// returns the model: the values by logical index, in row-major order.
func fillModel(rng *rand.Rand, d *DynRankView[int64], ext []int) []int64 {
	model := make([]int64, size(ext))
	i := 0
	testutil.ForEachIndex(ext, func(idx []int) {
		x := rng.Int64()
		model[i] = x
		d.Set(x, idx...)
		i++
	})
	return model
}

// size returns the number of indices in extents ext.
func size(ext []int) int {
	n := 1
	for _, e := range ext {
		n *= e
	}
	return n
}

// linear returns the row-major position of idx in extents ext.
func linear(ext, idx []int) int {
	p := 0
	for r := range ext {
		p = p*ext[r] + idx[r]
	}
	return p
}

func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// FuzzSubview takes subviews of random views of every rank and layout,
// through the generated SubviewM methods of ViewN and through
// DynRankView.Subview, and checks each element (read and write) against
// the parent at the composed index, the result's rank, that a kept
// LayoutRight or LayoutLeft has that layout's strides, and that invalid
// arguments panic.
func FuzzSubview(f *testing.F) {
	f.Add([]byte{2, 4, 5, 0, 1, 2, 1, 3})
	f.Add([]byte{0, 3, 4, 1, 4, 2, 0, 2, 1, 1, 2, 3, 0, 9})
	f.Add([]byte{7, 2, 2, 2, 2, 2, 2, 2, 2, 4, 9, 9, 1, 1, 2, 0, 1, 1, 2, 1, 3, 0, 1, 1, 1})
	f.Add([]byte{3, 4, 4, 4, 4, 3, 7, 7, 2, 0, 4, 0, 3, 2, 1, 1, 2, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		rank := 1 + in.n(MaxDynRank)
		ext := in.extents(rank, 5)
		rng := in.rng()
		p, err := NewDynRankView[int64]("P", ext, in.layoutOpts(rng, ext)...)
		if err != nil {
			t.Fatalf("extents %v: %v", ext, err)
		}
		model := fillModel(rng, &p, ext)

		args := make([]any, rank)
		begin := make([]int, rank) // the parent index of the result's 0
		var keep []int             // the parent dimensions kept
		var sub []int              // their extents
		valid := true
		for r := range rank {
			switch in.n(3) {
			case 0:
				i := in.n(ext[r]+2) - 1 // -1 and ext[r] are out of bounds
				args[r], begin[r] = i, i
				valid = valid && i >= 0 && i < ext[r]
			case 1:
				args[r] = All
				keep, sub = append(keep, r), append(sub, ext[r])
			default:
				b := in.n(ext[r] + 2)
				e := b + in.n(ext[r]+2) - 1
				args[r], begin[r] = Pair(b, e), b
				keep, sub = append(keep, r), append(sub, e-b)
				valid = valid && b <= e && e <= ext[r]
			}
		}
		m := len(keep)
		pv := reflect.ValueOf(&p).MethodByName(fmt.Sprintf("View%d", rank)).Call(nil)[0]
		pp := reflect.New(pv.Type())
		pp.Elem().Set(pv)
		method := pp.MethodByName(fmt.Sprintf("Subview%d", m))
		in2 := make([]reflect.Value, rank)
		for r, a := range args {
			in2[r] = reflect.ValueOf(&a).Elem()
		}
		var gen, dyn DynRankView[int64]
		msgGen := panics(func() {
			gen = DynRankFrom(method.Call(in2)[0].Interface().(View[int64]))
		})
		msgDyn := panics(func() { dyn = p.Subview(args...) })
		if !valid {
			if msgGen == "" || msgDyn == "" {
				t.Fatalf("extents %v, arguments %v: no panic (Subview%d: %q, DynRankView: %q)", ext, args, m, msgGen, msgDyn)
			}
			return
		}
		if msgGen != "" || msgDyn != "" {
			t.Fatalf("extents %v, arguments %v: Subview%d panicked %q, DynRankView.Subview %q", ext, args, m, msgGen, msgDyn)
		}
		for _, w := range []*DynRankView[int64]{&gen, &dyn} {
			if w.Rank() != m || !slices.Equal(w.Extents(), sub) {
				t.Fatalf("extents %v, arguments %v: rank %d extents %v, want %d %v", ext, args, w.Rank(), w.Extents(), m, sub)
			}
			checkLayoutStrides(t, w)
			pidx := slices.Clone(begin)
			testutil.ForEachIndex(sub, func(idx []int) {
				for k, r := range keep {
					pidx[r] = begin[r] + idx[k]
				}
				want := model[linear(ext, pidx)]
				if got := w.At(idx...); got != want {
					t.Fatalf("extents %v, arguments %v: sub%v = %d, want parent%v = %d", ext, args, idx, got, pidx, want)
				}
				x := rng.Int64()
				w.Set(x, idx...)
				if got := p.At(pidx...); got != x {
					t.Fatalf("extents %v, arguments %v: writing sub%v wrote %d at parent%v, want %d", ext, args, idx, got, pidx, x)
				}
				model[linear(ext, pidx)] = x
			})
		}
	})
}

// checkLayoutStrides checks that a view reporting LayoutRight or
// LayoutLeft has that layout's strides: unit stride in the contiguous
// dimension, each stride the product of the extents and strides inside it,
// but for the stride next to the contiguous dimension, which padding may
// enlarge. Dimensions of extent 1 address one index whatever their stride.
func checkLayoutStrides(t *testing.T, w *DynRankView[int64]) {
	t.Helper()
	ext, str := w.Extents(), w.Strides()[:w.Rank()]
	if w.Layout() == LayoutStride || slices.Contains(ext, 0) {
		return
	}
	if w.Layout() == LayoutLeft {
		slices.Reverse(ext)
		slices.Reverse(str)
	}
	n := len(ext)
	ok := true
	for r := n - 1; r >= 0; r-- {
		switch {
		case ext[r] == 1:
		case r == n-1:
			ok = ok && str[r] == 1
		case r == n-2 || slices.Contains(ext[r+1:], 1):
			ok = ok && str[r] >= str[r+1]*ext[r+1]
		default:
			ok = ok && str[r] == str[r+1]*ext[r+1]
		}
	}
	if !ok {
		t.Fatalf("%v view with extents %v has strides %v", w.Layout(), w.Extents(), w.Strides())
	}
}

// FuzzLayoutStrides builds views from random explicit strides and from
// padded layouts. An accepted view must give every index tuple its own
// offset sum(i_r * stride_r), inside the span, and keep every value
// written; a rejected one must say why with ErrLayout, and a negative
// stride, or a zero stride on an extent above 1 of a view that has
// elements, must be rejected.
func FuzzLayoutStrides(f *testing.F) {
	f.Add([]byte{1, 3, 4, 1, 3, 0})
	f.Add([]byte{2, 2, 3, 4, 9, 3, 1, 1})
	f.Add([]byte{3, 3, 3, 3, 0, 1, 9, 3, 0})
	f.Add([]byte{1, 2, 2, 25, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		rank := 1 + in.n(4)
		ext := in.extents(rank, 4)
		var opts []Option
		str := make([]int, rank)
		padded := in.n(4) == 0
		if padded {
			opts = []Option{[]Layout{LayoutRight, LayoutLeft}[in.n(2)], AllowPadding}
		} else {
			for r := range str {
				str[r] = in.n(26) - 2
			}
			opts = []Option{WithStrides(str...)}
		}
		d, err := NewDynRankView[int32]("L", ext, opts...)
		mustReject := false
		for r := range str {
			mustReject = mustReject || !padded && (str[r] < 0 || str[r] == 0 && ext[r] > 1 && !slices.Contains(ext, 0))
		}
		if err != nil {
			if padded || !errors.Is(err, ErrLayout) {
				t.Fatalf("extents %v, options %v: %v", ext, opts, err)
			}
			return
		}
		if mustReject {
			t.Fatalf("extents %v, strides %v accepted", ext, str)
		}
		if !padded && !slices.Equal(d.Strides()[:rank], str) {
			t.Fatalf("strides %v, want %v", d.Strides()[:rank], str)
		}
		str = d.Strides()[:rank]
		seen := map[int][]int{}
		data32 := d.Data()
		rng := in.rng()
		want := map[int]int32{}
		testutil.ForEachIndex(ext, func(idx []int) {
			off := 0
			for r := range idx {
				off += idx[r] * str[r]
			}
			if prev, ok := seen[off]; ok {
				t.Fatalf("extents %v, strides %v: %v and %v share offset %d", ext, str, prev, idx, off)
			}
			seen[off] = slices.Clone(idx)
			if off >= d.Span() || off >= len(data32) {
				t.Fatalf("extents %v, strides %v: %v at offset %d past span %d", ext, str, idx, off, d.Span())
			}
			x := rng.Int32()
			d.Set(x, idx...)
			want[off] = x
		})
		for off, x := range want {
			if data32[off] != x {
				t.Fatalf("extents %v, strides %v: offset %d holds %d, want %d", ext, str, off, data32[off], x)
			}
		}
	})
}

// FuzzDeepCopy copies between windows of random parents of random
// layouts and checks every destination element against the source at the
// same logical index, and that no parent element outside the destination
// window changed. Unequal extents must fail with ErrShape.
func FuzzDeepCopy(f *testing.F) {
	f.Add([]byte{1, 3, 4, 0, 1, 1, 2, 0, 0, 1, 1})
	f.Add([]byte{2, 2, 3, 4, 4, 1, 2, 3, 0, 1, 0, 2, 4, 0})
	f.Add([]byte{0, 5, 1, 0, 1, 3, 0})
	f.Add([]byte{3, 2, 2, 2, 2, 4, 1, 0, 1, 0, 1, 0, 1, 2, 1, 1, 1, 1, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		rank := 1 + in.n(4)
		ext := in.extents(rank, 5)
		rng := in.rng()
		window := func(label string, ext []int) (parent, w DynRankView[int64], pext []int, lo []int) {
			pext, lo = make([]int, rank), make([]int, rank)
			args := make([]any, rank)
			for r := range ext {
				lo[r] = in.n(3)
				pext[r] = lo[r] + ext[r] + in.n(3)
				args[r] = Pair(lo[r], lo[r]+ext[r])
			}
			parent = Must(NewDynRankView[int64](label, pext, in.layoutOpts(rng, pext)...))
			fillModel(rng, &parent, pext)
			return parent, parent.Subview(args...), pext, lo
		}
		_, src, _, _ := window("S", ext)
		dext := ext
		mismatch := in.n(8) == 0
		if mismatch {
			dext = slices.Clone(ext)
			dext[in.n(rank)]++
		}
		dstP, dst, dpext, dlo := window("D", dext)
		before := make([]int64, size(dpext))
		testutil.ForEachIndex(dpext, func(idx []int) { before[linear(dpext, idx)] = dstP.At(idx...) })

		err := DeepCopy[int64](dst, src)
		if mismatch {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("extents %v into %v: %v, want ErrShape", ext, dext, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("extents %v: %v", ext, err)
		}
		testutil.ForEachIndex(dpext, func(idx []int) {
			inside := true
			sidx := make([]int, rank)
			for r := range idx {
				sidx[r] = idx[r] - dlo[r]
				inside = inside && sidx[r] >= 0 && sidx[r] < ext[r]
			}
			want := before[linear(dpext, idx)]
			if inside {
				want = src.At(sidx...)
			}
			if got := dstP.At(idx...); got != want {
				t.Fatalf("extents %v, destination parent %v (layout %v, strides %v) from source (layout %v, strides %v): parent%v = %d, want %d (inside the window: %v)",
					ext, dpext, dst.Layout(), dst.Strides(), src.Layout(), src.Strides(), idx, got, want, inside)
			}
		})
	})
}

// FuzzOffsetBounds builds rank-2 offset views from index ranges anywhere
// in int, near its ends included: a range that ends before it begins or
// whose extent or end overflows int must fail with ErrShape; an accepted
// view must report the ranges, accept exactly the indices in them and
// address the same elements as its View.
func FuzzOffsetBounds(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2}, int64(-1), int64(5))
	f.Add([]byte{1, 0, 2, 4}, int64(math.MaxInt64-2), int64(math.MinInt64))
	f.Add([]byte{2, 2, 0, 1}, int64(math.MinInt64), int64(math.MaxInt64))
	f.Add([]byte{3, 1, 1, 3}, int64(7), int64(-100))
	f.Fuzz(func(t *testing.T, data []byte, first0, first1 int64) {
		in := &fuzzIn{data}
		firsts := [2]int{int(first0), int(first1)}
		var ranges [2]IndexRange
		valid := true
		for r := range 2 {
			n := in.n(5) - 1 // -1: a range that ends before it begins; 0: Bounds(b, b-1), empty
			last := firsts[r] + n - 1
			overflow := n > 0 && firsts[r] > math.MaxInt-(n-1)
			if overflow {
				last = math.MaxInt
			}
			ranges[r] = Bounds(firsts[r], last)
			ok := last >= firsts[r] && uint64(last)-uint64(firsts[r]) < math.MaxInt && last < math.MaxInt ||
				n == 0 && firsts[r] != math.MinInt
			valid = valid && ok
		}
		o, err := NewOffsetView2[int64]("O", ranges[0], ranges[1])
		if !valid {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("ranges %v: %v, want ErrShape", ranges, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("ranges %v: %v", ranges, err)
		}
		v := o.View()
		rng := in.rng()
		for r := range 2 {
			if o.Begin(r) != ranges[r].First || o.End(r) != ranges[r].Last+1 || o.Extent(r) != ranges[r].Last-ranges[r].First+1 {
				t.Fatalf("ranges %v: dimension %d is [%d, %d) of extent %d", ranges, r, o.Begin(r), o.End(r), o.Extent(r))
			}
		}
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				x := rng.Int64()
				o.Set(i, j, x)
				if got := v.At(i-o.Begin(0), j-o.Begin(1)); got != x {
					t.Fatalf("ranges %v: (%d, %d) wrote %d, View holds %d", ranges, i, j, x, got)
				}
			}
		}
		for _, idx := range [][2]int{{o.Begin(0) - 1, o.Begin(1)}, {o.End(0), o.Begin(1)}, {o.Begin(0), o.End(1)}, {o.Begin(0), o.Begin(1) - 1}} {
			if (idx[0] == math.MaxInt && o.End(0) == math.MaxInt) || (idx[0] == math.MinInt) {
				continue
			}
			if panics(func() { o.At(idx[0], idx[1]) }) == "" {
				t.Fatalf("ranges %v: At%v did not panic", ranges, idx)
			}
		}
	})
}

// FuzzDynRankRanks builds DynRankViews of random rank (past MaxDynRank
// included): ranks above MaxDynRank fail with ErrShape; others must keep
// every value written by Set, read the same through At (also with a 0
// past the rank), AtN and the rank-typed ViewN, and report extents 1 past
// the rank.
func FuzzDynRankRanks(f *testing.F) {
	f.Add([]byte{0, 1})
	f.Add([]byte{3, 2, 3, 4, 5})
	f.Add([]byte{8, 2, 2, 2, 2, 2, 2, 2, 2})
	f.Add([]byte{9, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		rank := in.n(MaxDynRank + 2)
		ext := in.extents(rank, 4)
		rng := in.rng()
		d, err := NewDynRankView[int64]("D", ext, in.layoutOpts(rng, ext)...)
		if rank > MaxDynRank {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("rank %d: %v, want ErrShape", rank, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("extents %v: %v", ext, err)
		}
		if d.Rank() != rank {
			t.Fatalf("rank %d, want %d", d.Rank(), rank)
		}
		for r := rank; r < MaxRank; r++ {
			if d.Extent(r) != 1 {
				t.Fatalf("rank %d: Extent(%d) = %d, want 1", rank, r, d.Extent(r))
			}
		}
		model := fillModel(rng, &d, ext)
		pv := reflect.ValueOf(&d).MethodByName(fmt.Sprintf("View%d", rank)).Call(nil)
		if !pv[1].IsNil() {
			t.Fatalf("View%d: %v", rank, pv[1].Interface())
		}
		pp := reflect.New(pv[0].Type())
		pp.Elem().Set(pv[0])
		at := pp.MethodByName("Access")
		atN := reflect.ValueOf(&d).MethodByName(fmt.Sprintf("At%d", rank))
		testutil.ForEachIndex(ext, func(idx []int) {
			want := model[linear(ext, idx)]
			vals := make([]reflect.Value, rank)
			for r, i := range idx {
				vals[r] = reflect.ValueOf(i)
			}
			if got := d.At(idx...); got != want {
				t.Fatalf("At%v = %d, want %d", idx, got, want)
			}
			if rank < MaxDynRank {
				if got := d.At(append(slices.Clone(idx), 0)...); got != want {
					t.Fatalf("At%v with a 0 past the rank = %d, want %d", idx, got, want)
				}
			}
			if got := atN.Call(vals)[0].Int(); got != want {
				t.Fatalf("At%d%v = %d, want %d", rank, idx, got, want)
			}
			if got := at.CallSlice([]reflect.Value{reflect.ValueOf(idx)})[0].Int(); got != want {
				t.Fatalf("View%d.Access%v = %d, want %d", rank, idx, got, want)
			}
		})
	})
}

// FuzzDynRankArity gives a DynRankView of random rank and layout a random
// number of indices and Subview arguments, fewer or more than the rank, as
// Kokkos's rules allow: At takes at least Rank indices, those past the rank
// 0; Access also takes fewer, the missing ones 0; Subview's missing
// arguments are the index 0 and those past the rank select index 0 of an
// extent-1 dimension. Every valid call must reach the model's element at
// the naive index, and every invalid one must panic.
func FuzzDynRankArity(f *testing.F) {
	f.Add([]byte{2, 3, 4, 0, 0, 3, 1, 2, 0, 4, 1, 1, 0})
	f.Add([]byte{3, 2, 2, 2, 1, 9, 1, 1, 5, 1, 0, 2, 3, 1})
	f.Add([]byte{0, 5, 7, 0, 0, 0, 4, 2, 2, 1})
	f.Add([]byte{7, 2, 2, 2, 2, 2, 2, 2, 0, 1, 1, 2, 7, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		rank := in.n(MaxDynRank + 1)
		ext := in.extents(rank, 3)
		rng := in.rng()
		d, err := NewDynRankView[int64]("D", ext, in.layoutOpts(rng, ext)...)
		if err != nil {
			t.Fatalf("extents %v: %v", ext, err)
		}
		model := fillModel(rng, &d, ext)

		// indices for At and Access
		k := in.n(MaxDynRank + 2)
		idx := make([]int, k)
		for r := range idx {
			if r < rank {
				idx[r] = in.n(ext[r]+2) - 1
			} else {
				idx[r] = []int{0, 0, 1, -1}[in.n(4)]
			}
		}
		full := make([]int, max(k, rank))
		copy(full, idx)
		inRange := true
		for r, i := range full {
			e := 1
			if r < rank {
				e = ext[r]
			}
			inRange = inRange && i >= 0 && i < e
		}
		var got int64
		msg := panics(func() { got = d.At(idx...) })
		if ok := k >= rank && k <= MaxDynRank && inRange; ok != (msg == "") {
			t.Fatalf("extents %v: At%v panicked %q, valid %v", ext, idx, msg, ok)
		} else if ok && got != model[linear(ext, full[:rank])] {
			t.Fatalf("extents %v: At%v = %d, want %d", ext, idx, got, model[linear(ext, full[:rank])])
		}
		msg = panics(func() { got = d.Access(idx...) })
		if ok := k <= MaxDynRank && inRange; ok != (msg == "") {
			t.Fatalf("extents %v: Access%v panicked %q, valid %v", ext, idx, msg, ok)
		} else if ok && got != model[linear(ext, full[:rank])] {
			t.Fatalf("extents %v: Access%v = %d, want %d", ext, idx, got, model[linear(ext, full[:rank])])
		}

		// Subview arguments
		k = in.n(MaxDynRank + 2)
		args := make([]any, k)
		valid := k <= MaxDynRank
		for r := range args {
			if r >= rank {
				args[r] = []any{0, All, Pair(0, 1), 1, Pair(0, 0)}[in.n(5)]
				valid = valid && (args[r] == 0 || args[r] == All || args[r] == Pair(0, 1))
				continue
			}
			switch in.n(3) {
			case 0:
				i := in.n(ext[r]+2) - 1
				args[r], valid = i, valid && i >= 0 && i < ext[r]
			case 1:
				args[r] = All
			default:
				b := in.n(ext[r] + 2)
				e := b + in.n(ext[r]+2) - 1
				args[r], valid = Pair(b, e), valid && b <= e && e <= ext[r]
			}
		}
		for r := k; r < rank; r++ {
			valid = valid && ext[r] > 0 // the missing index 0 must exist
		}
		var s DynRankView[int64]
		msg = panics(func() { s = d.Subview(args...) })
		if valid != (msg == "") {
			t.Fatalf("extents %v: Subview%v panicked %q, valid %v", ext, args, msg, valid)
		}
		if !valid {
			return
		}
		var sub []int
		for r := range rank {
			if r < k {
				switch a := args[r].(type) {
				case AllType:
					sub = append(sub, ext[r])
				case PairRange:
					sub = append(sub, a.End-a.Begin)
				}
			}
		}
		if s.Rank() != len(sub) || !slices.Equal(s.Extents(), sub) || s.Layout() != LayoutStride {
			t.Fatalf("extents %v: Subview%v has rank %d extents %v, want %v", ext, args, s.Rank(), s.Extents(), sub)
		}
		testutil.ForEachIndex(sub, func(si []int) {
			p, m := make([]int, rank), 0
			for r := range rank {
				if r >= k {
					continue
				}
				switch a := args[r].(type) {
				case int:
					p[r] = a
				case AllType:
					p[r], m = si[m], m+1
				case PairRange:
					p[r], m = a.Begin+si[m], m+1
				}
			}
			if got, want := s.At(si...), model[linear(ext, p)]; got != want {
				t.Fatalf("extents %v: Subview%v at %v = %d, want parent %v = %d", ext, args, si, got, p, want)
			}
		})
	})
}

// FuzzWrapOffsetView builds rank-2 offset views over caller slices from
// random begins, ends, slice lengths and layouts: an end before its begin
// must be an ErrShape error, other shapes must fail exactly when WrapView2
// fails, and every element must be the slice's at the naive offset of its
// layout.
func FuzzWrapOffsetView(f *testing.F) {
	f.Add([]byte{2, 7, 1, 5, 30, 0})
	f.Add([]byte{4, 2, 0, 3, 6, 1})
	f.Add([]byte{3, 3, 5, 9, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzIn{data}
		beg := [2]int{in.n(9) - 4, in.n(9) - 4}
		end := [2]int{beg[0] + in.n(7) - 1, beg[1] + in.n(7) - 1}
		buf := make([]int64, in.n(40))
		for i := range buf {
			buf[i] = int64(i)*7 + 3
		}
		l := []Layout{LayoutRight, LayoutLeft}[in.n(2)]
		o, err := WrapOffsetView2(buf, beg, end, l)
		if end[0] < beg[0] || end[1] < beg[1] {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("begins %v ends %v: %v, want ErrShape", beg, end, err)
			}
			return
		}
		e0, e1 := end[0]-beg[0], end[1]-beg[1]
		_, werr := WrapView2(buf, e0, e1, l)
		if (err == nil) != (werr == nil) {
			t.Fatalf("begins %v ends %v over %d: %v, WrapView2: %v", beg, end, len(buf), err, werr)
		}
		if err != nil {
			return
		}
		if o.Begins() != beg || o.End(0) != end[0] || o.End(1) != end[1] || o.Layout() != l {
			t.Fatalf("begins %v ends %v: got %v, %d, %d", beg, end, o.Begins(), o.End(0), o.End(1))
		}
		for i := beg[0]; i < end[0]; i++ {
			for j := beg[1]; j < end[1]; j++ {
				k := (i-beg[0])*e1 + (j - beg[1])
				if l == LayoutLeft {
					k = (i - beg[0]) + (j-beg[1])*e0
				}
				if o.At(i, j) != buf[k] || o.Ptr(i, j) != &buf[k] {
					t.Fatalf("begins %v ends %v %v: (%d, %d) = %d, want buf[%d] = %d", beg, end, l, i, j, o.At(i, j), k, buf[k])
				}
			}
		}
		if panics(func() { o.At(beg[0]-1, beg[1]) }) == "" || panics(func() { o.At(beg[0], end[1]) }) == "" {
			t.Fatal("an index outside the ranges did not panic")
		}
	})
}
