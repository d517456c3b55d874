package tools_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// canLoad skips the test where LoadLibrary has no loader of C libraries.
func canLoad(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("no loader of C libraries on ", runtime.GOOS, "/", runtime.GOARCH)
	}
}

// buildTool compiles the C file src of testdata into a shared library and
// returns its path. Without a C compiler the test skips, except with
// CI=true, where .ci/run installs one: there it fails.
func buildTool(t testing.TB, src string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		cc, err = exec.LookPath("gcc")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no C compiler (cc or gcc) to build the test's Kokkos Tools library, and CI=true: ", err)
		}
		t.Skip("no C compiler (cc or gcc) to build the test's Kokkos Tools library: ", err)
	}
	lib := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(src), ".c")+".so")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", lib, filepath.Join("testdata", src)).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	return lib
}

// runChild runs this test binary's TestStrictToolChild in mode with
// KOKKOS_TOOLS_LIBS naming lib, its standard output a pipe, and returns
// what it printed on each stream. Extra environment variables are added.
func runChild(t *testing.T, lib, mode string, env ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStrictToolChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KOKKOS_TOOLS_LIBS="+lib, "STRICT_TOOL_CHILD="+mode)
	cmd.Env = append(cmd.Env, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// TestStrictToolConcurrent launches kernels, reductions and scans from 8
// goroutines at once, with copies, fences of an asynchronous instance,
// allocations and regions on the side, in a child process that loads
// testdata/strict_tool.c through KOKKOS_TOOLS_LIBS. The tool aborts on
// any event stream that the tools of kokkos-tools would not accept; its
// per-label call counts, printed through C stdio at Finalize into a pipe,
// must be the counts of the launches.
func TestStrictToolConcurrent(t *testing.T) {
	canLoad(t)
	lib := buildTool(t, "strict_tool.c")
	for run := range 3 {
		stdout, stderr, err := runChild(t, lib, "concurrent")
		if err != nil || strings.Contains(stderr, "strict_tool:") {
			t.Fatalf("run %d: child: %v\nstderr:\n%s\nstdout:\n%s", run, err, stderr, tail(stdout))
		}
		want := map[string]string{}
		for _, m := range regexp.MustCompile(`(?m)^expect calls (\d+) (.*)$`).FindAllStringSubmatch(stdout, -1) {
			want[m[2]] = m[1]
		}
		got := map[string]string{}
		for _, m := range regexp.MustCompile(`(?m)^strict_tool: calls (\d+) (.*)$`).FindAllStringSubmatch(stdout, -1) {
			got[m[2]] = m[1]
		}
		if len(want) < 8 || !strings.Contains(stdout, "strict_tool: finalize") {
			t.Fatalf("run %d: the child printed no expected counts or the tool no report:\n%s", run, tail(stdout))
		}
		if !strings.Contains(stdout, "strict_tool: the last words") {
			t.Fatalf("run %d: C's standard output was not flushed after finalize:\n%s", run, tail(stdout))
		}
		for label, n := range want {
			if got[label] != n {
				t.Errorf("run %d: the tool counted %q calls of %q, want %s", run, got[label], label, n)
			}
		}
	}
}

// TestStrictToolNames runs kernels whose bodies collect garbage and
// allocate: the names the library received at their begins must still
// hold their text at their ends.
func TestStrictToolNames(t *testing.T) {
	canLoad(t)
	lib := buildTool(t, "strict_tool.c")
	stdout, stderr, err := runChild(t, lib, "names")
	if err != nil || strings.Contains(stderr, "strict_tool:") || !strings.Contains(stdout, "strict_tool: finalize") {
		t.Fatalf("child: %v\nstderr:\n%s\nstdout:\n%s", err, stderr, tail(stdout))
	}
}

// TestStrictToolOutputWithoutFinalize: a program that never calls
// Finalize still has every line its C tool printed on a standard output
// that is a pipe.
func TestStrictToolOutputWithoutFinalize(t *testing.T) {
	canLoad(t)
	lib := buildTool(t, "strict_tool.c")
	stdout, stderr, err := runChild(t, lib, "nofinalize", "STRICT_TOOL_PRINT=1")
	if err != nil {
		t.Fatalf("child: %v\nstderr:\n%s", err, stderr)
	}
	m := regexp.MustCompile(`(?m)^expect kernels (\d+)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("the child printed no count:\n%s", tail(stdout))
	}
	n, _ := strconv.Atoi(m[1])
	if !strings.Contains(stdout, "strict_tool: init\n") {
		t.Errorf("the tool's init line is lost:\n%s", tail(stdout))
	}
	if got := strings.Count(stdout, "strict_tool: end parallel_for "); got != n {
		t.Errorf("%d end_parallel_for lines on standard output, want %d:\n%s", got, n, tail(stdout))
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// TestStrictToolChild is the child process of the tests above; it runs
// only when they start it.
func TestStrictToolChild(t *testing.T) {
	mode := os.Getenv("STRICT_TOOL_CHILD")
	switch mode {
	case "":
		t.Skip("the child process of TestStrictTool*, run by them")
	case "concurrent":
		childConcurrent(t)
		tools.Finalize()
	case "names":
		childNames()
		tools.Finalize()
	case "nofinalize":
		n := 20 + rand.IntN(20)
		for i := range n {
			kokkos.ParallelFor(fmt.Sprint("k", i), kokkos.Range(0, 10), func(int) {})
		}
		fmt.Printf("expect kernels %d\n", n)
		// No Finalize: the program ends with the tool's output buffered.
	default:
		t.Fatalf("unknown child mode %q", mode)
	}
}

func childConcurrent(t *testing.T) {
	const workers = 8
	counts := make([]map[string]int, workers)
	var wg sync.WaitGroup
	for g := range workers {
		counts[g] = map[string]int{}
		wg.Go(func() {
			n := 100 + rand.IntN(100)
			// More launches, to run the child by hand with other tools.
			if m, err := strconv.Atoi(os.Getenv("STRICT_TOOL_LAUNCHES")); err == nil {
				n = m
			}
			x := kokkos.Must(kokkos.NewView1[float64](fmt.Sprint("x", g), 64))
			for i := range n {
				switch i % 5 {
				case 3:
					label := fmt.Sprint("reduce_", g)
					kokkos.ParallelReduce(label, kokkos.Range(0, 64), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += x.At(i) })
					counts[g][label]++
				case 4:
					label := fmt.Sprint("scan_", g)
					kokkos.ParallelScan(label, kokkos.Range(0, 64).On(kokkos.Serial{}), kokkos.Sum[float64](), func(i int, acc *float64, final bool) { *acc += x.At(i) })
					counts[g][label]++
				default:
					label := fmt.Sprint("kernel_", g)
					kokkos.ParallelFor(label, kokkos.Range(0, 64), func(i int) { x.Set(i, float64(i+g)) })
					counts[g][label]++
				}
				if i%50 == 0 {
					tmp := kokkos.Must(kokkos.NewView1[float64]("tmp", 32))
					if err := tmp.Release(); err != nil {
						panic(err)
					}
				}
			}
			if err := x.Release(); err != nil {
				panic(err)
			}
		})
	}
	// Meanwhile: regions, copies, fences and an asynchronous instance.
	a := kokkos.Must(kokkos.NewView1[float64]("a", 1000))
	b := kokkos.Must(kokkos.NewView1[float64]("b", 1000))
	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	async := 0
	for range 50 {
		tools.PushRegion("main region")
		if err := kokkos.DeepCopy(b, a); err != nil {
			t.Error(err)
		}
		tools.PopRegion()
		kokkos.ParallelFor("async", kokkos.Range(0, 100).On(inst), func(int) {})
		async++
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
		if err := kokkos.Fill(a, 1.5); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
	if err := kokkos.Fence(); err != nil {
		t.Error(err)
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	for g := range workers {
		for label, n := range counts[g] {
			fmt.Printf("expect calls %d %s\n", n, label)
		}
	}
	fmt.Printf("expect calls %d async\n", async)
}

// sink keeps the garbage that childNames makes reachable for a while.
var sink [][]byte

// childNames runs kernels whose bodies make the garbage collector run and
// reuse freed memory of the size of their labels.
func childNames() {
	for i := range 20 {
		label := fmt.Sprintf("kernel with a name of some length %d", i)
		kokkos.ParallelFor(label, kokkos.Range(0, 1).On(kokkos.Serial{}), func(int) {
			for range 3 {
				runtime.GC()
				for range 4096 {
					b := make([]byte, len(label)+1)
					for j := range b {
						b[j] = 'x'
					}
					sink = append(sink, b)
				}
				sink = sink[:0]
			}
		})
	}
}

// TestLibsIgnoredWarning: a program that does not import package tools
// warns once, on standard error, that KOKKOS_TOOLS_LIBS is ignored; one
// that imports it (this test's binary) loads the libraries instead, and
// does not warn.
func TestLibsIgnoredWarning(t *testing.T) {
	const warning = `is ignored: this program does not load Kokkos Tools libraries; import _ "github.com/gokkos/kokkos/tools"`
	lib := filepath.Join(t.TempDir(), "missing.so")
	stdout, stderr, err := runChild(t, lib, "nofinalize")
	if err != nil || !strings.Contains(stderr, "cannot load Kokkos Tools library") || strings.Contains(stderr, warning) {
		t.Errorf("with package tools: %v\nstderr:\n%s\nstdout:\n%s", err, stderr, tail(stdout))
	}
	if testing.Short() {
		t.Skip("builds a program with go build: not with -short")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build testdata/notools: ", err)
	}
	prog := filepath.Join(t.TempDir(), "notools")
	if out, err := exec.Command(gocmd, "build", "-o", prog, "./testdata/notools").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "KOKKOS_TOOLS_LIBS="+lib)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), warning) != 1 || !strings.Contains(string(out), "KOKKOS_TOOLS_LIBS="+lib) {
		t.Errorf("without package tools: %v, output\n%s\nwant one warning naming KOKKOS_TOOLS_LIBS", err, out)
	}
}
