package containers

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// UnorderedMapInvalidIndex is the index Find returns for an absent key and
// an insert result's Index when the insert failed: Kokkos's
// UnorderedMapInvalidIndex.
const UnorderedMapInvalidIndex = ^uint32(0)

// ErrUnorderedMapCapacity is wrapped by the error NewUnorderedMap and
// Rehash return for a capacity that an UnorderedMap cannot hold: a negative
// hint, or one whose rounded capacity does not fit in 32 bits.
var ErrUnorderedMapCapacity = errors.New("containers: UnorderedMap capacity out of range")

// maxUnorderedMapHint is the largest capacity hint: its rounded capacity
// (7/6 of it, rounded up to a multiple of 128) stays below 2^32-1, so that
// every index differs from UnorderedMapInvalidIndex.
const maxUnorderedMapHint = (math.MaxUint32 - 255) / 7 * 6

// An UnorderedMap is Kokkos's Kokkos::UnorderedMap: a hash map of fixed
// capacity whose Insert, Find and Exists may be called by many goroutines
// at once (the bodies of a parallel pattern) without a lock. Each entry
// lives at an index in [0, Capacity()) that does not change while it is
// in the map: Find returns it, KeyAt, ValueAt and ValidAt read the entry
// at an index, and a loop over the indices visits every entry.
//
// The capacity is fixed when the map is made (and by Rehash): an Insert
// that finds no free index fails, sets the flag FailedInsert reports, and
// leaves the map as it was; the caller then rehashes to a larger capacity
// and inserts again, as with Kokkos.
//
// Keys are compared and hashed by their bytes, as Kokkos's pod_equal_to
// and pod_hash (MurmurHash3, x86 32-bit, seed 0) do: K must be a
// fixed-size number, a bool, or an array or struct of those without
// padding (NewUnorderedMap panics otherwise). Two float keys are thus
// equal when their bits are: 0.0 and -0.0 differ, a NaN equals itself.
//
// V is any type; an UnorderedMap[K, struct{}] (UnorderedSet) is Kokkos's
// set form, UnorderedMap<Key, void>, and stores no values.
//
// Concurrency: Insert, Find, Exists, ValidAt, KeyAt and ValueAt may run
// at once in any number of goroutines; a key an Insert returned is found
// by every Find that starts after it returned, with its key and value
// written. Reading an entry (KeyAt, ValueAt) while another goroutine
// inserts that entry is a data race, as is ValueAt of an entry whose
// value another goroutine adds to (InsertOp with UnorderedMapAtomicAdd).
// Clear, Rehash, BeginErase, EndErase, Size and iteration must not run
// while other goroutines insert: an Insert or Find that starts during a
// Clear or Rehash panics, and the race detector reports the rest.
//
// An UnorderedMap is a small value that refers to its storage: copies
// share it, and a Rehash or Clear through one copy is seen through all.
// The zero UnorderedMap has no storage; its methods panic.
type UnorderedMap[K comparable, V any] struct {
	s *umapState[K, V]
}

// UnorderedSet is the set form of UnorderedMap, Kokkos's
// UnorderedMap<Key, void>: its Insert takes a key only.
type UnorderedSet[K comparable] = UnorderedMap[K, struct{}]

// umapState is a map's storage, the arrays of Kokkos's implementation:
//
//   - used, a bitset of the indices that hold an entry (Kokkos's
//     m_available_indexes), 32 bits a block, set and cleared atomically;
//   - heads, one list per hash value modulo len(heads) (a prime), the
//     index of its first entry or UnorderedMapInvalidIndex;
//   - next, the index after each entry in its list (one more element, so
//     that next[UnorderedMapInvalidIndex+1]... is never read out of range);
//   - keys and values, by index.
//
// An Insert takes a clear bit of used near the place its list maps to,
// writes the key and value there, and links the index at the end of its
// list with a compare-and-swap of the invalid index that ends the list: a
// key becomes findable only once written. Two goroutines inserting the
// same key race to link it; the loser finds the winner's entry in the list
// and gives its own index back.
type umapState[K comparable, V any] struct {
	label    string
	capacity uint32
	lastMask uint32 // the bits of the last block that are indices; 0: all
	bounded  bool   // an Insert gives up after 32 blocks without a free bit
	kbytes   bool   // keys hold floats: compare them by their bytes, not ==

	used   []uint32
	heads  []uint32
	next   []uint32
	keys   []K
	values []V

	// failed is the flag FailedInsert reports: failedBox, or the first
	// element of the flags view of storage in a memory space.
	failed    *atomic.Uint32
	failedBox atomic.Uint32
	erasable  atomic.Bool

	// dev holds the arrays as views when the map lives in a memory space
	// other than HostSpace (unorderedmap_space.go); the slices above then
	// alias the views' memory where the host can access it, and are nil
	// where it cannot (device is true: the host methods panic).
	dev    *umapViews[K, V]
	device bool
	// busy names the operation (Clear, Rehash) that replaces or rewrites
	// the arrays while it runs; Insert and Find panic when they see one.
	busy atomic.Pointer[string]
}

