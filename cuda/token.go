package cuda

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// Unique tokens (kokkos.UniqueToken) in Go kernels. A token parameter is
// bound as two scalars: gkk_<name>_w, the address of the token's words in
// device memory, and gkk_<name>_n, its size. Each id has a 32-bit word
// of its own, 1 while held, 0 while free. Each stream has the words of
// the tokens of its kernels (tokenBits): allocated, zeroed, on the first
// launch that needs them, and reused by every later one, since the
// stream runs its kernels one after the other and a kernel that releases
// every id it acquires leaves them zero. A token's ids are thus unique
// among the threads of its kernel, which is the instance it was made for
// (package kernel refuses a token of another instance).

// tokenSupport is the device code of Acquire and Release: Kokkos's
// algorithm for CUDA, a lock word per id.
const tokenSupport = `// kokkos.UniqueToken: id i is held while word w[i] is 1, n words in
// all. Acquire starts at the global thread id modulo n, and takes the
// word with atomicCAS from 0 to 1, stepping by the block's size plus one
// after a failure (backing off, up to 1 µs, after each n failures); then
// a fence, so that it sees what the id's last holder wrote. Threads
// resident at once, fewer than n, start at different words: each takes
// its first with one atomic that no other thread contends. Release
// fences, then stores 0 with atomicExch; an id outside [0, n) (Go
// panics) is ignored, and so is the release of an id not held.
__device__ static gk_i64 gkx_token_acquire(unsigned int* w, gk_i64 n) {
	const unsigned long long block = (unsigned long long)blockIdx.x + (unsigned long long)gridDim.x * ((unsigned long long)blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
	const unsigned long long size = blockDim.x * blockDim.y * blockDim.z;
	const unsigned long long t = block * size + threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	const unsigned long long un = (unsigned long long)n;
	const unsigned long long step = (size + 1) % un == 0 ? 1 : (size + 1) % un;
	unsigned long long i = t % un;
	unsigned long long tries = 0;
	unsigned int ns = 32u;
	while (atomicCAS(&w[i], 0u, 1u) != 0u) {
		i += step;
		if (i >= un) {
			i -= un;
		}
		if (++tries == un) {
			// Every id was held: back off before the next pass, so
			// that the threads waiting for a few ids leave the memory
			// system to their holders.
			tries = 0;
#if __CUDA_ARCH__ >= 700
			__nanosleep(ns);
			ns = ns < 1024u ? 2u * ns : ns;
#endif
		}
	}
	__threadfence();
	return (gk_i64)i;
}
__device__ static void gkx_token_release(unsigned int* w, gk_i64 n, gk_i64 id) {
	if (id < 0 || id >= n) {
		return;
	}
	__threadfence();
	atomicExch(&w[id], 0u);
}
`

func init() {
	irSupport = append(irSupport, struct{ name, src string }{"token", tokenSupport})
}

// tokenConv is the conv of a token parameter (see emitKernel): it binds
// the two scalars tokenScalars names.
const tokenConv = "token"

// tokenScalars returns the names of the two scalars a token parameter
// bound as name is given: its words' address and its size.
func tokenScalars(name string) (words, size string) {
	return "gkk_" + name + "_w", "gkk_" + name + "_n"
}

// tokenParam declares token parameter pr in the kernel's body and returns
// the name it is bound as.
func (e *irFunc) tokenParam(pr kernelir.Param) string {
	name := e.declare(pr.Name)
	e.bind(pr.Name, irName{c: name})
	return name
}

// tokenExpr translates the token node x, and reports whether it is one.
func (e *irFunc) tokenExpr(x kernelir.Expr) (irCx, bool) {
	var tok string
	switch x := x.(type) {
	case *kernelir.TokenAcquire:
		tok = x.Token
	case *kernelir.TokenRelease:
		tok = x.Token
	case *kernelir.TokenSize:
		tok = x.Token
	default:
		return irCx{}, false
	}
	w, n := tokenScalars(e.lookup(tok).c)
	words := "(unsigned int*)" + w
	switch x := x.(type) {
	case *kernelir.TokenAcquire:
		e.use("token")
		return irCx{"gkx_token_acquire(" + words + ", " + n + ")", irPPrimary}, true
	case *kernelir.TokenRelease:
		e.use("token")
		return irCx{"gkx_token_release(" + words + ", " + n + ", " + e.expr(x.ID).s + ")", irPPrimary}, true
	}
	return irCx{n, irPPrimary}, true
}

