package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// NVRTCSearchPath lists, in order, the glob patterns tried for NVRTC when
// EnvNVRTC is unset; the newest matching file of the first pattern that
// loads wins. The last entry is the plain soname.
var NVRTCSearchPath = []string{
	"/usr/local/cuda/lib64/libnvrtc.so*",
	"/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so*",
	"/usr/lib/x86_64-linux-gnu/libnvrtc.so*",
	"/usr/lib64/libnvrtc.so*",
	"libnvrtc.so",
}

// nvrtcLib holds the loaded NVRTC library and its functions.
type nvrtcLib struct {
	path         string
	handle       uintptr
	major, minor int

	create, destroy, compileProg, logSize, getLog, errString uintptr
	cubinSize, getCubin, ptxSize, getPTX                     uintptr
	numArchs, archs                                          uintptr // 0 before CUDA 11.2
}

// nvrtcCompiles counts NVRTC compilations, for the cache's tests.
var nvrtcCompiles atomic.Int64

var (
	nvrtcOnce sync.Once
	nvrtcLoad *nvrtcLib
	nvrtcErr  error
)

// NVRTC loads the NVRTC run-time compiler, once, and returns its path and
// handle, or the error that says where it was looked for. Device loop
// bodies are compiled with it. It looks in $GOKKOS_CUDA_NVRTC when set,
// else along NVRTCSearchPath.
func NVRTC() (path string, handle uintptr, err error) {
	l, err := loadNVRTC()
	if err != nil {
		return "", 0, err
	}
	return l.path, l.handle, nil
}

// NVRTCVersion returns the loaded NVRTC's version as major, minor.
func NVRTCVersion() (major, minor int, err error) {
	l, err := loadNVRTC()
	if err != nil {
		return 0, 0, err
	}
	return l.major, l.minor, nil
}

func nvrtcCandidates() []string {
	if p := os.Getenv(EnvNVRTC); p != "" {
		return []string{p}
	}
	var cands []string
	for _, pat := range NVRTCSearchPath {
		if !strings.ContainsAny(pat, "*?[") {
			cands = append(cands, pat)
			continue
		}
		m, _ := filepath.Glob(pat)
		sort.Sort(sort.Reverse(sort.StringSlice(m)))
		for _, f := range m {
			if b := filepath.Base(f); !strings.Contains(b, "builtins") && !strings.Contains(b, "alt") {
				cands = append(cands, f)
			}
		}
	}
	return cands
}

func loadNVRTC() (*nvrtcLib, error) {
	nvrtcOnce.Do(func() {
		nd := &NoDriverError{Library: "libnvrtc.so"}
		for _, p := range nvrtcCandidates() {
			if strings.Contains(p, "/") {
				if _, err := os.Stat(p); err != nil {
					nd.Tried = append(nd.Tried, p)
					nd.Reasons = append(nd.Reasons, "no such file")
					continue
				}
				// NVRTC opens its builtins library by soname; load the
				// one beside it first so that a private copy works
				// without LD_LIBRARY_PATH.
				bs, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "libnvrtc-builtins.so.*"))
				sort.Sort(sort.Reverse(sort.StringSlice(bs)))
				for _, b := range bs {
					if _, err := purego.Dlopen(b, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
						break
					}
				}
			}
			h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err != nil {
				nd.Tried = append(nd.Tried, p)
				nd.Reasons = append(nd.Reasons, err.Error())
				continue
			}
			l, err := bindNVRTC(p, h)
			if err != nil {
				nd.Tried = append(nd.Tried, p)
				nd.Reasons = append(nd.Reasons, err.Error())
				continue
			}
			nvrtcLoad = l
			return
		}
		nvrtcErr = nd
	})
	return nvrtcLoad, nvrtcErr
}

