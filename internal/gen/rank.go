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

// loops nests one loop per dimension, in the order given, around call.
func (r rank) loops(order []int, call string) string {
	var sb strings.Builder
	for _, d := range order {
		fmt.Fprintf(&sb, "for i%d := b[%d]; i%d < e[%d]; i%d++ {\n", d, d, d, d, d)
	}
	fmt.Fprintf(&sb, call+"\n", r.Args())
	for range order {
		sb.WriteString("}\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// Right nests the loops of an MDRange tile so that the last index runs
// fastest.
func (r rank) Right(call string) string {
	order := make([]int, r.N)
	for d := range order {
		order[d] = d
	}
	return r.loops(order, call)
}

// Left nests them so that the first index runs fastest.
func (r rank) Left(call string) string {
	order := make([]int, r.N)
	for d := range order {
		order[d] = r.N - 1 - d
	}
	return r.loops(order, call)
}
