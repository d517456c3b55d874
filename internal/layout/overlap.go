package layout

import "slices"

// Elements describes the bytes that a view's elements occupy in one
// address space: the element at index (i0, i1, ...) occupies the Size
// bytes from Base + i0*Str[0] + i1*Str[1] + ... Strides are in bytes and
// non-negative.
type Elements struct {
	Base     int
	Size     int
	Ext, Str []int
}

// A Verdict is the answer of Shared.
type Verdict uint8

const (
	// Disjoint: no byte belongs to an element of both views.
	Disjoint Verdict = iota
	// Intersect: some byte belongs to an element of both views.
	Intersect
	// Unknown: the search gave up after its budget; the views may or may
	// not share a byte.
	Unknown
)

// sharedBudget bounds the nodes that Shared visits before it answers
// Unknown. Views of one allocation (subviews of a parent, layouts of one
// array) take a handful of nodes; the budget is for strides chosen to
// defeat the pruning.
const sharedBudget = 1 << 14

// Shared reports whether an element of a and an element of b share a
// byte. The answer is exact (Disjoint or Intersect) unless the search runs
// past its budget (Unknown), which takes strides of many unrelated sizes.
//
// Element i of a and element j of b share a byte when
// a.Base + Σ i_r a.Str[r] - b.Base - Σ j_r b.Str[r] lies in
// [-(a.Size-1), b.Size-1]: a bounded linear equation in the indices. The
// search assigns the terms in decreasing order of stride, with terms of
// equal stride merged, and prunes with the interval that the remaining
// terms can reach and with the greatest common divisor of their strides.
func Shared(a, b Elements) Verdict {
	if a.Size <= 0 || b.Size <= 0 || slices.Contains(a.Ext, 0) || slices.Contains(b.Ext, 0) {
		return Disjoint
	}
	var s search
	add := func(c, lo, hi int) {
		if c == 0 || lo == hi {
			return
		}
		for k := range s.n {
			if s.c[k] == c {
				s.lo[k] += lo
				s.hi[k] += hi
				return
			}
		}
		s.c[s.n], s.lo[s.n], s.hi[s.n] = c, lo, hi
		s.n++
	}
	for r, e := range a.Ext {
		add(a.Str[r], 0, e-1)
	}
	for r, e := range b.Ext {
		add(b.Str[r], -(e - 1), 0)
	}
	s.sort()
	s.suffix()
	d := b.Base - a.Base
	s.budget = sharedBudget
	return s.find(0, d-(a.Size-1), d+(b.Size-1))
}

// search is the state of Shared: terms c[k]*x[k] with x[k] in
// [lo[k], hi[k]], sorted by decreasing c, and for each k the interval
// [rlo[k], rhi[k]] that the terms from k on can reach and the gcd g[k] of
// their strides.
type search struct {
	n           int
	c, lo, hi   [2 * MaxRank]int
	rlo, rhi, g [2*MaxRank + 1]int
	budget      int
}

func (s *search) sort() {
	for i := 1; i < s.n; i++ {
		for j := i; j > 0 && s.c[j] > s.c[j-1]; j-- {
			s.c[j], s.c[j-1] = s.c[j-1], s.c[j]
			s.lo[j], s.lo[j-1] = s.lo[j-1], s.lo[j]
			s.hi[j], s.hi[j-1] = s.hi[j-1], s.hi[j]
		}
	}
}

func (s *search) suffix() {
	for k := s.n - 1; k >= 0; k-- {
		s.rlo[k] = s.rlo[k+1] + s.c[k]*s.lo[k]
		s.rhi[k] = s.rhi[k+1] + s.c[k]*s.hi[k]
		s.g[k] = gcd(s.g[k+1], s.c[k])
	}
}

// find reports whether the terms from k on can sum to a value in [L, H].
func (s *search) find(k, L, H int) Verdict {
	L, H = max(L, s.rlo[k]), min(H, s.rhi[k])
	if L > H {
		return Disjoint
	}
	if k == s.n {
		return Intersect // L <= 0 <= H: rlo and rhi are 0
	}
	if g := s.g[k]; floorDiv(H, g)*g < L {
		return Disjoint // no multiple of g in [L, H]
	}
	c := s.c[k]
	// c*x + [rlo[k+1], rhi[k+1]] must meet [L, H].
	xlo := max(s.lo[k], ceilDiv(L-s.rhi[k+1], c))
	xhi := min(s.hi[k], floorDiv(H-s.rlo[k+1], c))
	if k == s.n-1 {
		if xlo <= xhi {
			return Intersect
		}
		return Disjoint
	}
	unknown := false
	for x := xlo; x <= xhi; x++ {
		if s.budget--; s.budget < 0 {
			return Unknown
		}
		switch s.find(k+1, L-c*x, H-c*x) {
		case Intersect:
			return Intersect
		case Unknown:
			unknown = true
		}
	}
	if unknown {
		return Unknown
	}
	return Disjoint
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }
