package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// TestDescriptionsAgree checks the meaning of every kernel's description
// (Spec.IR, what a device backend compiles) against the kernel's Go body,
// without a GPU: for each kernel of this package, on random views and
// scalars (several draws), the body called directly and the description
// run by kernelir's interpreter, index by index in the same order, must
// store the same values in every view and accumulator, and fail (the Go
// body panics: an index outside a view, a division by zero) at the same
// indices. Integers and bools compare exactly; floats bit for bit, any
// NaN matching any NaN (on amd64 below GOAMD64=v3, where Go never fuses a
// multiply and an add; elsewhere within 4 ulp). The math functions are Go's on both
// sides: how far a backend's may differ is kernelir's to say.
func TestDescriptionsAgree(t *testing.T) {
	checked, skipped := 0, 0
	for _, s := range gkSpecs {
		t.Run(s.Name, func(t *testing.T) {
			if s.Team {
				// A team kernel's threads wait for each other: its
				// description runs on the fake device by the team tests.
				skipped++
				t.Skip("team kernel: compared on the fake device by the team tests (team_device_test.go)")
			}
			if s.IR == "" {
				skipped++
				t.Skipf("no description: %s", s.NoDevice)
			}
			k, err := kernelir.Parse(s.IR)
			if err != nil {
				t.Fatal(err)
			}
			failed, total := 0, 0
			for seed := range uint64(6) {
				f, n := agree(t, k, reflect.ValueOf(s.Func), seed)
				failed, total = failed+f, total+n
			}
			// A good part of the calls must run to the end (a stencil
			// fails at its edges), or the check says little.
			if failed*4 > total*3 && !gathers[s.Name] {
				t.Errorf("the body failed at %d of %d indices", failed, total)
			}
			t.Logf("%s: %d of %d calls failed on both sides", s.Name, failed, total)
			checked++
		})
	}
	t.Logf("%d kernels checked, %d without a description", checked, skipped)
	if checked+skipped != len(gkSpecs) || checked < 45 {
		t.Errorf("%d of %d kernels checked", checked, len(gkSpecs))
	}
}

// gathers are the kernels whose view indices are read from views, which
// random data mostly leaves: most of their calls fail, on both sides.
var gathers = map[string]bool{"kerneltest.Force": true, "kerneltest.ForceNocheck": true, "kerneltest.GatherNocheck": true}

// extentsOf are the extents of the views of each rank, and the index
// space of a kernel of that rank: small enough to call every index, wide
// enough for a column of results per function in a rank-2 view.
var extentsOf = [...][]int{1: {40}, 2: {40, 40}, 3: {40, 6, 6}, 4: {5, 5, 5, 5}, 5: {4, 4, 4, 4, 4}, 6: {3, 3, 3, 3, 3, 3}}

// fusedHost says the Go body may fuse a multiply and an add (arm64,
// ppc64, s390x, amd64 with GOAMD64=v3), which the description does not.
var fusedHost = runtime.GOARCH != "amd64"

// pair is a view for the Go body and its copy for the interpreter.
type pair struct {
	goView reflect.Value
	ir     kernelir.View
	diff   func() string // "" when the two hold the same values
}

// makers builds a pair for each view type View1..View6 of each element
// type.
var makers = map[reflect.Type]func(rng *rand.Rand) pair{}

func init() {
	addMakers[int8]()
	addMakers[int16]()
	addMakers[int32]()
	addMakers[int64]()
	addMakers[int]()
	addMakers[uint8]()
	addMakers[uint16]()
	addMakers[uint32]()
	addMakers[uint64]()
	addMakers[float32]()
	addMakers[float64]()
}

func addMakers[T kokkos.Number]() {
	views := []func(d *kokkos.DynRankView[T]) (any, error){
		1: func(d *kokkos.DynRankView[T]) (any, error) { return d.View1() },
		2: func(d *kokkos.DynRankView[T]) (any, error) { return d.View2() },
		3: func(d *kokkos.DynRankView[T]) (any, error) { return d.View3() },
		4: func(d *kokkos.DynRankView[T]) (any, error) { return d.View4() },
		5: func(d *kokkos.DynRankView[T]) (any, error) { return d.View5() },
		6: func(d *kokkos.DynRankView[T]) (any, error) { return d.View6() },
	}
	for r := 1; r <= 6; r++ {
		var probe kokkos.DynRankView[T]
		probe, _ = kokkos.NewDynRankView[T]("probe", extentsOf[r])
		v, err := views[r](&probe)
		if err != nil {
			panic(err)
		}
		makers[reflect.TypeOf(v)] = func(rng *rand.Rand) pair { return makePair[T](rng, r, views[r]) }
	}
}

// makePair fills a view of rank r and its copy with the same random
// values.
func makePair[T kokkos.Number](rng *rand.Rand, r int, view func(*kokkos.DynRankView[T]) (any, error)) pair {
	ext := extentsOf[r]
	d, err := kokkos.NewDynRankView[T]("v", ext)
	if err != nil {
		panic(err)
	}
	strides := make([]int, r)
	n := 1
	for k := r - 1; k >= 0; k-- {
		strides[k] = n
		n *= ext[k]
	}
	data := make([]T, n)
	off := func(idx []int) int {
		o := 0
		for k, i := range idx {
			o += i * strides[k]
		}
		return o
	}
	gen := randValue[T](rng)
	each(ext, func(idx []int) {
		x := gen()
		*d.Ptr(idx...) = x
		data[off(idx)] = x
	})
	v, err := view(&d)
	if err != nil {
		panic(err)
	}
	return pair{
		goView: reflect.ValueOf(v),
		ir:     kernelir.View{Data: data, Extents: ext, Strides: strides},
		diff: func() string {
			msg := ""
			each(ext, func(idx []int) {
				if g, w := data[off(idx)], *d.Ptr(idx...); msg == "" && !agreeing(g, w) {
					msg = fmt.Sprintf("at %v: description %v, Go %v", idx, g, w)
				}
			})
			return msg
		},
	}
}

