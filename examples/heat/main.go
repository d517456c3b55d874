// Command heat solves the 2-D heat equation with an explicit 5-point
// stencil on an N×N grid, writing the stencil once and running it on the
// host and on a GPU:
//
//	go run ./examples/heat -n 256 -steps 500 -out /tmp/heat
//
// The field starts at zero with two hot spots; its boundary stays fixed.
// Each step is the //kokkos:kernel function Step over an MDRange,
//
//	next(i, j) = cur(i, j) + alpha*(cur(i-1, j) + cur(i+1, j) + cur(i, j-1) + cur(i, j+1) - 4*cur(i, j))
//
// and every -every steps the reduction kernel Residual gives the largest
// |next - cur|. go generate compiles both, and Init, into host loops and
// CUDA C (main_kernels_gen.go); kernel.For and kernel.Reduce run them on
// the host pool and, when cuda.Available() says a GPU is there, on a cuda
// stream over views in cuda.Space. The final fields are written as PNG
// images (heat-host.png, heat-cuda.png in -out, blue at zero to red at the
// hottest point) and compared: the stencil uses + - * only, rounded one
// operation at a time on both (Step's conversions keep Go from fusing a
// multiply-add, and the CUDA C is compiled without them), so the fields
// must agree exactly. The command says so, and exits with status 1 when
// they differ.
// Without a GPU it runs the host only and says that the GPU was skipped.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// diffusion is Step's alpha, the diffusion number dt*k/h²; the explicit
// scheme is stable up to 1/4.
const diffusion = 0.2

// Init sets u to the initial field: zero, with a hot spot of 1 around
// (n/3, n/3) and one of 0.75 around (2n/3, 3n/5), n being the extent of
// the first dimension (the boundary is zero for n of 8 or more).
//
//kokkos:kernel
func Init(i, j int, u kokkos.View2[float64]) {
	n := u.Extent(0)
	r1, r2 := max(n/8, 1), max(n/10, 1)
	d1 := (i-n/3)*(i-n/3) + (j-n/3)*(j-n/3)
	d2 := (i-2*n/3)*(i-2*n/3) + (j-3*n/5)*(j-3*n/5)
	v := 0.0
	if d1 <= r1*r1 {
		v = 1
	} else if d2 <= r2*r2 {
		v = 0.75
	}
	u.Set(i, j, v)
}

// Step advances the field by one explicit step: next is cur plus alpha
// times the 5-point Laplacian of cur at the interior points, and cur at
// the boundary.
//
//kokkos:kernel
func Step(i, j int, next, cur kokkos.View2[float64], alpha float64) {
	if i == 0 || j == 0 || i == cur.Extent(0)-1 || j == cur.Extent(1)-1 {
		next.Set(i, j, cur.At(i, j))
		return
	}
	c := cur.At(i, j)
	s := cur.At(i-1, j) + cur.At(i+1, j) + cur.At(i, j-1) + cur.At(i, j+1)
	// The conversions round each product before it is added: Go may
	// otherwise fuse a*b + c into one multiply-add (it does on arm64, and
	// on amd64 with GOAMD64=v3), which the CUDA C, compiled without fused
	// multiply-adds, does not.
	next.Set(i, j, c+float64(alpha*(s-float64(4*c))))
}

// Residual is the largest |next - cur|, with kokkos.Max.
//
//kokkos:kernel
func Residual(i, j int, next, cur kokkos.View2[float64], acc *float64) {
	*acc = max(*acc, math.Abs(next.At(i, j)-cur.At(i, j)))
}

func main() {
	n := flag.Int("n", 256, "the grid is n×n")
	steps := flag.Int("steps", 500, "time steps")
	every := flag.Int("every", 100, "report the residual every this many steps")
	out := flag.String("out", ".", "directory of the PNG images")
	flag.Parse()
	if err := run(os.Stdout, *n, *steps, *every, *out); err != nil {
		fmt.Fprintln(os.Stderr, "heat:", err)
		os.Exit(1)
	}
}

// errDiffer is matched by run's error when the host's and the GPU's
// fields differ.
var errDiffer = errors.New("the host's and the GPU's fields differ")

