package cuda

import (
	"fmt"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// Unordered maps (containers.UnorderedMap) in Go kernels. A map
// parameter, bound to the C name m, is given as six views, gkk_m_used,
// gkk_m_heads, gkk_m_next, gkk_m_flags, gkk_m_keys and gkk_m_values (none
// for a set), and a scalar, gkk_m_mode (bit 0: the map is between BeginErase and EndErase,
// every insert fails; bit 1: inserts are bounded to 32 bitset blocks).
// The body makes them one gkx_umap value, and the map nodes call the
// functions of umapSupport: Kokkos's algorithm, as containers' host code
// and kernelir's Machine run it, with the same hash (pod_hash), so that a
// map filled on the device is read on the host after a copy. Keys and
// values must be 4 or 8 bytes: the views this package binds.

// umapSupport is the device code of the map nodes.
const umapSupport = `// containers.UnorderedMap: Kokkos's UnorderedMap on its arrays. used is
// the bitset of the indices in use, heads the first index of each hash
// list, next each index's successor, flags[0] the failed-insert flag.
#define GKX_UMAP_INVALID 0xffffffffu
template <class K, class V> struct gkx_umap {
	unsigned int* used;
	unsigned int* heads;
	unsigned int* next;
	unsigned int* flags;
	K* keys;
	V* values; // 0 for a set
	unsigned int capacity, nheads, nblocks, mode;
};
__device__ static unsigned int gkx_umap_rotl(unsigned int x, int r) { return (x << r) | (x >> (32 - r)); }
__device__ static unsigned int gkx_umap_block(unsigned int h, unsigned int k) {
	k *= 0xcc9e2d51u;
	k = gkx_umap_rotl(k, 15);
	k *= 0x1b873593u;
	h ^= k;
	h = gkx_umap_rotl(h, 13);
	return h * 5u + 0xe6546b64u;
}
// gkx_umap_bits returns the bytes of key k, 4 or 8 of them, low first.
__device__ static gk_u64 gkx_umap_bits(int k) { return (unsigned int)k; }
__device__ static gk_u64 gkx_umap_bits(unsigned int k) { return k; }
__device__ static gk_u64 gkx_umap_bits(gk_i64 k) { return (gk_u64)k; }
__device__ static gk_u64 gkx_umap_bits(gk_u64 k) { return k; }
__device__ static gk_u64 gkx_umap_bits(float k) { return __float_as_uint(k); }
__device__ static gk_u64 gkx_umap_bits(double k) { return (gk_u64)__double_as_longlong(k); }
// gkx_umap_arg makes a key or value argument a non-deduced context: the
// map's type decides K and V.
template <class T> struct gkx_umap_arg { typedef T t; };
// gkx_umap_hash is Kokkos's pod_hash: MurmurHash3 (x86, 32-bit, seed 0)
// of the key's bytes.
template <class K> __device__ static unsigned int gkx_umap_hash(K k) {
	const gk_u64 u = gkx_umap_bits(k);
	unsigned int h = gkx_umap_block(0u, (unsigned int)u);
	if (sizeof(K) == 8) {
		h = gkx_umap_block(h, (unsigned int)(u >> 32));
	}
	h ^= (unsigned int)sizeof(K);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}
template <class K> __device__ static bool gkx_umap_eq(K a, K b) { return gkx_umap_bits(a) == gkx_umap_bits(b); }
template <class K> __device__ static K gkx_umap_load_key(const K* p) {
	return *(const volatile K*)p;
}
__device__ static unsigned int gkx_umap_load(const unsigned int* p) { return *(const volatile unsigned int*)p; }
template <class K, class V> __device__ static bool gkx_umap_valid_at(const gkx_umap<K, V>& m, unsigned int i) {
	return i < m.capacity && ((gkx_umap_load(&m.used[i >> 5]) >> (i & 31u)) & 1u) != 0u;
}
template <class K, class V> __device__ static unsigned int gkx_umap_find(const gkx_umap<K, V>& m, typename gkx_umap_arg<K>::t k) {
	unsigned int curr = gkx_umap_load(&m.heads[gkx_umap_hash(k) % m.nheads]);
	while (curr != GKX_UMAP_INVALID && !gkx_umap_eq(gkx_umap_load_key(&m.keys[curr]), k)) {
		curr = gkx_umap_load(&m.next[curr]);
	}
	return curr;
}
template <class K, class V> __device__ static bool gkx_umap_exists(const gkx_umap<K, V>& m, typename gkx_umap_arg<K>::t k) {
	const unsigned int i = gkx_umap_find(m, k);
	return i != GKX_UMAP_INVALID && gkx_umap_valid_at(m, i);
}
// KeyAt and ValueAt of an index at or above the capacity (Go panics)
// give the zero key or value.
template <class K, class V> __device__ static K gkx_umap_key_at(const gkx_umap<K, V>& m, unsigned int i) {
	return i < m.capacity ? gkx_umap_load_key(&m.keys[i]) : (K)0;
}
template <class K, class V> __device__ static V gkx_umap_value_at(const gkx_umap<K, V>& m, unsigned int i) {
	return i < m.capacity ? *(const volatile V*)&m.values[i] : (V)0;
}
// gkx_umap_add is UnorderedMapAtomicAdd's op: *p += v, atomically.
__device__ static void gkx_umap_add(int* p, int v) { atomicAdd(p, v); }
__device__ static void gkx_umap_add(unsigned int* p, unsigned int v) { atomicAdd(p, v); }
__device__ static void gkx_umap_add(gk_i64* p, gk_i64 v) { atomicAdd((unsigned long long*)p, (unsigned long long)v); }
__device__ static void gkx_umap_add(gk_u64* p, gk_u64 v) { atomicAdd((unsigned long long*)p, (unsigned long long)v); }
__device__ static void gkx_umap_add(float* p, float v) { atomicAdd(p, v); }
__device__ static void gkx_umap_add(double* p, double v) { atomicAdd(p, v); }
__device__ static void gkx_umap_add(unsigned char*, unsigned char) {}
// gkx_umap_unset_near is Kokkos's Bitset::find_any_unset_near: a clear
// bit in the block of hint, scanning from hint's offset forward or
// backward as dir says; when the block is full, the same offset in the
// next or previous block. It returns the bit, or the next hint with bit
// 32 of the result set.
template <class K, class V> __device__ static gk_u64 gkx_umap_unset_near(const gkx_umap<K, V>& m, unsigned int hint, unsigned int dir) {
	unsigned int b = hint >> 5;
	if (b >= m.nblocks) {
		b = 0u;
	}
	unsigned int offset = hint & 31u;
	unsigned int block = ~gkx_umap_load(&m.used[b]);
	if ((m.capacity & 31u) != 0u && b == m.nblocks - 1u) {
		block &= (1u << (m.capacity & 31u)) - 1u;
	}
	if (block == 0u) {
		if (dir & 2u) {
			b = b == 0u ? m.nblocks - 1u : b - 1u;
		} else {
			b = b + 1u >= m.nblocks ? 0u : b + 1u;
		}
		return (1ull << 32) | (gk_u64)(b * 32u + offset);
	}
	if (dir & 1u) {
		offset = (offset + 31u) & 31u;
	}
	block = offset == 0u ? block : (block >> offset) | (block << (32u - offset));
	const unsigned int pos = (dir & 1u) ? 31u - (unsigned int)__clz(block) : (unsigned int)(__ffs(block) - 1);
	return (gk_u64)(((pos + offset) & 31u) + b * 32u);
}
// gkx_umap_insert is Kokkos's insert: it returns the result's status
// bits (success 1<<31, existing 1<<30, freed existing 1<<29, the list
// position below) times 2^32 plus the index, GKX_UMAP_INVALID when the
// insert failed. With add, v is added to an existing key's value
// (InsertOp with UnorderedMapAtomicAdd).
template <class K, class V> __device__ static gk_u64 gkx_umap_insert(const gkx_umap<K, V>& m, typename gkx_umap_arg<K>::t k, typename gkx_umap_arg<V>::t v, bool add) {
	unsigned int status = 0u;
	if (m.mode & 1u) {
		return GKX_UMAP_INVALID;
	}
	const unsigned int max_attempts = (m.mode & 2u) && 32u < m.nblocks ? 32u : m.nblocks;
	const unsigned int list = gkx_umap_hash(k) % m.nheads;
	unsigned int* curr_ptr = &m.heads[list];
	unsigned int new_index = GKX_UMAP_INVALID;
	unsigned int hint = (unsigned int)((gk_u64)list * m.capacity / m.nheads);
	unsigned int attempts = 0u;
	for (;;) {
		unsigned int curr = gkx_umap_load(curr_ptr);
		while (curr != GKX_UMAP_INVALID && !gkx_umap_eq(gkx_umap_load_key(&m.keys[curr]), k)) {
			if ((status & 0x1fffffffu) < 0x1fffffffu) {
				status++;
			}
			hint = curr;
			curr_ptr = &m.next[curr];
			curr = gkx_umap_load(curr_ptr);
		}
		if (curr != GKX_UMAP_INVALID) {
			unsigned int s = (1u << 30) | (status & 0x1fffffffu);
			if (new_index != GKX_UMAP_INVALID) {
				atomicAnd(&m.used[new_index >> 5], ~(1u << (new_index & 31u)));
				s |= 1u << 29;
			}
			if (add && m.values) {
				gkx_umap_add(&m.values[curr], v);
			}
			return ((gk_u64)s << 32) | curr;
		}
		if (new_index == GKX_UMAP_INVALID) {
			const gk_u64 r = gkx_umap_unset_near(m, hint, list);
			hint = (unsigned int)r;
			if (r >> 32) {
				if (++attempts >= max_attempts) {
					atomicOr(m.flags, 1u);
					return ((gk_u64)status << 32) | GKX_UMAP_INVALID;
				}
			} else if (hint < m.capacity) {
				const unsigned int mask = 1u << (hint & 31u);
				if ((atomicOr(&m.used[hint >> 5], mask) & mask) == 0u) {
					new_index = hint;
					m.keys[new_index] = k;
					if (m.values) {
						m.values[new_index] = v;
					}
					// The key and value are written before the index is
					// linked where other threads find it.
					__threadfence();
				}
			}
		} else if (gkx_umap_load(m.flags) != 0u) {
			if (atomicCAS(curr_ptr, GKX_UMAP_INVALID, new_index) == GKX_UMAP_INVALID) {
				return ((gk_u64)((1u << 31) | (status & 0x1fffffffu)) << 32) | new_index;
			}
			atomicAnd(&m.used[new_index >> 5], ~(1u << (new_index & 31u)));
			return ((gk_u64)status << 32) | GKX_UMAP_INVALID;
		}
		if (new_index != GKX_UMAP_INVALID && atomicCAS(curr_ptr, GKX_UMAP_INVALID, new_index) == GKX_UMAP_INVALID) {
			return ((gk_u64)((1u << 31) | (status & 0x1fffffffu)) << 32) | new_index;
		}
	}
}
`

func init() {
	irSupport = append(irSupport, struct{ name, src string }{"umap", umapSupport})
}

// umapConv is the conv of a map parameter (see emitKernel): it binds the
// views and the scalar umapNames names.
const umapConv = "umap"

// umapNames returns the names of the views a map parameter bound as name
// is given, in the order of backend.UMapArrays, and of its mode scalar.
func umapNames(name string) (views [6]string, mode string) {
	for n, a := range backend.UMapArrays {
		views[n] = "gkk_" + name + "_" + a
	}
	return views, "gkk_" + name + "_mode"
}

// umapElem reports whether a map's keys or values of type t are bound:
// 4 or 8 bytes.
func umapElem(t kernelir.Type) bool { return irCUDAElem(t) || t == kernelir.Int }

// umapParam declares map parameter pr in the kernel's body, as a gkx_umap
// value made of its bindings, and returns the name it is bound as.
func (e *irFunc) umapParam(pr kernelir.Param) string {
	if !umapElem(pr.Type) || pr.Value != kernelir.Invalid && !umapElem(pr.Value) {
		vt := "none"
		if pr.Value != kernelir.Invalid {
			vt = pr.Value.String()
		}
		e.hostOnly("map %s has keys of type %s and values of type %s; package cuda binds maps of keys and values of 4 or 8 bytes (float32, float64, int32, int64, int, uint32, uint64) only, so the kernel runs on the host only",
			pr.Name, pr.Type, vt)
	}
	name := e.declare(pr.Name)
	v, mode := umapNames(name)
	vt, values := "unsigned char", "(unsigned char*)0"
	if pr.Value != kernelir.Invalid {
		vt, values = irCType(pr.Value), v[5]+".data()"
	}
	e.use("umap")
	e.line("const gkx_umap<%s, %s> %s = {%s.data(), %s.data(), %s.data(), %s.data(), %s.data(), %s, (unsigned int)%s.extent(0), (unsigned int)%s.extent(0), (unsigned int)%s.extent(0), %s};",
		irCType(pr.Type), vt, name, v[0], v[1], v[2], v[3], v[4], values, v[4], v[1], v[0], mode)
	e.bind(pr.Name, irName{c: name})
	return name
}

// umapExpr translates the map node x, and reports whether it is one.
func (e *irFunc) umapExpr(x kernelir.Expr) (irCx, bool) {
	switch x := x.(type) {
	case *kernelir.UMapInsert:
		m := e.lookup(x.Map).c
		v := e.expr(x.Value).s
		if c, ok := x.Value.(*kernelir.Const); ok && c.T == kernelir.Int8 {
			v = "(unsigned char)0" // a set's
		}
		add := "false"
		if x.Add {
			add = "true"
		}
		call := "gkx_umap_insert(" + m + ", " + e.expr(x.Key).s + ", " + v + ", " + add + ")"
		switch x.Result {
		case "success":
			return irCx{"((" + call + " >> 63) != 0ull)", irPPrimary}, true
		case "existing":
			return irCx{"(((" + call + " >> 62) & 1ull) != 0ull)", irPPrimary}, true
		case "freed":
			return irCx{"(((" + call + " >> 61) & 1ull) != 0ull)", irPPrimary}, true
		case "failed":
			return irCx{"((unsigned int)" + call + " == GKX_UMAP_INVALID)", irPPrimary}, true
		case "index":
			return irCx{"((unsigned int)" + call + ")", irPPrimary}, true
		}
		return irCx{"(void)" + call, irPUnary}, true
	case *kernelir.UMapFind:
		fn := "gkx_umap_find"
		if x.Exists {
			fn = "gkx_umap_exists"
		}
		return irCx{fn + "(" + e.lookup(x.Map).c + ", " + e.expr(x.Key).s + ")", irPPrimary}, true
	case *kernelir.UMapAt:
		return irCx{"gkx_umap_" + map[string]string{"validat": "valid_at", "keyat": "key_at", "valueat": "value_at"}[x.Op] + "(" + e.lookup(x.Map).c + ", " + e.expr(x.I).s + ")", irPPrimary}, true
	case *kernelir.UMapCapacity:
		return irCx{e.lookup(x.Map).c + ".capacity", irPPrimary}, true
	}
	return irCx{}, false
}

// bindUMap binds arg, the map of parameter p bound as name: its arrays as
// views, its mode as a scalar.
func bindUMap(a *argSet, label string, p *backend.Param, name string, arg *backend.Arg) error {
	u := arg.UMap
	if u == nil {
		return fmt.Errorf("%w: %q: map %s not bound", ErrBinding, label, p.Name)
	}
	names, mode := umapNames(name)
	for n, d := range u.Views() {
		kind := backend.KindUint32
		switch n {
		case 4:
			kind = p.Elem
		case 5:
			if p.Value == backend.KindInvalid {
				continue
			}
			kind = p.Value
		}
		e, ok := elemOfKind(kind)
		if !ok || d.Elem != kind || d.Rank != 1 {
			return fmt.Errorf("%w: %q: map %s: its %s are %v: the device binds maps of keys and values of 4 or 8 bytes (float32, float64, int32, int64, int, uint32, uint64) only", backend.ErrUnsupported, label, p.Name, backend.UMapArrays[n], d.Elem)
		}
		a.views = append(a.views, viewArg{name: names[n], elem: e, d: *d})
	}
	bits := uint64(0)
	if u.Erasable {
		bits |= 1
	}
	if u.Bounded {
		bits |= 2
	}
	a.scalars = append(a.scalars, scalarArg{mode, elemUint32, bits})
	return nil
}
