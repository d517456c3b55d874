package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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

// TestNPZDuplicateName: Create refuses a name the archive has; the
// archive written so far stays whole.
func TestNPZDuplicateName(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	x := randomView[float64](t, rng, 2, kokkos.LayoutRight, true)
	var buf bytes.Buffer
	z := NewNPZWriter(&buf)
	w, err := z.Create("x")
	if err == nil {
		err = Write(w, x)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := z.Create("x"); !errors.Is(err, ErrDuplicateName) || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("second x: %v", err)
	}
	if w, err = z.Create("x.npy"); err == nil { // the entry x.npy.npy
		err = Write(w, x)
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
	if got := strings.Join(r.Names(), ","); got != "x,x.npy" {
		t.Fatalf("names %s", got)
	}
	g, err := npzAs[kokkos.DynRankView[float64], float64](r, "x", "x")
	if err != nil || !sameBits(logical(x), logical[float64](g)) {
		t.Fatalf("x: %v", err)
	}
}

// dupArchive returns an archive, written with archive/zip as other tools
// may, that holds x.npy twice (a, then b) and y.npy.
func dupArchive(t *testing.T, a, b, y kokkos.View[float64]) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for i, v := range []kokkos.View[float64]{a, y, b} {
		name := "x.npy"
		if i == 1 {
			name = "y.npy"
		}
		w, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err == nil {
			err = Write(w, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestNPZDuplicateRead: of a name an archive holds twice, the reader reads
// the last, as numpy does, and lists the name once.
func TestNPZDuplicateRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	a := randomView[float64](t, rng, 1, kokkos.LayoutRight, true)
	b := randomView[float64](t, rng, 2, kokkos.LayoutRight, true)
	y := randomView[float64](t, rng, 3, kokkos.LayoutRight, true)
	f := dupArchive(t, a, b, y)
	r, err := OpenNPZ(bytes.NewReader(f), int64(len(f)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Names(), ","); got != "x,y" {
		t.Fatalf("names %s", got)
	}
	g, err := npzAs[kokkos.DynRankView[float64], float64](r, "x", "x")
	if err != nil || !sameBits(logical(b), logical[float64](g)) {
		t.Fatalf("x: %v, extents %v, want the last x, of extents %v", err, g.Extents(), kokkos.ShapeOf(b).Extents)
	}
	gy, err := npzAs[kokkos.View3[float64], float64](r, "y", "y")
	if err != nil || !sameBits(logical(y), logical[float64](gy)) {
		t.Fatalf("y: %v", err)
	}
}

// TestNPZDuplicateNumpy checks with numpy that it reads the last of a
// repeated name too. It skips where the interpreter (see numpyPython)
// cannot import numpy.
func TestNPZDuplicateNumpy(t *testing.T) {
	python := numpyPython(t)
	rng := rand.New(rand.NewPCG(25, 26))
	a := randomView[float64](t, rng, 1, kokkos.LayoutRight, true)
	b := randomView[float64](t, rng, 2, kokkos.LayoutRight, true)
	y := randomView[float64](t, rng, 1, kokkos.LayoutRight, true)
	p := filepath.Join(t.TempDir(), "dup.npz")
	if err := os.WriteFile(p, dupArchive(t, a, b, y), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "import sys, warnings, numpy as np\nwarnings.simplefilter('ignore')\nx = np.load(sys.argv[1])['x']\nprint(x.shape, ' '.join(repr(v) for v in x.ravel().tolist()))\n"
	out, err := exec.Command(python, "-c", script, p).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	want := fmt.Sprintf("%s %s", shapeString(kokkos.ShapeOf(b).Extents), joinStrings(reprs(logical(b))))
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("numpy reads x as %s, want the last x, %s", got, want)
	}
}

// deflatedArchive returns an archive with the array a deflated, and the
// offset and size of its compressed data.
func deflatedArchive(t *testing.T, a kokkos.View[float64]) ([]byte, int, int) {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, err := z.CreateHeader(&zip.FileHeader{Name: "a.npy", Method: zip.Deflate})
	if err == nil {
		err = Write(w, a)
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	r := kokkos.Must(zip.NewReader(bytes.NewReader(b), int64(len(b))))
	off := kokkos.Must(r.File[0].DataOffset())
	return b, int(off), int(r.File[0].CompressedSize64)
}

// TestNPZCorruptDeflated flips each byte of the compressed data of an
// archive's array in turn: every read is an error wrapping ErrFormat, and
// either zip.ErrChecksum (the data decompressed does not match the
// checksum, as Python's zipfile reports it) or the decompressor's error
// (the data cannot be decompressed).
func TestNPZCorruptDeflated(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	a := kokkos.Must(kokkos.NewView1[float64]("a", 256))
	for i := range 256 {
		a.Set(i, float64(rng.IntN(4))) // compressible, so that flips hit Huffman codes
	}
	f, off, n := deflatedArchive(t, a)
	checksum := 0
	for i := off; i < off+n; i++ {
		c := bytes.Clone(f)
		c[i] ^= 1 << (i % 8)
		r, err := OpenNPZ(bytes.NewReader(c), int64(len(c)))
		if err != nil {
			t.Fatal(err)
		}
		var g kokkos.View1[float64]
		err = ReadNPZ(r, "a", &g)
		var corrupt flate.CorruptInputError
		switch {
		case err == nil:
			if !sameBits(logical(a), logical[float64](g)) {
				t.Fatalf("flip at %d: read other values without an error", i-off)
			}
			continue
		case !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `array "a" of the archive is corrupt`):
			t.Fatalf("flip at %d: %v", i-off, err)
		case errors.Is(err, zip.ErrChecksum):
			checksum++
		case !errors.As(err, &corrupt):
			t.Fatalf("flip at %d: %v is neither a checksum error nor a decompressor's", i-off, err)
		}
	}
	if checksum == 0 {
		t.Fatalf("no flip in %d bytes gave a checksum error", n)
	}
}

// TestNPZCorruptStored: a flipped byte in a stored array's data is a
// checksum error, also when the array is read through Open and ReadAny,
// which stop at the end of its data and so never see the end of the entry.
func TestNPZCorruptStored(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	x := randomView[float64](t, rng, 2, kokkos.LayoutRight, true)
	var buf bytes.Buffer
	z := NewNPZWriter(&buf)
	w, err := z.Create("x")
	if err == nil {
		err = Write(w, x)
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	b[bytes.Index(b, []byte("NUMPY"))+130] ^= 0x40 // in x's data, after its 128-byte header
	r, err := OpenNPZ(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := npzAs[kokkos.DynRankView[float64], float64](r, "x", "x"); !errors.Is(err, ErrFormat) || !errors.Is(err, zip.ErrChecksum) {
		t.Fatalf("ReadNPZ: %v", err)
	}
	rc, err := r.Open("x")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if v, err := ReadAny(rc, "x"); !errors.Is(err, ErrFormat) || !errors.Is(err, zip.ErrChecksum) || v != nil {
		t.Fatalf("Open and ReadAny: %v, %v", v, err)
	}
}
