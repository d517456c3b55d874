package cuda

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gokkos/kokkos/backend"
)

// This file launches team kernels (backend.Kernel.Team): one block per
// team, blockDim (vector length, team size), the blocks striding over the
// league; see kernelir_team.go for the code.

const (
	attrMaxThreadsPerBlock        = 1
	attrMaxSharedPerBlock         = 8
	attrMaxSharedPerBlockOptin    = 97
	funcAttrMaxDynamicSharedBytes = 8
)

// teamAutoThreads is the threads of a block Auto chooses (team size times
// vector length), as Kokkos's CUDA backend does for a kernel without a
// register limit.
const teamAutoThreads = 128

// teamGeom is the shape of a team launch on a device.
type teamGeom struct {
	league, team, vector, grid int
	shared                     int // dynamic shared memory per block
	level1                     int // level-1 bytes per block
	scratch                    [2][2]int
}

// teamGeometry checks the league of a launch against the device's limits
// (teamLimits) and chooses what Auto leaves open.
func (lp *launchPlan) teamGeometry(ts backend.TeamShape) (teamGeom, error) {
	maxThreads := lp.dev.attr(attrMaxThreadsPerBlock)
	if maxThreads <= 0 {
		maxThreads = 1024
	}
	maxShared := lp.dev.attr(attrMaxSharedPerBlockOptin)
	if maxShared <= 0 {
		maxShared = lp.dev.attr(attrMaxSharedPerBlock)
	}
	return teamLimits(lp.label, ts, teamDevice{ordinal: lp.dev.ordinal, threads: maxThreads, shared: maxShared, sms: lp.dev.sms})
}

// teamDevice is what of a device a team launch's geometry depends on:
// its threads and shared memory per block and its multiprocessors.
type teamDevice struct{ ordinal, threads, shared, sms int }

// teamLimits checks ts against device d and chooses what Auto leaves
// open: a vector length of 1, and a team of 128 threads (lanes included),
// halved until its shared memory fits.
func teamLimits(label string, ts backend.TeamShape, d teamDevice) (teamGeom, error) {
	g := teamGeom{league: ts.League, team: ts.Size, vector: ts.Vector, scratch: ts.Scratch}
	if ts.League < 0 {
		return g, fmt.Errorf("%w: %q: a league of %d teams", ErrPolicy, label, ts.League)
	}
	for l := range 2 {
		if ts.Scratch[l][0] < 0 || ts.Scratch[l][1] < 0 {
			return g, fmt.Errorf("%w: %q: negative scratch sizes %v", ErrPolicy, label, ts.Scratch)
		}
	}
	switch {
	case g.vector == backend.TeamAuto:
		g.vector = 1
	case g.vector < 1 || g.vector > 32 || g.vector&(g.vector-1) != 0:
		return g, fmt.Errorf("%w: %q: vector length %d: the CUDA backend runs vector lengths of 1, 2, 4, 8, 16 and 32 (the lanes of a thread share a warp)", backend.ErrUnsupported, label, ts.Vector)
	}
	s0, p0 := ts.Scratch[0][0], ts.Scratch[0][1]
	if g.team == backend.TeamAuto {
		g.team = max(teamAutoThreads/g.vector, 1)
		for g.team > 1 && teamShared(g.team, g.vector, s0, p0) > d.shared {
			g.team /= 2
		}
	}
	if g.team < 1 {
		return g, fmt.Errorf("%w: %q: team size %d, want a positive size or Auto", ErrPolicy, label, ts.Size)
	}
	if g.team*g.vector > d.threads {
		return g, fmt.Errorf("%w: %q: a team of %d threads of vector length %d is a block of %d threads; device %d runs at most %d per block",
			backend.ErrUnsupported, label, g.team, g.vector, g.team*g.vector, d.ordinal, d.threads)
	}
	g.shared = teamShared(g.team, g.vector, s0, p0)
	if g.shared > d.shared {
		return g, fmt.Errorf("%w: %q: level-0 scratch of %d bytes per team and %d per thread, for a team of %d, with the collectives' %d bytes, needs %d bytes of shared memory per block; device %d has %d",
			backend.ErrUnsupported, label, s0, p0, g.team, teamCollBytes(g.team*g.vector), g.shared, d.ordinal, d.shared)
	}
	g.level1 = teamLevel1(g.team, ts.Scratch[1][0], ts.Scratch[1][1])
	g.grid = max(min(g.league, 1<<20), 1)
	if g.level1 > 0 {
		// Level-1 memory is per block of the grid: bound the grid.
		g.grid = max(min(g.grid, 8*max(d.sms, 1)), 1)
	}
	return g, nil
}

