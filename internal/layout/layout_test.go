package layout

import (
	"errors"
	"slices"
	"testing"
)

// bytesIn reads small numbers from a fuzzer's bytes, 0 once they run out.
type bytesIn struct{ b []byte }

func (in *bytesIn) n(m int) int {
	if len(in.b) == 0 || m <= 0 {
		return 0
	}
	x := int(in.b[0]) % m
	in.b = in.b[1:]
	return x
}

// offsets returns the offset of every index tuple of extents ext under
// strides str, by brute force.
func offsets(ext, str []int) []int {
	for _, e := range ext {
		if e == 0 {
			return nil
		}
	}
	var out []int
	idx := make([]int, len(ext))
	for {
		o := 0
		for r := range ext {
			o += idx[r] * str[r]
		}
		out = append(out, o)
		r := len(ext) - 1
		for ; r >= 0; r-- {
			if idx[r]++; idx[r] < ext[r] {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return out
		}
	}
}

// injectiveBrute reports whether every index tuple of extents ext has its
// own offset under strides str, by listing them all.
func injectiveBrute(ext, str []int) bool {
	seen := map[int]bool{}
	for _, o := range offsets(ext, str) {
		if seen[o] {
			return false
		}
		seen[o] = true
	}
	return true
}

// FuzzInjective checks Injective against the brute-force set of offsets on
// ranks up to 6, extents up to 7 and strides up to 40, where it always
// knows the answer.
func FuzzInjective(f *testing.F) {
	f.Add([]byte{1, 2, 3, 3, 2})       // extents (2, 3)... interleaved
	f.Add([]byte{1, 3, 2, 2, 3})       // (3, 2) strides (2, 3): distinct
	f.Add([]byte{2, 2, 2, 2, 2, 3, 5}) // three dimensions
	f.Add([]byte{1, 4, 4, 3, 4})       // (4, 4) strides (3, 4): 0+... collide
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &bytesIn{data}
		rank := 1 + in.n(6)
		ext := make([]int, rank)
		str := make([]int, rank)
		for r := range ext {
			ext[r] = in.n(8)
		}
		for r := range str {
			str[r] = in.n(41)
		}
		got, known := Injective(ext, str)
		if !known {
			t.Fatalf("extents %v, strides %v: not decided", ext, str)
		}
		if want := injectiveBrute(ext, str); got != want {
			t.Fatalf("extents %v, strides %v: Injective %v, want %v", ext, str, got, want)
		}
	})
}

// TestInjectiveCases lists interleaved strides the sorted test alone would
// refuse, and overlapping ones.
func TestInjectiveCases(t *testing.T) {
	cases := []struct {
		ext, str []int
		want     bool
	}{
		{[]int{3, 2}, []int{2, 3}, true},  // 0 2 4 / 3 5 7
		{[]int{2, 2}, []int{2, 3}, true},  // 0 2 / 3 5
		{[]int{4, 2}, []int{2, 3}, true},  // 0 2 4 6 / 3 5 7 9
		{[]int{4, 3}, []int{2, 3}, false}, // 3·2 = 2·3
		{[]int{2, 3}, []int{3, 2}, true},  // the first, transposed
		{[]int{2, 2, 2}, []int{1, 1, 4}, false},
		{[]int{3, 3}, []int{1, 2}, false}, // 2·1 = 1·2
		{[]int{2, 2, 2}, []int{3, 5, 7}, true},
		{[]int{2, 2, 2, 2}, []int{3, 5, 7, 9}, false}, // 3+9 = 5+7
		{[]int{1000, 3}, []int{3, 1000}, true},
		{[]int{1000, 3}, []int{3, 999}, false}, // 333·3 = 999
		{[]int{5, 1, 0}, []int{1, 0, 0}, true},
	}
	for _, c := range cases {
		got, known := Injective(c.ext, c.str)
		if !known || got != c.want || injectiveBrute(c.ext, c.str) != c.want {
			t.Errorf("extents %v, strides %v: Injective %v (known %v), want %v", c.ext, c.str, got, known, c.want)
		}
	}
	// too large to search: refused, with the reason
	if _, known := Injective([]int{2, 1 << 22}, []int{1 << 21, 1}); known {
		t.Errorf("a search over 2^23 elements was made")
	}
	if err := CheckStrides([]int{2, 1 << 22}, []int{1 << 21, 1}); err == nil {
		t.Errorf("CheckStrides accepted strides it could not check")
	}
}

