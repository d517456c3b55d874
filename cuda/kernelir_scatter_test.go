package cuda

import (
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// irScatterSamples are descriptions of kernels that update ScatterViews
// (package containers), as kokkos-kernelgen writes them: each update of
// an accessor is an atomic operation on the ScatterView's view.
var irScatterSamples = map[string]string{
	"hist": `(kernel ScatterHist for (index i)
  (view x int64 1 r)
  (view sv int64 1 w)
  (scalar nb int)
  (body
    (do (atomic Add sv ((conv int (rem uint64 (conv uint64 (at x i)) (conv uint64 nb)))) (int64 1)))
    (do (atomic Add sv ((rem int i nb)) (rem int64 (at x i) (int64 100))))
    (if (lt int64 (at x i) (int64 0))
      (then
        (return)))
    (do (atomic Sub sv ((int 0)) (int64 2)))))
`,
	"prod2": `(kernel ScatterProd2 for (index i j)
  (view x float64 2 r)
  (view sv float64 2 w)
  (scalar n0 int)
  (scalar n1 int)
  (body
    (assign ((new v float64)) ((at x i j)))
    (if (gt float64 v (float64 1.05))
      (then
        (do (atomic Div sv ((rem int i n0) (rem int j n1)) v)))
      (else (block
        (do (atomic Mul sv ((rem int i n0) (rem int j n1)) v)))))))
`,
	"prodint": `(kernel ScatterProdInt for (index i)
  (view a int64 1 w)
  (view b int32 1 w)
  (view c uint64 1 w)
  (view f float32 1 w)
  (body
    (do (atomic Mul a (i) (int64 3)))
    (do (atomic Div a (i) (int64 -1)))
    (do (atomic Div b (i) (int32 2)))
    (do (atomic Mul c (i) (uint64 5)))
    (do (atomic Div f (i) (float32 0.5)))))
`,
	"minmax3": `(kernel ScatterMinMax3 for (index i j k)
  (view x float32 3 r)
  (view y int32 3 r)
  (view lo float32 3 w)
  (view hi int32 3 w)
  (body
    (range (new r int) int (int 2)
      (body
        (do (atomic Min lo ((rem int (add int i r) (int 2)) (rem int j (int 3)) (rem int k (int 4))) (at x i j k)))
        (do (atomic Max hi ((rem int (add int i r) (int 2)) (rem int j (int 3)) (rem int k (int 4))) (at y i j k)))))))
`,
}

// TestKernelIRScatter translates the ScatterView samples: each update an
// atomic of the view, and compiles them with NVRTC where it is present.
func TestKernelIRScatter(t *testing.T) {
	want := map[string][]string{
		"hist":    {"atomic_add(&sv(", "atomic_sub(&sv(0ll), 2ll);"},
		"prod2":   {"atomic_div(&sv(", "atomic_mul(&sv("},
		"minmax3": {"atomic_min(&lo(", "atomic_max(&hi("},
		"prodint": {"atomic_mul(&a(i), 3ll);", "atomic_div(&a(i), -1ll);", "atomic_div(&b(i), 2);", "atomic_mul(&c(i), 5ull);"},
	}
	for name, src := range irScatterSamples {
		k, err := kernelir.Parse(kernelir.Header + src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		body, helpers, names, conv, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range want[name] {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the body lacks %q:\n%s", name, w, body)
			}
		}
		if t.Failed() {
			continue
		}
		requireNVRTC(t)
		if err := compileOnly(t, irSig(k, helpers, names, conv), body); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
