package main

import (
	"strconv"
	"strings"
	"testing"
)

// scanRefusedCases has a case for each form of a nested scan a team
// kernel may not take.
func scanRefusedCases() []refusedCase {
	const outside = "the body has its own copy (Kokkos's lambdas capture by value): write a view, *acc or the total"
	const inScan = "call it outside the scan"
	return []refusedCase{
		{"scan body", `//kokkos:kernel
func ScanBody(t kernel.Team, v kokkos.View1[int64], n int) {
	s := int64(0)
	kernel.TeamThreadScan(t, 0, n, kokkos.Sum[int64](), func(i int, acc *int64, final bool) {
		s += 1
		t.TeamBarrier()
		_ = kernel.TeamReduce(t, kokkos.Sum[int](), i)
		for range t.ThreadVectorRange(0, n) {
		}
		for k := range 3 {
			if k == 1 {
				return
			}
		}
		i = 2
		final = true
		_ = h(int(*acc))
		v.Set(i, *acc)
		_ = kernel.ThreadVectorScan(t, 0, n, kokkos.Sum[int](), func(j int, acc *int, final bool) {})
	})
	_ = s
}`, []string{
			refused("5:3", "ScanBody", "an assignment to s, a local outside the body of kernel.TeamThreadScan", outside),
			refused("6:3", "ScanBody", "t.TeamBarrier() in the body of kernel.TeamThreadScan", inScan),
			refused("7:7", "ScanBody", "kernel.TeamReduce in the body of kernel.TeamThreadScan", inScan),
			refused("8:3", "ScanBody", "a loop over ThreadVectorRange in the body of kernel.TeamThreadScan", "the scan's range is innermost: scan, or loop, outside it"),
			refused("12:5", "ScanBody", "a return inside a loop in the body of kernel.TeamThreadScan", "the return ends the index: use a flag, or an if around the rest"),
			refused("15:3", "ScanBody", "an assignment to i, the index of kernel.TeamThreadScan", "copy it to a local"),
			refused("16:3", "ScanBody", "an assignment to final, the final flag of kernel.TeamThreadScan", "copy it to a local"),
			refused("19:7", "ScanBody", "kernel.ThreadVectorScan in the body of a nested scan", "call it outside kernel.TeamThreadScan"),
		}},
		{"scan acc", `//kokkos:kernel
func ScanAcc(t kernel.Team, n int) {
	kernel.TeamVectorScan(t, 0, n, kokkos.Prod[float64](), func(i int, acc *float64, _ bool) {
		acc = nil
		_ = acc
	})
}`, []string{
			refused("4:3", "ScanAcc", "an assignment to acc", "assign to *acc"),
			refused("4:9", "ScanAcc", "nil", "use a view"),
			refused("5:7", "ScanAcc", "the pointer acc", "use *acc"),
		}},
		{"scan placement", `//kokkos:kernel
func ScanWhere(t kernel.Team, v kokkos.View1[int64], n int) {
	for j := range t.TeamThreadRange(0, n) {
		kernel.TeamThreadScan(t, 0, j, kokkos.Sum[int](), func(i int, acc *int, final bool) { *acc += i })
		for range t.ThreadVectorRange(0, n) {
			kernel.ThreadVectorScan(t, 0, j, kokkos.Sum[int](), func(i int, acc *int, final bool) { *acc += i })
		}
	}
	x := 1 + kernel.TeamVectorScan(t, 0, n, kokkos.Sum[int](), func(i int, acc *int, final bool) { *acc += i })
	x += kernel.TeamThreadScan(t, 0, n, kokkos.Sum[int](), func(i int, acc *int, final bool) {})
	*v.Ptr(0) = kernel.TeamThreadScan(t, 0, n, kokkos.Sum[int64](), func(i int, acc *int64, final bool) {})
	_ = kernel.TeamThreadScan(t, 0, n, kokkos.Max[int](), h2)
	_ = x
}

func h2(i int, acc *int, final bool) {}`, []string{
			refused("4:3", "ScanWhere", "kernel.TeamThreadScan inside a loop over a team range", "every thread of the team must call it: call it after the loop"),
			refused("6:4", "ScanWhere", "kernel.ThreadVectorScan inside a loop over a vector range", "every vector lane must call it: call it after the loop"),
			refused("9:11", "ScanWhere", "kernel.TeamVectorScan inside an expression", "call it as a statement, or assign its total: x := kernel.TeamVectorScan(...)"),
			refused("10:2", "ScanWhere", "this assignment of the total of kernel.TeamThreadScan", "assign it to one variable: x := kernel.TeamThreadScan(...)"),
			refused("11:2", "ScanWhere", "the total of kernel.TeamThreadScan assigned to *v.Ptr(0)", "assign it to a local"),
			refused("12:56", "ScanWhere", "the body h2 of kernel.TeamThreadScan", "write a function literal in place: func(i int, acc *T, final bool) { ... }"),
		}},
	}
}

func TestCheckScanRefuses(t *testing.T) {
	cases := scanRefusedCases()
	src := teamRefusedHeader
	first := make([]int, len(cases))
	var want []string
	for n, c := range cases {
		src += "\n"
		first[n] = strings.Count(src, "\n") + 1
		src += c.src + "\n"
		for _, w := range c.want {
			want = append(want, "k.go:"+shiftLine(t, w, first[n]-1))
		}
	}
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		i := strings.Index(l, "/k.go:")
		if i < 0 {
			t.Fatalf("refusal without a position: %q", l)
		}
		got = append(got, l[i+1:])
	}
	byCase := func(lines []string) [][]string {
		out := make([][]string, len(cases))
		for _, l := range lines {
			ln, _ := strconv.Atoi(strings.Split(l, ":")[1])
			n := len(cases) - 1
			for n > 0 && first[n] > ln {
				n--
			}
			out[n] = append(out[n], l)
		}
		return out
	}
	g, w := byCase(got), byCase(want)
	for n, c := range cases {
		if strings.Join(g[n], "\n") != strings.Join(w[n], "\n") {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", c.name, strings.Join(g[n], "\n\t"), strings.Join(w[n], "\n\t"))
		}
	}
}
