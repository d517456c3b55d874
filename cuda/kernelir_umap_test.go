package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// umapSig is irSig for a kernel with map parameters: each binds the views
// and the scalar of umapNames.
func umapSig(k *kernelir.Kernel, helpers string, names, conv []string) *kernelSig {
	rest := *k
	rest.Params = nil
	var rn, rc []string
	var maps []kernelir.Param
	var mapNames []string
	for j, p := range k.Params {
		if p.UMap {
			maps, mapNames = append(maps, p), append(mapNames, names[j])
			continue
		}
		rest.Params = append(rest.Params, p)
		rn, rc = append(rn, names[j]), append(rc, conv[j])
	}
	sig := irSig(&rest, helpers, rn, rc)
	elem := map[kernelir.Type]elemType{kernelir.Float32: elemFloat32, kernelir.Float64: elemFloat64, kernelir.Int32: elemInt32,
		kernelir.Int64: elemInt64, kernelir.Int: elemInt64, kernelir.Uint32: elemUint32, kernelir.Uint64: elemUint64}
	for n, p := range maps {
		views, mode := umapNames(mapNames[n])
		for a, v := range views {
			e := elemUint32
			switch a {
			case 4:
				e = elem[p.Type]
			case 5:
				if p.Value == kernelir.Invalid {
					continue
				}
				e = elem[p.Value]
			}
			sig.views = append(sig.views, viewSig{name: v, elem: e, rank: 1, unit: 0})
		}
		sig.scalars = append(sig.scalars, scalarSig{name: mode, elem: elemUint32})
	}
	return sig
}

// umapKernels are descriptions of kernels over maps, as
// containers/internal/umapkernels's.
var umapKernels = []string{
	`(kernel Insert reduce (index i)
  (view ids uint64 1 r)
  (umap m uint64 int32)
  (acc int)
  (body
    (if (uminsert m failed (at ids i) (conv int32 i))
      (then
        (inc (acc))))))`,
	`(kernel Find for (index i)
  (view ids uint64 1 r)
  (umap m uint64 int32)
  (view out int32 1 w)
  (view found uint32 1 w)
  (body
    (assign ((new x uint32)) ((umfind m (at ids i))))
    (assign ((new v int32)) ((int32 -1)))
    (if (umvalidat m x)
      (then
        (assign (v) ((umvalueat m int32 x)))))
    (assign ((at out i)) (v))
    (if (umexists m (at ids i))
      (then
        (assign ((at found i)) ((uint32 1))))
      (else (block
        (assign ((at found i)) ((uint32 0))))))))`,
	`(kernel Walk reduce (index x)
  (view ids uint64 1 r)
  (umap m uint64 int32)
  (acc int)
  (body
    (if (land (land (lt int x (conv int (umcapacity m))) (umvalidat m (conv uint32 x))) (eq uint64 (at ids (conv int (umvalueat m int32 (conv uint32 x)))) (umkeyat m uint64 (conv uint32 x))))
      (then
        (inc (acc))))))`,
	`(kernel Mark reduce (index i)
  (view keys uint32 1 r)
  (umap s uint32 none)
  (acc int)
  (body
    (if (uminsert s existing (at keys i) (int8 0))
      (then
        (inc (acc))))
    (do (uminsert s - (add uint32 (at keys i) (uint32 1)) (int8 0)))))`,
	`(kernel Where reduce (index i)
  (view keys int32 1 r)
  (umap m int32 float64)
  (view at uint32 1 w)
  (acc int)
  (body
    (assign ((at at i)) ((uminsert m index (at keys i) (div float64 (conv float64 i) (float64 2)))))
    (if (uminsert m freed (at keys i) (float64 0))
      (then
        (inc (acc))))))`,
	`(kernel Count reduce (index i)
  (view keys int64 1 r)
  (umap m int64 uint32)
  (acc int)
  (body
    (if (uminsertadd m success (at keys i) (uint32 1))
      (then
        (inc (acc))))))`,
	`(kernel Sums for (index i)
  (view keys int32 1 r)
  (umap a int32 float32)
  (umap b uint64 int64)
  (umap c float64 float64)
  (view a_used int32 1 w)
  (view gkk_a_used int32 1 w)
  (body
    (assign ((at a_used i)) ((at gkk_a_used i)))
    (do (uminsertadd a - (at keys i) (float32 0.5)))
    (do (uminsertadd b - (conv uint64 (at keys i)) (int64 -3)))
    (do (uminsertadd c - (conv float64 (at keys i)) (float64 0.25)))))`,
}

