package cuda

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

func cacheSig() *kernelSig {
	return &kernelSig{pattern: patFor, rank: 1, views: []viewSig{{name: "a", elem: elemFloat64, rank: 1, unit: 0}}}
}

// TestDiskCache checks a miss (compiles and stores), a hit (no compile),
// and that damaged files (truncated, wrong magic, wrong checksum, empty)
// are ignored and rebuilt.
func TestDiskCache(t *testing.T) {
	requireNVRTC(t)
	dir := t.TempDir()
	t.Setenv(EnvCache, dir)
	body := "a(i) = 3 * a(i) + 1;"
	compile := func() compiled {
		t.Helper()
		c, err := compileFor(cacheSig(), body, "cache", 90, false, 12345)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	n0 := nvrtcCompiles.Load()
	first := compile()
	files := cacheFiles(dir)
	if nvrtcCompiles.Load() != n0+1 || len(files) != 1 {
		t.Fatalf("miss: %d compiles, %d files; want 1 and 1", nvrtcCompiles.Load()-n0, len(files))
	}
	if got := compile(); nvrtcCompiles.Load() != n0+1 || string(got.image) != string(first.image) {
		t.Fatalf("hit: compiled again, or loaded another image")
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string][]byte{
		"truncated": good[:len(good)/2],
		"empty":     {},
		"magic":     append([]byte("not-a-kernel\n"), good[len(cacheMagic):]...),
		"checksum":  append(append([]byte(nil), good[:len(good)-1]...), good[len(good)-1]^0xff),
		"header":    good[:len(cacheMagic)+3],
	}
	for name, b := range damage {
		if err := os.WriteFile(files[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		before := nvrtcCompiles.Load()
		if got := compile(); string(got.image) != string(first.image) || nvrtcCompiles.Load() != before+1 {
			t.Errorf("%s file: not rebuilt", name)
		}
		if b, _ := os.ReadFile(files[0]); string(b) != string(good) {
			t.Errorf("%s file: not rewritten", name)
		}
	}
	// Another driver version is another key.
	if _, err := compileFor(cacheSig(), body, "cache", 90, false, 12346); err != nil {
		t.Fatal(err)
	}
	if n := len(cacheFiles(dir)); n != 2 {
		t.Errorf("after another driver version: %d files, want 2", n)
	}
	t.Setenv(EnvCache, "off")
	if CacheDir() != "" {
		t.Errorf("CacheDir with %s=off: %q", EnvCache, CacheDir())
	}
}

// TestDiskCacheTwoProcesses compiles the same kernel in several processes
// at once into one cache folder: all succeed and the file is whole.
func TestDiskCacheTwoProcesses(t *testing.T) {
	if os.Getenv("GOKKOS_CACHE_CHILD") != "" {
		if _, err := compileFor(cacheSig(), os.Getenv("GOKKOS_CACHE_CHILD"), "child", 90, false, 1); err != nil {
			t.Fatal(err)
		}
		return
	}
	requireNVRTC(t)
	dir := t.TempDir()
	body := fmt.Sprintf("a(i) = %d;", os.Getpid())
	var wg sync.WaitGroup
	errs := make([]error, 4)
	out := make([][]byte, 4)
	for k := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestDiskCacheTwoProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), "GOKKOS_CACHE_CHILD="+body, EnvCache+"="+dir)
			out[k], errs[k] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v\n%s", k, err, out[k])
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 {
		t.Fatalf("cache folder holds %v, want one kernel file and no temporary files", files)
	}
	key := filepath.Base(files[0])
	if _, ok := cacheLoad(dir, key[:len(key)-len(".bin")]); !ok {
		t.Errorf("the kernel file is damaged")
	}
}
