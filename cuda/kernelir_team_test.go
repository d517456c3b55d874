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