// UnorderedMapInsertResult is what Insert returns: Kokkos's
// UnorderedMapInsertResult.
type UnorderedMapInsertResult struct {
	index  uint32
	status uint32
}

const (
	insertSuccess       = 1 << 31
	insertExisting      = 1 << 30
	insertFreedExisting = 1 << 29
	insertListMask      = insertFreedExisting - 1
)

// Success reports whether the insert added the key.
func (r UnorderedMapInsertResult) Success() bool { return r.status&insertSuccess != 0 }

// Existing reports whether the key was in the map already: the map is
// unchanged, except for the value an InsertOp's op combines into it.
func (r UnorderedMapInsertResult) Existing() bool { return r.status&insertExisting != 0 }

// Failed reports whether the insert found no free index (or the map was
// between BeginErase and EndErase): the key is not in the map.
func (r UnorderedMapInsertResult) Failed() bool { return r.index == UnorderedMapInvalidIndex }

// FreedExisting reports, for an existing key, whether the insert had
// taken an index for it and gave it back on finding that another
// goroutine had linked the same key first.
func (r UnorderedMapInsertResult) FreedExisting() bool {
	return r.status&insertFreedExisting != 0
}

// ListPosition is the number of entries the insert passed in the key's
// hash list before it found the key or the list's end.
func (r UnorderedMapInsertResult) ListPosition() uint32 { return r.status & insertListMask }

// Index is the key's index: where it was inserted, or where it was found;
// UnorderedMapInvalidIndex when the insert failed.
func (r UnorderedMapInsertResult) Index() uint32 { return r.index }

// String describes the result, for messages.
func (r UnorderedMapInsertResult) String() string {
	switch {
	case r.Success():
		return fmt.Sprintf("success at %d", r.index)
	case r.Existing():
		return fmt.Sprintf("existing at %d", r.index)
	default:
		return "failed"
	}
}

// An UnorderedMapInsertOp combines the value an Insert is given into the
// value of a key that is in the map already: Kokkos's
// UnorderedMapInsertOpTypes. Op may run in many goroutines at once for the
// same entry.
type UnorderedMapInsertOp[V any] interface {
	Op(value *V, v V)
}

// UnorderedMapNoOp leaves an existing key's value as it is: what Insert
// does, Kokkos's UnorderedMapInsertOpTypes::NoOp.
type UnorderedMapNoOp[V any] struct{}

// Op does nothing.
func (UnorderedMapNoOp[V]) Op(*V, V) {}

// UnorderedMapAtomicAdd adds the inserted value to an existing key's value
// atomically: Kokkos's UnorderedMapInsertOpTypes::AtomicAdd.
type UnorderedMapAtomicAdd[V kokkos.Number] struct{}

// Op adds v to *value with kokkos.AtomicAdd.
func (UnorderedMapAtomicAdd[V]) Op(value *V, v V) { kokkos.AtomicAdd(value, v) }

