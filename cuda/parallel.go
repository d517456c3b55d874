package cuda

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/prof"
)

// A Policy is the index space of a device pattern: a kokkos.RangePolicy
// (the body sees the index i) or a kokkos.MDRangePolicy of rank 2 to 6 (the
// body sees i0, i1, ...). Its execution space is a *Stream, or nil for the
// legacy default stream of the bound views' device (device 0 when no view
// is bound).
type Policy interface{ String() string }

// ErrPolicy is matched (errors.Is) by the error of a device pattern given a
// policy it cannot run: another type, a host execution space, a rank
// outside 2 to 6, begin after end, tiles of more than 1024 threads.
var ErrPolicy = errors.New("cuda: bad policy")

// Elem is the constraint of the element types a device body computes with.
type Elem interface {
	~float32 | ~float64 | ~int32 | ~int64 | ~uint32 | ~uint64
}

func elemOf[T Elem]() elemType {
	var z T
	switch any(z).(type) {
	case float32:
		return elemFloat32
	case float64:
		return elemFloat64
	case int32:
		return elemInt32
	case int64:
		return elemInt64
	case uint32:
		return elemUint32
	case uint64:
		return elemUint64
	}
	// A named type: decide by size and kind.
	size := unsafe.Sizeof(z)
	isFloat := T(1)/T(2) != 0
	neg := T(0)
	neg--
	signed := neg < 0
	switch {
	case isFloat && size == 4:
		return elemFloat32
	case isFloat:
		return elemFloat64
	case signed && size == 4:
		return elemInt32
	case signed:
		return elemInt64
	case size == 4:
		return elemUint32
	}
	return elemUint64
}

// A Reducer says how a device reduction combines values: the C type of the
// accumulator acc, its identity and its join, and how the result becomes a
// Go T. Make one with Sum, Prod, Min, Max, MinLoc, MaxLoc, LAnd, LOr or
// Custom.
type Reducer[T any] struct {
	name   string
	value  valueSig
	asBool bool
}

// Sum adds: acc starts at 0, and the body adds to it (acc += x(i)).
func Sum[T Elem]() Reducer[T] {
	return simple[T]("Sum", "value = 0;", "dst += src;")
}

// Prod multiplies: acc starts at 1 (acc *= x(i)).
func Prod[T Elem]() Reducer[T] {
	return simple[T]("Prod", "value = 1;", "dst *= src;")
}

// Min keeps the least value: acc starts at the greatest value of T (+Inf
// for floating point); the body lowers it (acc = min(acc, x(i))).
func Min[T Elem]() Reducer[T] {
	return simple[T]("Min", "value = "+greatestC(elemOf[T]())+";", "if (src < dst) dst = src;")
}

// Max keeps the greatest value: acc starts at the least value of T (-Inf
// for floating point).
func Max[T Elem]() Reducer[T] {
	return simple[T]("Max", "value = "+leastC(elemOf[T]())+";", "if (src > dst) dst = src;")
}

func simple[T Elem](name, init, join string) Reducer[T] {
	e := elemOf[T]()
	return Reducer[T]{name: name, value: valueSig{ctype: e.c(), size: e.size(), init: init, join: join}}
}

// MinLoc keeps the least value and its location: acc is a
// gk_valloc<T>{val, loc} with loc a 64-bit integer, starting at the
// greatest value and location 0. The body updates both:
//
//	if (x(i) < acc.val) { acc.val = x(i); acc.loc = i; }
//
// Among equal values the lowest location wins, so the result does not
// depend on the launch.
func MinLoc[T Elem]() Reducer[kokkos.ValLoc[T, int]] {
	return valLoc[T]("MinLoc", greatestC(elemOf[T]()), "<")
}

// MaxLoc keeps the greatest value and its location, as MinLoc.
func MaxLoc[T Elem]() Reducer[kokkos.ValLoc[T, int]] {
	return valLoc[T]("MaxLoc", leastC(elemOf[T]()), ">")
}

func valLoc[T Elem](name, init, cmp string) Reducer[kokkos.ValLoc[T, int]] {
	e := elemOf[T]()
	return Reducer[kokkos.ValLoc[T, int]]{name: name, value: valueSig{
		ctype: "gk_valloc<" + e.c() + ">", size: 16,
		init: "value.val = " + init + "; value.loc = 0;",
		join: "if (src.val " + cmp + " dst.val || (src.val == dst.val && src.loc < dst.loc)) dst = src;",
	}}
}

