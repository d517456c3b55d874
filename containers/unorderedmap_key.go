package containers

import (
	"fmt"
	"math/bits"
	"reflect"
	"unsafe"
)

// checkKeyType returns an error when K cannot be an UnorderedMap key: a
// key is hashed and compared by its bytes, so it must hold only numbers
// and bools, with no padding (whose bytes Go leaves unspecified) and no
// pointers.
func checkKeyType[K any]() error {
	t := reflect.TypeFor[K]()
	if t.Size() == 0 {
		return fmt.Errorf("key type %v has no bytes: a key needs at least one", t)
	}
	if why := keyTypeProblem(t); why != "" {
		return fmt.Errorf("key type %v: %s; a key is hashed and compared by its bytes and must be a fixed-size number, a bool, or an array or struct of those without padding", t, why)
	}
	return nil
}

func keyTypeProblem(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return ""
	case reflect.Array:
		return keyTypeProblem(t.Elem())
	case reflect.Struct:
		end := uintptr(0)
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Offset != end {
				return fmt.Sprintf("%d bytes of padding before field %s", f.Offset-end, f.Name)
			}
			if why := keyTypeProblem(f.Type); why != "" {
				return fmt.Sprintf("field %s: %s", f.Name, why)
			}
			end = f.Offset + f.Type.Size()
		}
		if end != t.Size() {
			return fmt.Sprintf("%d bytes of padding after the last field", t.Size()-end)
		}
		return ""
	default:
		return fmt.Sprintf("%v is a %v", t, t.Kind())
	}
}

// The constants of MurmurHash3, x86 32-bit.
const (
	murmurC1 = 0xcc9e2d51
	murmurC2 = 0x1b873593
)

func murmurBlock(h, k uint32) uint32 {
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	k *= murmurC2
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func murmurFinish(h uint32, n uintptr) uint32 {
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// keyWords reports whether keys of type K may be read as whole 32- or
// 64-bit words by hashKey and keyEqual: their size is 4, 8 or 16 bytes
// and their alignment that of the word.
func keyWords[K any]() bool {
	var k K
	switch unsafe.Sizeof(k) {
	case 4:
		return unsafe.Alignof(k) >= 4
	case 8, 16:
		return unsafe.Alignof(k) >= 8
	}
	return false
}

// hashKey is Kokkos's pod_hash: MurmurHash3 (x86, 32-bit, seed 0) of the
// n bytes at p, read as little-endian 32-bit blocks. words is keyWords of
// the key's type.
func hashKey(p unsafe.Pointer, n uintptr, words bool) uint32 {
	if !words {
		return murmurBytes(unsafe.Slice((*byte)(p), n))
	}
	switch n {
	case 4:
		return murmurFinish(murmurBlock(0, *(*uint32)(p)), 4)
	case 8:
		w := *(*uint64)(p)
		if isLittleEndian {
			return murmurFinish(murmurBlock(murmurBlock(0, uint32(w)), uint32(w>>32)), 8)
		}
	}
	return murmurBytes(unsafe.Slice((*byte)(p), n))
}

// isLittleEndian is whether the machine stores the low byte of a word
// first, as the 4- and 8-byte cases of hashKey read it.
var isLittleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

func murmurBytes(b []byte) uint32 {
	h := uint32(0)
	nb := len(b) / 4
	for i := range nb {
		h = murmurBlock(h, uint32(b[4*i])|uint32(b[4*i+1])<<8|uint32(b[4*i+2])<<16|uint32(b[4*i+3])<<24)
	}
	tail := b[4*nb:]
	var k uint32
	switch len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		k *= murmurC1
		k = bits.RotateLeft32(k, 15)
		k *= murmurC2
		h ^= k
	}
	return murmurFinish(h, uintptr(len(b)))
}

// keyEqual is Kokkos's pod_equal_to: whether the n bytes at a and b are
// the same. words is keyWords of the key's type.
func keyEqual(a, b unsafe.Pointer, n uintptr, words bool) bool {
	if !words {
		return unsafe.String((*byte)(a), n) == unsafe.String((*byte)(b), n)
	}
	switch n {
	case 4:
		return *(*uint32)(a) == *(*uint32)(b)
	case 8:
		return *(*uint64)(a) == *(*uint64)(b)
	case 16:
		return *(*[2]uint64)(a) == *(*[2]uint64)(b)
	}
	return unsafe.String((*byte)(a), n) == unsafe.String((*byte)(b), n)
}
