package kernel

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// panics returns the message of the panic of f, or "" when f returns.
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case error:
				msg = e.Error()
			case string:
				msg = e
			default:
				msg = "panic"
			}
		}
	}()
	f()
	return ""
}

func randView2(t *testing.T, rng *rand.Rand, label string, n0, n1 int, opts ...kokkos.Option) kokkos.View2[float64] {
	t.Helper()
	v, err := kokkos.NewView2[float64](label, n0, n1, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			v.Set(i, j, rng.Float64()*2-1)
		}
	}
	return v
}

// TestAccessorOfReadOnlyView checks that the accessor of a read-only view
// reads it and never writes it, whatever write its caller passes.
func TestAccessorOfReadOnlyView(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	const n0, n1 = 5, 7
	a := randView2(t, rng, "ro", n0, n1, kokkos.LayoutLeft)
	want := a.At(0, 0)
	acc, err := View2("k", "a", a.ReadOnly(), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			if got := acc.At(i, j); got != a.At(i, j) {
				t.Fatalf("At(%d, %d) = %v, want %v", i, j, got, a.At(i, j))
			}
		}
	}
	msg := panics(func() { acc.Set(0, 0, 42) })
	if !strings.Contains(msg, "read-only") || !strings.Contains(msg, `"ro"`) || !strings.Contains(msg, "a.Set[0 0]") {
		t.Errorf("Set on the accessor of a read-only view: panic %q, want one naming the view and saying read-only", msg)
	}
	if msg := panics(func() { acc.Ptr(1, 2) }); !strings.Contains(msg, "read-only") {
		t.Errorf("Ptr on the accessor of a read-only view: panic %q", msg)
	}
	if got := a.At(0, 0); got != want {
		t.Fatalf("the read-only view was written through its accessor: a(0, 0) = %v, was %v", got, want)
	}
	if _, err := View2("k", "a", a.ReadOnly(), true); !errors.Is(err, ErrArgs) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("write on a read-only view: error %v, want ErrArgs", err)
	}
	// Rank 1 and 6 are the same template; check their edges.
	v1 := kokkos.Must(kokkos.NewView1[int32]("v1", 3))
	v1.Set(2, 9)
	a1, _ := View1("k", "v", v1.ReadOnly(), false)
	if msg := panics(func() { a1.Set(2, 1) }); !strings.Contains(msg, "read-only") || v1.At(2) != 9 || a1.At(2) != 9 {
		t.Errorf("rank 1: Set panic %q, v(2) = %d", msg, v1.At(2))
	}
	v6 := kokkos.Must(kokkos.NewView6[float32]("v6", 2, 1, 2, 1, 2, 3))
	a6, _ := View6("k", "v", v6.ReadOnly(), false)
	if msg := panics(func() { a6.Set(1, 0, 1, 0, 1, 2, 5) }); !strings.Contains(msg, "read-only") || v6.At(1, 0, 1, 0, 1, 2) != 0 {
		t.Errorf("rank 6: Set panic %q", msg)
	}
}

// TestAccessorWrites checks the accessor of a writable view: bound with
// write it writes what the view's own Set would, bound without it does
// not write.
func TestAccessorWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2))
	const n0, n1 = 6, 4
	a := randView2(t, rng, "rw", n0, n1)
	ref := randView2(t, rng, "ref", n0, n1)
	kokkos.DeepCopy(ref, a)
	acc, err := View2("k", "a", a, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			x := rng.Float64()
			acc.Set(i, j, x)
			ref.Set(i, j, x)
			*acc.Ptr(i, j) += 1
			ref.Set(i, j, ref.At(i, j)+1)
		}
	}
	for i := range n0 {
		for j := range n1 {
			if a.At(i, j) != ref.At(i, j) || acc.At(i, j) != ref.At(i, j) {
				t.Fatalf("(%d, %d): view %v, accessor %v, want %v", i, j, a.At(i, j), acc.At(i, j), ref.At(i, j))
			}
		}
	}
	if msg := panics(func() { acc.Set(n0, 0, 1) }); !strings.Contains(msg, "out of bounds") {
		t.Errorf("Set out of bounds: panic %q", msg)
	}
	rd, _ := View2("k", "a", a, false)
	before := a.At(1, 1)
	if msg := panics(func() { rd.Set(1, 1, 3) }); !strings.Contains(msg, "bound to read only") || a.At(1, 1) != before {
		t.Errorf("Set on an accessor bound without write: panic %q", msg)
	}
}

// TestBaseOnlyDuringLaunch checks that the address of a view's memory goes
// only to the generated host kernel of a launch, while it binds.
func TestBaseOnlyDuringLaunch(t *testing.T) {
	a := kokkos.Must(kokkos.NewView1[float64]("b", 8))
	acc, err := View1("k", "a", a, true)
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]*Launch{"nil": nil, "zero": {}} {
		if msg := panics(func() { acc.Base(l) }); !strings.Contains(msg, "outside a launch") || !strings.Contains(msg, `"b"`) {
			t.Errorf("Base(%s): panic %q", name, msg)
		}
	}
	var kept *Launch
	var base unsafe.Pointer
	_, err = bind(func(l *Launch, _ []any) (int, error) {
		kept, base = l, acc.Base(l)
		return 0, nil
	}, nil)
	if err != nil || base != unsafe.Pointer(a.Ptr(0)) {
		t.Fatalf("Base during the bind: %p, want %p (%v)", base, a.Ptr(0), err)
	}
	if msg := panics(func() { acc.Base(kept) }); !strings.Contains(msg, "outside a launch") {
		t.Errorf("Base with a Launch kept after its bind: panic %q", msg)
	}
	_, err = bindMD(func(l *Launch, _ []any, _ bool) (int, error) { kept = l; return 0, nil }, nil, true)
	if err != nil || panics(func() { acc.Base(kept) }) == "" {
		t.Errorf("Base with a Launch kept after its MD bind did not panic")
	}
}

// TestNoExportedAddress checks that no exported method of the accessors
// returns an address (an unsafe.Pointer or a uintptr) unless it takes a
// *Launch, which only a launch makes live.
func TestNoExportedAddress(t *testing.T) {
	ptr, up := reflect.TypeFor[unsafe.Pointer](), reflect.TypeFor[uintptr]()
	launch := reflect.TypeFor[*Launch]()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[*A1[float64]](), reflect.TypeFor[*A2[float64]](), reflect.TypeFor[*A3[float64]](),
		reflect.TypeFor[*A4[float64]](), reflect.TypeFor[*A5[float64]](), reflect.TypeFor[*A6[float64]](),
	} {
		for m := range typ.Methods() {
			for out := range m.Type.Outs() {
				if (out == ptr || out == up) && (m.Type.NumIn() < 2 || m.Type.In(1) != launch) {
					t.Errorf("%v.%s returns a %v to any caller", typ, m.Name, out)
				}
			}
		}
	}
}
