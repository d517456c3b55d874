package cuda

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// irLocalSample uses every composite node of the description.
const irLocalSample = `(struct vec3 (X float64) (Y float64) (Z float64))
(struct rng (s uint64))
(struct box (lo [3]float64) (n int32) (_ int32))
(func dot ((a vec3) (b vec3)) (float64)
  (body (return (add float64 (add float64 (mul float64 (field a X) (field b X)) (mul float64 (field a Y) (field b Y))) (mul float64 (field a Z) (field b Z))))))
(func scale ((a vec3) (f float64)) ((r vec3))
  (body (assign (r) ((lit vec3 (mul float64 (field a X) f) (mul float64 (field a Y) f) (mul float64 (field a Z) f)))) (return)))
(func next ((r *rng)) (uint64)
  (body
    (opassign xor (field r s) (shr uint64 (field r s) (int 12)))
    (return (mul uint64 (field r s) (uint64 2685821657736338717)))))
(func twice ((r *rng)) (uint64)
  (body (return (add uint64 (call next (addr r)) (call next r)))))
(kernel K for (index i)
  (view out float64 1 w)
  (view hist int32 1 w)
  (scalar seed uint64)
  (body
    (var ((h [4]int32)) ())
    (range (new k int) int (int 8)
      (body (opassign add (index h (rem int (add int i k) (int 4))) (int32 1))))
    (var ((m [2][2]int32)) ((lit [2][2]int32 (lit [2]int32 (int32 1) (int32 2)) (lit [2]int32))))
    (assign ((index (index m (int 1)) (int 0))) ((index h (int 3))))
    (assign ((new g [2][2]int32)) (m))
    (inc (index (index g (int 1)) i))
    (var ((v vec3)) ((lit vec3 (float64 1) (conv float64 i) (float64 -2))))
    (var ((w vec3)) ((call scale v (float64 3))))
    (var ((b box)) ())
    (assign ((index (field b lo) (int 2))) ((call dot v w)))
    (assign ((new r rng)) ((lit rng (add uint64 seed (conv uint64 i)))))
    (var ((x uint64)) ((call twice (addr r))))
    (inc (index h (conv int (shr uint64 (call next (addr r)) (int 62)))))
    (assign ((at out i)) ((add float64 (index (field b lo) (int 2)) (conv float64 (shr uint64 x (int 40))))))
    (range (new k int) int (int 4)
      (body (do (atomic Add hist (k) (index h k)))))))
`

func TestKernelIRLocal(t *testing.T) {
	k, err := kernelir.Parse(kernelir.Header + irLocalSample)
	if err != nil {
		t.Fatal(err)
	}
	body, helpers, names, conv, err := emitKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"struct gka_4_int32 { int v[4]; };\n",
		"struct gka_2_gka_2_int32 { gka_2_int32 v[2]; };\n",
		"struct gks_box { gka_3_float64 lo; int n; int gkf_2; };\n",
		"__device__ static gks_vec3 gk_h_scale(gks_vec3 a, double f) {",
		"__device__ static gk_u64 gk_h_next(gks_rng* r) {",
		"r->s = r->s ^ ",
		"gk_h_next(r) + gk_h_next(r)",
	} {
		if !strings.Contains(helpers, want) {
			t.Errorf("helpers lack %q:\n%s", want, helpers)
		}
	}
	for _, want := range []string{
		"gka_4_int32 h = gka_4_int32{};",
		"gka_2_gka_2_int32 m = gka_2_gka_2_int32{{gka_2_int32{{1, 2}}, gka_2_int32{}}};",
		"m.v[1ll].v[0ll] = h.v[3ll];",
		"gka_2_gka_2_int32 g = m;",
		"b.lo.v[2ll] = gk_h_dot(v, w);",
		"gk_h_twice(&r)",
		"const gk_i64 gkt1 = (gk_i64)(gk_h_next(&r) >> 62);\nh.v[gkt1] = (int)((unsigned int)h.v[gkt1] + 1u);",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if t.Failed() {
		return
	}
	requireNVRTC(t)
	if err := compileOnly(t, irSig(k, helpers, names, conv), body); err != nil {
		t.Fatal(err)
	}
}