// NewUnorderedMap returns a map with room for at least capacityHint
// entries: its capacity is Kokkos's, 7/6 of the hint rounded up to a
// multiple of 128 (128 for a hint of 0), and its hash lists number the
// smallest prime at least the capacity. The label names the map in
// panics. It panics when K is not a key type (see UnorderedMap), and
// returns an error wrapping ErrUnorderedMapCapacity for a negative hint
// or one above about 3.68e9.
//
// The options choose where the map's arrays live: kokkos.InSpace(space)
// puts them in views in that space (a device's memory, such as
// cuda.Space, for kernels that run there; see Space and Release) instead
// of Go memory. They are checked as kokkos.NewView1 checks them, and an
// error of theirs or of the allocation is returned; memory traits are
// refused (kokkos.ErrOption), and the arrays are always initialized.
func NewUnorderedMap[K comparable, V any](label string, capacityHint int, opts ...kokkos.Option) (UnorderedMap[K, V], error) {
	if err := checkKeyType[K](); err != nil {
		panic(fmt.Sprintf("containers: NewUnorderedMap(%q): %v", label, err))
	}
	capacity, err := umapCapacity("NewUnorderedMap", label, capacityHint)
	if err != nil {
		return UnorderedMap[K, V]{}, err
	}
	s := &umapState[K, V]{label: label, kbytes: hasFloats(reflect.TypeFor[K]())}
	if len(opts) > 0 {
		if err := s.allocateIn(capacity, opts); err != nil {
			return UnorderedMap[K, V]{}, err
		}
	} else {
		s.allocate(capacity)
	}
	s.bounded = true
	return UnorderedMap[K, V]{s}, nil
}

// NewUnorderedSet returns a set with room for at least capacityHint keys,
// as NewUnorderedMap does.
func NewUnorderedSet[K comparable](label string, capacityHint int, opts ...kokkos.Option) (UnorderedSet[K], error) {
	return NewUnorderedMap[K, struct{}](label, capacityHint, opts...)
}

// UnorderedMapCapacity returns the capacity a map made for capacityHint
// entries has, Kokkos's calculate_capacity: 7/6 of the hint rounded up to
// a multiple of 128, and 128 for a hint of 0. It panics for a hint that
// NewUnorderedMap refuses.
func UnorderedMapCapacity(capacityHint int) uint32 {
	c, err := umapCapacity("UnorderedMapCapacity", "", capacityHint)
	if err != nil {
		panic(err.Error())
	}
	return c
}

func umapCapacity(fn, label string, hint int) (uint32, error) {
	if hint < 0 || hint > maxUnorderedMapHint {
		return 0, fmt.Errorf("containers: %s(%q, %d): the capacity hint is outside [0, %d]: %w", fn, label, hint, maxUnorderedMapHint, ErrUnorderedMapCapacity)
	}
	if hint == 0 {
		return 128, nil
	}
	return uint32((7*uint64(hint)/6 + 127) / 128 * 128), nil
}

// allocate makes s's arrays empty for capacity entries.
func (s *umapState[K, V]) allocate(capacity uint32) {
	s.capacity = capacity
	s.lastMask = 0
	if r := capacity % 32; r != 0 {
		s.lastMask = 1<<r - 1
	}
	s.used = make([]uint32, (capacity+31)/32)
	s.heads = make([]uint32, nextPrime(capacity))
	s.next = make([]uint32, capacity+1)
	s.keys = make([]K, capacity)
	s.values = make([]V, capacity)
	fillInvalid(s.heads)
	fillInvalid(s.next)
	if s.failed == nil {
		s.failed = &s.failedBox
	}
	s.failed.Store(0)
	s.erasable.Store(false)
}

func fillInvalid(a []uint32) {
	for i := range a {
		a[i] = UnorderedMapInvalidIndex
	}
}

// nextPrime returns the smallest prime at least n (n >= 2).
func nextPrime(n uint32) uint32 {
	for p := uint64(max(n, 2)); ; p++ {
		if isPrime(p) {
			return uint32(p)
		}
	}
}

func isPrime(p uint64) bool {
	if p < 4 {
		return p >= 2
	}
	if p%2 == 0 || p%3 == 0 {
		return false
	}
	for d := uint64(5); d*d <= p; d += 6 {
		if p%d == 0 || p%(d+2) == 0 {
			return false
		}
	}
	return true
}

// state returns m's storage, or panics for the zero map. It is small
// enough to inline, as are the methods that call it.
func (m UnorderedMap[K, V]) state(method string) *umapState[K, V] {
	if m.s == nil {
		zeroMapPanic(method)
	}
	return m.s
}

func zeroMapPanic(method string) { panic(zeroMapMessage(method)) }

func zeroMapMessage(method string) string {
	return "containers: UnorderedMap." + method + " of the zero UnorderedMap: make one with NewUnorderedMap"
}

// Label returns the label the map was made with.
func (m UnorderedMap[K, V]) Label() string { return m.state("Label").label }