// run simulates on the host and, when there is one, on a GPU, writes the
// PNG images to dir and compares the two fields, printing what it does to
// w.
func run(w io.Writer, n, steps, every int, dir string) error {
	if n < 3 || steps < 0 || every < 1 {
		return fmt.Errorf("want -n of 3 or more, -steps of 0 or more and -every of 1 or more, got %d, %d and %d", n, steps, every)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "heat: %d×%d grid, %d steps, alpha %v\n", n, n, steps, diffusion)
	host, hres, err := simulate(n, steps, every, nil)
	if err != nil {
		return fmt.Errorf("host: %w", err)
	}
	printResiduals(w, "host", hres)
	if err := writeImage(filepath.Join(dir, "heat-host.png"), host); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", filepath.Join(dir, "heat-host.png"))
	if err := cuda.Available(); err != nil {
		fmt.Fprintln(w, "GPU skipped:", err)
		return nil
	}
	st, err := cuda.NewStream()
	if err != nil {
		return err
	}
	defer st.Release()
	dev, dres, err := simulate(n, steps, every, st)
	if err != nil {
		return fmt.Errorf("GPU: %w", err)
	}
	printResiduals(w, "cuda", dres)
	if err := writeImage(filepath.Join(dir, "heat-cuda.png"), dev); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", filepath.Join(dir, "heat-cuda.png"))
	d, i, j := maxDiff(host, dev)
	if d != 0 {
		fmt.Fprintf(w, "host and GPU differ: max |difference| %g, at (%d, %d)\n", d, i, j)
		return fmt.Errorf("%w: max |difference| %g at (%d, %d)", errDiffer, d, i, j)
	}
	for k := range hres {
		if hres[k] != dres[k] {
			return fmt.Errorf("%w: the residual after step %d is %g on the host, %g on the GPU", errDiffer, hres[k].step, hres[k].max, dres[k].max)
		}
	}
	fmt.Fprintln(w, "host and GPU agree exactly: max |difference| 0")
	return nil
}

// simulate runs steps steps on the host pool (st nil) or on st, with the
// views in cuda.Space, and returns the final field, a new view in host
// memory, and the residual after every every-th step and after the last.
func simulate(n, steps, every int, st *cuda.Stream) (kokkos.View2[float64], []sample, error) {
	var (
		space kokkos.ExecutionSpace // nil: the host pool
		mem   = kokkos.InSpace(kokkos.HostSpace)
		zero  kokkos.View2[float64]
	)
	if st != nil {
		space, mem = st, kokkos.InSpace(cuda.Space)
	}
	cur, err := kokkos.NewView2[float64]("cur", n, n, mem)
	if err != nil {
		return zero, nil, err
	}
	defer cur.Release()
	next, err := kokkos.NewView2[float64]("next", n, n, mem)
	if err != nil {
		return zero, nil, err
	}
	defer next.Release()
	p := kokkos.MDRange([]int{0, 0}, []int{n, n}).On(space)
	if err := kernel.For("heat.Init", p, Init, cur); err != nil {
		return zero, nil, err
	}
	var res []sample
	for s := 1; s <= steps; s++ {
		if err := kernel.For("heat.Step", p, Step, next, cur.ReadOnly(), diffusion); err != nil {
			return zero, nil, err
		}
		if s%every == 0 || s == steps {
			// On a stream the reduction waits for its result, after Step.
			r, err := kernel.Reduce("heat.Residual", p, kokkos.Max[float64](), Residual, next.ReadOnly(), cur.ReadOnly())
			if err != nil {
				return zero, nil, err
			}
			res = append(res, sample{s, r})
		}
		cur, next = next, cur
	}
	if st != nil {
		if err := st.Fence(); err != nil {
			return zero, nil, err
		}
		h, err := kokkos.CreateMirrorViewAndCopy(cur)
		return h, res, err
	}
	h, err := kokkos.CreateMirror(cur) // cur itself is released on return
	if err != nil {
		return zero, nil, err
	}
	return h, res, kokkos.DeepCopy[float64](h, cur)
}

// A sample is the residual after a step.
type sample struct {
	step int
	max  float64 // the largest |next - cur|
}

func printResiduals(w io.Writer, where string, res []sample) {
	for _, r := range res {
		fmt.Fprintf(w, "%s: step %d: max |next - cur| %.6e\n", where, r.step, r.max)
	}
}

// maxDiff returns the largest |a - b| and where it is (the first such
// point).
func maxDiff(a, b kokkos.View2[float64]) (d float64, i0, j0 int) {
	for i := range a.Extent(0) {
		for j := range a.Extent(1) {
			if x := math.Abs(a.At(i, j) - b.At(i, j)); x > d || math.IsNaN(x) {
				d, i0, j0 = x, i, j
			}
		}
	}
	return d, i0, j0
}

// writeImage writes u as a PNG image, row i of u the image's row i, with
// colour from blue at 0 to red at the largest value of u.
func writeImage(name string, u kokkos.View2[float64]) error {
	hi := 0.0
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			hi = max(hi, u.At(i, j))
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, u.Extent(1), u.Extent(0)))
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			t := 0.0
			if hi > 0 {
				t = u.At(i, j) / hi
			}
			img.SetRGBA(j, i, colorOf(t))
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// colorOf maps t in [0, 1] (clamped) from blue through purple to red.
func colorOf(t float64) color.RGBA {
	t = min(max(t, 0), 1)
	return color.RGBA{R: uint8(math.Round(255 * t)), G: uint8(math.Round(64 * (1 - math.Abs(2*t-1)))), B: uint8(math.Round(255 * (1 - t))), A: 255}
}
