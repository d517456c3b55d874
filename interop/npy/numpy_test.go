package npy

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// numpyScript loads every .npy file named on the command line with numpy,
// checks it against the .txt file beside it (the shape, the order, and the
// elements in C order, each formatted so that Python parses the same value), then saves each array again
// with numpy as NAME.back.npy (in the array's own order) and writes an .npz
// of all of them.
const numpyScript = `
import sys, numpy as np
from numpy.lib import format as fmt
arrays = {}
for path in sys.argv[1:]:
    a = np.load(path)
    with open(path[:-4] + ".txt") as f:
        shape, fortran, vals = f.read().split("\n")[:3]
    want_shape = tuple(int(x) for x in shape.split()) if shape else ()
    assert a.shape == want_shape, (path, a.shape, want_shape)
    with open(path, "rb") as f:
        fmt.read_magic(f)
        _, ford, _ = fmt.read_array_header_1_0(f)
    assert ford == (fortran == "F"), (path, ford, fortran)
    parse = {"f": float, "i": int, "u": int, "b": lambda s: s == "True",
             "c": lambda s: complex(*map(float, s.split(",")))}[a.dtype.kind]
    want = [parse(s) for s in vals.split()]
    got = a.ravel(order="C").tolist()
    assert got == want, (path, got, want)
    np.save(path[:-4] + ".back.npy", a)
    arrays[path.split("/")[-1][:-4]] = a
np.savez(sys.argv[1].rsplit("/", 1)[0] + "/all.npz", **arrays)
`

// pyRepr formats x so that Python's float, int or complex(re, im) of it
// (or == "True" for a bool) is the same value.
func pyRepr(x any) string {
	switch x := x.(type) {
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case complex128:
		return strconv.FormatFloat(real(x), 'g', -1, 64) + "," + strconv.FormatFloat(imag(x), 'g', -1, 64)
	}
	return fmt.Sprint(x)
}

// normalView returns a view of rank rank and extents 2 to 4 in layout l,
// filled with normal random numbers (never NaN, which no == compares).
func normalView(rng *rand.Rand, rank int, l kokkos.Layout) kokkos.DynRankView[float64] {
	ext := make([]int, rank)
	for i := range ext {
		ext[i] = 2 + rng.IntN(3)
	}
	v := kokkos.Must(kokkos.NewDynRankView[float64]("V", ext, l))
	for i := range v.Data() {
		v.Data()[i] = rng.NormFloat64() * 1e3
	}
	return v
}

// numpyPython returns the Python interpreter that the tests run numpy
// with: $PYTHON where it is set, else python3 on PATH. It skips the test,
// naming the interpreter, where that cannot import numpy.
func numpyPython(t *testing.T) string {
	t.Helper()
	python, how := os.Getenv("PYTHON"), "$PYTHON"
	if python == "" {
		python, how = "python3", "python3 on PATH"
	}
	path, err := exec.LookPath(python)
	if err == nil {
		python = path
		var out []byte
		if out, err = exec.Command(path, "-c", "import numpy").CombinedOutput(); err != nil {
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			err = fmt.Errorf("%v: %s", err, lines[len(lines)-1])
		}
	}
	if err != nil {
		t.Skipf("numpy unavailable: %s (%s) cannot import numpy: %v; set PYTHON to an interpreter that can", how, python, err)
	}
	return path
}