// Capacity returns the number of indices: every entry's index is below it.
func (m UnorderedMap[K, V]) Capacity() uint32 { return m.state("Capacity").capacity }

// HashCapacity returns the number of hash lists.
func (m UnorderedMap[K, V]) HashCapacity() uint32 { return m.state("HashCapacity").hashCapacity() }

// Size returns the number of entries. It counts the bits of the indices
// in use, and is exact only when no goroutine inserts or erases.
func (m UnorderedMap[K, V]) Size() uint32 {
	s := m.state("Size")
	if s.device {
		return s.deviceSize()
	}
	n := 0
	for i := range s.used {
		n += bits.OnesCount32(atomic.LoadUint32(&s.used[i]))
	}
	return uint32(n)
}

// FailedInsert reports whether an Insert failed for want of a free index
// since the map was made, cleared or rehashed.
func (m UnorderedMap[K, V]) FailedInsert() bool {
	s := m.state("FailedInsert")
	if s.device {
		return s.deviceFailed()
	}
	return s.failed.Load() != 0
}

// ResetFailedInsert clears the flag FailedInsert reports: Kokkos's
// reset_failed_insert_flag.
func (m UnorderedMap[K, V]) ResetFailedInsert() {
	s := m.state("ResetFailedInsert")
	if s.device {
		s.deviceFill("ResetFailedInsert", false)
		return
	}
	s.failed.Store(0)
}

// ValidAt reports whether index i holds an entry; false for any i at or
// above the capacity, UnorderedMapInvalidIndex included.
func (m UnorderedMap[K, V]) ValidAt(i uint32) bool {
	s := m.s
	if s == nil {
		zeroMapPanic("ValidAt")
	}
	// The capacity is a multiple of 32: i is below it when its block is
	// in used (which the compiler then knows, and checks no bounds).
	if b := uint(i / 32); b < uint(len(s.used)) {
		return atomic.LoadUint32(&s.used[b])&(1<<(i%32)) != 0
	}
	if s.device {
		s.devicePanic("ValidAt")
	}
	return false
}

// KeyAt returns the key at index i. It panics for i at or above the
// capacity.
func (m UnorderedMap[K, V]) KeyAt(i uint32) K {
	if s := m.s; s != nil && uint(i) < uint(len(s.keys)) {
		return s.keys[i]
	}
	panic(umapAtError{m, "KeyAt", i})
}

// ValueAt returns the value at index i. It panics for i at or above the
// capacity.
func (m UnorderedMap[K, V]) ValueAt(i uint32) V {
	if s := m.s; s != nil && uint(i) < uint(len(s.values)) {
		return s.values[i]
	}
	panic(umapAtError{m, "ValueAt", i})
}

// ValuePtr returns a pointer to the value at index i, for changing it in
// place (Kokkos's value_at returns a reference); with many goroutines,
// through kokkos.AtomicAdd and the like. It panics for i at or above the
// capacity.
func (m UnorderedMap[K, V]) ValuePtr(i uint32) *V {
	if s := m.s; s != nil && uint(i) < uint(len(s.values)) {
		return &s.values[i]
	}
	panic(umapAtError{m, "ValuePtr", i})
}

// atMessage is the message of the panic of method(i), for the zero map or
// an index at or above the capacity.
func (m UnorderedMap[K, V]) atMessage(method string, i uint32) string {
	s := m.s
	switch {
	case s == nil:
		return zeroMapMessage(method)
	case s.device:
		return s.deviceMessage(method)
	case i == UnorderedMapInvalidIndex:
		return fmt.Sprintf("containers: UnorderedMap %q: %s(UnorderedMapInvalidIndex): the index of an absent key or a failed insert (capacity %d)", s.label, method, s.capacity)
	}
	return fmt.Sprintf("containers: UnorderedMap %q: %s(%d): index out of range [0, %d)", s.label, method, i, s.capacity)
}

// busyPanic is the panic of method for the zero map, a map whose entries
// the host cannot reach, or when it started during a Clear or Rehash
// (named if it still runs).
func (s *umapState[K, V]) busyPanic(method string) {
	if s == nil {
		zeroMapPanic(method)
	}
	if s.device {
		s.devicePanic(method)
	}
	op := "Clear or Rehash"
	if p := s.busy.Load(); p != nil {
		op = *p
	}
	panic(fmt.Sprintf("containers: UnorderedMap %q: %s during %s: Clear and Rehash must not run while other goroutines use the map", s.label, method, op))
}

