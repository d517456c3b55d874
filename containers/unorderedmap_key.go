package containers

import (
	"encoding/binary"
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

// hashOfKey is Kokkos's pod_hash: MurmurHash3 (x86, 32-bit, seed 0) of
// the bytes of *k, read as little-endian 32-bit blocks. The size tests
// are constants of each instantiation, so that the hash of a 4- or
// 8-byte key is a few inlined instructions.
func hashOfKey[K any](k *K) uint32 {
	switch unsafe.Sizeof(*k) {
	case 4:
		return murmurFinish(murmurBlock(0, binary.LittleEndian.Uint32((*[4]byte)(unsafe.Pointer(k))[:])), 4)
	case 8:
		return hash8(k)
	}
	return murmurBytes(unsafe.Slice((*byte)(unsafe.Pointer(k)), unsafe.Sizeof(*k)))
}

// hash8 is hashOfKey of an 8-byte key.
func hash8[K any](k *K) uint32 {
	return murmur64(binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(k))[:]))
}

// murmur64 is MurmurHash3 of the 8 bytes of w, low byte first, written
// out so that it inlines.
func murmur64(w uint64) uint32 {
	k := uint32(w) * murmurC1
	h := bits.RotateLeft32(bits.RotateLeft32(k, 15)*murmurC2, 13)*5 + 0xe6546b64
	k = uint32(w>>32) * murmurC1
	h ^= bits.RotateLeft32(k, 15) * murmurC2
	h = bits.RotateLeft32(h, 13)*5 + 0xe6546b64
	h ^= 8
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

// murmur32 is MurmurHash3 of the 4 bytes of w, low byte first.
func murmur32(w uint32) uint32 {
	return murmurFinish(murmurBlock(0, w), 4)
}

// le64 and le32 read the 8 or 4 bytes at p, low byte first: one load on a
// little-endian machine.
func le64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }

func le32(p unsafe.Pointer) uint32 { return binary.LittleEndian.Uint32((*[4]byte)(p)[:]) }

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

// keyBytesEqual is Kokkos's pod_equal_to: whether the bytes of *a and *b
// are the same. Keys without floats compare with == instead, which is the
// same for them (they have no padding).
func keyBytesEqual[K any](a, b *K) bool {
	n := unsafe.Sizeof(*a)
	if n == 8 {
		return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(a))[:]) == binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(b))[:])
	}
	return unsafe.String((*byte)(unsafe.Pointer(a)), n) == unsafe.String((*byte)(unsafe.Pointer(b)), n)
}

// hasFloats reports whether t holds a float or complex number, whose
// == differs from the comparison of its bytes.
func hasFloats(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return hasFloats(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasFloats(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
