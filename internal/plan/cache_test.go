package plan

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestParseCacheSize(t *testing.T) {
	for s, want := range map[string]int{
		"32768K": 32 << 20, "2M": 2 << 20, "1G": 1 << 30, "512": 512,
		"": 0, "K": 0, "-4K": 0, "12Q": 0,
	} {
		if got := parseCacheSize(s); got != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestLastLevelCacheBytes builds a sysfs tree of four CPUs with their own
// L1 (data and instruction) and L2 caches and two L3 caches of two CPUs
// each, and checks that the L3 caches are summed once each.
func TestLastLevelCacheBytes(t *testing.T) {
	root := t.TempDir() + "/"
	write := func(cpu, index int, kv map[string]string) {
		dir := filepath.Join(root, "cpu"+itoa(cpu), "cache", "index"+itoa(index))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for k, v := range kv {
			if err := os.WriteFile(filepath.Join(dir, k), []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for c := range 4 {
		write(c, 0, map[string]string{"level": "1", "type": "Data", "size": "48K", "shared_cpu_list": itoa(c)})
		write(c, 1, map[string]string{"level": "1", "type": "Instruction", "size": "32K", "shared_cpu_list": itoa(c)})
		write(c, 2, map[string]string{"level": "2", "type": "Unified", "size": "2048K", "shared_cpu_list": itoa(c)})
		l3 := "0-1"
		if c >= 2 {
			l3 = "2-3"
		}
		write(c, 3, map[string]string{"level": "3", "type": "Unified", "size": "32768K", "shared_cpu_list": l3})
	}
	// Entries that are not CPUs are skipped.
	if err := os.MkdirAll(filepath.Join(root, "cpufreq"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := lastLevelCacheBytes(root), 64<<20; got != want {
		t.Errorf("two shared 32 MiB L3 caches: got %d bytes, want %d", got, want)
	}
	if got := lastLevelCacheBytes(root + "missing/"); got != 0 {
		t.Errorf("no sysfs: got %d, want 0", got)
	}
}

func TestStreamFillBytes(t *testing.T) {
	n := StreamFillBytes()
	if n < minStreamFillBytes {
		t.Fatalf("StreamFillBytes() = %d, below %d", n, minStreamFillBytes)
	}
	llc := lastLevelCacheBytes("/sys/devices/system/cpu/")
	if runtime.GOOS == "linux" && llc == 0 {
		t.Skip("no cache sizes in sysfs here: StreamFillBytes is its minimum")
	}
	if want := max(minStreamFillBytes, llc/4*3); n != want {
		t.Errorf("StreamFillBytes() = %d, want %d (last-level caches %d bytes)", n, want, llc)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