// FuzzCheckStrides checks CheckStrides and Span against brute force: strides
// that CheckStrides accepts give every index tuple its own offset, within
// [0, Span); negative strides and zero strides of a dimension with more
// than one index are refused with an Invalid error.
func FuzzCheckStrides(f *testing.F) {
	f.Add([]byte{1, 3, 4, 1, 3, 0})
	f.Add([]byte{2, 2, 3, 4, 9, 3, 1, 1})
	f.Add([]byte{3, 3, 3, 3, 0, 1, 9, 3, 0})
	f.Add([]byte{1, 2, 2, 25, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &bytesIn{data}
		rank := 1 + in.n(4)
		ext := make([]int, rank)
		str := make([]int, rank)
		for r := range ext {
			ext[r] = in.n(5)
		}
		for r := range str {
			str[r] = in.n(30) - 2
		}
		err := CheckStrides(ext, str)
		empty := false
		for r := range ext {
			empty = empty || ext[r] == 0
		}
		for r := range str {
			if str[r] < 0 || str[r] == 0 && ext[r] > 1 && !empty {
				var e *Error
				if !errors.As(err, &e) || e.Kind != Invalid {
					t.Fatalf("extents %v, strides %v: error %v, want an Invalid one", ext, str, err)
				}
				return
			}
		}
		distinct := injectiveBrute(ext, str)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != Invalid {
				t.Fatalf("extents %v, strides %v: error %v is not an Invalid *Error", ext, str, err)
			}
			if distinct {
				t.Fatalf("extents %v, strides %v: refused (%v), but every offset is distinct", ext, str, err)
			}
			return
		}
		if !distinct {
			t.Fatalf("extents %v, strides %v: accepted, but two index tuples share an offset", ext, str)
		}
		span, err := Span(ext, str)
		if err != nil {
			t.Fatalf("extents %v, strides %v: Span: %v", ext, str, err)
		}
		seen := map[int]bool{}
		last := -1
		for _, o := range offsets(ext, str) {
			if seen[o] {
				t.Fatalf("extents %v, strides %v: accepted, but offset %d is addressed twice", ext, str, o)
			}
			seen[o] = true
			last = max(last, o)
		}
		if span != last+1 {
			t.Fatalf("extents %v, strides %v: span %d, want %d", ext, str, span, last+1)
		}
	})
}

// FuzzMapStrides checks that Right and Left map extents, padded or not, to
// strides that CheckStrides accepts and IsMapping recognises, with the
// contiguous dimension of stride 1, and that Span is MapStrides's span.
func FuzzMapStrides(f *testing.F) {
	f.Add([]byte{1, 3, 4, 1, 0})
	f.Add([]byte{2, 2, 3, 4, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &bytesIn{data}
		rank := in.n(MaxRank + 1)
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = in.n(6)
		}
		l := Layout(in.n(2))
		pad := in.n(2) == 1
		elem := []int{1, 2, 4, 8, 3, 16}[in.n(6)]
		str := make([]int, rank)
		span, err := MapStrides(l, ext, nil, elem, pad, str)
		if err != nil {
			t.Fatalf("%v %v: %v", name(l), ext, err)
		}
		if err := CheckStrides(ext, str); err != nil {
			t.Fatalf("%v extents %v pad %v: strides %v: %v", name(l), ext, pad, str, err)
		}
		if !IsMapping(l, ext, str) {
			t.Fatalf("%v extents %v pad %v: strides %v are not recognised", name(l), ext, pad, str)
		}
		if s, _ := Span(ext, str); s != span {
			t.Fatalf("%v extents %v: span %d, Span %d", name(l), ext, span, s)
		}
		n, _ := Product(ext)
		if !pad && span != n {
			t.Fatalf("%v extents %v unpadded: span %d, size %d", name(l), ext, span, n)
		}
	})
}

// subviewRule is Kokkos's subview layout rule transcribed literally from
// Kokkos_ViewMapping.hpp: SubviewLegalArgsCompileTime's recursion over the
// arguments, or a result of rank 1 or 2 whose first (LayoutLeft) or last
// (LayoutRight) argument is a range. A subview of no range keeps l.
func subviewRule(l Layout, kinds []uint32) Layout {
	n, m := len(kinds), 0
	for _, k := range kinds {
		if k != ArgIndex {
			m++
		}
	}
	if m == 0 || l == Stride {
		return l
	}
	isRange := func(k uint32) bool { return k != ArgIndex }
	legal := true
	for i, k := range kinds {
		var ok bool
		switch {
		case l == Left && i < n-1:
			ok = (i == m-1 && isRange(k)) || (i >= m && k == ArgIndex) || (i < m && k == ArgAll) || (i == 0 && isRange(k))
		case l == Left:
			ok = i == m-1 || k == ArgIndex
		case i < n-1:
			ok = (i == n-m && isRange(k)) || (i < n-m && k == ArgIndex) || (i >= n-m && k == ArgAll)
		default:
			ok = k == ArgAll
		}
		legal = legal && ok
	}
	switch {
	case legal,
		m <= 2 && l == Left && isRange(kinds[0]),
		m <= 2 && l == Right && isRange(kinds[n-1]):
		return l
	}
	return Stride
}