// Find returns the index of key k, or UnorderedMapInvalidIndex when k is
// not in the map. Between BeginErase and EndErase it may return the index
// of an erased key, whose ValidAt is false, as Kokkos's find does.
func (m UnorderedMap[K, V]) Find(k K) uint32 { return m.s.lookup("Find", k) }

// Exists reports whether key k is in the map.
func (m UnorderedMap[K, V]) Exists(k K) bool {
	i := m.s.lookup("Exists", k)
	return i != UnorderedMapInvalidIndex && atomic.LoadUint32(&m.s.used[i/32])&(1<<(i%32)) != 0
}

// lookup returns the index of key k, or UnorderedMapInvalidIndex, for
// method, after checking that s is a map's storage and that no Clear or
// Rehash runs: Kokkos's find, one call from Find. A 4- or 8-byte key is
// hashed inline and compared by its bits (what == and Kokkos's
// pod_equal_to both are for such keys), in a walk of the list that checks
// no bounds: every index in a list is below the capacity.
func (s *umapState[K, V]) lookup(method string, k K) uint32 {
	if s == nil || s.busy.Load() != nil || s.device {
		s.busyPanic(method)
		return UnorderedMapInvalidIndex // not reached: nothing is kept across the call
	}
	switch unsafe.Sizeof(k) {
	case 8:
		w := le64(unsafe.Pointer(&k))
		curr := atomic.LoadUint32(s.headOf(murmur64(w)))
		for curr != UnorderedMapInvalidIndex && le64(s.keyAt(curr)) != w {
			curr = atomic.LoadUint32(s.nextAt(curr))
		}
		return curr
	case 4:
		w := le32(unsafe.Pointer(&k))
		curr := atomic.LoadUint32(s.headOf(murmur32(w)))
		for curr != UnorderedMapInvalidIndex && le32(s.keyAt(curr)) != w {
			curr = atomic.LoadUint32(s.nextAt(curr))
		}
		return curr
	}
	heads, next, keys := s.heads, s.next, s.keys
	curr := atomic.LoadUint32(&heads[hashOfKey(&k)%uint32(len(heads))])
	if s.kbytes {
		for curr != UnorderedMapInvalidIndex && !keyBytesEqual(&keys[curr], &k) {
			curr = atomic.LoadUint32(&next[curr])
		}
		return curr
	}
	for curr != UnorderedMapInvalidIndex && keys[curr] != k {
		curr = atomic.LoadUint32(&next[curr])
	}
	return curr
}

// headOf returns the head of the list of hash h.
func (s *umapState[K, V]) headOf(h uint32) *uint32 { return s.headAt(h % uint32(len(s.heads))) }

// headAt returns the head of list l, which must be below len(s.heads).
func (s *umapState[K, V]) headAt(l uint32) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.heads)), uintptr(l)*4))
}

// keyAt and nextAt return the key and the next index of entry i, which
// must be below the capacity (they check no bounds).
func (s *umapState[K, V]) keyAt(i uint32) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.keys)), uintptr(i)*unsafe.Sizeof(s.keys[0]))
}

func (s *umapState[K, V]) nextAt(i uint32) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.next)), uintptr(i)*4))
}

// equal reports whether keys *a and *b are the same: Kokkos's
// pod_equal_to.
func (s *umapState[K, V]) equal(a, b *K) bool {
	if s.kbytes {
		return keyBytesEqual(a, b)
	}
	return *a == *b
}

// Insert adds key k with value v, unless k is in the map already (whose
// value stays as it is). The result tells which (Success, Existing) and
// the key's index, or that no free index was found (Failed: the map is
// full, or bounded and crowded near the key's place; FailedInsert then
// reports true). Between BeginErase and EndErase every Insert fails.
func (m UnorderedMap[K, V]) Insert(k K, v V) UnorderedMapInsertResult {
	return m.s.insert("Insert", k, v, nil)
}

// InsertOp is Insert with an op that combines v into the value of a key
// that is in the map already, as Kokkos's insert(k, v, op) does:
// UnorderedMapAtomicAdd adds it.
func (m UnorderedMap[K, V]) InsertOp(k K, v V, op UnorderedMapInsertOp[V]) UnorderedMapInsertResult {
	return m.s.insert("InsertOp", k, v, op)
}

