package affinity

import (
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// Supported reports whether threads can be bound on this system.
const Supported = true

// maskWords is the size of the first CPU mask tried, in 64-bit words (1024
// CPUs); a kernel configured for more CPUs refuses it (EINVAL), and the
// mask doubles.
const maskWords = 16

// Allowed returns the CPUs the calling thread may run on
// (sched_getaffinity): the process's set, unless the thread was bound.
func Allowed() (CPUSet, error) {
	for words := maskWords; words <= 1<<14; words *= 2 {
		mask := make([]uint64, words)
		n, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, uintptr(8*words), uintptr(unsafe.Pointer(&mask[0])))
		if e == syscall.EINVAL {
			continue
		}
		if e != 0 {
			return nil, fmt.Errorf("%w: sched_getaffinity: %v", ErrUnsupported, e)
		}
		var set CPUSet
		for w, m := range mask[:min(int(n)/8, words)] {
			for m != 0 {
				b := bits.TrailingZeros64(m)
				set = append(set, 64*w+b)
				m &^= 1 << b
			}
		}
		return set, nil
	}
	return nil, fmt.Errorf("%w: sched_getaffinity: CPU mask too large", ErrUnsupported)
}

// Bind binds the calling OS thread to the CPUs of set
// (sched_setaffinity). The caller has locked its goroutine to the thread
// (runtime.LockOSThread) and does not unlock it, so that the thread ends
// with the goroutine rather than run other goroutines on set.
func Bind(set CPUSet) error {
	if len(set) == 0 {
		return fmt.Errorf("%w: no CPU to bind to", ErrUnsupported)
	}
	words := max(maskWords, (set[len(set)-1]+64)/64)
	mask := make([]uint64, words)
	for _, c := range set {
		mask[c/64] |= 1 << (c % 64)
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, uintptr(8*words), uintptr(unsafe.Pointer(&mask[0])))
	if e != 0 {
		return fmt.Errorf("%w: sched_setaffinity to CPUs %s: %v", ErrUnsupported, set, e)
	}
	return nil
}

// ReadMachine returns the allowed CPUs and the hardware threads of their
// cores, from /sys/devices/system/cpu/cpuN/topology (a CPU whose topology
// cannot be read is a core alone).
func ReadMachine() (Machine, error) {
	allowed, err := Allowed()
	if err != nil {
		return Machine{}, err
	}
	cores := map[int]CPUSet{}
	for _, c := range allowed {
		for _, f := range []string{"core_cpus_list", "thread_siblings_list"} {
			b, err := os.ReadFile("/sys/devices/system/cpu/cpu" + strconv.Itoa(c) + "/topology/" + f)
			if err != nil {
				continue
			}
			if s, err := ParseList(strings.TrimSpace(string(b))); err == nil && len(s) > 0 {
				cores[c] = s
				break
			}
		}
	}
	return Machine{Allowed: allowed, Core: func(c int) CPUSet {
		if s, ok := cores[c]; ok {
			return s
		}
		return CPUSet{c}
	}}, nil
}

// ThreadCPU returns the CPU the calling thread last ran on: field 39 of
// /proc/thread-self/stat.
func ThreadCPU() (int, error) {
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from its ")".
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 37 {
		return 0, fmt.Errorf("/proc/thread-self/stat: %d fields", len(f)+2)
	}
	return strconv.Atoi(f[36])
}

// ThreadID returns the calling thread's id (gettid).
func ThreadID() int { return syscall.Gettid() }