func TestKernelIRViewHelpers(t *testing.T) {
	k, err := kernelir.Parse(kernelir.Header + `(func bump ((h view1[int32]) (k int) (by int32)) ()
  (body (do (atomic Add h (k) by))))
(func put ((o view2[float64]) (i int) (x float64)) ()
  (body (assign ((at o i (sub int (extent o 1) (int 1)))) (x))))
(func both ((h view1[int32]) (o view2[float64]) (i int) (in view1[float64])) (float64)
  (body
    (do (call bump h (rem int i (extent h 0)) (int32 2)))
    (do (call put o i (mul float64 (at in i) (float64 2))))
    (return (at in i))))
(kernel K for (index i)
  (view hist int32 1 w)
  (view out float64 2 w)
  (view in float64 1 r)
  (body
    (var ((x float64)) ((call both hist out i in)))
    (assign ((at out i (int 0))) ((add float64 x (float64 1))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	body, helpers, names, conv, err := emitKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"template <class GkV0> __device__ static void gk_h_bump(GkV0 h, gk_i64 k, int by) {",
		"template <class GkV0> __device__ static void gk_h_put(GkV0 o, gk_i64 gkm_i, double x) {",
		"template <class GkV0, class GkV1, class GkV3> __device__ static double gk_h_both(GkV0 h, GkV1 o, gk_i64 gkm_i, GkV3 in) {",
	} {
		if !strings.Contains(helpers, want) {
			t.Errorf("helpers lack %q:\n%s", want, helpers)
		}
	}
	if !strings.Contains(body, "gk_h_both(hist, out, ((gk_i64)i), in)") {
		t.Errorf("body:\n%s", body)
	}
	if t.Failed() {
		return
	}
	requireNVRTC(t)
	if err := compileOnly(t, irSig(k, helpers, names, conv), body); err != nil {
		t.Fatal(err)
	}
}

func TestKernelIRStructParam(t *testing.T) {
	k, err := kernelir.Parse(kernelir.Header + `(struct inner (b int8) (c [3]int16))
(struct prm (a float32) (k int64) (in inner) (u uint8) (f [2]float64))
(kernel K for (index i)
  (view out float64 1 w)
  (scalar p prm)
  (scalar s float64)
  (body (assign ((at out i)) ((add float64 (mul float64 (conv float64 (field p a)) s) (add float64 (index (field p f) (rem int i (int 2))) (conv float64 (index (field (field p in) c) (int 2)))))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	body, helpers, names, conv, err := emitKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	want := "const gks_prm p = gks_prm{gkb_p_0, gkb_p_1, gks_inner{(signed char)gkb_p_2, gka_3_int16{{(short)gkb_p_3, (short)gkb_p_4, (short)gkb_p_5}}}, (unsigned char)gkb_p_6, gka_2_float64{{gkb_p_7, gkb_p_8}}};\n"
	if !strings.HasPrefix(body, want) || fmt.Sprint(names) != "[out gkb_p s]" || fmt.Sprint(conv) != "[ struct ]" {
		t.Errorf("body %q\nnames %q conv %q", body, names, conv)
	}
	// The bytes of a Go value of the struct, bound as its scalars.
	type inner struct {
		b int8
		c [3]int16
	}
	type prm struct {
		a  float32
		k  int64
		in inner
		u  uint8
		f  [2]float64
	}
	v := prm{a: 1.5, k: -3, in: inner{-2, [3]int16{4, -5, 6}}, u: 250, f: [2]float64{0.5, -1}}
	arg := backend.Arg{Kind: backend.KindStruct, Bytes: unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))}
	scs, err := structScalars("gkb_p", &arg, k.Params[1].Type)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(scs)
	wantScs := fmt.Sprint([]scalarArg{{"gkb_p_0", elemFloat32, uint64(math.Float32bits(1.5))}, {"gkb_p_1", elemInt64, uint64(1<<64 - 3)},
		{"gkb_p_2", elemInt32, uint64(uint32(1<<32 - 2))}, {"gkb_p_3", elemInt32, 4}, {"gkb_p_4", elemInt32, uint64(uint32(1<<32 - 5))}, {"gkb_p_5", elemInt32, 6},
		{"gkb_p_6", elemUint32, 250}, {"gkb_p_7", elemFloat64, math.Float64bits(0.5)}, {"gkb_p_8", elemFloat64, math.Float64bits(-1)}})
	if got != wantScs {
		t.Errorf("scalars\n got %s\nwant %s", got, wantScs)
	}
	if _, err := structScalars("gkb_p", &backend.Arg{Kind: backend.KindStruct, Bytes: make([]byte, 3)}, k.Params[1].Type); err == nil {
		t.Errorf("3 bytes bound")
	}
	requireNVRTC(t)
	sig := irSig(k, helpers, names, conv)
	sig.scalars = nil
	for _, sc := range scs {
		sig.scalars = append(sig.scalars, scalarSig{name: sc.name, elem: sc.elem})
	}
	sig.scalars = append(sig.scalars, scalarSig{name: "s", elem: elemFloat64})
	if err := compileOnly(t, sig, body); err != nil {
		t.Fatal(err)
	}
}

// irStructSigs are the scalars a struct parameter of type t, bound as
// base, is passed as.
func irStructSigs(base string, t kernelir.Type) []scalarSig {
	var out []scalarSig
	for n, s := range kernelir.Scalars(t) {
		e, _ := irWidened(s.Type)
		out = append(out, scalarSig{name: base + "_" + fmt.Sprint(n), elem: e})
	}
	return out
}
