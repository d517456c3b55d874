package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/ebitengine/purego"
)

// A program is a compiled kernel loaded on one device: its module and the
// entry points of its pattern.
type program struct {
	mod uintptr
	fns [3]uintptr
}

// progEntry compiles a program once; goroutines asking for the same one
// meanwhile wait for it.
type progEntry struct {
	once sync.Once
	done atomic.Bool // p and err are set
	p    *program
	err  error
}

// deviceKernels is a device's loaded programs and its scratch memory for
// reductions, scans and bounds reports.
type deviceKernels struct {
	mu    sync.RWMutex
	progs map[string]*progEntry

	legacy scratch // the legacy default stream's scratch

	repMu sync.Mutex
	rep   uintptr // bounds-check report, reportWords words
}

const reportWords = 12

// scratch is the device memory of one stream's reductions and scans:
// blocks' partial results, then the result slot; host is pinned memory the
// result is copied back to. mu orders the launches that use it.
type scratch struct {
	mu   sync.Mutex
	dev  uintptr
	host unsafe.Pointer
}

// maxPartials bounds the blocks of a reduction or scan grid.
const maxPartials = 1024

// maxValue is the largest accumulator (MinLoc of a 64-bit type).
const maxValue = 16

const (
	scratchBytes = maxPartials*maxValue + 64
	resultOffset = maxPartials * maxValue
)

// ensure allocates the scratch memory on first use; c is bound to its
// device.
func (s *scratch) ensure(c ctxCall) error {
	if s.dev != 0 {
		return nil
	}
	d := c.dev.drv
	if err := c.do("cuMemAlloc_v2", "reduction scratch", d.cuMemAlloc, uintptr(unsafe.Pointer(&s.dev)), scratchBytes); err != nil {
		return err
	}
	if err := c.do("cuMemAllocHost_v2", "reduction result", d.cuMemAllocHost, uintptr(unsafe.Pointer(&s.host)), 64); err != nil {
		_ = c.do("cuMemFree_v2", "", d.cuMemFree, s.dev)
		s.dev = 0
		return err
	}
	return nil
}

// free returns the scratch memory; c is bound to its device.
func (s *scratch) free(c ctxCall) {
	if s.dev != 0 {
		_ = c.do("cuMemFree_v2", "", c.dev.drv.cuMemFree, s.dev)
		_ = c.do("cuMemFreeHost", "", c.dev.drv.cuMemFreeHost, uintptr(s.host))
		s.dev, s.host = 0, nil
	}
}

// computeCapability returns the device's compute capability as 10*major +
// minor (90 for an H100).
func (dev *Device) computeCapability() int {
	return 10*dev.attr(attrComputeMajor) + dev.attr(attrComputeMinor)
}

const (
	attrComputeMajor = 75
	attrComputeMinor = 76
)

// compileOptions returns NVRTC's options for target opt.
func compileOptions(target string, noFMAD bool) []string {
	o := []string{target, "--std=c++17", "-default-device"}
	if noFMAD {
		o = append(o, "--fmad=false")
	}
	return o
}

// compileFor compiles the kernel of sig around body for a device of
// compute capability sm, through the caches. driverVersion enters the
// disk cache's key. A compile error names label and shows body.
func compileFor(sig *kernelSig, body, label string, sm int, noFMAD bool, driverVersion int) (compiled, error) {
	c, err := compileSource(generate(sig, body, label), label, sm, noFMAD, driverVersion)
	var ce *CompileError
	if errors.As(err, &ce) {
		ce.Body = body
		ce.Bindings = describeBindings(sig)
	}
	return c, err
}

// kernels returns the device's kernel state.
func (dev *Device) kernels() *deviceKernels {
	dev.kernOnce.Do(func() { dev.kern = &deviceKernels{progs: map[string]*progEntry{}} })
	return dev.kern
}

// program returns the loaded program of sig and body, compiling it (or
// loading it from the disk cache) on first use. key identifies sig, body
// and the options; the map lookup does not keep it.
func (dev *Device) program(key []byte, sig *kernelSig, body, label string, noFMAD bool) (*program, error) {
	k := dev.kernels()
	k.mu.RLock()
	e := k.progs[string(key)]
	k.mu.RUnlock()
	if e != nil && e.done.Load() {
		return e.p, e.err
	}
	if e == nil {
		k.mu.Lock()
		if e = k.progs[string(key)]; e == nil {
			e = &progEntry{}
			k.progs[string(key)] = e
		}
		k.mu.Unlock()
	}
	e.once.Do(func() {
		e.p, e.err = dev.load(sig, body, label, noFMAD)
		e.done.Store(true)
	})
	return e.p, e.err
}