// InsertKey adds key k with V's zero value: the insert of a set.
func (m UnorderedMap[K, V]) InsertKey(k K) UnorderedMapInsertResult {
	var v V
	return m.s.insert("InsertKey", k, v, nil)
}

// boundedAttempts is Kokkos's bounded_find_attempts: the blocks of the
// bitset a bounded insert looks at for a free index before it fails.
const boundedAttempts = 32

// The scan directions of Kokkos's Bitset::find_any_unset_near, taken from
// the low bits of the hash list's number so that inserts spread.
const (
	scanReverse      = 1
	moveHintBackward = 2
)

// insert is Kokkos's insert, one call from Insert, InsertOp and InsertKey
// (method, for the panic of the zero map). The hash of a 4- or 8-byte key
// is inlined, the walk of the list is a loop without calls, and the index
// hint of an empty list (a division) is worked out only when needed.
func (s *umapState[K, V]) insert(method string, k K, v V, op UnorderedMapInsertOp[V]) UnorderedMapInsertResult {
	if s == nil || s.busy.Load() != nil || s.device {
		s.insertPanic(method)
		return UnorderedMapInsertResult{} // not reached: nothing is kept across the call
	}
	r := UnorderedMapInsertResult{index: UnorderedMapInvalidIndex}
	if s.erasable.Load() {
		return r
	}
	// A 4- or 8-byte key is hashed inline and compared by its bits, w,
	// as in lookup.
	var h uint32
	var w uint64
	switch unsafe.Sizeof(k) {
	case 8:
		w = le64(unsafe.Pointer(&k))
		h = murmur64(w)
	case 4:
		w = uint64(le32(unsafe.Pointer(&k)))
		h = murmur32(uint32(w))
	default:
		h = hashOfKey(&k)
	}
	nheads := uint32(len(s.heads))
	list := h % nheads
	currPtr := s.headAt(list)
	newIndex := UnorderedMapInvalidIndex
	// hint is where to look for a free index: after the list's last
	// entry, or, for an empty list, at the list's place in the indices
	// (UnorderedMapInvalidIndex until worked out).
	hint := UnorderedMapInvalidIndex
	attempts := uint32(0)
	for {
		curr := atomic.LoadUint32(currPtr)
	walk:
		for curr != UnorderedMapInvalidIndex {
			switch unsafe.Sizeof(k) {
			case 8:
				if le64(s.keyAt(curr)) == w {
					break walk
				}
			case 4:
				if uint64(le32(s.keyAt(curr))) == w {
					break walk
				}
			default:
				if s.equal(&s.keys[curr], &k) {
					break walk
				}
			}
			if r.status&insertListMask < insertListMask {
				r.status++
			}
			hint = curr
			currPtr = s.nextAt(curr)
			curr = atomic.LoadUint32(currPtr)
		}
		if curr != UnorderedMapInvalidIndex {
			return s.existing(r, curr, newIndex, v, op)
		}
		if newIndex == UnorderedMapInvalidIndex {
			if hint == UnorderedMapInvalidIndex {
				hint = uint32(uint64(list) * uint64(s.capacity) / uint64(nheads))
			}
			found, h := s.findUnsetNear(hint, list)
			hint = h
			if !found {
				if attempts++; attempts >= s.maxAttempts() {
					s.failed.Store(1)
					return r
				}
			} else if s.take(hint) {
				newIndex = hint
				s.keys[newIndex] = k
				s.values[newIndex] = v
			}
		} else if s.failed.Load() != 0 {
			// Kokkos gives up here too, once any insert has failed, but
			// keeps the index it took; this gives it back unless the
			// link below succeeds.
			if atomic.CompareAndSwapUint32(currPtr, UnorderedMapInvalidIndex, newIndex) {
				r.index = newIndex
				r.status = insertSuccess | r.status&insertListMask
				return r
			}
			s.release(newIndex)
			return r
		}
		if newIndex != UnorderedMapInvalidIndex && atomic.CompareAndSwapUint32(currPtr, UnorderedMapInvalidIndex, newIndex) {
			r.index = newIndex
			r.status = insertSuccess | r.status&insertListMask
			return r
		}
	}
}

