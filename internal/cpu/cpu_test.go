package cpu

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// The features against the flags Linux lists in /proc/cpuinfo, which it
// shows only where the processor has them and the kernel enables them.
func TestX86Features(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		if X86HasAVX2 || X86HasAVX512 || X86HasCX16 {
			t.Fatalf("features on %s: AVX2 %v, AVX-512 %v, CX16 %v", runtime.GOARCH, X86HasAVX2, X86HasAVX512, X86HasCX16)
		}
		return
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	var flags map[string]bool
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(v) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	for _, c := range []struct {
		name string
		got  bool
	}{{"avx2", X86HasAVX2}, {"avx512f", X86HasAVX512}, {"cx16", X86HasCX16}} {
		if c.got != flags[c.name] {
			t.Errorf("%s: %v, /proc/cpuinfo lists it: %v", c.name, c.got, flags[c.name])
		}
	}
}