func bindNVRTC(path string, h uintptr) (*nvrtcLib, error) {
	l := &nvrtcLib{path: path, handle: h}
	var version uintptr
	for _, s := range []struct {
		name string
		p    *uintptr
	}{
		{"nvrtcVersion", &version}, {"nvrtcCreateProgram", &l.create},
		{"nvrtcDestroyProgram", &l.destroy}, {"nvrtcCompileProgram", &l.compileProg},
		{"nvrtcGetProgramLogSize", &l.logSize}, {"nvrtcGetProgramLog", &l.getLog},
		{"nvrtcGetErrorString", &l.errString}, {"nvrtcGetCUBINSize", &l.cubinSize},
		{"nvrtcGetCUBIN", &l.getCubin}, {"nvrtcGetPTXSize", &l.ptxSize}, {"nvrtcGetPTX", &l.getPTX},
	} {
		a, err := purego.Dlsym(h, s.name)
		if err != nil || a == 0 {
			return nil, fmt.Errorf("%s lacks %s (NVRTC older than CUDA 11.1?)", path, s.name)
		}
		*s.p = a
	}
	l.numArchs, _ = purego.Dlsym(h, "nvrtcGetNumSupportedArchs")
	l.archs, _ = purego.Dlsym(h, "nvrtcGetSupportedArchs")
	var maj, min int32
	purego.SyscallN(version, uintptr(unsafe.Pointer(&maj)), uintptr(unsafe.Pointer(&min)))
	l.major, l.minor = int(maj), int(min)
	return l, nil
}

// supportedArchs returns the sm numbers (such as 90) NVRTC compiles for,
// ascending; nil when it cannot say.
func (l *nvrtcLib) supportedArchs() []int {
	if l.numArchs == 0 || l.archs == 0 {
		return nil
	}
	var n int32
	if r, _, _ := purego.SyscallN(l.numArchs, uintptr(unsafe.Pointer(&n))); r != 0 || n <= 0 || n > 256 {
		return nil
	}
	a := make([]int32, n)
	if r, _, _ := purego.SyscallN(l.archs, uintptr(unsafe.Pointer(&a[0]))); r != 0 {
		return nil
	}
	out := make([]int, n)
	for i, v := range a {
		out[i] = int(v)
	}
	sort.Ints(out)
	return out
}

func (l *nvrtcLib) errorString(r uintptr) string {
	p, _, _ := purego.SyscallN(l.errString, r)
	return cString(*(**byte)(unsafe.Pointer(&p))) // p is a C string NVRTC owns
}

// compiled is the output of one NVRTC compilation: a cubin, or PTX where
// NVRTC cannot build machine code for the device.
type compiled struct {
	image []byte // NUL-terminated for PTX
	ptx   bool
}

// A CompileError is a loop body that NVRTC rejected. Its Error text gives
// the kernel's label, the compiler's messages with line numbers of the
// body as written, and the body with its lines numbered.
type CompileError struct {
	Label string // the kernel's label
	Log   string // NVRTC's log, its line numbers those of the body
	Body  string // the body as given
	// Bindings lists what the body can name: the indices, the
	// accumulator, and each view (element type, rank, read-only or
	// atomic) and scalar.
	Bindings string
}

// ErrCompile is matched (errors.Is) by every *CompileError.
var ErrCompile = errors.New("cuda: loop body does not compile")

