package cuda

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// This file translates the nodes of a team kernel (kernelir's team.go)
// into CUDA C, and writes the source of a team kernel around its body.
//
// A team is a block: blockDim = (vector length, team size), threadIdx.y
// the thread's rank in the team, threadIdx.x its vector lane. The blocks
// stride over the league. A TeamThreadRange is a loop strided by
// blockDim.y, a ThreadVectorRange by blockDim.x, a TeamVectorRange by both;
// a barrier is __syncthreads(). The collectives exchange through shared
// memory after the level-0 scratch (TeamReduce, TeamScan and
// TeamBroadcast: lane 0 of each thread writes its value, thread 0 joins
// them in rank order, as the host does) or by warp shuffles within a
// thread's lanes (VectorReduce, in lane order). Level-0 scratch is the
// block's dynamic shared memory (the team's bytes, then each thread's);
// level 1 is global memory the launch allocates per block of the grid.

// teamQueries are the C expressions of the team queries.
var teamQueries = map[string]irCx{
	"LeagueRank":      {"gk_tm.lr", irPPrimary},
	"LeagueSize":      {"gk_tm.ls", irPPrimary},
	"TeamRank":        {"(gk_i64)threadIdx.y", irPUnary},
	"TeamSize":        {"(gk_i64)blockDim.y", irPUnary},
	"SinglePerTeam":   {"threadIdx.x == 0 && threadIdx.y == 0", irPLAnd},
	"SinglePerThread": {"threadIdx.x == 0", irPEq},
}

// teamExpr translates a team query.
func (e *irFunc) teamExpr(q *kernelir.TeamQuery) irCx {
	c, ok := teamQueries[q.Q]
	if !ok {
		e.fail("t.%s has no C translation", q.Q)
	}
	return c
}

// teamStmt translates a team statement; false for another statement.
func (e *irFunc) teamStmt(s kernelir.Stmt) bool {
	switch s := s.(type) {
	case *kernelir.Nested:
		e.nested(s)
	case *kernelir.NestedScan:
		e.nestedScan(s)
	case *kernelir.Barrier:
		e.line("__syncthreads();")
	case *kernelir.Collective:
		e.collective(s)
	case *kernelir.ScratchDecl:
		e.scratchDecl(s)
	default:
		return false
	}
	return true
}

// nestedStride is where each thread (or lane) starts a nested range, from
// its begin, and by what it strides.
var nestedStride = map[string][2]string{
	kernelir.NestThread:     {"(gk_i64)threadIdx.y", "(gk_i64)blockDim.y"},
	kernelir.NestVector:     {"(gk_i64)threadIdx.x", "(gk_i64)blockDim.x"},
	kernelir.NestTeamVector: {"(gk_i64)(threadIdx.x + blockDim.x * threadIdx.y)", "(gk_i64)(blockDim.x * blockDim.y)"},
}

func (e *irFunc) nested(s *kernelir.Nested) {
	st, ok := nestedStride[s.Kind]
	if !ok {
		e.fail("a nested range of kind %q has no C translation", s.Kind)
	}
	begin, end := e.temp(), e.temp()
	e.line("{")
	e.depth++
	e.push()
	e.line("const gk_i64 %s = %s;", begin, e.expr(s.Begin).s)
	e.line("const gk_i64 %s = %s;", end, e.expr(s.End).s)
	counter := ""
	var first string
	switch {
	case s.Key.Kind == kernelir.TargetNew && !irAssigns(s.Body, s.Key.Name):
		counter = e.declareLocal(s.Key.Name)
	default:
		counter = e.temp()
		switch s.Key.Kind {
		case kernelir.TargetNew:
			first = fmt.Sprintf("gk_i64 %s = %s;", e.declareLocal(s.Key.Name), counter)
		case kernelir.TargetVar:
			first = fmt.Sprintf("%s = %s;", e.lookup(s.Key.Name).c, counter)
		}
	}
	e.frames = append(e.frames, &irFrame{loop: true})
	e.line("for (gk_i64 %s = %s + %s; %s < %s; %s += %s) {", counter, begin, st[0], counter, end, counter, st[1])
	e.depth++
	if first != "" {
		e.line("%s", first)
	}
	e.push()
	e.stmts(s.Body)
	e.pop()
	e.depth--
	e.line("}")
	e.frames = e.frames[:len(e.frames)-1]
	e.pop()
	e.depth--
	e.line("}")
}

