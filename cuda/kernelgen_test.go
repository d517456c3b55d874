package cuda

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// requireNVRTC skips the test when NVRTC cannot be loaded, except in CI
// (CI=true), which installs it: there a missing NVRTC fails the test.
func requireNVRTC(t testing.TB) {
	t.Helper()
	if _, _, err := NVRTC(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("NVRTC is required in CI: %v", err)
		}
		t.Skipf("NVRTC unavailable: %v", err)
	}
}

// compileOnly compiles the kernel of sig around body for sm_90 without a
// device and without the disk cache.
func compileOnly(t testing.TB, sig *kernelSig, body string) error {
	t.Helper()
	t.Setenv(EnvCache, "off")
	_, err := compileFor(sig, body, t.Name(), 90, true, 0)
	return err
}

var allElems = []elemType{elemFloat32, elemFloat64, elemInt32, elemInt64, elemUint32, elemUint64}

// TestGeneratedKernelsCompile compiles the kernel of every pattern, rank,
// layout, element type and access mode with NVRTC.
func TestGeneratedKernelsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles about 200 kernels; runs without -short")
	}
	requireNVRTC(t)
	type tc struct {
		name string
		sig  kernelSig
		body string
	}
	var cases []tc
	for _, e := range allElems {
		for _, wide := range []bool{false, true} {
			for _, check := range []bool{false, true} {
				// Range for with views of ranks 0..8, every unit stride.
				views := []viewSig{{name: "s0", elem: e, rank: 0, unit: -1}}
				var uses []string
				for r := 1; r <= 8; r++ {
					for _, unit := range []int{-1, 0, r - 1} {
						if r == 1 && unit == 0 && len(views) > 0 && views[len(views)-1].rank == 1 && views[len(views)-1].unit == 0 {
							continue
						}
						name := fmt.Sprintf("v%d_%d", r, unit+1)
						views = append(views, viewSig{name: name, elem: e, rank: r, unit: unit})
						idx := strings.TrimSuffix(strings.Repeat("0, ", r-1)+"i", ", ")
						uses = append(uses, fmt.Sprintf("%s(%s) = %s(%s) + s0();", name, idx, name, idx))
					}
				}
				views = append(views,
					viewSig{name: "ro", elem: e, rank: 2, unit: 1, readOnly: true},
					viewSig{name: "at", elem: e, rank: 1, unit: 0, atomic: true},
					viewSig{name: "rs", elem: e, rank: 1, unit: 0, restrict: true})
				uses = append(uses, "at(i % 3) += ro(i, 0);", "Kokkos::atomic_add(&rs(0), ro(0, i));", "at(0) = x;")
				cases = append(cases, tc{fmt.Sprintf("for/%v/wide=%v/check=%v", e, wide, check), kernelSig{
					pattern: patFor, rank: 1, wide: wide, check: check, views: views,
					scalars: []scalarSig{{"x", e}},
				}, strings.Join(uses, "\n")})
			}
		}
	}
	for _, e := range allElems {
		for r := 2; r <= 6; r++ {
			for _, left := range []bool{true, false} {
				sig := kernelSig{pattern: patFor, rank: r, views: []viewSig{{name: "a", elem: e, rank: r, unit: 0}}}
				for k := 0; k < r; k++ {
					sig.order[k] = k
					if !left {
						sig.order[k] = r - 1 - k
					}
				}
				idx := strings.Join(indexNames(r), ", ")
				cases = append(cases, tc{fmt.Sprintf("md%d/%v/left=%v", r, e, left), sig, fmt.Sprintf("a(%s) += 1;", idx)})
				red := sig
				red.pattern = patReduce
				red.value = Sum[float64]().value
				cases = append(cases, tc{fmt.Sprintf("mdreduce%d/%v/left=%v", r, e, left), red, fmt.Sprintf("acc += a(%s);", idx)})
			}
		}
	}
	reducers := map[string]valueSig{
		"sum": Sum[float32]().value, "prod": Prod[int64]().value, "min": Min[float64]().value,
		"max": Max[uint32]().value, "minloc": MinLoc[float64]().value, "maxloc": MaxLoc[int32]().value,
		"land": LAnd().value, "lor": LOr().value, "custom": Custom[uint64]("value = 0;", "dst ^= src;").value,
	}
	bodies := map[string]string{
		"sum": "acc += a(i);", "prod": "acc *= a(i);", "min": "acc = fmin(acc, a(i));", "max": "if (a(i) > acc) acc = a(i);",
		"minloc": "if (a(i) < acc.val) { acc.val = a(i); acc.loc = i; }", "maxloc": "if (a(i) > acc.val) { acc.val = a(i); acc.loc = i; }",
		"land": "acc = acc && a(i) > 0;", "lor": "acc = acc || a(i) > 0;", "custom": "acc ^= (unsigned long long)a(i);",
	}
	for name, v := range reducers {
		for _, pat := range []patternKind{patReduce, patScan} {
			body := bodies[name]
			if pat == patScan {
				body += "\nif (final) a(i) = 0;"
			}
			cases = append(cases, tc{fmt.Sprintf("%v/%s", pat, name), kernelSig{pattern: pat, rank: 1, value: v,
				views: []viewSig{{name: "a", elem: elemFloat64, rank: 1, unit: 0}}}, body})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := compileOnly(t, &c.sig, c.body); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func (p patternKind) String() string { return []string{"for", "reduce", "scan"}[p] }

// TestCompileErrorNamesBodyLines checks that a body that does not compile
// reports the label and the body's own line numbers.
func TestCompileErrorNamesBodyLines(t *testing.T) {
	requireNVRTC(t)
	sig := kernelSig{pattern: patFor, rank: 1, views: []viewSig{{name: "a", elem: elemFloat64, rank: 1, unit: 0},
		{name: "r", elem: elemFloat64, rank: 1, unit: 0, readOnly: true}}}
	for _, c := range []struct{ body, want string }{
		{"a(i) = 1;\na(i) += d(i);", "body line 2: error: identifier \"d\" is undefined"},
		{"r(i) = 2;", "body line 1: error"},
		{"a(i, i) = 2;", "body line 1: error"},
	} {
		err := compileOnly(t, &sig, c.body)
		var ce *CompileError
		if !errors.As(err, &ce) || !errors.Is(err, ErrCompile) {
			t.Fatalf("body %q: error %v, want a *CompileError", c.body, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, t.Name()) || !strings.Contains(msg, "   1 | ") {
			t.Errorf("body %q: error\n%s\nwants %q, the label and the numbered body", c.body, msg, c.want)
		}
	}
}

// TestBindingNamesDoNotCollide compiles every pattern with bindings named
// like short locals, which the generated code must not shadow.
func TestBindingNamesDoNotCollide(t *testing.T) {
	requireNVRTC(t)
	names := []string{"lo", "hi", "r", "t", "v", "x", "sum", "carry", "base", "n", "k", "step", "partial", "out", "begin", "end", "chunk", "lane", "warp", "w", "o", "d"}
	for _, pat := range []patternKind{patFor, patReduce, patScan} {
		for _, rank := range []int{1, 3} {
			if pat == patScan && rank > 1 {
				continue
			}
			sig := kernelSig{pattern: pat, rank: rank, value: Sum[int64]().value}
			for k := range rank {
				sig.order[k] = k
			}
			idx := strings.Join(indexNames(rank), ", ")
			var uses []string
			for _, n := range names {
				sig.views = append(sig.views, viewSig{name: n, elem: elemInt64, rank: rank, unit: 0})
				switch pat {
				case patFor:
					uses = append(uses, fmt.Sprintf("%s(%s) += 1;", n, idx))
				case patReduce:
					uses = append(uses, fmt.Sprintf("acc += %s(%s);", n, idx))
				default:
					uses = append(uses, fmt.Sprintf("acc += %s(%s); if (final) %s(%s) = acc;", n, idx, n, idx))
				}
			}
			if err := compileOnly(t, &sig, strings.Join(uses, "\n")); err != nil {
				t.Errorf("%v rank %d: %v", pat, rank, err)
			}
		}
	}
}

// TestHelpersPlacedBeforeBody checks that Helpers' source reaches the
// generated kernel before the body, in order, that it enters the kernel's
// identity, and that a body calling a helper compiles.
func TestHelpersPlacedBeforeBody(t *testing.T) {
	var s argSet
	Helpers("__device__ static double twice(double x) { return 2 * x; }").apply(&s)
	Helpers("__device__ static double thrice(double x) { return 3 * x; }\n").apply(&s)
	want := "__device__ static double twice(double x) { return 2 * x; }\n__device__ static double thrice(double x) { return 3 * x; }\n"
	if s.helpers != want {
		t.Fatalf("helpers %q, want %q", s.helpers, want)
	}
	sig := kernelSig{pattern: patFor, rank: 1, views: []viewSig{{name: "a", elem: elemFloat64, rank: 1, unit: 0}}, helpers: s.helpers}
	body := "a(i) = twice(a(i)) + thrice(1.0);"
	src := generate(&sig, body, "helpers")
	h, v, f := strings.Index(src, "twice(double x)"), strings.Index(src, "struct gk_view_0"), strings.Index(src, "void gk_body(")
	if h < 0 || !(h < v && v < f) || h < strings.Index(src, "typedef int gk_idx;") {
		t.Errorf("helpers at %d, views at %d, body at %d: want the helpers after gk_idx and before the views", h, v, f)
	}
	plain := sig
	plain.helpers = ""
	if string(appendKey(nil, &sig, body, false)) == string(appendKey(nil, &plain, body, false)) {
		t.Error("the helpers do not enter the kernel's key")
	}
	requireNVRTC(t)
	if err := compileOnly(t, &sig, body); err != nil {
		t.Fatal(err)
	}
	if err := compileOnly(t, &plain, body); !errors.Is(err, ErrCompile) {
		t.Errorf("the body without its helpers: error %v, want ErrCompile", err)
	}
}