// LAnd is the logical and: acc is an int starting at 1 (true); the body
// writes acc = acc && cond. The result is a Go bool.
func LAnd() Reducer[bool] {
	return Reducer[bool]{name: "LAnd", asBool: true, value: valueSig{ctype: "int", size: 4, init: "value = 1;", join: "dst = dst && src;"}}
}

// LOr is the logical or: acc is an int starting at 0 (false).
func LOr() Reducer[bool] {
	return Reducer[bool]{name: "LOr", asBool: true, value: valueSig{ctype: "int", size: 4, init: "value = 0;", join: "dst = dst || src;"}}
}

// Custom is a reducer given as CUDA C: init sets value (a T) to the
// identity, join folds src into dst (both T). join must be associative;
// the order in which partial results are joined is fixed, so the result
// is the same on every run with the same input and launch.
//
//	cuda.Custom[float64]("value = 0;", "dst = fmax(fabs(dst), fabs(src));")
func Custom[T Elem](init, join string) Reducer[T] {
	return simple[T]("Custom", init, join)
}

func greatestC(e elemType) string {
	switch e {
	case elemFloat32:
		return "__int_as_float(0x7f800000)"
	case elemFloat64:
		return "__longlong_as_double(0x7ff0000000000000LL)"
	case elemInt32:
		return "2147483647"
	case elemInt64:
		return "9223372036854775807LL"
	case elemUint32:
		return "4294967295u"
	}
	return "18446744073709551615ull"
}

func leastC(e elemType) string {
	switch e {
	case elemFloat32:
		return "__int_as_float(0xff800000)"
	case elemFloat64:
		return "__longlong_as_double(0xfff0000000000000LL)"
	case elemInt32:
		return "(-2147483647 - 1)"
	case elemInt64:
		return "(-9223372036854775807LL - 1)"
	}
	return "0"
}

// ReduceInto makes ParallelReduce write its result to the rank-0 view v
// on the device, queued on the policy's stream after the reduction, and
// return at once (with the zero value): the result is there at the
// stream's next fence. v's element type is the reducer's T; for LAnd and
// LOr it is bool.
func ReduceInto(v any) Arg {
	return argFunc(func(s *argSet) { s.into = v })
}

// launchPlan is a pattern's launch, resolved from the policy and the
// bindings.
type launchPlan struct {
	label  string
	args   *argSet
	sig    kernelSig
	stream *Stream
	dev    *Device
	// Range: begin, end. MDRange: lower, upper.
	begin, end int
	lower      [6]int
	upper      [6]int
	tile       [2]int
}

// policyShape converts the policy of a pattern, once: its index space and
// its execution-space instance.
func policyShape(label string, policy Policy) (backend.Shape, kokkos.ExecutionSpace, error) {
	var sh backend.Shape
	switch p := policy.(type) {
	case kokkos.RangePolicy:
		return p.Shape(), p.Space, nil
	case kokkos.MDRangePolicy:
		if sh = p.Shape(); sh.Rank < 2 {
			return sh, nil, fmt.Errorf("%w: %q: %v: %d lower and %d upper bounds; an MDRangePolicy has rank 2 to 6", ErrPolicy, label, p.String(), len(p.Lower()), len(p.Upper()))
		}
		return sh, p.Space(), nil
	}
	return sh, nil, fmt.Errorf("%w: %q: %s is not a kokkos.RangePolicy or kokkos.MDRangePolicy", ErrPolicy, label, reflect.TypeOf(policy).String())
}

// plan checks the index space, the instance and the bindings of a launch
// and builds its signature.
func plan(lb *launchBuf, label string, pattern patternKind, sh *backend.Shape, space kokkos.ExecutionSpace, args []Arg) (*launchPlan, error) {
	a := &lb.args
	devNo, err := collect(a, label, args)
	if err != nil {
		return nil, err
	}
	return planBound(lb, label, pattern, sh, space, devNo)
}