// join returns the C expression of a join by reducer name of the C values
// a and b of type t, with Go's semantics.
func (e *irFunc) join(name string, t kernelir.Type, a, b string) irCx {
	ra, rb := &kernelir.Ref{Name: "\x00a", T: t}, &kernelir.Ref{Name: "\x00b", T: t}
	var x kernelir.Expr
	switch name {
	case "Sum":
		x = &kernelir.Binary{Op: "add", T: t, X: ra, Y: rb}
	case "Prod":
		x = &kernelir.Binary{Op: "mul", T: t, X: ra, Y: rb}
	case "Min", "Max":
		x = &kernelir.MinMax{Max: name == "Max", T: t, Args: []kernelir.Expr{ra, rb}}
	case "LAnd":
		x = &kernelir.Binary{Op: "land", T: kernelir.Bool, X: ra, Y: rb}
	case "LOr":
		x = &kernelir.Binary{Op: "lor", T: kernelir.Bool, X: ra, Y: rb}
	case "BAnd":
		x = &kernelir.Binary{Op: "and", T: t, X: ra, Y: rb}
	case "BOr":
		x = &kernelir.Binary{Op: "or", T: t, X: ra, Y: rb}
	default:
		e.fail("a join by %s has no C translation", name)
	}
	e.push()
	defer e.pop()
	e.bind(ra.Name, irName{c: a})
	e.bind(rb.Name, irName{c: b})
	return e.expr(x)
}

// identity returns the identity of reducer name over type t.
func teamIdentity(name string, t kernelir.Type) *kernelir.Const {
	c := &kernelir.Const{T: t}
	switch name {
	case "Prod":
		c.Bits = irOne(t)
	case "LAnd":
		c.Bits = 1
	case "BAnd":
		c.Bits = ^uint64(0) >> (64 - t.Bits())
		if t.IsSigned() {
			c.Bits = ^uint64(0)
		}
	case "Min", "Max":
		least := name == "Max"
		switch {
		case t.IsFloat():
			c.Bits = math.Float64bits(math.Inf(map[bool]int{true: -1, false: 1}[least]))
		case t.IsSigned():
			if least {
				c.Bits = uint64(int64(-1) << (t.Bits() - 1))
			} else {
				c.Bits = uint64(1)<<(t.Bits()-1) - 1
			}
		case !least:
			c.Bits = ^uint64(0) >> (64 - t.Bits())
		}
	}
	return c
}

// teamIdentityC is the identity of reducer name over type t in C: the
// infinities of the float Min and Max by their bits.
func teamIdentityC(name string, t kernelir.Type) string {
	if t.IsFloat() && (name == "Min" || name == "Max") {
		sign := map[bool]string{true: "0xff", false: "0x7f"}[name == "Max"]
		if t == kernelir.Float32 {
			return "__int_as_float((int)" + sign + "800000u)"
		}
		return "__longlong_as_double((gk_i64)" + sign + "f0000000000000ull)"
	}
	return irConstCx(teamIdentity(name, t)).s
}