// existing is insert's result for a key found at index curr, after
// newIndex (if the insert had taken one) is given back and op (if any)
// has combined v into the key's value.
func (s *umapState[K, V]) existing(r UnorderedMapInsertResult, curr, newIndex uint32, v V, op UnorderedMapInsertOp[V]) UnorderedMapInsertResult {
	freed := newIndex != UnorderedMapInvalidIndex
	if freed {
		s.release(newIndex)
	}
	r.index = curr
	r.status = insertExisting | r.status&insertListMask
	if freed {
		r.status |= insertFreedExisting
	}
	if op != nil {
		op.Op(&s.values[curr], v)
	}
	return r
}

// maxAttempts is the number of blocks of the bitset an insert looks at
// for a free index before it fails.
func (s *umapState[K, V]) maxAttempts() uint32 {
	nblocks := uint32(len(s.used))
	if s.bounded && boundedAttempts < nblocks {
		return boundedAttempts
	}
	return nblocks
}

// insertPanic is insert's panic for the zero map (named by method) or
// during a Clear or Rehash.
func (s *umapState[K, V]) insertPanic(method string) {
	if s == nil {
		zeroMapPanic(method)
	}
	s.busyPanic("Insert")
}

// take sets bit i of used and reports whether it was clear.
func (s *umapState[K, V]) take(i uint32) bool {
	if i >= s.capacity {
		return false
	}
	mask := uint32(1) << (i % 32)
	return atomic.OrUint32(&s.used[i/32], mask)&mask == 0
}

// release clears bit i of used and reports whether it was set.
func (s *umapState[K, V]) release(i uint32) bool {
	if i >= s.capacity {
		return false
	}
	mask := uint32(1) << (i % 32)
	return atomic.AndUint32(&s.used[i/32], ^mask)&mask != 0
}

// findUnsetNear is Kokkos's Bitset::find_any_unset_near: it looks for a
// clear bit in the block of hint, scanning from hint's offset in the
// block forward or backward as dir says, and returns (true, the bit) or,
// when the block is full, (false, the same offset in the next or previous
// block, wrapping around).
func (s *umapState[K, V]) findUnsetNear(hint, dir uint32) (bool, uint32) {
	nblocks := uint32(len(s.used))
	blockIdx := hint / 32
	if blockIdx >= nblocks {
		blockIdx = 0
	}
	offset := hint % 32
	block := ^atomic.LoadUint32(&s.used[blockIdx])
	if s.lastMask != 0 && blockIdx == nblocks-1 {
		block &= s.lastMask
	}
	if block == 0 {
		b := int64(blockIdx)
		if dir&moveHintBackward != 0 {
			b--
		} else {
			b++
		}
		if b < 0 {
			b = int64(nblocks) - 1
		}
		if b >= int64(nblocks) {
			b = 0
		}
		return false, uint32(b)*32 + offset
	}
	if dir&scanReverse != 0 {
		offset = (offset + 31) % 32
	}
	block = bits.RotateLeft32(block, -int(offset))
	var pos uint32
	if dir&scanReverse == 0 {
		pos = uint32(bits.TrailingZeros32(block))
	} else {
		pos = uint32(31 - bits.LeadingZeros32(block))
	}
	return true, (pos+offset)%32 + blockIdx*32
}

// Clear removes every entry, keeping the capacity, and clears the flag
// FailedInsert reports. No other goroutine may use the map meanwhile.
func (m UnorderedMap[K, V]) Clear() {
	s := m.state("Clear")
	s.enter("Clear")
	defer s.busy.Store(nil)
	if s.dev != nil {
		s.viewsClear()
		return
	}
	clear(s.used)
	fillInvalid(s.heads)
	fillInvalid(s.next)
	clear(s.keys)
	clear(s.values)
	s.failed.Store(0)
	s.erasable.Store(false)
	s.bounded = true
}

func (s *umapState[K, V]) enter(op string) {
	if !s.busy.CompareAndSwap(nil, &op) {
		panic(fmt.Sprintf("containers: UnorderedMap %q: %s during %s", s.label, op, *s.busy.Load()))
	}
}

