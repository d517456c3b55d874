package npy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// roundTripAll writes views of every rank 0 to 8, in LayoutRight,
// LayoutLeft and as strided subviews, and reads them back.
func roundTripAll[T Elem](t *testing.T, rng *rand.Rand) {
	t.Run(fmt.Sprintf("%T", *new(T)), func(t *testing.T) {
		for rank := 0; rank <= 8; rank++ {
			for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft, kokkos.LayoutStride} {
				lay := l
				if l == kokkos.LayoutStride {
					lay = kokkos.LayoutRight
				}
				v := randomView[T](t, rng, rank, lay, false)
				if l == kokkos.LayoutStride && rank > 0 && rank < 8 {
					// A subview dropping the first index of each dimension:
					// strided and not contiguous.
					d := kokkos.DynRankFrom(v)
					args := make([]any, rank)
					for r := range args {
						args[r] = kokkos.Pair(min(1, d.Extent(r)), d.Extent(r))
					}
					v = d.Subview(args...)
				}
				var buf bytes.Buffer
				if err := Write(&buf, v); err != nil {
					t.Fatal(err)
				}
				if buf.Len()%64 != kokkos.ShapeOf(v).Size*dtypeOf[T]().size%64 {
					t.Fatalf("rank %d: the data does not start at a multiple of 64", rank)
				}
				var got kokkos.View[T]
				var err error
				if rank == 8 {
					var g kokkos.View8[T]
					g, err = readAs[kokkos.View8[T], T](&buf, "R")
					got = g
				} else {
					var g kokkos.DynRankView[T]
					g, err = Read[T](&buf, "R")
					got = g
				}
				if err != nil {
					t.Fatalf("rank %d %v: %v", rank, l, err)
				}
				ws, gs := kokkos.ShapeOf(v), kokkos.ShapeOf(got)
				if fmt.Sprint(ws.Extents) != fmt.Sprint(gs.Extents) || gs.Label != "R" {
					t.Fatalf("rank %d %v: extents %v, label %q; wrote %v", rank, l, gs.Extents, gs.Label, ws.Extents)
				}
				if l == kokkos.LayoutLeft && rank > 1 && ws.Size > 1 && gs.Layout != kokkos.LayoutLeft {
					t.Fatalf("rank %d: a LayoutLeft view read back as %v", rank, gs.Layout)
				}
				if !sameBits(logical(v), logical(got)) {
					t.Fatalf("rank %d %v extents %v strides %v: elements differ", rank, l, ws.Extents, ws.Strides)
				}
				if buf.Len() != 0 {
					t.Fatalf("rank %d: %d bytes left unread", rank, buf.Len())
				}
			}
		}
	})
}

type celsius float64

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	roundTripAll[bool](t, rng)
	roundTripAll[int8](t, rng)
	roundTripAll[int16](t, rng)
	roundTripAll[int32](t, rng)
	roundTripAll[int64](t, rng)
	roundTripAll[int](t, rng)
	roundTripAll[uint8](t, rng)
	roundTripAll[uint16](t, rng)
	roundTripAll[uint32](t, rng)
	roundTripAll[uint64](t, rng)
	roundTripAll[uint](t, rng)
	roundTripAll[float32](t, rng)
	roundTripAll[float64](t, rng)
	roundTripAll[complex64](t, rng)
	roundTripAll[complex128](t, rng)
	roundTripAll[celsius](t, rng)
}

// value is the element k of the test files, as testdata/make.py writes it.
func value[T Elem](k int) T {
	var x any
	switch any(*new(T)).(type) {
	case bool:
		x = k%3 == 0
	case int32:
		x = int32(7*k - 20)
	case int64:
		x = int64(7*k - 20)
	case uint16:
		x = uint16(7*k + 20)
	case float32:
		x = float32(1.5*float64(k) - 2.25)
	case float64:
		x = 1.5*float64(k) - 2.25
	case complex128:
		x = complex(0.5*float64(k), -2*float64(k))
	}
	return x.(T)
}

// checkFile reads testdata/name as a DynRankView[T] and checks its shape,
// layout and elements against make.py's.
func checkFile[T Elem](t *testing.T, name string, shape []int, layout kokkos.Layout) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := Read[T](f, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkValues(t, name, &v, shape, layout)
}