// collective translates a team collective: the values go through the
// team's shared buffer (or the lanes' shuffles), the results into
// temporaries, then to the targets as an assignment.
func (e *irFunc) collective(s *kernelir.Collective) {
	ct := irCType(s.T)
	buf := "((" + ct + "*)gk_tm.coll)"
	v := e.temp()
	res := []string{e.temp()}
	if s.Op == kernelir.CollScan {
		res = append(res, e.temp())
	}
	e.line("%s %s;", ct, strings.Join(res, ", "))
	e.line("{")
	e.depth++
	e.line("const %s %s = %s;", ct, v, e.expr(s.Value).s)
	r, o, k := e.temp(), e.temp(), e.temp()
	switch s.Op {
	case kernelir.CollVector:
		e.line("%s %s = gk_team_shfl(gk_tm.vmask, %s, 0, blockDim.x);", ct, r, v)
		e.line("for (unsigned %s = 1; %s < blockDim.x; %s++) {", k, k, k)
		e.line("\tconst %s %s = gk_team_shfl(gk_tm.vmask, %s, (int)%s, blockDim.x);", ct, o, v, k)
		e.line("\t%s = %s;", r, e.join(s.Join, s.T, r, o).s)
		e.line("}")
		e.line("%s = %s;", res[0], r)
	case kernelir.CollBroadcast:
		from := e.temp()
		e.line("const gk_i64 %s = %s;", from, e.expr(s.From).s)
		e.line("__syncthreads();")
		e.line("if (threadIdx.x == 0 && (gk_i64)threadIdx.y == %s) %s[0] = %s;", from, buf, v)
		e.line("__syncthreads();")
		e.line("%s = %s[0];", res[0], buf)
	case kernelir.CollReduce, kernelir.CollScan:
		e.line("__syncthreads();")
		e.line("if (threadIdx.x == 0) %s[threadIdx.y] = %s;", buf, v)
		e.line("__syncthreads();")
		e.line("if (threadIdx.x == 0 && threadIdx.y == 0) {")
		e.depth++
		if s.Op == kernelir.CollReduce {
			e.line("%s %s = %s[0];", ct, r, buf)
			e.line("for (unsigned %s = 1; %s < blockDim.y; %s++) {", k, k, k)
			e.line("\tconst %s %s = %s[%s];", ct, o, buf, k)
		} else {
			e.line("%s %s = %s;", ct, r, teamIdentityC(s.Join, s.T))
			e.line("for (unsigned %s = 0; %s < blockDim.y; %s++) {", k, k, k)
			e.line("\tconst %s %s = %s[%s];", ct, o, buf, k)
			e.line("\t%s[%s] = %s;", buf, k, r)
		}
		e.line("\t%s = %s;", r, e.join(s.Join, s.T, r, o).s)
		e.line("}")
		e.line("%s[blockDim.y] = %s;", buf, r)
		e.depth--
		e.line("}")
		e.line("__syncthreads();")
		if s.Op == kernelir.CollReduce {
			e.line("%s = %s[blockDim.y];", res[0], buf)
		} else {
			e.line("%s = %s[threadIdx.y];", res[0], buf)
			e.line("%s = %s[blockDim.y];", res[1], buf)
		}
	default:
		e.fail("%s has no C translation", s.Op)
	}
	e.depth--
	e.line("}")
	// The temporaries' names are no Go names: they clash with none.
	as := &kernelir.Assign{Targets: s.Targets}
	for n, c := range res {
		name := "\x00r" + strconv.Itoa(n)
		e.bind(name, irName{c: c})
		as.Values = append(as.Values, &kernelir.Ref{Name: name, T: s.T})
	}
	e.assign(as)
}

// scratchDecl declares a scratch view: a gk_scratch taking its bytes from
// the pad, as ScratchSize counts them.
func (e *irFunc) scratchDecl(s *kernelir.ScratchDecl) {
	ct := irCType(s.T)
	pad := s.Level
	if s.Thread {
		pad += 2
	}
	var ext []string
	for _, x := range s.Extents {
		ext = append(ext, e.expr(x).s)
	}
	name := e.declare(s.Name)
	e.line("gk_scratch<%s, %d> %s;", ct, len(s.Extents), name)
	e.line("{")
	e.depth++
	n := e.temp()
	e.line("gk_i64 %s = 1;", n)
	for d, x := range ext {
		t := e.temp()
		e.line("const gk_i64 %s = %s;", t, x)
		e.line("%s.e[%d] = (gk_idx)%s;", name, d, t)
		e.line("%s *= %s;", n, t)
	}
	e.line("%s.p = (%s*)(gk_tm.pad[%d] + gk_used[%d]);", name, ct, pad, pad)
	e.line("gk_used[%d] += (%s * (gk_i64)sizeof(%s) + 7) & ~(gk_i64)7;", pad, n, ct)
	e.depth--
	e.line("}")
	e.bind(s.Name, irName{c: name, view: true})
}

