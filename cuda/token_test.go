package cuda

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// tokenHoldsIR acquires an id of tok, checks with an in-use flag per id,
// set and cleared atomically, that no other thread holds it (a clash
// counts in clashes(0), an id out of range in clashes(1)), counts the
// holds of each id and releases it.
const tokenHoldsIR = `(kernel TokenHolds for (index i)
  (token tok)
  (view inUse int32 1 w)
  (view counts int64 1 w)
  (view clashes int64 1 w)
  (body
    (assign ((new id int)) ((acquire tok)))
    (if (lor (lt int id (int 0)) (ge int id (tokensize tok)))
      (then (do (atomic Add clashes ((int 1)) (int64 1))) (return)))
    (if (ne int32 (atomic Exchange inUse (id) (int32 1)) (int32 0))
      (then (do (atomic Add clashes ((int 0)) (int64 1)))))
    (do (atomic Add counts (id) (int64 1)))
    (if (ne int32 (atomic Exchange inUse (id) (int32 0)) (int32 1))
      (then (do (atomic Add clashes ((int 0)) (int64 1)))))
    (do (release tok id))))
`

// tokenSig is irSig for a kernel with token parameters: each binds the
// two scalars of tokenScalars.
func tokenSig(k *kernelir.Kernel, helpers string, names, conv []string) *kernelSig {
	rest := *k
	rest.Params = nil
	var rn, rc, toks []string
	for j, p := range k.Params {
		if p.Token {
			toks = append(toks, names[j])
			continue
		}
		rest.Params = append(rest.Params, p)
		rn, rc = append(rn, names[j]), append(rc, conv[j])
	}
	sig := irSig(&rest, helpers, rn, rc)
	for _, n := range toks {
		w, s := tokenScalars(n)
		sig.scalars = append(sig.scalars, scalarSig{name: w, elem: elemUint64}, scalarSig{name: s, elem: elemInt64})
	}
	return sig
}

// TestKernelIRToken checks the translation of the token nodes and
// compiles it with NVRTC.
func TestKernelIRToken(t *testing.T) {
	k, err := kernelir.Parse(kernelir.Header + tokenHoldsIR)
	if err != nil {
		t.Fatal(err)
	}
	body, helpers, names, conv, err := emitKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "tok inUse counts clashes" || strings.Join(conv, " ") != "token   " {
		t.Errorf("names %q, conv %q", names, conv)
	}
	for _, want := range []string{
		"gk_i64 id = gkx_token_acquire((unsigned int*)gkk_tok_w, gkk_tok_n);",
		"if (id < 0ll || id >= gkk_tok_n) {",
		"gkx_token_release((unsigned int*)gkk_tok_w, gkk_tok_n, id);",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the body lacks %q:\n%s", want, body)
		}
	}
	for _, want := range []string{
		"__device__ static gk_i64 gkx_token_acquire(unsigned int* w, gk_i64 n) {",
		"while (atomicCAS(&w[i], 0u, 1u) != 0u) {",
		"atomicExch(&w[id], 0u);",
	} {
		if strings.Count(helpers, want) != 1 {
			t.Errorf("the support code lacks %q:\n%s", want, helpers)
		}
	}
	// A kernel without tokens has none of it.
	if _, h, _, _, _ := emitKernel(mustParse(t, `(kernel K for (index i) (view a int64 1 w) (body (assign ((at a i)) ((int64 1)))))`)); strings.Contains(h, "token") {
		t.Errorf("support code of tokens without a token:\n%s", h)
	}
	// Two tokens, the second named as the first's words would be in C:
	// their C names differ.
	k2 := mustParse(t, `(kernel Two for (index i) (token a) (token gkk_a_w) (view out int64 1 w) (body (assign ((at out i)) ((conv int64 (add int (tokensize a) (tokensize gkk_a_w)))))))`)
	body2, helpers2, names2, conv2, err := emitKernel(k2)
	if err != nil || !strings.Contains(body2, "out(i) = (gk_i64)((gk_u64)gkk_a_n + (gk_u64)gkk_gkm_gkkZ5fZaZ5fZw_n);") || strings.Contains(helpers2, "gkx_token") {
		t.Errorf("Two: %v %q %q %q\n%s", err, names2, conv2, helpers2, body2)
	}
	// A kernel of two indices and a reduction, as kerneltest's TokenBox
	// and TokenCount.
	box := mustParse(t, `(kernel TokenBox for (index i j) (token tok) (view ok int32 2 w) (view counts int64 1 w)
  (body
    (assign ((new id int)) ((acquire tok)))
    (if (land (ge int id (int 0)) (lt int id (tokensize tok)))
      (then (assign ((at ok i j)) ((int32 1))) (do (atomic Add counts (id) (int64 1)))))
    (do (release tok id))))`)
	count := mustParse(t, `(kernel TokenCount reduce (index i) (token tok) (acc int64)
  (body
    (assign ((new id int)) ((acquire tok)))
    (if (land (lt int id (tokensize tok)) (ge int id (int 0))) (then (opassign add (acc) (int64 1))))
    (do (release tok id))))`)
	requireNVRTC(t)
	for _, k := range []*kernelir.Kernel{k, k2, box, count} {
		body, helpers, names, conv, _ := emitKernel(k)
		if err := compileOnly(t, tokenSig(k, helpers, names, conv), body); err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
	}
}