// planBound is plan for bindings already in lb.args, on device devNo (-1
// for none).
func planBound(lb *launchBuf, label string, pattern patternKind, sh *backend.Shape, space kokkos.ExecutionSpace, devNo int) (*launchPlan, error) {
	a := &lb.args
	lp := &lb.lp
	lp.label, lp.args = label, a
	lp.sig.pattern = pattern
	var err error
	if sh.Rank == 1 {
		if sh.Lower[0] > sh.Upper[0] {
			return nil, fmt.Errorf("%w: %q: range [%d, %d): begin %d > end %d", ErrPolicy, label, sh.Lower[0], sh.Upper[0], sh.Lower[0], sh.Upper[0])
		}
		lp.sig.rank, lp.begin, lp.end = 1, sh.Lower[0], sh.Upper[0]
	} else {
		if pattern == patScan {
			return nil, fmt.Errorf("%w: %q: a scan runs over a RangePolicy, not an MDRangePolicy of rank %d", ErrPolicy, label, sh.Rank)
		}
		if err := lp.mdPolicy(sh); err != nil {
			return nil, err
		}
	}
	switch s := space.(type) {
	case nil:
	case *Stream:
		lp.stream = s
		if devNo >= 0 && devNo != s.dev.ordinal {
			return nil, fmt.Errorf("%w: %q: the views are on device %d (view %s), the stream on device %d", ErrBinding, label, devNo, a.firstView(), s.dev.ordinal)
		}
		devNo = s.dev.ordinal
	default:
		return nil, fmt.Errorf("%w: %q: execution space %s cannot run a CUDA body; use a *cuda.Stream, or nil for the device's default stream", ErrPolicy, label, s.Name())
	}
	if devNo < 0 {
		devNo = 0
	}
	if lp.dev, err = GetDevice(devNo); err != nil {
		return nil, err
	}
	lp.sig.check = a.check
	lp.sig.helpers = a.helpers
	lp.sig.wide = !a.fitsNarrow() || lp.begin < -maxNarrow || lp.end >= maxNarrow
	for k := 0; k < lp.sig.rank && lp.sig.rank > 1; k++ {
		if lp.lower[k] < -maxNarrow || lp.upper[k] >= maxNarrow {
			lp.sig.wide = true
		}
	}
	for k := range a.views {
		lp.sig.views = append(lp.sig.views, viewSigOf(&a.views[k]))
	}
	for _, s := range a.scalars {
		lp.sig.scalars = append(lp.sig.scalars, scalarSig{name: s.name, elem: s.elem})
	}
	return lp, nil
}

