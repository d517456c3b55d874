package kernelir

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// scanSample has nested scans of each kind, totals new, assigned, stored
// to acc and dropped, and a continue (the Go body's return).
const scanSample = `kernelir 1
(kernel S reduce (team t)
  (view incl int64 2 w)
  (view excl int64 2 w)
  (view tot int64 2 w)
  (view a int64 2 r)
  (acc int64)
  (body
    (assign ((new row int)) ((team LeagueRank)))
    (nestedscan thread j (int 0) (extent a 1) Sum int64 acc final ((new total int64))
      (body
        (if final (then (assign ((at excl row j)) (acc))))
        (if (lt int64 (at a row j) (int64 0)) (then (continue)))
        (opassign add acc (at a row j))
        (if final (then (assign ((at incl row j)) (acc))))))
    (var ((m int64)) ())
    (nestedscan teamvector _ (int 0) (extent a 1) Max int64 x _ (m)
      (body (assign (x) ((max int64 x (int64 7))))))
    (nestedscan vector k (int 0) (int 3) Prod int64 p f ()
      (body (opassign mul p (int64 2))))
    (nested thread (new i int) (int 0) (int 2)
      (body (nestedscan vector k (int 0) (int 4) Sum int64 p f ((acc)) (body (opassign add p (int64 1))))))
    (assign ((at tot row (team TeamRank))) ((add int64 total m)))))
`

func TestNestedScanPrintParse(t *testing.T) {
	k, err := Parse(scanSample)
	if err != nil {
		t.Fatal(err)
	}
	text := Print(k)
	if squash(text) != squash(scanSample) {
		t.Fatalf("Print:\n%s\nwant\n%s", text, scanSample)
	}
	back, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if Print(back) != text {
		t.Fatal("the printed text does not read back to itself")
	}
}

func TestNestedScanInvalid(t *testing.T) {
	head := "kernelir 1\n(kernel K for (team t) (view v int64 1 w) (scalar n int)\n(body "
	for _, c := range []struct{ body, want string }{
		{"(nested thread _ (int 0) n (body (nestedscan thread j (int 0) n Sum int a f () (body))))", "a thread scan inside a thread range"},
		{"(nested vector _ (int 0) n (body (nestedscan vector j (int 0) n Sum int a f () (body))))", "a vector scan inside a vector range"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (nestedscan teamvector k (int 0) n Sum int b g () (body))))", "a teamvector scan inside a thread range"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (barrier)))", "barrier inside a thread range"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (return)))", "return inside a thread range"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (break)))", "break outside a loop"},
		{"(nestedscan thread j (int 0) n LAnd int a f () (body))", "by LAnd of a int"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (assign (j) ((int 1)))))", "assignment to j"},
		{"(nestedscan thread j (int 0) n Sum int a f () (body (assign (f) ((bool true)))))", "assignment to f"},
		{"(var ((s int)) ()) (nestedscan thread j (int 0) n Sum int a f () (body (assign (s) (a))))", "assignment to s"},
		{"(nestedscan thread j (int 0) n Sum int a f ((new x float64)) (body))", "new variable x of type float64 given a int"},
		{"(nestedscan thread j (int 0) n Sum int a f ((at v (int 0))) (body))", "stored to other than a variable"},
		{"(nestedscan block j (int 0) n Sum int a f () (body))", "want thread, vector or teamvector"},
		{"(nestedscan thread j (int 0) n Sum int a f (x y) (body))", "want one target or none"},
	} {
		_, err := Parse(head + c.body + "))\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", c.body, err, c.want)
		}
	}
	_, err := Parse("kernelir 1\n(kernel K for (index i) (body (nestedscan thread j (int 0) (int 1) Sum int a f () (body))))\n")
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "a nested scan outside the body of a team kernel") {
		t.Errorf("a nested scan in a flat kernel: %v", err)
	}
}

// TestNestedScanRun runs scanSample over random rows on teams of several
// sizes against Go loops: the prefixes of each row whatever thread runs
// each index, the totals on every thread.
func TestNestedScanRun(t *testing.T) {
	k := mustParse(t, scanSample)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, cols := range []int{0, 1, 10, 33} {
		const league = 3
		a := make([]int64, league*cols)
		for i := range a {
			a[i] = rng.Int64N(2001) - 1000
		}
		for _, size := range []int{1, 2, 3, 8} {
			incl, excl := make([]int64, league*cols), make([]int64, league*cols)
			tot := make([]int64, league*8)
			var acc int64
			err := runLeague(t, k, league, size, [2][2]int{}, &acc,
				View{Data: incl, Extents: []int{league, cols}, Strides: []int{cols, 1}},
				View{Data: excl, Extents: []int{league, cols}, Strides: []int{cols, 1}},
				View{Data: tot, Extents: []int{league, 8}, Strides: []int{8, 1}},
				View{Data: a, Extents: []int{league, cols}, Strides: []int{cols, 1}})
			if err != nil {
				t.Fatalf("%d columns, team %d: %v", cols, size, err)
			}
			for r := range league {
				var s int64
				for j := range cols {
					v := a[r*cols+j]
					if excl[r*cols+j] != s {
						t.Fatalf("%d columns, team %d: excl[%d, %d] = %d, want %d", cols, size, r, j, excl[r*cols+j], s)
					}
					if v < 0 {
						continue
					}
					s += v
					if incl[r*cols+j] != s {
						t.Fatalf("%d columns, team %d: incl[%d, %d] = %d, want %d", cols, size, r, j, incl[r*cols+j], s)
					}
				}
				m := int64(-1 << 63)
				if cols > 0 {
					m = 7
				}
				for q := range size {
					if got := tot[r*8+q]; got != s+m {
						t.Fatalf("%d columns, team %d: tot[%d, %d] = %d, want %d", cols, size, r, q, got, s+m)
					}
				}
			}
			// The threads store the vector scans' total, 4, to the one
			// accumulator.
			if acc != 4 {
				t.Fatalf("%d columns, team %d: acc %d, want 4", cols, size, acc)
			}
		}
	}
}
