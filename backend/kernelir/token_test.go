package kernelir

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// tokenSample uses a token parameter every way a body may.
const tokenSample = `kernelir 1
(kernel T for (index i)
  (view count int64 1 w)
  (view ids int64 1 w)
  (scalar twice bool)
  (token tok)
  (body
    (assign ((new id int)) ((acquire tok)))
    (assign ((at ids i)) ((conv int64 id)))
    (do (atomic Add count (id) (int64 1)))
    (if (ge int id (tokensize tok)) (then (assign ((at ids i)) ((int64 -1)))))
    (do (release tok id))
    (if twice (then (do (release tok id))))))
`

func TestTokenPrintParse(t *testing.T) {
	k, err := Parse(tokenSample)
	if err != nil {
		t.Fatal(err)
	}
	if p := k.Param("tok"); p == nil || !p.Token || p.IsView() {
		t.Fatalf("tok parsed as %+v", p)
	}
	text := Print(k)
	if squash(text) != squash(tokenSample) {
		t.Errorf("Print differs from the text parsed:\n%s", text)
	}
	k2, err := Parse(text)
	if err != nil || Print(k2) != text {
		t.Fatalf("Print(Parse(Print)): %v", err)
	}
}

// TestTokenMachine runs the sample on a token of a few ids: each index
// gets an id in range, and the counts add up.
func TestTokenMachine(t *testing.T) {
	k, err := Parse(tokenSample)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		size := 1 + r.IntN(9)
		n := 1 + r.IntN(200)
		tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, size)
		count := make([]int64, size)
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = -7
		}
		m, err := NewMachine(k,
			View{Data: count, Extents: []int{size}, Strides: []int{1}},
			View{Data: ids, Extents: []int{n}, Strides: []int{1}},
			false, tok)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := m.Run([]int{i}, nil, false); err != nil {
				t.Fatal(err)
			}
		}
		total := int64(0)
		for _, c := range count {
			total += c
		}
		for i, id := range ids {
			if id < 0 || id >= int64(size) {
				t.Fatalf("index %d: id %d outside [0, %d)", i, id, size)
			}
		}
		if total != int64(n) {
			t.Fatalf("%d acquires counted, want %d", total, n)
		}
		// Every id was released: all of them can be held again.
		for range size {
			tok.Acquire()
		}
	}
	// A second release of the same id is a run-time error.
	tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, 2)
	m, err := NewMachine(k,
		View{Data: make([]int64, 2), Extents: []int{2}, Strides: []int{1}},
		View{Data: make([]int64, 1), Extents: []int{1}, Strides: []int{1}},
		true, tok)
	if err != nil {
		t.Fatal(err)
	}
	err = m.Run([]int{0}, nil, false)
	if !errors.Is(err, ErrRun) || !strings.Contains(fmtErr(err), "tok.Release(") || !strings.Contains(fmtErr(err), "is not held") {
		t.Fatalf("double release: %v", err)
	}
	if _, err := NewMachine(k,
		View{Data: make([]int64, 2), Extents: []int{2}, Strides: []int{1}},
		View{Data: make([]int64, 1), Extents: []int{1}, Strides: []int{1}},
		false, 3); err == nil || !strings.Contains(err.Error(), "argument tok is int, want a token") {
		t.Fatalf("a token bound to an int: %v", err)
	}
}

func TestTokenInvalid(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{"(kernel K for (index i) (view a int64 1 w) (body (do (acquire a))))", "a is not a token"},
		{"(kernel K for (index i) (scalar s int) (body (assign (_) ((tokensize s)))))", "s is not a token"},
		{"(kernel K for (index i) (token t) (body (do (release t (int32 1)))))", "int32 where a int"},
		{"(kernel K for (index i) (token t) (body (assign ((new t int)) ((int 1))) (do (acquire t))))", "t is not a token"},
		{"(kernel K for (index i) (token t) (token t) (body))", "two parameters named t"},
		{"(kernel K for (index i) (token i) (body))", "two parameters named i"},
		{"(kernel K for (index i) (token t) (body (assign (_) (t))))", "undeclared t"},
		{"(kernel K for (index i) (token t) (body (assign (_) ((release t (int 0))))))", "t.Release as a value"},
		{"(func f () (int) (body (return (acquire t))))\n(kernel K for (index i) (token t) (body))", "token t used in a helper"},
		{"(kernel K for (index i) (token t) (body (do (acquire))))", "want"},
	} {
		_, err := Parse("kernelir 1\n" + c.text)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q) = %v, want an error saying %q", c.text, err, c.msg)
		}
	}
}
