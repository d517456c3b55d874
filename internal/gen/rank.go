package main

import (
	"fmt"
	"strings"

	"github.com/gokkos/kokkos/internal/layout"
)

// rank is what a template is executed with: the rank N and what the
// templates derive from it.
type rank struct {
	N    int
	Sub  int   // N-1
	Ms   []int // 1, ..., N: the result ranks of OffsetView's Subview methods
	Subs []sub // View's Subview methods, of result ranks 0, ..., N (none at N = 0)
}

func newRank(n int) rank {
	r := rank{N: n, Sub: n - 1}
	for m := 1; m <= n; m++ {
		r.Ms = append(r.Ms, m)
	}
	if n > 0 {
		for m := 0; m <= n; m++ {
			r.Subs = append(r.Subs, newSub(n, m))
		}
	}
	return r
}

// sub describes the Subview method of result rank M: the argument-kind
// patterns (two bits per dimension: 0 index, 1 All, 2 Pair) under which
// LayoutRight and LayoutLeft are kept (layout.SubviewPatterns).
type sub struct {
	N, M int
	R, L layout.Rule
}

func newSub(n, m int) sub {
	s := sub{N: n, M: m}
	s.R, s.L = layout.SubviewPatterns(n, m)
	return s
}

// names returns i0, ..., i(N-1).
func (r rank) names() []string {
	s := make([]string, r.N)
	for d := range s {
		s[d] = fmt.Sprintf("i%d", d)
	}
	return s
}

// Args returns "i0, i1, ..., i(N-1)".
func (r rank) Args() string { return strings.Join(r.names(), ", ") }

// The per-index MDRange patterns run the innermost loop of a tile in a
// line function of their own (mdLine...), four calls a step: the loop
// around a call keeps fewer values on the stack than the nest does.

// lineLoops nests one loop per dimension of order but the last, around
// call, whose %s is given the indices of those loops (in dimension order)
// and the bounds b[d], e[d] of the last dimension d of order.
func (r rank) lineLoops(order []int, call string) string {
	var sb strings.Builder
	outer := order[:len(order)-1]
	for _, d := range outer {
		fmt.Fprintf(&sb, "for i%d := b[%d]; i%d < e[%d]; i%d++ {\n", d, d, d, d, d)
	}
	last := order[len(order)-1]
	var args []string
	for d := range r.N {
		if d != last {
			args = append(args, fmt.Sprintf("i%d", d))
		}
	}
	args = append(args, fmt.Sprintf("b[%d], e[%d]", last, last))
	fmt.Fprintf(&sb, call+"\n", strings.Join(args, ", "))
	for range outer {
		sb.WriteString("}\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// RightLines nests the loops of a tile, the last index fastest, around a
// call of the line function whose text is call.
func (r rank) RightLines(call string) string {
	order := make([]int, r.N)
	for d := range order {
		order[d] = d
	}
	return r.lineLoops(order, call)
}

// LeftLines is RightLines with the first index fastest.
func (r rank) LeftLines(call string) string {
	order := make([]int, r.N)
	for d := range order {
		order[d] = r.N - 1 - d
	}
	return r.lineLoops(order, call)
}

// Fixed returns the indices but the d-th: "i0, ..., i(N-1)" without id.
func (r rank) Fixed(d int) string {
	var s []string
	for k, n := range r.names() {
		if k != d {
			s = append(s, n)
		}
	}
	return strings.Join(s, ", ")
}

// ArgsWith returns "i0, ..., i(N-1)" with the d-th index written v.
func (r rank) ArgsWith(d int, v string) string {
	s := r.names()
	s[d] = v
	return strings.Join(s, ", ")
}