// mdPolicy takes the box, the tiles and the iteration order of an
// MDRange launch. The inner order decides which dimension runs on
// threadIdx.x: OrderLeft the first, OrderRight the last; by default the
// one the bound views of rank 2 or more store contiguously (dimension 0
// for LayoutLeft), LayoutLeft's when they disagree, as Kokkos's default
// for CUDA.
func (lp *launchPlan) mdPolicy(sh *backend.Shape) error {
	r := sh.Rank
	for d := 0; d < r; d++ {
		if sh.Lower[d] > sh.Upper[d] {
			return fmt.Errorf("%w: %q: MDRange %v to %v: lower bound %d > upper bound %d in dimension %d", ErrPolicy, lp.label, sh.Lower[:r], sh.Upper[:r], sh.Lower[d], sh.Upper[d], d)
		}
		lp.lower[d], lp.upper[d] = sh.Lower[d], sh.Upper[d]
	}
	lp.sig.rank = r
	left := sh.Inner == backend.OrderLeft
	if sh.Inner == backend.OrderDefault {
		votes := 0
		for k := range lp.args.views {
			d := &lp.args.views[k].d
			if d.Rank < 2 {
				continue
			}
			if d.Strides[d.Rank-1] == 1 && d.Strides[0] != 1 {
				votes--
			} else {
				votes++
			}
		}
		left = votes >= 0
	}
	for k := 0; k < r; k++ {
		if left {
			lp.sig.order[k] = k
		} else {
			lp.sig.order[k] = r - 1 - k
		}
	}
	tx, ty := 32, 8
	if t := sh.Tile[lp.sig.order[0]]; t > 0 {
		tx = t
	}
	if t := sh.Tile[lp.sig.order[1]]; t > 0 {
		ty = t
	}
	if tx*ty > 1024 || tx > 1024 || ty > 1024 {
		return fmt.Errorf("%w: %q: MDRange tiles of %d×%d threads on the two fastest dimensions; a CUDA block holds at most 1024", ErrPolicy, lp.label, tx, ty)
	}
	if lp.sig.pattern == patReduce && tx*ty%32 != 0 {
		// Reductions shuffle within whole warps: widen the tile.
		g := gcd(tx*ty, 32)
		if ty*32/g*tx <= 1024 {
			ty = ty * 32 / g
		} else {
			tx, ty = 32, 8
		}
	}
	lp.tile = [2]int{tx, ty}
	return nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// count returns the number of indices of the launch.
func (lp *launchPlan) count() int {
	if lp.sig.rank == 1 {
		return lp.end - lp.begin
	}
	n := 1
	for d := 0; d < lp.sig.rank; d++ {
		n *= lp.upper[d] - lp.lower[d]
	}
	return n
}

// mdGrid returns the block grid of an MDRange launch, each dimension
// capped (the kernel's loops stride over the rest); maxBlocks > 0 caps the
// total too.
func (lp *launchPlan) mdGrid(maxBlocks int) [3]int {
	o := lp.sig.order
	n0 := lp.upper[o[0]] - lp.lower[o[0]]
	n1 := lp.upper[o[1]] - lp.lower[o[1]]
	nz := 1
	for k := 2; k < lp.sig.rank; k++ {
		nz *= lp.upper[o[k]] - lp.lower[o[k]]
	}
	// Each dimension at least 1: an empty box still launches (a
	// reduction then returns the identity).
	g := [3]int{max(min(ceilDiv(n0, lp.tile[0]), 1<<31-1), 1), max(min(ceilDiv(n1, lp.tile[1]), 65535), 1), max(min(nz, 65535), 1)}
	if maxBlocks > 0 {
		g[0] = min(g[0], maxBlocks)
		g[1] = min(g[1], max(maxBlocks/g[0], 1))
		g[2] = min(g[2], max(maxBlocks/(g[0]*g[1]), 1))
	}
	return g
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// writeBox writes an MDRange's bounds argument.
func (lp *launchPlan) writeBox(p *paramBuf) {
	r := lp.sig.rank
	w := 4
	if lp.sig.wide {
		w = 8
	}
	b := p.arg(2*r*w, w)
	for d := 0; d < r; d++ {
		for k, x := range [2]int{lp.lower[d], lp.upper[d]} {
			o := (k*r + d) * w
			if lp.sig.wide {
				put64(b[o:], uint64(x))
			} else {
				put32(b[o:], uint32(int32(x)))
			}
		}
	}
}

// writeBindings writes the views and scalars.
func (lp *launchPlan) writeBindings(p *paramBuf, rep uintptr) {
	for k := range lp.args.views {
		p.view(&lp.args.views[k], lp.sig.wide, rep)
	}
	p.scalars(lp.args.scalars)
}

// prepare plans a launch of pattern and returns its loaded program,
// compiling it on first use. value is the accumulator of a reduction or
// scan.
func prepare(lb *launchBuf, label string, pattern patternKind, policy Policy, body string, args []Arg, value valueSig) (*launchPlan, *program, error) {
	if pattern != patFor && value.ctype == "" {
		return nil, nil, fmt.Errorf("%w: %q: the zero Reducer; make one with Sum, Min, ... or Custom", ErrBinding, label)
	}
	sh, space, err := policyShape(label, policy)
	if err != nil {
		return nil, nil, err
	}
	lp, err := plan(lb, label, pattern, &sh, space, args)
	if err != nil {
		return nil, nil, err
	}
	return lp.load(lb, body, value)
}

// load keys the planned launch and returns its loaded program, compiling
// it on first use.
func (lp *launchPlan) load(lb *launchBuf, body string, value valueSig) (*launchPlan, *program, error) {
	if lp.args.into != nil && lp.sig.pattern != patReduce {
		return nil, nil, fmt.Errorf("%w: %q: ReduceInto is for ParallelReduce", ErrBinding, lp.label)
	}
	lp.sig.value = value
	lb.key = appendKey(lb.key[:0], &lp.sig, body, lp.args.noFMAD)
	prog, err := lp.dev.program(lb.key, &lp.sig, body, lp.label, lp.args.noFMAD)
	return lp, prog, err
}

// ParallelFor runs body on the GPU once for each index of policy, as
// Kokkos::parallel_for does with a KOKKOS_LAMBDA. body is CUDA C++; it sees
// the index (i for a RangePolicy, i0, i1, ... for an MDRangePolicy), the
// views and scalars of args by their names, and Kokkos's atomic functions
// (Kokkos::atomic_add(&a(i), x), ...):
//
//	err := cuda.ParallelFor("axpy", kokkos.Range(0, n), `y(i) = a * x(i) + y(i);`,
//		cuda.Bind("x", x), cuda.Bind("y", y), cuda.Scalar("a", 2.0))
//
// The call queues the kernel on the policy's stream and returns; the
// stream's Fence (or kokkos.Fence) waits for it. The first call with a
// given body and bindings' types compiles the kernel with NVRTC (tens of
// milliseconds), or loads it from the cache on disk (see CacheDir); later
// calls launch it at once. A body that does not compile returns a
// *CompileError with the compiler's messages against the body's own lines.
func ParallelFor(label string, policy Policy, body string, args ...Arg) error {
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := prepare(lb, label, patFor, policy, body, args, valueSig{})
	if err != nil {
		return err
	}
	return lp.runFor(lb, prog)
}

// runFor launches the planned For pattern.
func (lp *launchPlan) runFor(lb *launchBuf, prog *program) error {
	label := lp.label
	n := lp.count()
	if n == 0 {
		return nil
	}
	return lp.run(func(c ctxCall, h uintptr, rep uintptr) error {
		p := &lb.p
		p.reset()
		var grid, block [3]int
		if lp.sig.rank == 1 {
			p.idx(lp.sig.wide, lp.begin)
			p.idx(lp.sig.wide, lp.end)
			block = [3]int{256, 1, 1}
			grid = [3]int{min(ceilDiv(n, 256), 1<<20), 1, 1}
		} else {
			lp.writeBox(p)
			block = [3]int{lp.tile[0], lp.tile[1], 1}
			grid = lp.mdGrid(0)
		}
		lp.writeBindings(p, rep)
		if p.over {
			return fmt.Errorf("%w: %q: the bindings exceed the 4 KiB of kernel arguments", ErrBinding, label)
		}
		return c.launch(label, prog.fns[0], grid, block, h, p)
	})
}

// run binds the device, takes the stream, and calls launch; with bounds
// checking it passes the report buffer, waits, and returns the report.
func (lp *launchPlan) run(launch func(c ctxCall, h uintptr, rep uintptr) error) error {
	if prof.On() {
		// As Kokkos does, the kernel ends, for the tools, when it is queued.
		kind := [...]uint8{patFor: prof.For, patReduce: prof.Reduce, patScan: prof.Scan}[lp.sig.pattern]
		defer prof.EndKernel(kind, prof.BeginKernel(kind, lp.label, prof.DeviceID(prof.DevCuda, lp.dev.ordinal, 0)))
	}
	h, err := lp.stream.acquire()
	if err != nil {
		return fmt.Errorf("cuda: %q: %w", lp.label, err)
	}
	defer lp.stream.done()
	c, unlock, err := lp.dev.bind()
	if err != nil {
		return err
	}
	defer unlock()
	if !lp.sig.check {
		return launch(c, h, 0)
	}
	k := lp.dev.kernels()
	k.repMu.Lock()
	defer k.repMu.Unlock()
	d := c.dev.drv
	if k.rep == 0 {
		if err := c.do("cuMemAlloc_v2", "bounds report", d.cuMemAlloc, uintptr(unsafe.Pointer(&k.rep)), reportWords*8); err != nil {
			return err
		}
	}
	if err := c.do("cuMemsetD32Async", lp.label, d.cuMemsetD32Async, k.rep, 0, reportWords*2, h); err != nil {
		return err
	}
	if err := launch(c, h, k.rep); err != nil {
		return err
	}
	if err := c.do("cuStreamSynchronize", lp.label, d.cuStreamSynchronize, h); err != nil {
		return err
	}
	return c.report(lp.label, k.rep, lp.args.views)
}

// scratchFor returns the scratch memory of the launch's stream.
func (lp *launchPlan) scratchFor() *scratch {
	if lp.stream != nil {
		return &lp.stream.st.scratch
	}
	return &lp.dev.kernels().legacy
}

// lockScratch locks the scratch memory of the launch's stream, allocating
// it on first use; the caller unlocks s.mu.
func (lp *launchPlan) lockScratch(c ctxCall) (*scratch, error) {
	s := lp.scratchFor()
	s.mu.Lock()
	if err := s.ensure(c); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	return s, nil
}

// ParallelReduce runs body on the GPU once for each index of policy and
// combines what it adds to its accumulator acc with r, as
// Kokkos::parallel_reduce does:
//
//	dot, err := cuda.ParallelReduce("dot", kokkos.Range(0, n), cuda.Sum[float64](),
//		`acc += x(i) * y(i);`, cuda.Bind("x", x), cuda.Bind("y", y))
//
// It waits for the result, unless args hold ReduceInto(view): then the
// result goes to that rank-0 view on the device and the call returns at
// once. The reduction runs on a grid fixed by the range and the device,
// and combines the blocks' partial results in a fixed order: the same
// input and launch give the bit-identical result every run.
func ParallelReduce[T any](label string, policy Policy, r Reducer[T], body string, args ...Arg) (T, error) {
	var zero T
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := prepare(lb, label, patReduce, policy, body, args, r.value)
	if err != nil {
		return zero, err
	}
	out, err := lp.intoAddr(r, int(unsafe.Sizeof(zero)))
	if err != nil {
		return zero, err
	}
	var result T
	err = lp.runReduce(lb, prog, r.value, r.asBool, out, &result)
	return result, err
}

// runReduce launches the planned reduction: into the device address out
// when it is not 0, else into *result (a pointer to the Go value of the
// accumulator's layout, or a *bool when asBool), waiting for it.
func (lp *launchPlan) runReduce(lb *launchBuf, prog *program, value valueSig, asBool bool, out uintptr, result any) error {
	label := lp.label
	n := lp.count()
	maxBlocks := min(maxPartials, 8*max(lp.dev.sms, 1))
	return lp.run(func(c ctxCall, h uintptr, rep uintptr) error {
		s, err := lp.lockScratch(c)
		if err != nil {
			return err
		}
		defer s.mu.Unlock()
		p := &lb.p
		p.reset()
		var grid, block [3]int
		if lp.sig.rank == 1 {
			p.idx(lp.sig.wide, lp.begin)
			p.idx(lp.sig.wide, lp.end)
			block = [3]int{reduceBlock, 1, 1}
			grid = [3]int{max(min(ceilDiv(n, reduceBlock), maxBlocks), 1), 1, 1}
		} else {
			lp.writeBox(p)
			block = [3]int{lp.tile[0], lp.tile[1], 1}
			grid = lp.mdGrid(maxBlocks)
		}
		p.u64(uint64(s.dev))
		lp.writeBindings(p, rep)
		if p.over {
			return fmt.Errorf("%w: %q: the bindings exceed the 4 KiB of kernel arguments", ErrBinding, label)
		}
		if err := c.launch(label, prog.fns[0], grid, block, h, p); err != nil {
			return err
		}
		dst := out
		if dst == 0 {
			dst = s.dev + resultOffset
		}
		p.reset()
		p.u64(uint64(s.dev))
		p.i32(grid[0] * grid[1] * grid[2])
		p.u64(uint64(dst))
		p.i32(int(boolByte(asBool && out != 0)))
		if err := c.launch(label, prog.fns[1], [3]int{1, 1, 1}, [3]int{1024, 1, 1}, h, p); err != nil {
			return err
		}
		if out != 0 {
			return nil
		}
		return lp.readResult(c, h, s, value.size, result, asBool)
	})
}

// readResult copies the result slot back and waits for it.
func (lp *launchPlan) readResult(c ctxCall, h uintptr, s *scratch, size int, result any, asBool bool) error {
	d := c.dev.drv
	if err := c.do("cuMemcpyDtoHAsync_v2", lp.label, d.cuMemcpyDtoHAsync, uintptr(s.host), s.dev+resultOffset, uintptr(size), h); err != nil {
		return err
	}
	if err := c.do("cuStreamSynchronize", lp.label, d.cuStreamSynchronize, h); err != nil {
		return err
	}
	src := unsafe.Slice((*byte)(s.host), size)
	if asBool {
		*(result.(*bool)) = *(*int32)(unsafe.Pointer(&src[0])) != 0
		return nil
	}
	copyValue(result, src)
	return nil
}

// copyValue stores the C value in src into the Go value *result points at
// (of the same layout).
func copyValue(result any, src []byte) {
	type eface struct {
		typ, ptr unsafe.Pointer
	}
	p := (*eface)(unsafe.Pointer(&result)).ptr
	copy(unsafe.Slice((*byte)(p), len(src)), src)
}

// intoAddr checks ReduceInto's view and returns its address (0 without
// ReduceInto).
func (lp *launchPlan) intoAddr(r any, goSize int) (uintptr, error) {
	v := lp.args.into
	if v == nil {
		return 0, nil
	}
	d, ok := describeAs(r, v) // a view of the reducer's own result type
	if !ok || d.Rank != 0 || d.ElemSize != goSize {
		return 0, fmt.Errorf("%w: %q: ReduceInto needs a rank-0 view of the reducer's result type, not %T", ErrBinding, lp.label, v)
	}
	if d.Owner != nil && d.Owner.Released() {
		return 0, fmt.Errorf("%w: %q: ReduceInto's view %q was released: %w", ErrBinding, lp.label, d.Label, kokkos.ErrReleased)
	}
	if d.ReadOnly {
		return 0, fmt.Errorf("%w: %q: ReduceInto's view %q is read-only", ErrBinding, lp.label, d.Label)
	}
	o, reach := deviceOf(d.Space)
	if !reach || o != lp.dev.ordinal {
		return 0, fmt.Errorf("%w: %q: ReduceInto's view %q is in %s, which device %d cannot write; use a view in cuda.Space", ErrBinding, lp.label, d.Label, d.Space.Name(), lp.dev.ordinal)
	}
	return d.Addr, nil
}

// describeAs describes v when it is a view of the result type of reducer
// r (a Reducer[T], passed as any).
func describeAs(r, v any) (backend.View, bool) {
	if dr, ok := r.(interface {
		describe(any) (backend.View, bool)
	}); ok {
		return dr.describe(v)
	}
	return backend.View{}, false
}

func (Reducer[T]) describe(v any) (backend.View, bool) {
	if x, ok := v.(kokkos.View[T]); ok {
		return kokkos.Describe(x), true
	}
	return backend.View{}, false
}

// ParallelScan runs body on the GPU over the indices of policy in order,
// as Kokkos::parallel_scan does, and returns the total. The body is called
// for each index with acc holding the combination of the values of the
// indices before it and final false (the body adds its own value to acc),
// then again with final true, when it may write its result:
//
//	// inclusive
//	`acc += x(i); if (final) y(i) = acc;`
//	// exclusive
//	`if (final) y(i) = acc; acc += x(i);`
//
// The scan runs in three kernels over a fixed grid and waits for the
// total; its result is the same on every run.
func ParallelScan[T any](label string, policy kokkos.RangePolicy, r Reducer[T], body string, args ...Arg) (T, error) {
	var zero T
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := prepare(lb, label, patScan, policy, body, args, r.value)
	if err != nil {
		return zero, err
	}
	var result T
	err = lp.runScan(lb, prog, r.value, r.asBool, &result)
	return result, err
}

// runScan launches the planned scan and stores its total in *result, as
// runReduce does.
func (lp *launchPlan) runScan(lb *launchBuf, prog *program, value valueSig, asBool bool, result any) error {
	label := lp.label
	n := lp.count()
	blocks := max(min(ceilDiv(n, reduceBlock), maxPartials, 8*max(lp.dev.sms, 1)), 1)
	chunk := ceilDiv(max(ceilDiv(n, blocks), 1), reduceBlock) * reduceBlock
	blocks = max(ceilDiv(n, chunk), 1)
	return lp.run(func(c ctxCall, h uintptr, rep uintptr) error {
		s, err := lp.lockScratch(c)
		if err != nil {
			return err
		}
		defer s.mu.Unlock()
		p := &lb.p
		head := func() {
			p.reset()
			p.idx(lp.sig.wide, lp.begin)
			p.idx(lp.sig.wide, lp.end)
			p.idx(lp.sig.wide, chunk)
			p.u64(uint64(s.dev))
			lp.writeBindings(p, rep)
		}
		head()
		if p.over {
			return fmt.Errorf("%w: %q: the bindings exceed the 4 KiB of kernel arguments", ErrBinding, label)
		}
		grid, block := [3]int{blocks, 1, 1}, [3]int{reduceBlock, 1, 1}
		if err := c.launch(label, prog.fns[0], grid, block, h, p); err != nil {
			return err
		}
		p.reset()
		p.u64(uint64(s.dev))
		p.i32(blocks)
		p.u64(uint64(s.dev + resultOffset))
		if err := c.launch(label, prog.fns[1], [3]int{1, 1, 1}, [3]int{1024, 1, 1}, h, p); err != nil {
			return err
		}
		head()
		if err := c.launch(label, prog.fns[2], grid, block, h, p); err != nil {
			return err
		}
		return lp.readResult(c, h, s, value.size, result, asBool)
	})
}
