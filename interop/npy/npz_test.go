package npy

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

func TestNPZTestdata(t *testing.T) {
	for _, name := range []string{"testdata/arrays.npz", "testdata/arrays_compressed.npz"} {
		b := kokkos.Must(os.ReadFile(name))
		z, err := OpenNPZ(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(z.Names(), ","); got != "a,b" {
			t.Fatalf("%s: names %s", name, got)
		}
		a, err := npzAs[kokkos.DynRankView[float64], float64](z, "a", "a")
		if err != nil {
			t.Fatal(err)
		}
		checkValues(t, name, &a, []int{2, 3}, kokkos.LayoutRight)
		bv, err := npzAs[kokkos.DynRankView[int64], int64](z, "b", "b")
		if err != nil {
			t.Fatal(err)
		}
		checkValues(t, name, &bv, []int{4}, kokkos.LayoutRight)
		_, err = npzAs[kokkos.View1[float64], float64](z, "c", "c")
		if !errors.Is(err, ErrNoArray) || !strings.Contains(err.Error(), `"c"`) || !strings.Contains(err.Error(), `"a" "b"`) {
			t.Fatalf("missing array: %v", err)
		}
		_, err = npzAs[kokkos.View1[float64], float64](z, "b", "b")
		if !errors.Is(err, ErrDtype) {
			t.Fatalf("dtype: %v", err)
		}
	}
}

func TestNPZRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := randomView[float32](t, rng, 3, kokkos.LayoutLeft, true)
	y := randomView[int16](t, rng, 8, kokkos.LayoutRight, true)
	var buf bytes.Buffer
	z := NewNPZWriter(&buf)
	w, err := z.Create("x")
	if err == nil {
		err = Write(w, x)
	}
	if err != nil {
		t.Fatal(err)
	}
	if w, err = z.Create("y"); err == nil {
		err = Write(w, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := OpenNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	gx, err := npzAs[kokkos.DynRankView[float32], float32](r, "x", "x")
	if err != nil || !sameBits(logical(x), logical(gx)) || gx.Layout() != kokkos.LayoutLeft {
		t.Fatalf("x: %v, layout %v", err, gx.Layout())
	}
	gy, err := npzAs[kokkos.View8[int16], int16](r, "y", "y")
	if err != nil || !sameBits(logical(y), logical(gy)) {
		t.Fatalf("y: %v", err)
	}
	// A corrupt archive.
	b := bytes.Clone(buf.Bytes())
	if _, err := OpenNPZ(bytes.NewReader(b[:len(b)/2]), int64(len(b)/2)); !errors.Is(err, ErrFormat) {
		t.Fatalf("cut archive: %v", err)
	}
	// A flipped byte in the stored data fails the checksum.
	i := bytes.Index(b, []byte("NUMPY")) + 130 // in x's data, after its 128-byte header
	b[i] ^= 0xff
	r, err = OpenNPZ(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := npzAs[kokkos.DynRankView[float32], float32](r, "x", "x"); !errors.Is(err, ErrFormat) {
		t.Fatalf("corrupt data: %v", err)
	}
}
