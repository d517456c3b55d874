package csv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// randomValue returns a random T spanning its range.
func randomValue[T kokkos.Number](rng *rand.Rand) T {
	var x any = *new(T)
	switch x.(type) {
	case float32:
		return T(float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30))))
	case float64:
		return T(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(600)-300)))
	}
	return T(rng.Uint64())
}

func roundTrip[T kokkos.Number](t *testing.T, rng *rand.Rand) {
	t.Run(fmt.Sprintf("%T", *new(T)), func(t *testing.T) {
		for range 20 {
			n0, n1 := rng.IntN(6), 1+rng.IntN(6)
			l := kokkos.LayoutRight
			if rng.IntN(2) == 0 {
				l = kokkos.LayoutLeft
			}
			v := kokkos.Must(kokkos.NewView2[T]("V", n0, n1, l))
			for i := range n0 {
				for j := range n1 {
					v.Set(i, j, randomValue[T](rng))
				}
			}
			names := make([]string, n1)
			for j := range names {
				names[j] = fmt.Sprintf("c%d", j)
			}
			o := Options{Header: rng.IntN(2) == 0, Names: names}
			if rng.IntN(2) == 0 {
				o.Comma = ';'
			}
			var buf bytes.Buffer
			if err := Write(&buf, v.ReadOnly(), o); err != nil {
				t.Fatal(err)
			}
			got, gotNames, err := Read[T](&buf, "R", o)
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if o.Header && strings.Join(gotNames, ",") != strings.Join(names, ",") {
				t.Fatalf("names %v", gotNames)
			}
			if n0 == 0 {
				if got.Extent(0) != 0 {
					t.Fatalf("extents %d×%d", got.Extent(0), got.Extent(1))
				}
				continue
			}
			if got.Extent(0) != n0 || got.Extent(1) != n1 || got.Label() != "R" || got.Layout() != kokkos.LayoutRight {
				t.Fatalf("extents %d×%d, label %q, layout %v", got.Extent(0), got.Extent(1), got.Label(), got.Layout())
			}
			for i := range n0 {
				for j := range n1 {
					if got.At(i, j) != v.At(i, j) {
						t.Fatalf("(%d, %d): %v, wrote %v", i, j, got.At(i, j), v.At(i, j))
					}
				}
			}
		}
	})
}

type meters float32

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	roundTrip[int8](t, rng)
	roundTrip[int16](t, rng)
	roundTrip[int32](t, rng)
	roundTrip[int64](t, rng)
	roundTrip[int](t, rng)
	roundTrip[uint8](t, rng)
	roundTrip[uint16](t, rng)
	roundTrip[uint32](t, rng)
	roundTrip[uint64](t, rng)
	roundTrip[uint](t, rng)
	roundTrip[uintptr](t, rng)
	roundTrip[float32](t, rng)
	roundTrip[float64](t, rng)
	roundTrip[meters](t, rng)
}

func TestReadFormat(t *testing.T) {
	in := "# a comment\nx, y ,z\n1, 2.5, -3e2\n\n  4,NaN,+Inf\n"
	v, names, err := Read[float64](strings.NewReader(in), "A", Options{Header: true, Comment: '#'})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(names) != "[x  y  z]" || v.Extent(0) != 2 || v.Extent(1) != 3 {
		t.Fatalf("names %q, extents %d×%d", names, v.Extent(0), v.Extent(1))
	}
	want := [][]float64{{1, 2.5, -300}, {4, math.NaN(), math.Inf(1)}}
	for i := range 2 {
		for j := range 3 {
			if g := v.At(i, j); g != want[i][j] && !(math.IsNaN(g) && math.IsNaN(want[i][j])) {
				t.Fatalf("(%d, %d) = %v", i, j, g)
			}
		}
	}
	// Tabs, and no input at all.
	w, _, err := Read[int32](strings.NewReader("1\t2\n3\t4\n"), "T", Options{Comma: '\t'})
	if err != nil || w.At(1, 0) != 3 {
		t.Fatalf("tabs: %v", err)
	}
	e, _, err := Read[int32](strings.NewReader(""), "E", Options{})
	if err != nil || e.Extent(0) != 0 || e.Extent(1) != 0 {
		t.Fatalf("empty: %v", err)
	}
	h, names, err := Read[int32](strings.NewReader("a,b\n"), "H", Options{Header: true})
	if err != nil || h.Extent(0) != 0 || h.Extent(1) != 2 || len(names) != 2 {
		t.Fatalf("header only: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name, in string
		read     func(string) error
		kinds    []error
		text     []string
	}{
		{"word", "1,2,3\n4,five,6\n", readAs[float64], []error{ErrField, strconv.ErrSyntax}, []string{"line 2, column 2", `"five"`, "float64", `"A"`}},
		{"fraction in int", "1,2\n3,4.5\n", readAs[int32], []error{ErrField, strconv.ErrSyntax}, []string{"line 2, column 2", `"4.5"`, "int32"}},
		{"range", "1,300\n", readAs[int8], []error{ErrField, strconv.ErrRange}, []string{"line 1, column 2", `"300"`, "int8"}},
		{"negative uint", "1,-1\n", readAs[uint16], []error{ErrField}, []string{"line 1, column 2", `"-1"`, "uint16"}},
		{"empty field", "1,,3\n", readAs[float64], []error{ErrField}, []string{"line 1, column 2", `""`}},
		{"after a quoted newline", "\"1\",2\n\"3\n\",x\n", readAs[float64], []error{ErrField}, []string{"line 3, column 2", `"x"`}},
		{"ragged", "1,2,3\n4,5\n", readAs[float64], []error{csv.ErrFieldCount}, []string{"line 2", `"A"`}},
		{"quote", "1,\"2\n", readAs[float64], []error{csv.ErrQuote}, []string{"line 1"}},
	}
	for _, c := range cases {
		err := c.read(c.in)
		for _, k := range c.kinds {
			if !errors.Is(err, k) {
				t.Errorf("%s: %v does not wrap %v", c.name, err, k)
			}
		}
		for _, s := range c.text {
			if err == nil || !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v does not say %s", c.name, err, s)
			}
		}
	}
}