// FuzzSubview checks Subview, and SubviewOf with SubviewPatterns's
// rules, against the rule transcribed literally from Kokkos.
func FuzzSubview(f *testing.F) {
	f.Add([]byte{3, 0, 0, 1, 1})
	f.Add([]byte{3, 1, 2, 1, 0})
	f.Add([]byte{8, 1, 1, 1, 2, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &bytesIn{data}
		n := 1 + in.n(MaxRank)
		l := Layout(in.n(3))
		kinds := make([]uint32, n)
		var word uint32
		m := 0
		for r := range kinds {
			kinds[r] = uint32(in.n(3))
			word |= kinds[r] << (2 * r)
			if kinds[r] != ArgIndex {
				m++
			}
		}
		want := subviewRule(l, kinds)
		if got := Subview(l, word, n, m); got != want {
			t.Fatalf("%v with argument kinds %v: Subview gives %v, want %v", name(l), kinds, name(got), name(want))
		}
		if m > 0 {
			r, lt := SubviewPatterns(n, m)
			if got := SubviewOf(l, word, r, lt); got != want {
				t.Fatalf("%v with argument kinds %v: SubviewOf gives %v, want %v", name(l), kinds, name(got), name(want))
			}
		}
	})
}

// TestSubviewAll checks Subview against the literal rule for every
// argument pattern of every rank.
func TestSubviewAll(t *testing.T) {
	for n := 1; n <= MaxRank; n++ {
		kinds := make([]uint32, n)
		total := 1
		for range n {
			total *= 3
		}
		for c := range total {
			var word uint32
			m := 0
			for r, x := 0, c; r < n; r, x = r+1, x/3 {
				kinds[r] = uint32(x % 3)
				word |= kinds[r] << (2 * r)
				if kinds[r] != ArgIndex {
					m++
				}
			}
			for _, l := range []Layout{Right, Left, Stride} {
				if got, want := Subview(l, word, n, m), subviewRule(l, kinds); got != want {
					t.Fatalf("%v%v: %v, want %v", name(l), kinds, name(got), name(want))
				}
			}
		}
	}
}

// TestSubviewTable is a table of subview layouts that Kokkos's compile-time
// rule gives (Kokkos_ViewMapping.hpp), on the rule alone.
func TestSubviewTable(t *testing.T) {
	const I, A, P = ArgIndex, ArgAll, ArgPair
	cases := []struct {
		l     Layout
		kinds []uint32
		want  Layout
	}{
		{Right, []uint32{I, A, A}, Right},
		{Right, []uint32{I, P, A}, Right},
		{Right, []uint32{I, A, P}, Right}, // rank 2, last argument a range
		{Right, []uint32{P, I, P}, Right},
		{Right, []uint32{P, P}, Right},
		{Right, []uint32{A, P}, Right},
		{Right, []uint32{A, I}, Stride},
		{Right, []uint32{I, I, A}, Right},
		{Right, []uint32{I, A, I}, Stride},
		{Right, []uint32{P, A, A}, Right},
		{Right, []uint32{A, P, A}, Stride},
		{Right, []uint32{A, A, P}, Stride}, // rank 3: the last must be All
		{Right, []uint32{A, I, A}, Right},  // rank 2, last argument a range
		{Right, []uint32{A, I, A, A}, Stride},
		{Left, []uint32{A, A, I}, Left},
		{Left, []uint32{A, P, I}, Left},
		{Left, []uint32{A, I, I}, Left},
		{Left, []uint32{I, A, I}, Stride},
		{Left, []uint32{P, A, I}, Left}, // a Pair first
		{Left, []uint32{P, I, P}, Left}, // rank 2, first argument a range
		{Left, []uint32{P, P}, Left},
		{Left, []uint32{I, A}, Stride},
		{Left, []uint32{P, P, P}, Stride},
		{Left, []uint32{P, A, A}, Left},
		{Left, []uint32{A, A, P}, Left},
		{Left, []uint32{A, A, I, A}, Stride},
		{Stride, []uint32{I, A, A}, Stride},
		{Right, []uint32{I, I, I}, Right},
	}
	for _, c := range cases {
		var word uint32
		m := 0
		for r, k := range c.kinds {
			word |= k << (2 * r)
			if k != I {
				m++
			}
		}
		if got := Subview(c.l, word, len(c.kinds), m); got != c.want {
			t.Errorf("%v%v: %v, want %v", name(c.l), c.kinds, name(got), name(c.want))
		}
		if got := subviewRule(c.l, c.kinds); got != c.want {
			t.Errorf("the literal rule: %v%v: %v, want %v", name(c.l), c.kinds, name(got), name(c.want))
		}
	}
}

