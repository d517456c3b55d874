package cuda

import "github.com/gokkos/kokkos/backend/kernelir"

// A nested scan (kernelir.NestedScan) runs over its range in chunks of
// the participating threads (a thread range: the team's threads, each
// index run by all the thread's lanes; a vector range: the calling
// thread's lanes; a team-vector range: every thread and lane of the
// block), each taking one index of the chunk: the body runs with final
// false from the identity, giving the index's contribution; a scan across
// the chunk (through the collectives' shared buffer, serial on the
// chunk's first thread, for the team levels; by warp shuffles for the
// vector level) gives each its exclusive prefix, joined after the carry
// of the chunks before; the body runs with final true from it; the carry
// joins the chunk's total. The carry at the end is the total, the same on
// every thread.

// scanSlots are, for each kind of range, the participant's slot in its
// chunk and the chunk's size.
var scanSlots = map[string][2]string{
	kernelir.NestThread:     {"(gk_i64)threadIdx.y", "(gk_i64)blockDim.y"},
	kernelir.NestVector:     {"(gk_i64)threadIdx.x", "(gk_i64)blockDim.x"},
	kernelir.NestTeamVector: {"(gk_i64)(threadIdx.x + blockDim.x * threadIdx.y)", "(gk_i64)(blockDim.x * blockDim.y)"},
}

func (e *irFunc) nestedScan(s *kernelir.NestedScan) {
	slot, ok := scanSlots[s.Kind]
	if !ok {
		e.fail("a nested scan of kind %q has no C translation", s.Kind)
	}
	ct := irCType(s.T)
	id := teamIdentityC(s.Join, s.T)
	buf := "((" + ct + "*)gk_tm.coll)"
	carry := e.temp()
	e.line("%s %s = %s;", ct, carry, id)
	e.line("{")
	e.depth++
	begin, end, base, idx, part, pass := e.temp(), e.temp(), e.temp(), e.temp(), e.temp(), e.temp()
	e.line("const gk_i64 %s = %s;", begin, e.expr(s.Begin).s)
	e.line("const gk_i64 %s = %s;", end, e.expr(s.End).s)
	e.line("for (gk_i64 %s = %s; %s < %s; %s += %s) {", base, begin, base, end, base, slot[1])
	e.depth++
	e.line("const gk_i64 %s = %s + %s;", idx, base, slot[0])
	e.line("%s %s = %s;", ct, part, id)
	e.line("for (int %s = 0; %s < 2; %s++) {", pass, pass, pass)
	e.depth++
	e.line("if (%s == 1) {", pass)
	e.depth++
	e.scanChunk(s, buf, carry, part)
	e.depth--
	e.line("}")
	e.line("if (%s < %s) {", idx, end)
	e.depth++
	e.push()
	if s.Key != "_" {
		e.line("const gk_i64 %s = %s;", e.declareLocal(s.Key), idx)
	}
	acc := e.temp()
	if s.Acc != "_" {
		acc = e.declareLocal(s.Acc)
	}
	e.line("%s %s = %s;", ct, acc, part)
	if s.Final != "_" {
		e.line("const bool %s = %s == 1;", e.declareLocal(s.Final), pass)
	}
	// A continue (the Go body's return) ends the index.
	e.frames = append(e.frames, &irFrame{loop: true})
	e.line("do {")
	e.depth++
	e.push()
	e.stmts(s.Body)
	e.pop()
	e.depth--
	e.line("} while (0);")
	e.frames = e.frames[:len(e.frames)-1]
	e.line("%s = %s;", part, acc)
	e.pop()
	e.depth--
	e.line("}")
	e.depth--
	e.line("}")
	e.depth--
	e.line("}")
	e.depth--
	e.line("}")
	if s.Total.Kind != kernelir.TargetBlank {
		// The temporary's name is no Go name: it clashes with none.
		name := "\x00total"
		e.bind(name, irName{c: carry})
		e.assign(&kernelir.Assign{Targets: []kernelir.Target{s.Total}, Values: []kernelir.Expr{&kernelir.Ref{Name: name, T: s.T}}})
	}
}

// scanChunk writes the scan across a chunk: each participant's part (its
// index's contribution) becomes the join of the carry and the parts of
// the participants before it; the carry joins the chunk's total.
func (e *irFunc) scanChunk(s *kernelir.NestedScan, buf, carry, part string) {
	ct := irCType(s.T)
	id := teamIdentityC(s.Join, s.T)
	r, o, k, tot := e.temp(), e.temp(), e.temp(), e.temp()
	switch s.Kind {
	case kernelir.NestVector:
		e.line("%s %s = %s, %s = %s;", ct, r, id, tot, id)
		e.line("for (unsigned %s = 0; %s < blockDim.x; %s++) {", k, k, k)
		e.line("\tconst %s %s = gk_team_shfl(gk_tm.vmask, %s, (int)%s, blockDim.x);", ct, o, part, k)
		e.line("\tif (%s < threadIdx.x) %s = %s;", k, r, e.join(s.Join, s.T, r, o).s)
		e.line("\t%s = %s;", tot, e.join(s.Join, s.T, tot, o).s)
		e.line("}")
	default:
		slot, n := "threadIdx.y", "blockDim.y"
		lead := "threadIdx.x == 0"
		if s.Kind == kernelir.NestTeamVector {
			slot, n, lead = "threadIdx.x + blockDim.x * threadIdx.y", "blockDim.x * blockDim.y", "true"
		}
		e.line("__syncthreads();")
		e.line("if (%s) %s[%s] = %s;", lead, buf, slot, part)
		e.line("__syncthreads();")
		e.line("if (threadIdx.x == 0 && threadIdx.y == 0) {")
		e.depth++
		run := e.temp()
		e.line("%s %s = %s;", ct, run, id)
		e.line("for (unsigned %s = 0; %s < %s; %s++) {", k, k, n, k)
		e.line("\tconst %s %s = %s[%s];", ct, o, buf, k)
		e.line("\t%s[%s] = %s;", buf, k, run)
		e.line("\t%s = %s;", run, e.join(s.Join, s.T, run, o).s)
		e.line("}")
		e.line("%s[%s] = %s;", buf, n, run)
		e.depth--
		e.line("}")
		e.line("__syncthreads();")
		// r: the exclusive prefix in the chunk.
		e.line("const %s %s = %s[%s], %s = %s[%s];", ct, r, buf, slot, tot, buf, n)
	}
	e.line("%s = %s;", part, e.join(s.Join, s.T, carry, r).s)
	e.line("%s = %s;", carry, e.join(s.Join, s.T, carry, tot).s)
}
