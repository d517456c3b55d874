package plan

import "unsafe"

// ntStore stores the 16 bytes of *pat over n bytes at p with non-temporal
// stores, which write memory without reading its lines first: p is 16-byte
// aligned, n a positive multiple of 64. It does not fence them.
//
//go:noescape
func ntStore(p unsafe.Pointer, n uintptr, pat *[16]byte)

// StoreFence orders the non-temporal stores made before it on this thread
// before every store after it (SFENCE). A goroutine that streamed calls it
// before it reports its work done, once per piece of work rather than per
// run: each fence waits for the write-combining buffers to drain, and a
// fence per 16 KiB run cost a strided fill 10–20 %.
func StoreFence()

// fillStream stores x in every element of r with non-temporal stores, not
// fenced (see StoreFence), and reports true, or does nothing and reports false when the size of T is
// not 1, 2, 4, 8 or 16 bytes or r does not start at a multiple of it.
func fillStream[T any](r []T, x T) bool {
	size := sizeOf[T]()
	if size == 0 || 16%size != 0 || len(r) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r)))
	if base%uintptr(size) != 0 {
		return false
	}
	var pat [16]byte
	b := BytesOf(&x)
	for i := 0; i < 16; i += size {
		copy(pat[i:], b)
	}
	head := min(len(r), int((16-base%16)%16)/size)
	body := (len(r) - head) * size &^ 63
	for i := range head {
		r[i] = x
	}
	if body > 0 {
		ntStore(unsafe.Pointer(&r[head]), uintptr(body), &pat)
	}
	for i := head + body/size; i < len(r); i++ {
		r[i] = x
	}
	return true
}