func mustParse(t *testing.T, text string) *kernelir.Kernel {
	t.Helper()
	k, err := kernelir.Parse(kernelir.Header + text)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestTokenGPU runs TokenHolds over 10M indices on a stream with a token
// of the device's concurrency, and over fewer with tokens of a few ids:
// no id is held by two threads at once, every id is in range, every
// index holds one; after each launch the stream's token words are all
// zero again.
func TestTokenGPU(t *testing.T) {
	dev := gpu(t)
	s, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	if want := dev.Multiprocessors() * dev.attr(attrMaxThreadsPerMultiproc); kokkos.NewUniqueToken(s).Size() != want {
		t.Fatalf("NewUniqueToken(stream).Size() = %d, want %d", kokkos.NewUniqueToken(s).Size(), want)
	}
	k := &backend.Kernel{Name: "cuda.TokenHolds", Pattern: backend.PatternFor, Rank: 1, IR: kernelir.Header + tokenHoldsIR,
		Params: []backend.Param{{Name: "tok", Token: true},
			{Name: "inUse", View: true, Rank: 1, Elem: backend.KindInt32, Write: true},
			{Name: "counts", View: true, Rank: 1, Elem: backend.KindInt64, Write: true},
			{Name: "clashes", View: true, Rank: 1, Elem: backend.KindInt64, Write: true}}}
	for _, c := range []struct {
		tok kokkos.UniqueToken
		n   int
	}{{kokkos.NewUniqueToken(s), 10_000_000}, {kokkos.NewUniqueTokenSize(s, 1), 10_000}, {kokkos.NewUniqueTokenSize(s, 100), 200_000}, {kokkos.NewUniqueTokenSize(s, 1<<20), 10_000_000}} {
		size := c.tok.Size()
		inUse := kokkos.Must(kokkos.NewView1[int32]("inUse", size, kokkos.InSpace(Space)))
		counts := kokkos.Must(kokkos.NewView1[int64]("counts", size, kokkos.InSpace(Space)))
		clashes := kokkos.Must(kokkos.NewView1[int64]("clashes", 2, kokkos.InSpace(Space)))
		di, dc, dx := kokkos.Describe(inUse), kokkos.Describe(counts), kokkos.Describe(clashes)
		l := &backend.Launch{Label: "tokenholds", Kernel: k, Shape: kokkos.Range(0, c.n).Shape(),
			Args: []backend.Arg{{Token: c.tok}, {View: &di, Kind: backend.KindInt32}, {View: &dc, Kind: backend.KindInt64}, {View: &dx, Kind: backend.KindInt64}}}
		for run := range 2 {
			if err := s.For(l); err != nil {
				t.Fatal(err)
			}
			if err := s.Fence(); err != nil {
				t.Fatal(err)
			}
			cl := kokkos.Must(kokkos.CreateMirrorViewAndCopy(clashes))
			if cl.At(0) != 0 || cl.At(1) != 0 {
				t.Fatalf("size %d, run %d: %d holds of an id already held, %d ids out of range", size, run, cl.At(0), cl.At(1))
			}
			h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(counts))
			total, used, most := int64(0), 0, int64(0)
			for id := range size {
				total += h.At(id)
				most = max(most, h.At(id))
				if h.At(id) > 0 {
					used++
				}
			}
			if total != int64(c.n*(run+1)) {
				t.Fatalf("size %d, run %d: %d holds counted, want %d", size, run, total, c.n*(run+1))
			}
			t.Logf("size %d, run %d: %d ids used over %d indices, at most %d holds of one", size, run, used, c.n, most)
			if words := tokenWordsOf(t, s); len(words) < size {
				t.Fatalf("%d token words for a token of %d ids", len(words), size)
			} else {
				for w, x := range words {
					if x != 0 {
						t.Fatalf("size %d, run %d: token word %d is %#x after the kernel", size, run, w, x)
					}
				}
			}
		}
		for _, v := range []interface{ Release() error }{&inUse, &counts, &clashes} {
			_ = v.Release()
		}
	}
}

// tokenWordsOf copies the stream's token words to the host.
func tokenWordsOf(t *testing.T, s *Stream) []uint32 {
	t.Helper()
	tb := &s.st.tokens
	tb.mu.Lock()
	p, n := tb.dev, tb.words
	tb.mu.Unlock()
	out := make([]uint32, n)
	if n == 0 {
		return out
	}
	c, unlock, err := s.dev.bind()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if r, _, _ := purego.SyscallN(c.dev.drv.cuMemcpyDtoH, uintptr(unsafe.Pointer(&out[0])), p, uintptr(4*n)); r != 0 {
		t.Fatalf("cuMemcpyDtoH: %d", r)
	}
	return out
}