// TestKernelIRUMap checks the translation of the map nodes and compiles
// it with NVRTC.
func TestKernelIRUMap(t *testing.T) {
	var ks []*kernelir.Kernel
	for _, src := range umapKernels {
		ks = append(ks, mustParse(t, src))
	}
	body, helpers, names, conv, err := emitKernel(ks[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "ids m" || strings.Join(conv, " ") != " umap" {
		t.Errorf("names %q, conv %q", names, conv)
	}
	for _, want := range []string{
		"const gkx_umap<gk_u64, int> m = {gkk_m_used.data(), gkk_m_heads.data(), gkk_m_next.data(), gkk_m_flags.data(), gkk_m_keys.data(), gkk_m_values.data(), (unsigned int)gkk_m_keys.extent(0), (unsigned int)gkk_m_heads.extent(0), (unsigned int)gkk_m_used.extent(0), gkk_m_mode};",
		"((unsigned int)gkx_umap_insert(m, ids(i), (int)((gk_i64)i), false) == GKX_UMAP_INVALID)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the body lacks %q:\n%s", want, body)
		}
	}
	for _, want := range []string{
		"h ^= (unsigned int)sizeof(K);",
		"if ((atomicOr(&m.used[hint >> 5], mask) & mask) == 0u) {",
		"__threadfence();",
		"atomicCAS(curr_ptr, GKX_UMAP_INVALID, new_index) == GKX_UMAP_INVALID",
		"atomicOr(m.flags, 1u);",
	} {
		if !strings.Contains(helpers, want) {
			t.Errorf("the support code lacks %q:\n%s", want, helpers)
		}
	}
	body, _, _, _, err = emitKernel(ks[5])
	if err != nil || !strings.Contains(body, "if (((gkx_umap_insert(m, keys(i), 1u, true) >> 63) != 0ull)) {") {
		t.Errorf("Count: %v\n%s", err, body)
	}
	body, _, _, _, err = emitKernel(ks[3])
	if err != nil || !strings.Contains(body, "const gkx_umap<unsigned int, unsigned char> s = {gkk_s_used.data(), gkk_s_heads.data(), gkk_s_next.data(), gkk_s_flags.data(), gkk_s_keys.data(), (unsigned char*)0,") ||
		!strings.Contains(body, "(void)gkx_umap_insert(s, keys(i) + 1u, (unsigned char)0, false);") {
		t.Errorf("Mark: %v\n%s", err, body)
	}
	// Keys of 2 bytes are not bound.
	_, _, _, _, err = emitKernel(mustParse(t, `(kernel Small for (index i) (umap m int16 int32) (body (do (uminsert m - (int16 1) (int32 2)))))`))
	if !errors.Is(err, errNoCUDA) || !strings.Contains(err.Error(), "kernel Small: map m has keys of type int16 and values of type int32; package cuda binds maps of keys and values of 4 or 8 bytes") {
		t.Errorf("int16 keys: %v", err)
	}
	// Binding refuses arrays of other kinds.
	var a argSet
	p := &backend.Param{Name: "m", UMap: true, Elem: backend.KindInt16, Value: backend.KindInt32}
	u := &backend.UMap{Keys: backend.View{Rank: 1, Elem: backend.KindInt16}}
	for _, v := range []*backend.View{&u.Used, &u.Heads, &u.Next, &u.Flags} {
		*v = backend.View{Rank: 1, Elem: backend.KindUint32}
	}
	if err := bindUMap(&a, "l", p, "m", &backend.Arg{UMap: u}); !errors.Is(err, backend.ErrUnsupported) || !strings.Contains(err.Error(), "map m: its keys are int16: the device binds maps of keys and values of 4 or 8 bytes") {
		t.Errorf("binding int16 keys: %v", err)
	}
	requireNVRTC(t)
	for _, k := range ks {
		body, helpers, names, conv, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if err := compileOnly(t, umapSig(k, helpers, names, conv), body); err != nil {
			t.Fatalf("%s: %v\n%s", k.Name, err, body)
		}
	}
}