// teamSupport is the code of team kernels: the team's state, scratch
// views, and a shuffle of any value among a thread's lanes.
const teamSupport = `// gk_team_t is a thread's view of its team: the league rank and size, its
// scratch pads (team level 0, 1, thread level 0, 1), the collectives'
// shared buffer and the mask of its vector lanes in its warp.
struct gk_team_t { gk_i64 lr, ls; char* pad[4]; char* coll; unsigned vmask; };

// gk_scratch is a scratch view of rank R, layout right.
template <class T, int R> struct gk_scratch {
	T* p; gk_idx e[R];
	__device__ __forceinline__ T& operator()(gk_idx i0) const { return p[i0]; }
	__device__ __forceinline__ T& operator()(gk_idx i0, gk_idx i1) const { return p[i0 * e[1] + i1]; }
	__device__ __forceinline__ T& operator()(gk_idx i0, gk_idx i1, gk_idx i2) const { return p[(i0 * e[1] + i1) * e[2] + i2]; }
	__device__ __forceinline__ gk_idx extent(int r) const { return e[r]; }
};

// gk_team_shfl returns the v of lane src of the calling thread's lanes.
template <class T> __device__ __forceinline__ T gk_team_shfl(unsigned mask, T v, int src, int width) {
	gk_u64 u = 0; memcpy(&u, &v, sizeof(T));
	const unsigned lo = __shfl_sync(mask, (unsigned)u, src, width), hi = __shfl_sync(mask, (unsigned)(u >> 32), src, width);
	u = ((gk_u64)hi << 32) | lo;
	T r; memcpy(&r, &u, sizeof(T)); return r;
}
`

// teamKernelNames are the entry points of a team kernel of each pattern.
var teamKernelNames = [...][]string{
	patFor:    {"gk_team"},
	patReduce: {"gk_team", "gk_reduce_final"},
}

