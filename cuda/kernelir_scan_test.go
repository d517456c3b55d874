package cuda

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// scanCases are team kernels with nested scans of each kind: sums and a
// Max, inclusive and exclusive, totals declared, assigned, stored to acc
// and dropped, a return in the body, a vector scan in a thread range;
// the last is kerneltest's ScanForms as the generator describes it
// (unnamed parameters, a total declared shadowing a variable the scan
// reads).
func scanCases(t testing.TB) []*kernelir.Kernel {
	t.Helper()
	var ks []*kernelir.Kernel
	for _, src := range []string{`kernelir 1
(kernel ScanThread for (team t) (view incl int64 2 w) (view tot int64 2 w) (view a int64 2 r)
  (body
    (assign ((new row int)) ((team LeagueRank)))
    (nestedscan thread j (int 0) (extent a 1) Sum int64 acc final ((new total int64))
      (body
        (opassign add acc (at a row j))
        (if final (then (assign ((at incl row j)) (acc))))))
    (nestedscan thread _ (int 0) (extent a 1) Max int64 m _ ()
      (body (assign (m) ((max int64 m (int64 1))))))
    (assign ((at tot row (team TeamRank))) (total))))
`, `kernelir 1
(kernel ScanVector reduce (team t) (view excl float64 2 w) (view a float64 2 r) (scalar rows int) (acc float64)
  (body
    (nested thread (new i int) (int 0) rows
      (body
        (var ((s float64)) ())
        (nestedscan vector j (int 0) (extent a 1) Sum float64 acc final (s)
          (body
            (if (lt float64 (at a i j) (float64 0)) (then (continue)))
            (if final (then (assign ((at excl i j)) (acc))))
            (opassign add acc (at a i j))))
        (opassign add (acc) s)))))
`, `kernelir 1
(kernel ScanTeamVector reduce (team t) (view out int32 1 w) (view a int32 1 r) (acc int32)
  (body
    (nestedscan teamvector k (int 0) (extent a 0) Max int32 acc final ((acc))
      (body
        (assign (acc) ((max int32 acc (at a k))))
        (if final (then (assign ((at out k)) (acc))))))))
`, `kernelir 1
(kernel ScanForms for (team t)
  (view cnt int64 1 w)
  (view tot int64 1 w)
  (view v int64 1 r)
  (body
    (assign ((new n int)) ((extent v 0)))
    (assign ((new row int)) ((team LeagueRank)))
    (var ((c int64)) ())
    (nestedscan teamvector i (int 0) n Sum int64 k final (c)
      (body
        (if (le int64 (at v i) (int64 0))
          (then
            (continue)))
        (if (land final (eq int row (int 0)))
          (then
            (assign ((at cnt i)) (k))))
        (opassign add k (int64 1))))
    (nestedscan vector _ (int 0) n Sum int64 _ _ ()
      (body))
    (nestedscan thread _ (int 0) n Sum int64 _ _ ()
      (body))
    (nestedscan thread i (int 0) n BOr int64 a _ ((new b int64))
      (body
        (opassign or a (at v i))))
    (var ((k int64)) ())
    (block
      (nestedscan thread i (int 0) n Sum int64 a _ ((new n int64))
        (body
          (opassign add a (conv int64 (sub int n i)))))
      (assign (k) (n)))
    (if (team SinglePerTeam)
      (then
        (assign ((at tot row)) ((add int64 (add int64 b c) k)))))))
`} {
		k, err := kernelir.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
	}
	return ks
}

// TestKernelIRScanGolden translates the scan cases and compares the
// bodies with testdata/kernelir_scan_golden.txt (go test -update rewrites
// it).
func TestKernelIRScanGolden(t *testing.T) {
	var b strings.Builder
	for _, k := range scanCases(t) {
		body, _, _, _, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		b.WriteString("=== " + k.Name + "\n" + body)
		if !strings.Contains(body, "do {") || !strings.Contains(body, "} while (0);") {
			t.Errorf("%s: the body is not in a do { } while (0) for its continues", k.Name)
		}
	}
	golden := filepath.Join("testdata", "kernelir_scan_golden.txt")
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

// TestKernelIRScanForms checks what each kind's chunk scan goes through:
// the shared buffer and barriers for a team level, shuffles for a vector
// level.
func TestKernelIRScanForms(t *testing.T) {
	for _, k := range scanCases(t) {
		body, _, _, _, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		switch k.Name {
		case "ScanThread":
			for _, want := range []string{"+= (gk_i64)blockDim.y", "__syncthreads();", "gk_tm.coll)[threadIdx.y]"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the body lacks %q:\n%s", k.Name, want, body)
				}
			}
		case "ScanVector":
			if !strings.Contains(body, "gk_team_shfl(gk_tm.vmask") || strings.Contains(body, "__syncthreads") {
				t.Errorf("%s: a vector scan by shuffles, without barriers:\n%s", k.Name, body)
			}
		case "ScanTeamVector":
			if !strings.Contains(body, "gk_tm.coll)[threadIdx.x + blockDim.x * threadIdx.y]") {
				t.Errorf("%s: a team-vector scan over every lane:\n%s", k.Name, body)
			}
		}
	}
}

// TestKernelIRScanCompiles compiles the scan cases with NVRTC, with and
// without bounds checking.
func TestKernelIRScanCompiles(t *testing.T) {
	requireNVRTC(t)
	for _, k := range scanCases(t) {
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