func checkValues[T Elem](t *testing.T, name string, v *kokkos.DynRankView[T], shape []int, layout kokkos.Layout) {
	t.Helper()
	if fmt.Sprint(v.Extents()) != fmt.Sprint(shape) || v.Layout() != layout {
		t.Fatalf("%s: extents %v layout %v, want %v %v", name, v.Extents(), v.Layout(), shape, layout)
	}
	// The file's order is the view's memory order.
	for k, x := range kokkos.ReadOnlyData[T](v)[:v.Size()] {
		if x != value[T](k) {
			t.Fatalf("%s: element %d is %v, want %v", name, k, x, value[T](k))
		}
	}
}

func TestReadTestdata(t *testing.T) {
	checkFile[float64](t, "f8_c_2x3.npy", []int{2, 3}, kokkos.LayoutRight)
	checkFile[int32](t, "i4_f_3x2.npy", []int{3, 2}, kokkos.LayoutLeft)
	checkFile[bool](t, "b1_5.npy", []int{5}, kokkos.LayoutRight)
	checkFile[complex128](t, "c16_scalar.npy", []int{}, kokkos.LayoutRight)
	checkFile[float32](t, "f4_be_2x2x2.npy", []int{2, 2, 2}, kokkos.LayoutRight)
	checkFile[uint16](t, "u2_2x0x3.npy", []int{2, 0, 3}, kokkos.LayoutRight)

	// Fortran order: element (i, j) is at k = i + 3j.
	f := kokkos.Must(os.ReadFile("testdata/i4_f_3x2.npy"))
	v, err := readAs[kokkos.View2[int32], int32](bytes.NewReader(f), "I")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 2 {
			if v.At(i, j) != value[int32](i+3*j) {
				t.Fatalf("(%d, %d): %d", i, j, v.At(i, j))
			}
		}
	}
}