func (e *CompileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cuda: loop body of %q does not compile:\n%s", e.Label, strings.TrimRight(e.Log, "\n"))
	if e.Bindings != "" {
		b.WriteString("\nthe body sees: " + e.Bindings)
	}
	if e.Body != "" {
		b.WriteString("\nthe body:\n")
		for i, line := range strings.Split(strings.TrimRight(e.Body, "\n"), "\n") {
			fmt.Fprintf(&b, "%4d | %s\n", i+1, line)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Is reports whether target is ErrCompile.
func (e *CompileError) Is(target error) bool { return target == ErrCompile }

// bodyFile is the file name the generated source gives the user's body in
// its #line directive; compiler messages about the body name it.
const bodyFile = "body"

var logLine = regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(bodyFile) + `|kernel\.cu)\((\d+)\): `)

// compile compiles src (named kernel.cu) with opts. A rejected source is
// a *CompileError carrying label and body; the log's lines about the body
// read "body line N:", those about generated code keep kernel.cu's numbers.
func (l *nvrtcLib) compile(src string, opts []string, label, body string, wantPTX bool) (compiled, error) {
	nvrtcCompiles.Add(1)
	csrc := cstr(src)
	cname := cstr("kernel.cu")
	var prog uintptr
	if r, _, _ := purego.SyscallN(l.create, uintptr(unsafe.Pointer(&prog)), uintptr(unsafe.Pointer(&csrc[0])),
		uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0); r != 0 {
		return compiled{}, fmt.Errorf("cuda: nvrtcCreateProgram for %q: %s", label, l.errorString(r))
	}
	defer purego.SyscallN(l.destroy, uintptr(unsafe.Pointer(&prog)))
	cs := make([][]byte, len(opts))
	ptrs := make([]uintptr, len(opts)+1)
	for i, o := range opts {
		cs[i] = cstr(o)
		ptrs[i] = uintptr(unsafe.Pointer(&cs[i][0]))
	}
	r, _, _ := purego.SyscallN(l.compileProg, prog, uintptr(len(opts)), uintptr(unsafe.Pointer(&ptrs[0])))
	keepAlive(cs)
	log := l.log(prog)
	if r != 0 {
		if r == 6 { // NVRTC_ERROR_COMPILATION
			log = logLine.ReplaceAllStringFunc(log, func(m string) string {
				sub := logLine.FindStringSubmatch(m)
				if sub[1] == bodyFile {
					return "body line " + sub[2] + ": "
				}
				return "generated kernel.cu line " + sub[2] + ": "
			})
			return compiled{}, &CompileError{Label: label, Log: log, Body: body}
		}
		return compiled{}, fmt.Errorf("cuda: nvrtcCompileProgram for %q: %s\n%s", label, l.errorString(r), log)
	}
	sizeFn, getFn := l.cubinSize, l.getCubin
	if wantPTX {
		sizeFn, getFn = l.ptxSize, l.getPTX
	}
	var n uintptr
	if r, _, _ := purego.SyscallN(sizeFn, prog, uintptr(unsafe.Pointer(&n))); r != 0 || n == 0 {
		return compiled{}, fmt.Errorf("cuda: NVRTC produced no image for %q: %s", label, l.errorString(r))
	}
	img := make([]byte, n)
	if r, _, _ := purego.SyscallN(getFn, prog, uintptr(unsafe.Pointer(&img[0]))); r != 0 {
		return compiled{}, fmt.Errorf("cuda: NVRTC image of %q: %s", label, l.errorString(r))
	}
	return compiled{image: img, ptx: wantPTX}, nil
}

func (l *nvrtcLib) log(prog uintptr) string {
	var n uintptr
	if r, _, _ := purego.SyscallN(l.logSize, prog, uintptr(unsafe.Pointer(&n))); r != 0 || n <= 1 {
		return ""
	}
	b := make([]byte, n)
	purego.SyscallN(l.getLog, prog, uintptr(unsafe.Pointer(&b[0])))
	return strings.TrimRight(string(b[:n-1]), "\x00\n")
}

// cstr returns s as a NUL-terminated byte slice.
func cstr(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

//go:noinline
func keepAlive(any) {}

// archOption returns the compile target for a device of compute
// capability sm (such as 90): a cubin for sm_XY when NVRTC supports it,
// else PTX for the newest virtual architecture it supports below it, which
// the driver compiles at load.
func (l *nvrtcLib) archOption(sm int) (opt string, ptx bool) {
	archs := l.supportedArchs()
	if archs == nil {
		return "--gpu-architecture=sm_" + strconv.Itoa(sm), false
	}
	best := 0
	for _, a := range archs {
		if a == sm {
			return "--gpu-architecture=sm_" + strconv.Itoa(sm), false
		}
		if a < sm {
			best = a
		}
	}
	if best == 0 {
		best = archs[0]
	}
	return "--gpu-architecture=compute_" + strconv.Itoa(best), true
}