func (dev *Device) load(sig *kernelSig, body, label string, noFMAD bool) (*program, error) {
	img, err := compileFor(sig, body, label, dev.computeCapability(), noFMAD, dev.drv.version)
	if err != nil {
		return nil, err
	}
	names := kernelNames[sig.pattern]
	if sig.team {
		names = teamKernelNames[sig.pattern]
	}
	return dev.loadImage(img, label, names)
}

// rawProgram returns the loaded program of a whole CUDA source written by
// the package itself (copy and fill kernels, benchmark baselines), with
// the entry points names (extern "C"), compiling it on first use through
// the same caches as loop bodies.
func (dev *Device) rawProgram(label, src string, names []string) (*program, error) {
	if len(names) > len(program{}.fns) {
		return nil, fmt.Errorf("cuda: %q: %d entry points; a program has at most %d", label, len(names), len(program{}.fns))
	}
	k := dev.kernels()
	key := "raw\x00" + src
	k.mu.RLock()
	e := k.progs[key]
	k.mu.RUnlock()
	if e == nil {
		k.mu.Lock()
		if e = k.progs[key]; e == nil {
			e = &progEntry{}
			k.progs[key] = e
		}
		k.mu.Unlock()
	}
	e.once.Do(func() {
		img, err := compileSource(src, label, dev.computeCapability(), false, dev.drv.version)
		if err != nil {
			e.err = err
			return
		}
		e.p, e.err = dev.loadImage(img, label, names)
	})
	return e.p, e.err
}

// compileSource compiles a whole source through the caches.
func compileSource(src, label string, sm int, noFMAD bool, driverVersion int) (compiled, error) {
	l, err := loadNVRTC()
	if err != nil {
		return compiled{}, fmt.Errorf("cuda: %q: compiling a kernel needs NVRTC: %w", label, err)
	}
	target, ptx := l.archOption(sm)
	opts := compileOptions(target, noFMAD)
	key := cacheKey(src, opts, l.major, l.minor, driverVersion)
	dir := CacheDir()
	if c, ok := cacheLoad(dir, key); ok {
		return c, nil
	}
	c, err := l.compile(src, opts, label, "", ptx)
	if err != nil {
		return compiled{}, err
	}
	cacheStore(dir, key, c)
	return c, nil
}