func TestErrors(t *testing.T) {
	var e *Error
	if _, err := Product([]int{2, -1}); !errors.As(err, &e) || e.Kind != Shape || e.Error() != "extent -1 of dimension 1 is negative" {
		t.Errorf("Product: %v", err)
	}
	if _, err := MapStrides(Stride, []int{2}, nil, 8, false, make([]int, 1)); !errors.As(err, &e) || e.Kind != Invalid {
		t.Errorf("MapStrides without strides: %v", err)
	}
	if _, err := MulBytes(1<<62, 8); !errors.As(err, &e) || e.Kind != Shape {
		t.Errorf("MulBytes: %v", err)
	}
	if s := FormatInts([]int{1, 2}); s != "(1, 2)" {
		t.Errorf("FormatInts: %q", s)
	}
}

// TestPad checks the padding rule: only extents above the alignment in
// elements, and not a multiple of it, are rounded up, as Kokkos does; rows
// of a multiple of 4 KiB get one cache line more.
func TestPad(t *testing.T) {
	cases := []struct{ n, size, want int }{
		{5, 8, 5}, {8, 8, 8}, {9, 8, 16}, {13, 8, 16}, {16, 8, 16}, {17, 8, 24},
		{10, 4, 10}, {16, 4, 16}, {17, 4, 32}, {65, 1, 128}, {64, 1, 64},
		{3, 16, 3}, {5, 16, 8}, {2, 64, 2}, {7, 3, 7}, {7, 0, 7}, {9, 128, 9},
		// Rows of a whole multiple of 4 KiB get one more cache line.
		{512, 8, 520}, {4096, 8, 4104}, {4095, 8, 4104}, {4097, 8, 4104}, {4104, 8, 4104},
		{1024, 4, 1040}, {4096, 1, 4160}, {256, 16, 260}, {511, 8, 520}, {1536, 8, 1544},
	}
	for _, c := range cases {
		if got := Pad(c.n, c.size); got != c.want {
			t.Errorf("Pad(%d, %d) = %d, want %d", c.n, c.size, got, c.want)
		}
	}
}

// TestMapStridesGiven checks Right and Left views given every stride: a
// padding of the layout is kept, anything else refused.
func TestMapStridesGiven(t *testing.T) {
	cases := []struct {
		l        Layout
		ext, str []int
		ok       bool
	}{
		{Left, []int{3, 4}, []int{1, 10}, true},
		{Left, []int{3, 4}, []int{1, 3}, true},
		{Left, []int{3, 4}, []int{1, 2}, false}, // leading dimension below the extent
		{Left, []int{3, 4}, []int{2, 10}, false},
		{Left, []int{3, 4, 5}, []int{1, 10, 40}, true},
		{Left, []int{3, 4, 5}, []int{1, 10, 41}, false},
		{Right, []int{3, 4}, []int{10, 1}, true},
		{Right, []int{2, 3, 4}, []int{24, 8, 1}, true},
		{Right, []int{2, 3, 4}, []int{25, 8, 1}, false},
		{Right, []int{2, 3, 4}, []int{12, 4}, false}, // too few
		{Right, []int{5}, []int{1}, true},
		{Right, []int{5}, []int{2}, false},
		{Right, []int{3, 4}, []int{-4, 1}, false},
	}
	for _, c := range cases {
		str := make([]int, len(c.ext))
		span, err := MapStrides(c.l, c.ext, c.str, 8, true, str)
		if c.ok != (err == nil) {
			t.Errorf("%v %v strides %v: error %v, want ok %v", name(c.l), c.ext, c.str, err, c.ok)
			continue
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != Invalid {
				t.Errorf("%v %v strides %v: error %v is not Invalid", name(c.l), c.ext, c.str, err)
			}
			continue
		}
		want, _ := Span(c.ext, c.str)
		if !slices.Equal(str, c.str) || span != want {
			t.Errorf("%v %v strides %v: got strides %v span %d", name(c.l), c.ext, c.str, str, span)
		}
	}
}