// randValue returns a generator of values of T: integers of random bits
// half the time, else small ones (to index views and count loops);
// floats in [-4, 4) mostly, now and then of a wide magnitude.
func randValue[T kokkos.Number](rng *rand.Rand) func() T {
	var zero T
	switch any(zero).(type) {
	case float32, float64:
		return func() T {
			x := rng.Float64()*8 - 4
			if rng.IntN(16) == 0 {
				x *= math.Exp(rng.Float64() * 60)
			}
			return T(x)
		}
	}
	return func() T {
		if rng.IntN(2) == 0 {
			return T(rng.Uint64())
		}
		return T(rng.IntN(16) - 4)
	}
}

// agreeing reports whether a description's value equals the Go body's.
func agreeing[T kokkos.Number](g, w T) bool {
	if g == w {
		return true
	}
	gf, wf := float64(g), float64(w)
	if gf != gf && wf != wf {
		return true
	}
	var zero T
	switch any(zero).(type) {
	case float32, float64:
		if fusedHost {
			return math.Abs(gf-wf) <= 4*ulp(wf, any(zero))
		}
	}
	return false
}

func ulp(x float64, kind any) float64 {
	if _, ok := kind.(float32); ok {
		f := float32(x)
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// scalar returns a random scalar of type t: small integers (loop counts,
// bins, limits; mostly 1 to 7, so that kernels that index views with
// multiples of them run), floats in [-4, 4), either bool.
func scalar(rng *rand.Rand, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rng.Float64()*8 - 4)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rng.IntN(40)))
	case reflect.Struct, reflect.Array:
		randomFields(rng, v)
	default:
		if rng.IntN(4) > 0 {
			v.SetInt(int64(1 + rng.IntN(7)))
		} else {
			v.SetInt(int64(rng.IntN(44) - 4))
		}
	}
	return v
}

// agree runs the description k and the Go function fn on one random draw.
// It returns the number of indices at which both failed, and of all.
func agree(t *testing.T, k *kernelir.Kernel, fn reflect.Value, seed uint64) (failed, total int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(len(k.Name))))
	ft := fn.Type()
	rank := len(k.Index)
	var goArgs []reflect.Value
	var irArgs []any
	var pairs []pair
	for j := range k.Params {
		pt := ft.In(rank + j)
		if k.Params[j].Token {
			// One id: both sides get id 0 at every index.
			goArgs = append(goArgs, reflect.ValueOf(kokkos.NewUniqueTokenSize(kokkos.Serial{}, 1)))
			irArgs = append(irArgs, kokkos.NewUniqueTokenSize(kokkos.Serial{}, 1))
			continue
		}
		if k.Params[j].IsView() {
			mk, ok := makers[pt]
			if !ok {
				t.Fatalf("no maker of %v", pt)
			}
			p := mk(rng)
			pairs = append(pairs, p)
			goArgs = append(goArgs, p.goView)
			irArgs = append(irArgs, p.ir)
			continue
		}
		v := scalar(rng, pt)
		goArgs = append(goArgs, v)
		irArgs = append(irArgs, v.Interface())
	}
	m, err := kernelir.NewMachine(k, irArgs...)
	if err != nil {
		t.Fatal(err)
	}
	// The accumulators, from the same random start.
	var goAcc, irAcc reflect.Value
	if k.Acc != kernelir.Invalid {
		at := ft.In(rank + len(k.Params)).Elem()
		start := scalar(rng, at)
		goAcc, irAcc = reflect.New(at), reflect.New(at)
		goAcc.Elem().Set(start)
		irAcc.Elem().Set(start)
	}
	failures, total := 0, 0
	each(extentsOf[rank], func(idx []int) {
		final := rng.IntN(2) == 0
		total++
		in := make([]reflect.Value, 0, rank+len(goArgs)+2)
		for _, i := range idx {
			in = append(in, reflect.ValueOf(i))
		}
		in = append(in, goArgs...)
		var acc any
		if goAcc.IsValid() {
			in = append(in, goAcc)
			acc = irAcc.Interface()
		}
		if k.Final != "" {
			in = append(in, reflect.ValueOf(final))
		}
		goErr := call(fn, in)
		irErr := m.Run(idx, acc, final)
		if (goErr == nil) != (irErr == nil) {
			t.Fatalf("seed %d, index %v: the Go body gave %v, the description %v", seed, idx, goErr, irErr)
		}
		if goErr != nil {
			failures++
		}
	})
	for j, p := range pairs {
		if msg := p.diff(); msg != "" {
			t.Fatalf("seed %d: view %d differs %s", seed, j, msg)
		}
	}
	if goAcc.IsValid() {
		g, w := irAcc.Elem(), goAcc.Elem()
		if !sameValue(g, w) {
			t.Fatalf("seed %d: acc: description %v, Go %v", seed, g, w)
		}
	}
	return failures, total
}

// call calls fn and returns its panic as an error.
func call(fn reflect.Value, in []reflect.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	fn.Call(in)
	return nil
}

func sameValue(g, w reflect.Value) bool {
	switch g.Kind() {
	case reflect.Float32:
		return agreeing(float32(g.Float()), float32(w.Float()))
	case reflect.Float64:
		return agreeing(g.Float(), w.Float())
	}
	return g.Interface() == w.Interface()
}