// generateTeam returns the CUDA C++ source of the team kernel of sig
// around body. Its entry gk_team takes the league size, the scratch bytes
// (level 0 per team and per thread, level 1 per team and per thread), the
// level-1 memory of the grid, for a reduction the blocks' partial results,
// then the bindings; the launch gives it the level-0 pads and the
// collectives' buffer as dynamic shared memory (teamShared).
func generateTeam(sig *kernelSig, body, label string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// gokkos team kernel %s\n", strconv.Quote(label))
	b.WriteString(prelude)
	if sig.wide {
		b.WriteString("typedef long long gk_idx;\n\n")
	} else {
		b.WriteString("typedef int gk_idx;\n\n")
	}
	b.WriteString(teamSupport)
	if sig.helpers != "" {
		b.WriteString(sig.helpers)
		if !strings.HasSuffix(sig.helpers, "\n") {
			b.WriteString("\n")
		}
	}
	for k, v := range sig.views {
		writeView(&b, k, v, sig.check)
	}
	params := []string{"const gk_team_t& gk_tm"}
	if sig.pattern == patReduce {
		fmt.Fprintf(&b, "typedef %s gk_value;\n", sig.value.ctype)
		fmt.Fprintf(&b, "__device__ __forceinline__ void gk_init(gk_value& value) {\n%s\n}\n", sig.value.init)
		fmt.Fprintf(&b, "__device__ __forceinline__ void gk_join(gk_value& dst, const gk_value& src) {\n%s\n}\n", sig.value.join)
		params = append(params, "gk_value& acc")
	}
	var bind, args []string
	for k, v := range sig.views {
		bind = append(bind, "const "+viewType(k)+" "+v.name)
		args = append(args, v.name)
	}
	for _, s := range sig.scalars {
		bind = append(bind, "const "+s.elem.c()+" "+s.name)
		args = append(args, s.name)
	}
	params = append(params, bind...)
	fmt.Fprintf(&b, "__device__ __forceinline__ void gk_body(%s) {\n\tgk_i64 gk_used[4] = {0, 0, 0, 0};\n#line 1 %q\n%s\n}\n", strings.Join(params, ", "), bodyFile, body)
	b.WriteString("#line 20000 \"team.cu\"\n")
	if sig.pattern == patReduce {
		b.WriteString(blockReduce)
		b.WriteString(reduceFinal)
	}
	head := []string{"const gk_i64 gk_league", "const gk_i64 gk_s0", "const gk_i64 gk_p0", "const gk_i64 gk_s1", "const gk_i64 gk_p1", "char* const gk_l1"}
	if sig.pattern == patReduce {
		head = append(head, "gk_value* const gk_partial")
	}
	head = append(head, bind...)
	fmt.Fprintf(&b, "extern \"C\" __global__ void gk_team(%s) {\n", strings.Join(head, ", "))
	b.WriteString(`	extern __shared__ __align__(16) char gk_shm[];
	gk_team_t gk_tm;
	gk_tm.ls = gk_league;
	const gk_i64 gk_a0 = (gk_s0 + 15) & ~(gk_i64)15, gk_b0 = (gk_p0 + 7) & ~(gk_i64)7;
	const gk_i64 gk_a1 = (gk_s1 + 15) & ~(gk_i64)15, gk_b1 = (gk_p1 + 7) & ~(gk_i64)7;
	const gk_i64 gk_blk1 = (gk_a1 + (gk_i64)blockDim.y * gk_b1 + 15) & ~(gk_i64)15;
	gk_tm.pad[0] = gk_shm;
	gk_tm.pad[2] = gk_shm + gk_a0 + (gk_i64)threadIdx.y * gk_b0;
	gk_tm.coll = gk_shm + ((gk_a0 + (gk_i64)blockDim.y * gk_b0 + 15) & ~(gk_i64)15);
	gk_tm.pad[1] = gk_l1 + (gk_i64)blockIdx.x * gk_blk1;
	gk_tm.pad[3] = gk_tm.pad[1] + gk_a1 + (gk_i64)threadIdx.y * gk_b1;
	const unsigned gk_lane = (threadIdx.x + blockDim.x * threadIdx.y) & 31u;
	gk_tm.vmask = blockDim.x >= 32 ? 0xffffffffu : ((1u << blockDim.x) - 1u) << (gk_lane - threadIdx.x);
`)
	accArg := ""
	if sig.pattern == patReduce {
		b.WriteString("\tgk_value acc; gk_init(acc);\n")
		accArg = ", acc"
	}
	bindArgs := strings.Join(args, ", ")
	if bindArgs != "" {
		bindArgs = ", " + bindArgs
	}
	b.WriteString("\tfor (gk_i64 gk_lr = blockIdx.x; gk_lr < gk_league; gk_lr += gridDim.x) {\n")
	b.WriteString("\t\tgk_tm.lr = gk_lr;\n")
	fmt.Fprintf(&b, "\t\tgk_body(gk_tm%s%s);\n", accArg, bindArgs)
	b.WriteString("\t\t__syncthreads();\n\t}\n")
	if sig.pattern == patReduce {
		// The block's threads' values, joined in thread order.
		b.WriteString(`	const unsigned gk_t = threadIdx.x + blockDim.x * threadIdx.y, gk_nt = blockDim.x * blockDim.y;
	((gk_value*)gk_tm.coll)[gk_t] = acc;
	__syncthreads();
	if (gk_t == 0) {
		gk_value gk_v = ((gk_value*)gk_tm.coll)[0];
		for (unsigned gk_k = 1; gk_k < gk_nt; gk_k++) gk_join(gk_v, ((gk_value*)gk_tm.coll)[gk_k]);
		gk_partial[blockIdx.x] = gk_v;
	}
`)
	}
	b.WriteString("}\n")
	return b.String()
}

// teamCollBytes is the size of a block's collectives' buffer: a value of
// up to 8 bytes per thread, and one more.
func teamCollBytes(threads int) int { return 8 * (threads + 1) }

// teamShared returns the dynamic shared memory of a block of team threads
// of vector lanes each, with s0 bytes of level-0 scratch per team and p0
// per thread, as gk_team lays it out: the team's pad, the threads' pads,
// the collectives' buffer.
func teamShared(team, vector, s0, p0 int) int {
	a0, b0 := (s0+15)&^15, (p0+7)&^7
	return (a0+team*b0+15)&^15 + teamCollBytes(team*vector)
}

// teamLevel1 returns the level-1 bytes of one block, as gk_team lays
// them out.
func teamLevel1(team, s1, p1 int) int {
	return ((s1+15)&^15 + team*((p1+7)&^7) + 15) &^ 15
}