func TestReadErrors(t *testing.T) {
	f := kokkos.Must(os.ReadFile("testdata/f8_c_2x3.npy"))
	cases := []struct {
		name string
		err  error
		kind error
		text []string
	}{
		{"dtype", second(Read[float32](bytes.NewReader(f), "x")), ErrDtype, []string{"float64", "float32", "<f8"}},
		{"rank", second(readAs[kokkos.View3[float64], float64](bytes.NewReader(f), "x")), ErrRank, []string{"rank 2", "rank 3", "(2, 3)"}},
		{"empty", second(Read[float64](bytes.NewReader(nil), "x")), ErrFormat, []string{"magic"}},
		{"magic", second(Read[float64](strings.NewReader("PK\x03\x04 not npy at all"), "x")), ErrFormat, []string{"not a .npy file"}},
		{"version", second(Read[float64](bytes.NewReader(append([]byte("\x93NUMPY\x07\x00"), f[8:]...)), "x")), ErrFormat, []string{"version 7.0"}},
		{"data", second(Read[float64](bytes.NewReader(f[:len(f)-1]), "x")), ErrFormat, []string{"48 bytes", "47"}},
		{"object", second(Read[float64](bytes.NewReader(fileWith("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }")), "x")), ErrDtype, []string{"|O"}},
		{"string", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<U10', 'fortran_order': False, 'shape': (2,), }")), "x")), ErrDtype, []string{"<U10"}},
		{"negative", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }")), "x")), ErrFormat, []string{"(-2,)"}},
		{"huge", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }")), "x")), ErrFormat, []string{"overflows"}},
		{"claims much", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }")), "x")), ErrFormat, []string{"8000000000 bytes"}},
		{"claims much, stream", second(Read[float64](io.MultiReader(bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }"))), "x")), ErrFormat, []string{"8000000000 bytes"}},
		{"rank 9", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1), }")), "x")), ErrRank, []string{"rank 9"}},
		{"rank 8 dyn", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1), }")), "x")), ErrRank, []string{"View8"}},
		{"no dict", second(Read[float64](bytes.NewReader(fileWith("nothing here")), "x")), ErrFormat, []string{"dict"}},
		{"bad order", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2,), }")), "x")), ErrFormat, []string{"fortran_order"}},
		{"list shape", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': [2], }")), "x")), ErrFormat, []string{"shape [2] is not a tuple"}},
		{"extra key", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': (1,)}")), "x")), ErrFormat, []string{"key 'extra' besides"}},
		{"missing key", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'shape': (2,)}")), "x")), ErrFormat, []string{"no key 'fortran_order'"}},
		{"int order", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': 0, 'shape': (2,)}")), "x")), ErrFormat, []string{"fortran_order 0 is not True or False"}},
		{"syntax", second(Read[float64](bytes.NewReader(fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (2,,)}")), "x")), ErrFormat, []string{"at byte 53, unexpected ','"}},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
			continue
		}
		for _, s := range c.text {
			if !strings.Contains(c.err.Error(), s) {
				t.Errorf("%s: %q does not say %q", c.name, c.err, s)
			}
		}
	}
	if err := second(Read[float64](bytes.NewReader(f[:len(f)-1]), "x")); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated data: %v does not wrap io.ErrUnexpectedEOF", err)
	}
}

// fileWith returns a .npy file of version 1.0 with header dict and 16
// bytes of data.
func fileWith(dict string) []byte {
	h := []byte(dict + "\n")
	return append(append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8)), append(h, make([]byte, 16)...)...)
}

func second[T any](_ T, err error) error { return err }

// TestTruncated reads every prefix of every test file: each is an error,
// never a panic or a view.
func TestTruncated(t *testing.T) {
	names, _ := filepath.Glob("testdata/*.npy")
	for _, name := range names {
		f := kokkos.Must(os.ReadFile(name))
		_, d, _, err := readHeader(bytes.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(f) {
			v, err := readTyped(f[:n], d)
			if err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("%s cut at %d bytes: view %v, error %v", name, n, v, err)
			}
		}
		if _, err := readTyped(f, d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// readTyped reads b with the element type of dtype d.
func readTyped(b []byte, d dtype) (any, error) {
	r := bytes.NewReader(b)
	switch d {
	case dtype{'b', 1}:
		return Read[bool](r, "x")
	case dtype{'i', 4}:
		return Read[int32](r, "x")
	case dtype{'i', 8}:
		return Read[int64](r, "x")
	case dtype{'u', 2}:
		return Read[uint16](r, "x")
	case dtype{'f', 4}:
		return Read[float32](r, "x")
	case dtype{'f', 8}:
		return Read[float64](r, "x")
	case dtype{'c', 16}:
		return Read[complex128](r, "x")
	}
	return Read[float64](r, "x")
}

func TestWriteRefusals(t *testing.T) {
	dev := kokkos.Must(kokkos.NewView2[float64]("dev", 2, 3, kokkos.InSpace(backendtest.FakeDevice(false))))
	defer dev.Release()
	err := Write(io.Discard, dev)
	if !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), "mirror it first") || !strings.Contains(err.Error(), `"dev"`) {
		t.Errorf("device view: %v", err)
	}
	a := kokkos.Must(kokkos.NewView1[int64]("hist", 4, kokkos.WithTraits(kokkos.Atomic)))
	if err := Write(io.Discard, a); !errors.Is(err, kokkos.ErrElementType) {
		t.Errorf("atomic view: %v", err)
	}
	// Read-only views are written.
	v := kokkos.Must(kokkos.NewView1[float64]("v", 3))
	v.Set(2, 5)
	var buf bytes.Buffer
	if err := Write(&buf, v.ReadOnly()); err != nil {
		t.Fatal(err)
	}
	w, err := readAs[kokkos.View1[float64], float64](&buf, "w")
	if err != nil || w.At(2) != 5 {
		t.Fatalf("read-only view: %v", err)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	v := kokkos.Must(kokkos.NewView2[float64]("v", 300, 300))
	s := v.Subview2(kokkos.Pair(0, 300), kokkos.Pair(1, 300))
	for _, n := range []int{0, 100, 5000} {
		if err := Write(&failWriter{n}, s); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("after %d bytes: %v", n, err)
		}
	}
}

func TestReadViewPanics(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "not a pointer to a View0") {
			t.Fatalf("panic %v", p)
		}
	}()
	var x []float64
	_ = ReadView[float64](bytes.NewReader(nil), &offsetData{x}, "x")
}

// offsetData is a type with a Data method that is not a view kind.
type offsetData struct{ d []float64 }

func (o *offsetData) Data() []float64 { return o.d }

func TestReadHeader(t *testing.T) {
	f := kokkos.Must(os.ReadFile("testdata/i4_f_3x2.npy"))
	r := bytes.NewReader(f)
	h, err := ReadHeader(r)
	if err != nil {
		t.Fatal(err)
	}
	if h.Descr != "<i4" || !h.FortranOrder || fmt.Sprint(h.Shape) != "[3 2]" {
		t.Fatalf("header %v", h)
	}
	if want := "{'descr': '<i4', 'fortran_order': True, 'shape': (3, 2), }"; h.String() != want {
		t.Fatalf("String %q", h.String())
	}
	if r.Len() != 3*2*4 {
		t.Fatalf("%d bytes left after the header", r.Len())
	}
	if _, err := ReadHeader(bytes.NewReader(f[:20])); !errors.Is(err, ErrFormat) {
		t.Fatalf("cut header: %v", err)
	}
}

// TestWriteOffsetView writes an offset view: its elements, from its first
// index, in C order.
func TestWriteOffsetView(t *testing.T) {
	o := kokkos.Must(kokkos.NewOffsetView2[int64]("O", kokkos.Bounds(-1, 2), kokkos.Bounds(3, 5)))
	for i := -1; i < 2; i++ {
		for j := 3; j < 5; j++ {
			o.Set(i, j, int64(10*i+j))
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	var v kokkos.View2[int64]
	if err := ReadView(&buf, &v, "v"); err != nil {
		t.Fatal(err)
	}
	for i := -1; i < 2; i++ {
		for j := 3; j < 5; j++ {
			if v.At(i+1, j-3) != o.At(i, j) {
				t.Fatalf("(%d, %d): %d", i, j, v.At(i+1, j-3))
			}
		}
	}
}

func TestWriteReleased(t *testing.T) {
	v := kokkos.Must(kokkos.NewView2[float64]("R", 2, 2))
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if err := Write(io.Discard, v); !errors.Is(err, kokkos.ErrReleased) {
		t.Fatalf("released view: %v", err)
	}
}

// TestWriteZeroValue writes views never allocated: those of rank 1 or
// more as arrays of zero extents, which read back as such; those of rank 0,
// which would need an element, are refused.
func TestWriteZeroValue(t *testing.T) {
	for _, c := range []struct {
		v     kokkos.View[float64]
		shape string
	}{
		{kokkos.View1[float64]{}, "(0,)"},
		{kokkos.View2[float64]{}, "(0, 0)"},
		{kokkos.View8[float64]{}, "(0, 0, 0, 0, 0, 0, 0, 0)"},
	} {
		var f bytes.Buffer
		if err := Write(&f, c.v); err != nil {
			t.Fatalf("%T: %v", c.v, err)
		}
		h, err := ReadHeader(bytes.NewReader(f.Bytes()))
		if err != nil || shapeString(h.Shape) != c.shape {
			t.Fatalf("%T: header %v, %v; want shape %s", c.v, h, err, c.shape)
		}
		if len(h.Shape) < 8 {
			a, err := ReadAny(bytes.NewReader(f.Bytes()), "x")
			if g, ok := a.(kokkos.DynRankView[float64]); err != nil || !ok || kokkos.ShapeOf(g).Size != 0 || g.Rank() != len(h.Shape) {
				t.Fatalf("%T read back: %v, %v", c.v, a, err)
			}
		}
	}
	for _, v := range []kokkos.View[float64]{kokkos.View0[float64]{}, kokkos.DynRankView[float64]{}} {
		if err := Write(io.Discard, v); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "rank 0") {
			t.Fatalf("%T: %v", v, err)
		}
	}
}

// TestReadSizes reads through each way the reader learns the input's size:
// Len (bytes.Reader), Stat (a file), Seek (an io.SectionReader), and none
// (a plain io.Reader); a shape the input cannot hold is an error each way.
func TestReadSizes(t *testing.T) {
	good := kokkos.Must(os.ReadFile("testdata/f8_c_2x3.npy"))
	bad := fileWith("{'descr': '<f8', 'fortran_order': False, 'shape': (100000000,), }")
	path := filepath.Join(t.TempDir(), "bad.npy")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		open func(b []byte) io.Reader
	}{
		{"Len", func(b []byte) io.Reader { return bytes.NewReader(b) }},
		{"Seek", func(b []byte) io.Reader { return io.NewSectionReader(bytes.NewReader(b), 0, int64(len(b))) }},
		{"none", func(b []byte) io.Reader { return io.MultiReader(bytes.NewReader(b)) }},
	} {
		v, err := Read[float64](c.open(good), "g")
		if err != nil || v.Size() != 6 {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := Read[float64](c.open(bad), "b"); !errors.Is(err, ErrFormat) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%s, bad shape: %v", c.name, err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Read[float64](f, "b"); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "the input has 16") {
		t.Fatalf("file, bad shape: %v", err)
	}
}