// Rehash gives the map a new capacity for at least capacityHint entries
// (at least its size), as NewUnorderedMap rounds it, and inserts the
// entries again: their indices change, the keys and values stay. It
// clears the flag FailedInsert reports. As with Kokkos, a map rehashed
// while it holds entries inserts without the bound on the blocks an
// insert scans: it fails only when full. No other goroutine may use the
// map meanwhile, and it panics between BeginErase and EndErase. It returns
// an error wrapping ErrUnorderedMapCapacity for a hint NewUnorderedMap
// refuses.
func (m UnorderedMap[K, V]) Rehash(capacityHint int) error {
	s := m.state("Rehash")
	size := m.Size()
	if capacityHint < 0 {
		_, err := umapCapacity("UnorderedMap.Rehash", s.label, capacityHint)
		return err
	}
	capacity, err := umapCapacity("UnorderedMap.Rehash", s.label, max(capacityHint, int(size)))
	if err != nil {
		return err
	}
	s.enter("Rehash")
	defer s.busy.Store(nil)
	if s.erasable.Load() {
		panic(fmt.Sprintf("containers: UnorderedMap %q: Rehash between BeginErase and EndErase", s.label))
	}
	if s.dev != nil {
		return s.viewsRehash(capacityHint, capacity, size)
	}
	used, keys, values := s.used, s.keys, s.values
	t := &umapState[K, V]{label: s.label, kbytes: s.kbytes}
	t.allocate(capacity)
	if size > 0 {
		kokkos.ParallelForChunks("containers.UnorderedMap.Rehash", kokkos.Range(0, int(s.capacity)), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if used[i/32]&(1<<(i%32)) != 0 {
					if r := t.insert("Rehash", keys[i], values[i], nil); r.Failed() {
						panic(fmt.Sprintf("containers: UnorderedMap %q: Rehash(%d): an entry found no index in a capacity of %d for %d entries", s.label, capacityHint, capacity, size))
					}
				}
			}
		})
	}
	s.capacity, s.lastMask = t.capacity, t.lastMask
	s.used, s.heads, s.next, s.keys, s.values = t.used, t.heads, t.next, t.keys, t.values
	s.bounded = size == 0
	s.failed.Store(0)
	return nil
}

// Erasable reports whether the map is between BeginErase and EndErase.
func (m UnorderedMap[K, V]) Erasable() bool { return m.state("Erasable").erasable.Load() }

// BeginErase starts a phase in which Erase removes keys and every Insert
// fails; it reports whether the phase started (false: it had). No other
// goroutine may insert meanwhile.
func (m UnorderedMap[K, V]) BeginErase() bool {
	s := m.state("BeginErase")
	return s.erasable.CompareAndSwap(false, true)
}

// Erase removes key k, between BeginErase and EndErase, and reports
// whether it did (false: k is absent, or erased already, or the map is not
// erasable). Many goroutines may erase at once; Find and ValidAt see the
// index as free at once, and EndErase unlinks it.
func (m UnorderedMap[K, V]) Erase(k K) bool {
	s := m.state("Erase")
	if !s.erasable.Load() {
		return false
	}
	i := s.lookup("Erase", k)
	return i != UnorderedMapInvalidIndex && s.release(i)
}

// EndErase ends the erase phase: it unlinks the erased entries from their
// lists and zeroes their keys and values, so that inserts may use their
// indices again. It reports whether a phase ended (false: none had
// begun). No other goroutine may use the map meanwhile.
func (m UnorderedMap[K, V]) EndErase() bool {
	s := m.state("EndErase")
	if !s.erasable.Load() {
		return false
	}
	s.enter("EndErase")
	defer s.busy.Store(nil)
	if s.device {
		s.viewsEndErase()
		return true
	}
	var zk K
	var zv V
	kokkos.ParallelForChunks("containers.UnorderedMap.EndErase", kokkos.Range(0, len(s.heads)), func(lo, hi int) {
		for h := lo; h < hi; h++ {
			prev := &s.heads[h]
			for curr := *prev; curr != UnorderedMapInvalidIndex; {
				nxt := s.next[curr]
				if s.used[curr/32]&(1<<(curr%32)) != 0 {
					prev = &s.next[curr]
				} else {
					*prev = nxt
					s.next[curr] = UnorderedMapInvalidIndex
					s.keys[curr] = zk
					s.values[curr] = zv
				}
				curr = nxt
			}
		}
	})
	s.erasable.Store(false)
	return true
}