func readAs[T kokkos.Number](in string) error {
	_, _, err := Read[T](strings.NewReader(in), "A", Options{})
	return err
}

func TestWriteErrors(t *testing.T) {
	dev := kokkos.Must(kokkos.NewView2[float64]("dev", 2, 3, kokkos.InSpace(backendtest.FakeDevice(false))))
	if err := Write(&bytes.Buffer{}, dev, Options{}); !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), "mirror it first") {
		t.Errorf("device view: %v", err)
	}
	a := kokkos.Must(kokkos.NewView2[int64]("a", 2, 2, kokkos.WithTraits(kokkos.Atomic)))
	if err := Write(&bytes.Buffer{}, a, Options{}); !errors.Is(err, kokkos.ErrElementType) {
		t.Errorf("atomic view: %v", err)
	}
	v := kokkos.Must(kokkos.NewView2[int64]("v", 2, 2))
	if err := Write(&bytes.Buffer{}, v, Options{Header: true, Names: []string{"x"}}); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "1 names for 2 columns") {
		t.Errorf("names: %v", err)
	}
}

func TestWriteStrided(t *testing.T) {
	p := kokkos.Must(kokkos.NewView2[int32]("P", 4, 5))
	for i := range 4 {
		for j := range 5 {
			p.Set(i, j, int32(10*i+j))
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, p.Subview2(kokkos.Pair(1, 3), kokkos.Pair(2, 4)), Options{}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "12,13\n22,23\n" {
		t.Fatalf("%q", buf.String())
	}
}

// FuzzRead reads arbitrary text: an error or a view, never a panic; a view
// written back reads as the same view.
func FuzzRead(f *testing.F) {
	f.Add("1,2\n3,4\n", false)
	f.Add("a,b\n1.5,-2\n", true)
	f.Add("\"1\n\",2\n", false)
	f.Fuzz(func(t *testing.T, in string, header bool) {
		o := Options{Header: header}
		v, names, err := Read[float64](strings.NewReader(in), "F", o)
		if err != nil {
			return
		}
		o.Names = names
		if header && len(names) != v.Extent(1) {
			t.Fatalf("%d names, %d columns", len(names), v.Extent(1))
		}
		var buf bytes.Buffer
		if err := Write(&buf, v, o); err != nil {
			if v.Extent(1) == 0 {
				return
			}
			t.Fatal(err)
		}
		w, _, err := Read[float64](&buf, "W", o)
		if v.Extent(0) == 0 {
			return
		}
		if err != nil {
			t.Fatalf("%v reading back\n%q", err, buf.String())
		}
		for i := range v.Extent(0) {
			for j := range v.Extent(1) {
				a, b := v.At(i, j), w.At(i, j)
				if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Fatalf("(%d, %d): %v, then %v", i, j, a, b)
				}
			}
		}
	})
}

func TestWriteReleased(t *testing.T) {
	v := kokkos.Must(kokkos.NewView2[float64]("R", 2, 2))
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if err := Write(&bytes.Buffer{}, v, Options{}); !errors.Is(err, kokkos.ErrReleased) {
		t.Fatalf("released view: %v", err)
	}
}