// teamFor queues team kernel l on s; a launch with level-1 scratch waits
// for the kernel, then frees the scratch.
func (s *Stream) teamFor(l *backend.Launch) error {
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := s.planKernel(lb, l, patFor, valueSig{})
	if err != nil {
		return err
	}
	g, err := lp.teamGeometry(l.Shape.Team)
	if err != nil || g.league == 0 {
		return err
	}
	return lp.runTeam(lb, prog, g, nil)
}

// teamReduce runs team reduction l on s and returns its result's bits.
func (s *Stream) teamReduce(l *backend.Launch, pat patternKind, value valueSig, asBool bool, kind backend.Kind) (uint64, error) {
	if pat != patReduce {
		return 0, fmt.Errorf("%w: kernel %s: a team kernel is launched with For or Reduce, not Scan", backend.ErrUnsupported, l.Kernel.Name)
	}
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := s.planKernel(lb, l, patReduce, value)
	if err != nil {
		return 0, err
	}
	g, err := lp.teamGeometry(l.Shape.Team)
	if err != nil {
		return 0, err
	}
	g.grid = min(g.grid, maxPartials)
	var bits uint64
	var b bool
	var res any = &bits
	if asBool {
		res = &b
	}
	if err := lp.runTeam(lb, prog, g, &teamResult{value: value, asBool: asBool, res: res}); err != nil {
		return 0, err
	}
	if asBool {
		return uint64(boolByte(b)), nil
	}
	return extend(bits, kind), nil
}

// teamResult is where a team reduction's result goes.
type teamResult struct {
	value  valueSig
	asBool bool
	res    any
}

// runTeam launches the planned team kernel with geometry g; with red, the
// final reduction of the blocks' partial results, and waits for it.
func (lp *launchPlan) runTeam(lb *launchBuf, prog *program, g teamGeom, red *teamResult) error {
	label := lp.label
	return lp.run(func(c ctxCall, h uintptr, rep uintptr) error {
		d := c.dev.drv
		var sc *scratch
		if red != nil {
			var err error
			if sc, err = lp.lockScratch(c); err != nil {
				return err
			}
			defer sc.mu.Unlock()
		}
		var l1 uintptr
		if n := g.grid * g.level1; n > 0 {
			if err := c.do("cuMemAlloc_v2", label, d.cuMemAlloc, uintptr(unsafe.Pointer(&l1)), uintptr(n)); err != nil {
				return err
			}
			defer func() {
				// The kernel uses it until it ends.
				_ = c.do("cuStreamSynchronize", label, d.cuStreamSynchronize, h)
				_ = c.do("cuMemFree_v2", label, d.cuMemFree, l1)
			}()
		}
		p := &lb.p
		p.reset()
		for _, v := range []int{g.league, g.scratch[0][0], g.scratch[0][1], g.scratch[1][0], g.scratch[1][1]} {
			p.u64(uint64(v))
		}
		p.u64(uint64(l1))
		if red != nil {
			p.u64(uint64(sc.dev))
		}
		lp.writeBindings(p, rep)
		if p.over {
			return fmt.Errorf("%w: %q: the bindings exceed the 4 KiB of kernel arguments", ErrBinding, label)
		}
		if g.shared > 48<<10 {
			if err := c.do("cuFuncSetAttribute", label, d.cuFuncSetAttribute, prog.fns[0], funcAttrMaxDynamicSharedBytes, uintptr(g.shared)); err != nil {
				return err
			}
		}
		grid, block := [3]int{g.grid, 1, 1}, [3]int{g.vector, g.team, 1}
		if err := c.launchShared(label, prog.fns[0], grid, block, g.shared, h, p); err != nil {
			return err
		}
		if red == nil {
			return nil
		}
		p.reset()
		p.u64(uint64(sc.dev))
		p.i32(g.grid)
		p.u64(uint64(sc.dev + resultOffset))
		p.i32(0)
		if err := c.launch(label, prog.fns[1], [3]int{1, 1, 1}, [3]int{1024, 1, 1}, h, p); err != nil {
			return err
		}
		return lp.readResult(c, h, sc, red.value.size, red.res, red.asBool)
	})
}

// launchShared is launch with shared bytes of dynamic shared memory.
func (c ctxCall) launchShared(label string, fn uintptr, grid, block [3]int, shared int, h uintptr, p *paramBuf) error {
	r, _, _ := purego.SyscallN(c.dev.drv.cuLaunchKernel, fn,
		uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		uintptr(shared), h, uintptr(unsafe.Pointer(&p.ptrs[0])), 0)
	if r != 0 {
		return c.dev.drv.err("cuLaunchKernel", r, label, fmt.Sprintf("grid %v, block %v, shared %d bytes", grid, block, shared))
	}
	return nil
}