// tokenBits is a stream's device memory for the ids of the tokens of its
// kernels: words 32-bit words, zero but while a kernel holds ids. A launch
// that needs more gets a larger block; the smaller ones stay allocated,
// for kernels queued before may still use them, until the stream's
// destroy.
type tokenBits struct {
	mu      sync.Mutex
	dev     uintptr
	words   int
	retired []uintptr
}

// tokenWords returns the number of 32-bit words of the tokens of l's
// kernel, one per id.
func tokenWords(l *backend.Launch) int {
	n := 0
	for j := range l.Kernel.Params {
		if l.Kernel.Params[j].Token && j < len(l.Args) && l.Args[j].Token != nil {
			n += l.Args[j].Token.Size()
		}
	}
	return n
}

// tokenBase returns the address of words 32-bit words of zero, or of ids
// released, on s for a launch's tokens; 0 when words is 0.
func (s *Stream) tokenBase(label string, words int) (uintptr, error) {
	if words == 0 {
		return 0, nil
	}
	tb := &s.st.tokens
	tb.mu.Lock()
	p, have := tb.dev, tb.words
	tb.mu.Unlock()
	if words <= have {
		return p, nil
	}
	// The stream's lock first, then tb.mu, as the stream's destroy.
	h, err := s.acquire()
	if err != nil {
		return 0, err
	}
	defer s.done()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if words <= tb.words {
		return tb.dev, nil
	}
	c, unlock, err := s.dev.bind()
	if err != nil {
		return 0, err
	}
	defer unlock()
	d := c.dev.drv
	// Room for the device's concurrency at least, so that one block
	// serves the tokens of NewUniqueToken.
	n := max(words, s.dev.Concurrency())
	if err := c.do("cuMemAlloc_v2", label+": unique token ids", d.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(4*n)); err != nil {
		return 0, err
	}
	if err := c.do("cuMemsetD32Async", label+": unique token ids", d.cuMemsetD32Async, p, 0, uintptr(n), h); err != nil {
		_ = c.do("cuMemFree_v2", "", d.cuMemFree, p)
		return 0, err
	}
	if tb.dev != 0 {
		tb.retired = append(tb.retired, tb.dev)
	}
	tb.dev, tb.words = p, n
	return p, nil
}

// free returns the token memory of dev.
func (tb *tokenBits) free(dev *Device) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.dev == 0 {
		return
	}
	c, unlock, err := dev.bind()
	if err != nil {
		return
	}
	defer unlock()
	for _, p := range append(tb.retired, tb.dev) {
		if p != 0 {
			_ = c.do("cuMemFree_v2", "", c.dev.drv.cuMemFree, p)
		}
	}
	tb.dev, tb.words, tb.retired = 0, 0, nil
}

// bindTokens appends to a the scalars of the token parameters of l, whose
// C names are names, with the words of each token after the previous
// token's, from base on.
func bindTokens(a *argSet, l *backend.Launch, names []string, base uintptr) error {
	off := uintptr(0)
	for j := range l.Kernel.Params {
		p := &l.Kernel.Params[j]
		if !p.Token {
			continue
		}
		tok := l.Args[j].Token
		if tok == nil {
			return fmt.Errorf("%w: %q: kernel %s: token %s not bound", ErrBinding, l.Label, l.Kernel.Name, p.Name)
		}
		w, n := tokenScalars(names[j])
		a.scalars = append(a.scalars, scalarArg{w, elemUint64, uint64(base + off)}, scalarArg{n, elemInt64, uint64(tok.Size())})
		off += uintptr(4 * tok.Size())
	}
	return nil
}