// loadImage loads a compiled image on the device and looks up names.
func (dev *Device) loadImage(img compiled, label string, names []string) (*program, error) {
	c, unlock, err := dev.bind()
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := &program{}
	d := dev.drv
	if err := c.do("cuModuleLoadData", label, d.cuModuleLoadData, uintptr(unsafe.Pointer(&p.mod)), uintptr(unsafe.Pointer(&img.image[0]))); err != nil {
		return nil, err
	}
	runtime.KeepAlive(img.image)
	for k, name := range names {
		cname := cstr(name)
		if err := c.do("cuModuleGetFunction", label, d.cuModuleGetFunction, uintptr(unsafe.Pointer(&p.fns[k])), p.mod, uintptr(unsafe.Pointer(&cname[0]))); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// appendKey appends to b the identity of a kernel: pattern, shape, options,
// the bindings' signatures and the body.
func appendKey(b []byte, sig *kernelSig, body string, noFMAD bool) []byte {
	b = appendSig(b, sig, noFMAD)
	b = append(b, sig.helpers...)
	b = append(b, 0)
	return append(b, body...)
}

// appendKeyOf is appendKey for the CUDA C of a Go kernel, which package
// cuda translated once and keeps for the process: the key names the code
// by its address instead of its text (helpers and body), so that a
// launch neither copies nor hashes it. A 0xff byte, which appendKey's
// helpers never start with after their 0, sets these keys apart.
func appendKeyOf(b []byte, sig *kernelSig, code *irCode, noFMAD bool) []byte {
	b = appendSig(b, sig, noFMAD)
	b = append(b, 0xff)
	p := uint64(uintptr(unsafe.Pointer(code)))
	for k := range 8 {
		b = append(b, byte(p>>(8*k)))
	}
	return b
}

// appendSig appends what a launch's code depends on besides its helpers
// and body: the pattern, rank, flags, order, bindings and accumulator.
func appendSig(b []byte, sig *kernelSig, noFMAD bool) []byte {
	flags := byte(sig.pattern) | byte(sig.rank)<<2
	b = append(b, flags, boolByte(sig.wide)|boolByte(sig.check)<<1|boolByte(noFMAD)<<2|boolByte(sig.team)<<3)
	for k := 0; k < sig.rank && sig.rank > 1; k++ {
		b = append(b, byte(sig.order[k]))
	}
	for _, v := range sig.views {
		b = append(b, byte(v.elem), byte(v.rank), byte(v.unit+1), boolByte(v.readOnly)|boolByte(v.atomic)<<1|boolByte(v.restrict)<<2)
		b = append(b, v.name...)
		b = append(b, 0)
	}
	b = append(b, 1)
	for _, s := range sig.scalars {
		b = append(b, byte(s.elem))
		b = append(b, s.name...)
		b = append(b, 0)
	}
	if sig.pattern != patFor {
		b = append(b, sig.value.ctype...)
		b = append(b, 0)
		b = append(b, sig.value.init...)
		b = append(b, 0)
		b = append(b, sig.value.join...)
		b = append(b, 0)
	}
	return b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// launchBuf is the per-launch memory: the kernel arguments and the cache
// key. It is pooled and pinned while the driver reads it.
type launchBuf struct {
	p    paramBuf
	key  []byte
	lp   launchPlan
	args argSet
}

// launchPool holds the launch buffers not in use. A buffer the pool drops
// unmaps its argument memory when the garbage collector finds it
// unreachable.
var launchPool = sync.Pool{New: func() any {
	lb := &launchBuf{p: newParamBuf(), key: make([]byte, 0, 512)}
	runtime.AddCleanup(lb, func(mem []byte) { _ = syscall.Munmap(mem) }, lb.p.mem)
	return lb
}}

// getLaunch returns a launch buffer from the pool.
func getLaunch() *launchBuf { return launchPool.Get().(*launchBuf) }

// put returns lb to the pool, dropping its references to views.
func (lb *launchBuf) put() {
	a := &lb.args
	clear(a.views)
	clear(a.scalars)
	clear(a.errs)
	*a = argSet{views: a.views[:0], scalars: a.scalars[:0], errs: a.errs[:0]}
	views, scalars := lb.lp.sig.views[:0], lb.lp.sig.scalars[:0]
	lb.lp = launchPlan{}
	lb.lp.sig.views, lb.lp.sig.scalars = views, scalars
	launchPool.Put(lb)
}

// launch queues fn on stream h with grid and block and the arguments in p;
// c is bound to the stream's device.
func (c ctxCall) launch(label string, fn uintptr, grid, block [3]int, h uintptr, p *paramBuf) error {
	r, _, _ := purego.SyscallN(c.dev.drv.cuLaunchKernel, fn,
		uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		0, h, uintptr(unsafe.Pointer(&p.ptrs[0])), 0)
	if r != 0 {
		return c.dev.drv.err("cuLaunchKernel", r, label, fmt.Sprintf("grid %v, block %v", grid, block))
	}
	return nil
}

// report reads and clears the bounds-check report after the kernel ran;
// it returns the failed access, if any, as a *BoundsError.
func (c ctxCall) report(label string, rep uintptr, views []viewArg) error {
	var w [reportWords]uint64
	d := c.dev.drv
	if err := c.do("cuMemcpyDtoH_v2", label, d.cuMemcpyDtoH, uintptr(unsafe.Pointer(&w[0])), rep, reportWords*8); err != nil {
		return err
	}
	if w[0] == 0 {
		return nil
	}
	k, rank := int(w[1]), int(w[2])
	if k < 0 || k >= len(views) || rank > 8 {
		return fmt.Errorf("cuda: %q: bounds report names no bound view (%d)", label, k)
	}
	v := &views[k]
	e := &BoundsError{Kernel: label, View: v.name, Label: v.d.Label, Extents: append([]int(nil), v.d.Extents[:rank]...)}
	for r := 0; r < rank; r++ {
		e.Index = append(e.Index, int(int64(w[3+r])))
	}
	return e
}

// describeBindings says what the body can name, for compile errors.
func describeBindings(sig *kernelSig) string {
	var parts []string
	idx := strings.Join(indexNames(sig.rank), ", ")
	parts = append(parts, "indices "+idx)
	if sig.pattern != patFor {
		parts = append(parts, "acc ("+sig.value.ctype+")")
	}
	if sig.pattern == patScan {
		parts = append(parts, "final (bool)")
	}
	for _, v := range sig.views {
		mode := ""
		switch {
		case v.readOnly:
			mode = ", read-only"
		case v.atomic:
			mode = ", atomic"
		}
		parts = append(parts, fmt.Sprintf("view %s (%s, rank %d%s)", v.name, v.elem, v.rank, mode))
	}
	for _, s := range sig.scalars {
		parts = append(parts, fmt.Sprintf("scalar %s (%s)", s.name, s.elem))
	}
	return strings.Join(parts, "; ")
}