// TestNumpy writes views with Write, has numpy load and check them and
// save them again, and reads numpy's files back. It skips where the
// interpreter (see numpyPython) cannot import numpy.
func TestNumpy(t *testing.T) {
	if testing.Short() {
		t.Skip("numpy round trip: not in -short")
	}
	python := numpyPython(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	type file struct {
		name  string
		check func(t *testing.T, b []byte)
	}
	var files []file
	var paths []string
	add := func(name string, v any, write func(*bytes.Buffer) error, vals []string, shape []int, fortran bool, check func(t *testing.T, b []byte)) {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".npy")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		order := "C"
		if fortran {
			order = "F"
		}
		txt := fmt.Sprintf("%s\n%s\n%s\n", trimBrackets(fmt.Sprint(shape)), order, joinStrings(vals))
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(txt), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		files = append(files, file{name, check})
	}
	addView := func(name string, fortran bool, v kokkos.View[float64]) {
		add(name, v, func(b *bytes.Buffer) error { return Write(b, v) }, reprs(logical(v)), kokkos.ShapeOf(v).Extents, fortran,
			func(t *testing.T, b []byte) {
				g, err := Read[float64](bytes.NewReader(b), name)
				if err != nil || !sameBits(logical(v), logical(g)) {
					t.Fatalf("%s from numpy: %v", name, err)
				}
			})
	}
	addView("right", false, normalView(rng, 3, kokkos.LayoutRight))
	addView("left", true, normalView(rng, 2, kokkos.LayoutLeft))
	addView("left4", true, normalView(rng, 4, kokkos.LayoutLeft))
	big := normalView(rng, 2, kokkos.LayoutRight)
	addView("strided", false, big.Subview(kokkos.Pair(0, 2), kokkos.Pair(1, big.Extent(1))))
	scalar := kokkos.Must(kokkos.NewView0[float64]("s"))
	scalar.Set(3.25)
	addView("scalar", false, scalar)
	ints := kokkos.Must(kokkos.NewView1[int32]("i", 5))
	for i := range 5 {
		ints.Set(i, int32(rng.Uint32()))
	}
	add("int32", ints, func(b *bytes.Buffer) error { return Write(b, ints) }, reprs(logical[int32](ints)), []int{5}, false,
		func(t *testing.T, b []byte) {
			g, err := readAs[kokkos.View1[int32], int32](bytes.NewReader(b), "i")
			if err != nil || !sameBits(logical[int32](ints), logical[int32](g)) {
				t.Fatalf("int32 from numpy: %v", err)
			}
		})
	flags := kokkos.Must(kokkos.NewView2[bool]("b", 2, 3))
	for i := range 2 {
		for j := range 3 {
			flags.Set(i, j, rng.IntN(2) == 0)
		}
	}
	add("bool", flags, func(b *bytes.Buffer) error { return Write(b, flags) }, reprs(logical[bool](flags)), []int{2, 3}, false,
		func(t *testing.T, b []byte) {
			g, err := Read[bool](bytes.NewReader(b), "b")
			if err != nil || !sameBits(logical[bool](flags), logical[bool](g)) {
				t.Fatalf("bool from numpy: %v", err)
			}
		})
	cx := kokkos.Must(kokkos.NewView1[complex128]("c", 3))
	for i := range 3 {
		cx.Set(i, complex(rng.NormFloat64(), rng.NormFloat64()))
	}
	add("complex", cx, func(b *bytes.Buffer) error { return Write(b, cx) }, reprs(logical[complex128](cx)), []int{3}, false,
		func(t *testing.T, b []byte) {
			g, err := Read[complex128](bytes.NewReader(b), "c")
			if err != nil || !sameBits(logical[complex128](cx), logical[complex128](g)) {
				t.Fatalf("complex from numpy: %v", err)
			}
		})

	out, err := exec.Command(python, append([]string{"-c", numpyScript}, paths...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.name+".back.npy"))
		if err != nil {
			t.Fatal(err)
		}
		f.check(t, b)
	}
	all, err := os.ReadFile(filepath.Join(dir, "all.npz"))
	if err != nil {
		t.Fatal(err)
	}
	z, err := OpenNPZ(bytes.NewReader(all), int64(len(all)))
	if err != nil {
		t.Fatal(err)
	}
	if len(z.Names()) != len(files) {
		t.Fatalf("numpy's archive has %v", z.Names())
	}
	if _, err := npzAs[kokkos.View2[float64], float64](z, "left", "left"); err != nil {
		t.Fatal(err)
	}
}

func reprs[T any](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = pyRepr(x)
	}
	return out
}

func joinStrings(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}

func trimBrackets(s string) string { return s[1 : len(s)-1] }

// testdataScript checks the files of testdata, which make.py builds from
// numpy's format specification, with numpy itself: their dtypes, shapes,
// order and elements.
const testdataScript = `
import numpy as np, make
for name, (descr, fortran, shape) in make.FILES.items():
    a = np.load(name)
    assert a.dtype == np.dtype(descr), (name, a.dtype)
    assert a.shape == shape, (name, a.shape)
    assert not fortran or a.ndim < 2 or a.flags.f_contiguous, name
    want = [make.value(descr[1], k) for k in range(a.size)]
    assert a.ravel(order="F" if fortran else "C").tolist() == want, name
for name in ("arrays.npz", "arrays_compressed.npz"):
    z = np.load(name)
    assert sorted(z.files) == ["a", "b"], (name, z.files)
    assert z["a"].shape == (2, 3) and z["b"].dtype == np.int64, name
`

// TestNumpyTestdata has numpy read the files of testdata. It skips where
// the interpreter (see numpyPython) cannot import numpy.
func TestNumpyTestdata(t *testing.T) {
	cmd := exec.Command(numpyPython(t), "-c", testdataScript)
	cmd.Dir = "testdata"
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1") // no __pycache__ in testdata
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
}
