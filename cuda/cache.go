package cuda

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// EnvCache names the environment variable that sets the folder of the
// kernel cache on disk; the value "off" turns the disk cache off. By
// default the cache is os.UserCacheDir()/gokkos/cuda-kernels.
const EnvCache = "GOKKOS_CUDA_CACHE"

// CacheDir returns the folder the kernel cache on disk uses, or "" when
// it is off (EnvCache is "off", or the user has no cache folder).
func CacheDir() string {
	switch v := os.Getenv(EnvCache); v {
	case "off":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "gokkos", "cuda-kernels")
	default:
		return v
	}
}

// cacheKey is the hash of everything that decides a compiled image: the
// generated source, the compile options, the target, and the versions of
// NVRTC and of the driver that will load it.
func cacheKey(src string, opts []string, nvrtcMajor, nvrtcMinor, driverVersion int) string {
	h := sha256.New()
	var n [8]byte
	for _, part := range append([]string{src}, opts...) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	for _, v := range []int{nvrtcMajor, nvrtcMinor, driverVersion} {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cacheMagic opens every cache file; then come the payload's length (8
// bytes), its SHA-256 (32 bytes), a flag byte (1 for PTX) and the payload.
var cacheMagic = []byte("gokkos-cuda-kernel-1\n")

const cacheHeader = 8 + 32 + 1

// cacheLoad returns the image stored under key in dir, or ok false when
// there is none or the file is damaged (short, wrong magic, wrong length or
// checksum): such a file is treated as absent and overwritten later.
func cacheLoad(dir, key string) (c compiled, ok bool) {
	if dir == "" {
		return compiled{}, false
	}
	b, err := os.ReadFile(filepath.Join(dir, key+".bin"))
	if err != nil || len(b) < len(cacheMagic)+cacheHeader || !bytes.Equal(b[:len(cacheMagic)], cacheMagic) {
		return compiled{}, false
	}
	b = b[len(cacheMagic):]
	n := binary.LittleEndian.Uint64(b)
	sum, flag, payload := b[8:40], b[40], b[cacheHeader:]
	if uint64(len(payload)) != n || n == 0 || flag > 1 {
		return compiled{}, false
	}
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return compiled{}, false
	}
	return compiled{image: payload, ptx: flag == 1}, true
}

// cacheStore writes c under key in dir atomically: to a temporary file in
// dir, then renamed over the final name, so a reader sees the whole file or
// none, and two processes storing the same key both succeed. Failures are
// ignored: the cache only saves time.
func cacheStore(dir, key string, c compiled) {
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, key+".tmp*")
	if err != nil {
		return
	}
	tmp := f.Name()
	hdr := make([]byte, cacheHeader)
	binary.LittleEndian.PutUint64(hdr, uint64(len(c.image)))
	sum := sha256.Sum256(c.image)
	copy(hdr[8:40], sum[:])
	if c.ptx {
		hdr[40] = 1
	}
	_, err = f.Write(append(append(append([]byte(nil), cacheMagic...), hdr...), c.image...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, key+".bin"))
	}
	if err != nil {
		os.Remove(tmp)
	}
}

// cacheFiles lists the kernel files in dir, for tests and tools.
func cacheFiles(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	out := m[:0]
	for _, f := range m {
		if !strings.Contains(filepath.Base(f), ".tmp") {
			out = append(out, f)
		}
	}
	return out
}
