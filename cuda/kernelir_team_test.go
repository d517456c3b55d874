package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// teamCases are backendtest's team kernels, and one with every form the
// suite lacks: a vector reduction by Max, a scan by BOr, a broadcast of a
// bool, thread scratch of rank 3, a key assigned with =, a return.
func teamCases(t testing.TB) []*kernelir.Kernel {
	t.Helper()
	var ks []*kernelir.Kernel
	for _, bk := range backendtest.TeamKernels() {
		k, err := kernelir.Parse(bk.IR)
		if err != nil {
			t.Fatalf("%s: %v", bk.Name, err)
		}
		ks = append(ks, k)
	}
	k, err := kernelir.Parse(`kernelir 1
(kernel Forms reduce (team t) (view v int64 1 w) (scalar m int) (scalar on bool) (acc int)
  (body
    (scratch s float32 thread 1 ((int 2) m (int 3)))
    (vectorreduce Max int64 ((new x int64)) (at v (int 0)))
    (var ((j int)) ())
    (nested teamvector j (int 1) m
      (body (assign ((at s (int 0) j (int 2))) ((conv float32 j)))))
    (teamscan BOr int64 (_ (new tot int64)) x)
    (var ((ok bool)) (on))
    (teambroadcast bool (ok) ok (int 0))
    (if (not ok) (then (return)))
    (teamreduce Min float64 ((new lo float64)) (conv float64 (at s (int 1) (int 0) (int 0))))
    (if (land ok (team SinglePerThread))
      (then
        (assign ((at v (conv int (team LeagueSize)))) ((add int64 tot (conv int64 (extent s 1)))))
        (opassign add (acc) (conv int lo))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	return append(ks, k)
}

// teamSig is the signature of a launch of team kernel k.
func teamSig(k *kernelir.Kernel, helpers string, names, conv []string) *kernelSig {
	sig := irSig(k, helpers, names, conv)
	sig.team, sig.rank = true, 1
	return sig
}

// TestKernelIRTeamGolden translates the team cases and compares the
// bodies and the whole source of the first with
// testdata/kernelir_team_golden.txt (go test -update rewrites it).
func TestKernelIRTeamGolden(t *testing.T) {
	var b strings.Builder
	for n, k := range teamCases(t) {
		body, helpers, names, conv, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		fmt.Fprintf(&b, "=== %s names %q conv %q\n--- body\n%s", k.Name, names, conv, body)
		if n == 0 {
			fmt.Fprintf(&b, "--- source\n%s", withoutPrelude(generate(teamSig(k, helpers, names, conv), body, k.Name)))
		}
	}
	golden := filepath.Join("testdata", "kernelir_team_golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("the translation differs from %s; run go test -update and review the diff:\n%s", golden, b.String())
	}
}

// withoutPrelude drops the prelude every kernel shares.
func withoutPrelude(src string) string {
	head, rest, ok := strings.Cut(src, prelude)
	if !ok {
		return src
	}
	return head + rest
}

// TestKernelIRTeamCompiles compiles every team case with NVRTC, with and
// without bounds checking.
func TestKernelIRTeamCompiles(t *testing.T) {
	requireNVRTC(t)
	for _, k := range teamCases(t) {
		t.Run(k.Name, func(t *testing.T) {
			body, helpers, names, conv, err := emitKernel(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, check := range []bool{false, true} {
				sig := teamSig(k, helpers, names, conv)
				sig.check, sig.wide = check, check
				if err := compileOnly(t, sig, body); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestKernelIRTeamSource checks what the launch depends on in the source:
// the entry points, the shared memory layout, the collectives' buffer.
func TestKernelIRTeamSource(t *testing.T) {
	ks := teamCases(t)
	for _, k := range ks {
		body, helpers, names, conv, err := emitKernel(k)
		if err != nil {
			t.Fatal(err)
		}
		src := generate(teamSig(k, helpers, names, conv), body, k.Name)
		for _, want := range []string{
			`extern "C" __global__ void gk_team(const gk_i64 gk_league, const gk_i64 gk_s0, const gk_i64 gk_p0, const gk_i64 gk_s1, const gk_i64 gk_p1, char* const gk_l1`,
			"for (gk_i64 gk_lr = blockIdx.x; gk_lr < gk_league; gk_lr += gridDim.x) {",
			"gk_tm.coll = gk_shm + ((gk_a0 + (gk_i64)blockDim.y * gk_b0 + 15) & ~(gk_i64)15);",
		} {
			if !strings.Contains(src, want) {
				t.Errorf("%s: the source lacks %q", k.Name, want)
			}
		}
		if reduce := k.Pattern == kernelir.PatternReduce; reduce != strings.Contains(src, "gk_reduce_final") || reduce != strings.Contains(src, "gk_value* const gk_partial") {
			t.Errorf("%s: a %s kernel with the reduction's entry points: %v", k.Name, k.Pattern, !reduce)
		}
	}
}

// TestTeamSizes checks the layout sizes the launch gives the kernel.
func TestTeamSizes(t *testing.T) {
	for _, c := range []struct{ team, vector, s0, p0, want int }{
		{1, 1, 0, 0, 16},
		{4, 1, 0, 0, 40},
		{4, 2, 56, 0, 64 + 72},
		{3, 1, 8, 12, 16 + 48 + 32},
		{1024, 1, 0, 0, 8200},
	} {
		if got := teamShared(c.team, c.vector, c.s0, c.p0); got != c.want {
			t.Errorf("teamShared(%d, %d, %d, %d) = %d, want %d", c.team, c.vector, c.s0, c.p0, got, c.want)
		}
	}
	if got := teamLevel1(3, 536, 8); got != 544+32 {
		t.Errorf("teamLevel1 = %d", got)
	}
	if got := teamLevel1(5, 0, 0); got != 0 {
		t.Errorf("teamLevel1 of no scratch = %d", got)
	}
}

// TestTeamIdentity checks the identities the scans start from.
func TestTeamIdentity(t *testing.T) {
	for _, c := range []struct {
		join string
		t    kernelir.Type
		want string
	}{
		{"Sum", kernelir.Int32, "0"}, {"Prod", kernelir.Float64, "1.0"}, {"LAnd", kernelir.Bool, "true"},
		{"LOr", kernelir.Bool, "false"}, {"BAnd", kernelir.Uint32, "4294967295u"}, {"BAnd", kernelir.Int8, "(signed char)(-1)"},
		{"Min", kernelir.Int64, "9223372036854775807ll"}, {"Max", kernelir.Int64, "(-9223372036854775807ll - 1)"},
		{"Min", kernelir.Uint16, "(unsigned short)65535"}, {"Max", kernelir.Uint64, "0ull"},
		{"Min", kernelir.Float32, "__int_as_float((int)0x7f800000u)"}, {"Max", kernelir.Float64, "__longlong_as_double((gk_i64)0xfff0000000000000ull)"},
	} {
		got := teamIdentityC(c.join, c.t)
		if !strings.Contains(got, c.want) {
			t.Errorf("identity of %s over %s: %s, want %s", c.join, c.t, got, c.want)
		}
	}
}

// TestTeamRefusedWithoutDevice checks the errors a Stream gives a team
// launch before it needs a device: a Scan.
func TestTeamRefusedWithoutDevice(t *testing.T) {
	k := backendtest.TeamKernels()[0]
	_, err := (&Stream{}).teamReduce(&backend.Launch{Label: "x", Kernel: k}, patScan, valueSig{}, false, backend.KindFloat64)
	if !errors.Is(err, backend.ErrUnsupported) || !strings.Contains(err.Error(), "not Scan") {
		t.Errorf("a team scan: %v", err)
	}
}

// TestTeamLimits checks the geometry of team launches on a device of 1024
// threads and 227 KiB of shared memory per block and 132 multiprocessors,
// and the refusals of what it cannot hold.
func TestTeamLimits(t *testing.T) {
	d := teamDevice{ordinal: 0, threads: 1024, shared: 227 << 10, sms: 132}
	for _, c := range []struct {
		ts                     backend.TeamShape
		team, vector, grid, sh int
		l1                     int
	}{
		{backend.TeamShape{League: 10, Size: backend.TeamAuto, Vector: backend.TeamAuto}, 128, 1, 10, 8 * 129, 0},
		{backend.TeamShape{League: 10, Size: backend.TeamAuto, Vector: 8}, 16, 8, 10, 8 * 129, 0},
		{backend.TeamShape{League: 0, Size: 4, Vector: 1}, 4, 1, 1, 40, 0},
		{backend.TeamShape{League: 5 << 20, Size: 32, Vector: 32}, 32, 32, 1 << 20, 8 * 1025, 0},
		// 2 KiB per thread: 128 threads need 256 KiB, 64 fit.
		{backend.TeamShape{League: 3, Size: backend.TeamAuto, Vector: backend.TeamAuto, Scratch: [2][2]int{{0, 2048}}}, 64, 1, 3, 64*2048 + 8*65, 0},
		{backend.TeamShape{League: 5000, Size: 4, Vector: 1, Scratch: [2][2]int{{}, {100, 12}}}, 4, 1, 8 * 132, 40, 112 + 64},
	} {
		g, err := teamLimits("l", c.ts, d)
		if err != nil {
			t.Errorf("%+v: %v", c.ts, err)
			continue
		}
		if g.team != c.team || g.vector != c.vector || g.grid != c.grid || g.shared != c.sh || g.level1 != c.l1 {
			t.Errorf("%+v: team %d, vector %d, grid %d, shared %d, level 1 %d; want %d %d %d %d %d", c.ts, g.team, g.vector, g.grid, g.shared, g.level1, c.team, c.vector, c.grid, c.sh, c.l1)
		}
	}
	for _, c := range []struct {
		ts   backend.TeamShape
		is   error
		says string
	}{
		{backend.TeamShape{League: 1, Size: 2048, Vector: 1}, backend.ErrUnsupported, "a team of 2048 threads of vector length 1 is a block of 2048 threads; device 0 runs at most 1024 per block"},
		{backend.TeamShape{League: 1, Size: 64, Vector: 32}, backend.ErrUnsupported, "a block of 2048 threads"},
		{backend.TeamShape{League: 1, Size: 4, Vector: 6}, backend.ErrUnsupported, "vector length 6: the CUDA backend runs vector lengths of 1, 2, 4, 8, 16 and 32"},
		{backend.TeamShape{League: 1, Size: 4, Vector: 64}, backend.ErrUnsupported, "vector length 64"},
		{backend.TeamShape{League: 1, Size: 4, Vector: 1, Scratch: [2][2]int{{300 << 10, 0}}}, backend.ErrUnsupported, "level-0 scratch of 307200 bytes per team and 0 per thread, for a team of 4, with the collectives' 40 bytes, needs 307240 bytes of shared memory per block; device 0 has 232448"},
		{backend.TeamShape{League: 1, Size: backend.TeamAuto, Vector: 1, Scratch: [2][2]int{{0, 300 << 10}}}, backend.ErrUnsupported, "for a team of 1,"},
		{backend.TeamShape{League: -1, Size: 4, Vector: 1}, ErrPolicy, "a league of -1 teams"},
		{backend.TeamShape{League: 1, Size: 0, Vector: 1}, ErrPolicy, "team size 0"},
		{backend.TeamShape{League: 1, Size: 4, Vector: 1, Scratch: [2][2]int{{0, -1}}}, ErrPolicy, "negative scratch sizes"},
	} {
		_, err := teamLimits("l", c.ts, d)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want an error wrapping %v saying %q", c.ts, err, c.is, c.says)
		}
	}
}
