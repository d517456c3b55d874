package kernelir

import (
	"fmt"
	"math"
	"math/bits"
)

// Unordered maps. A kernel parameter of type containers.UnorderedMap[K, V]
// is a Param with UMap set, Type its key type and Value its value type
// (Invalid for a set, V struct{}), written (umap NAME KEY VALUE) in the
// text, VALUE "none" for a set. Keys and values are numbers here. The
// body uses the map through these nodes only, each naming the parameter:
//
//	(uminsert m RES k v)    UMapInsert: m.Insert(k, v), then RES of its result
//	(uminsertadd m RES k v) the same with UnorderedMapAtomicAdd (InsertOp)
//	(umfind m k)            UMapFind: m.Find(k), a uint32
//	(umexists m k)          m.Exists(k), a bool
//	(umvalidat m i)         m.ValidAt(i), i a uint32: a bool
//	(umkeyat m T i)         m.KeyAt(i): a key, of type T
//	(umvalueat m T i)       m.ValueAt(i): a value, of type T
//	(umcapacity m)          m.Capacity(): a uint32
//
// RES is the method called on the insert's result: success, existing,
// failed or freed (bools), index (a uint32), or "-" for an insert whose
// result is dropped (the X of an ExprStmt). A set's insert (InsertKey)
// has v the constant 0 of type int8, and no value is stored.
//
// The insert is Kokkos's (containers.UnorderedMap's): the key's hash is
// Kokkos's pod_hash (MurmurHash3, x86 32-bit, seed 0) of the key's bytes;
// its list is the hash modulo the number of lists; a free index near the
// list's place is taken in the used bitset, the key and value written
// there, and the index linked at the list's end by a compare-and-swap.

// UMapInsert is m.Insert(Key, Value) (m.InsertOp with
// UnorderedMapAtomicAdd when Add), then Result of its result.
type UMapInsert struct {
	Map        string
	Result     string // success, existing, failed, freed, index; "" for none
	Key, Value Expr
	Add        bool
}

// UMapFind is m.Find(Key), m.Exists(Key) when Exists: a uint32 (a bool).
type UMapFind struct {
	Map    string
	Key    Expr
	Exists bool
}

// UMapAt is m.ValidAt(I), m.KeyAt(I) or m.ValueAt(I), as Op says
// (validat, keyat, valueat), I a uint32.
type UMapAt struct {
	Map string
	Op  string
	T   Type // the key's type (keyat) or the value's (valueat); Bool for validat
	I   Expr
}

// UMapCapacity is m.Capacity(): a uint32.
type UMapCapacity struct{ Map string }

func (*UMapInsert) exprNode()   {}
func (*UMapFind) exprNode()     {}
func (*UMapAt) exprNode()       {}
func (*UMapCapacity) exprNode() {}

// umapResults are the result methods of an insert and their types.
var umapResults = map[string]Type{"success": Bool, "existing": Bool, "failed": Bool, "freed": Bool, "index": Uint32}

// UMap is what a Machine binds to a map parameter: the map's arrays, as
// containers.UnorderedMap holds them. Used is the bitset of the indices
// in use (uint32 words), Heads the lists' first indices, Next each
// index's successor (Capacity+1 of them), Flags element 0 the
// failed-insert flag, Keys and Values the entries (Values empty for a
// set). Erasable makes every insert fail; Bounded limits the bitset
// blocks an insert scans to 32.
type UMap struct {
	Used, Heads, Next, Flags, Keys, Values View
	Erasable, Bounded                      bool
}

// umapBinding is a bound map.
type umapBinding struct {
	p                                      *Param
	used, heads, next, flags, keys, values *mview
	capacity                               uint32
	erasable, bounded                      bool
}

// umapType returns the type of the map node x, and whether it is one.
func umapType(x Expr) (Type, bool) {
	switch x := x.(type) {
	case *UMapInsert:
		return umapResults[x.Result], true
	case *UMapFind:
		if x.Exists {
			return Bool, true
		}
		return Uint32, true
	case *UMapAt:
		if x.Op == "validat" {
			return Bool, true
		}
		return x.T, true
	case *UMapCapacity:
		return Uint32, true
	}
	return Invalid, false
}

// printUMap writes x if it is a map node, and reports whether it was.
func (p *printer) printUMap(x Expr) bool {
	switch x := x.(type) {
	case *UMapInsert:
		h, res := "uminsert", x.Result
		if x.Add {
			h = "uminsertadd"
		}
		if res == "" {
			res = "-"
		}
		p.b.WriteString("(" + h + " " + x.Map + " " + res + " ")
		p.expr(x.Key)
		p.b.WriteString(" ")
		p.expr(x.Value)
		p.b.WriteString(")")
	case *UMapFind:
		h := "umfind"
		if x.Exists {
			h = "umexists"
		}
		p.b.WriteString("(" + h + " " + x.Map + " ")
		p.expr(x.Key)
		p.b.WriteString(")")
	case *UMapAt:
		p.b.WriteString("(um" + x.Op + " " + x.Map + " ")
		if x.Op != "validat" {
			p.b.WriteString(x.T.String() + " ")
		}
		p.expr(x.I)
		p.b.WriteString(")")
	case *UMapCapacity:
		p.b.WriteString("(umcapacity " + x.Map + ")")
	default:
		return false
	}
	return true
}

// parseUMap reads the map node s of head h, or returns nil when h is not
// a map node's.
func (p *parser) parseUMap(h string, s *sx) Expr {
	switch h {
	case "uminsert", "uminsertadd":
		a := p.args(s, 4, false)
		res := a[1].atom
		if res == "-" {
			res = ""
		} else if _, ok := umapResults[res]; !ok {
			p.fail(a[1], "want success, existing, failed, freed, index or -")
		}
		return &UMapInsert{Map: p.name(a[0]), Result: res, Key: p.expr(a[2]), Value: p.expr(a[3]), Add: h == "uminsertadd"}
	case "umfind", "umexists":
		a := p.args(s, 2, false)
		return &UMapFind{Map: p.name(a[0]), Key: p.expr(a[1]), Exists: h == "umexists"}
	case "umvalidat":
		a := p.args(s, 2, false)
		return &UMapAt{Map: p.name(a[0]), Op: h[2:], T: Bool, I: p.expr(a[1])}
	case "umkeyat", "umvalueat":
		a := p.args(s, 3, false)
		return &UMapAt{Map: p.name(a[0]), Op: h[2:], T: p.typ(a[1]), I: p.expr(a[2])}
	case "umcapacity":
		return &UMapCapacity{Map: p.name(p.args(s, 1, false)[0])}
	}
	return nil
}

// parseUMapParam reads (umap NAME KEY VALUE).
func (p *parser) parseUMapParam(c *sx) Param {
	a := p.args(c, 3, false)
	pr := Param{Name: p.name(a[0]), Type: p.typ(a[1]), UMap: true}
	if a[2].atom != "none" {
		pr.Value = p.typ(a[2])
	}
	return pr
}

// umapParamText is the text of map parameter pr.
func umapParamText(pr Param) string {
	v := "none"
	if pr.Value != Invalid {
		v = pr.Value.String()
	}
	return fmt.Sprintf("(umap %s %s %s)", pr.Name, pr.Type, v)
}

// umapParamOK reports whether pr, with UMap set, is a valid map
// parameter: numeric keys and values (or none).
func umapParamOK(pr Param) bool {
	return pr.Rank == 0 && !pr.Write && !pr.Token && pr.Type.IsNumeric() && (pr.Value == Invalid || pr.Value.IsNumeric())
}

// umapParam checks that name is a map parameter of the kernel, seen from
// the kernel's body, and returns it.
func (v *validator) umapParam(name string) *Param {
	if v.fn != nil {
		v.errf("map %s used in a helper: only a kernel's body has its maps", name)
	}
	p := v.k.Param(name)
	if p == nil || !p.UMap || v.lookup(name) != nil {
		v.errf("%s is not an UnorderedMap", name)
	}
	return p
}

// umapExpr checks the map node x, the X of an ExprStmt when stmt, and
// reports whether it was one.
func (v *validator) umapExpr(x Expr, stmt bool) bool {
	switch x := x.(type) {
	case *UMapInsert:
		p := v.umapParam(x.Map)
		if x.Result == "" && !stmt {
			v.errf("%s.Insert as a value: call a method of its result", x.Map)
		}
		v.exprOf(x.Key, p.Type)
		if p.Value == Invalid {
			if c, ok := x.Value.(*Const); !ok || c.T != Int8 || c.Bits != 0 || x.Add {
				v.errf("the insert of set %s with a value other than int8 0", x.Map)
			}
		} else {
			v.exprOf(x.Value, p.Value)
		}
	case *UMapFind:
		v.exprOf(x.Key, v.umapParam(x.Map).Type)
	case *UMapAt:
		p := v.umapParam(x.Map)
		if x.Op == "valueat" && p.Value == Invalid {
			v.errf("ValueAt of set %s", x.Map)
		}
		switch {
		case x.Op == "validat" && x.T == Bool, x.Op == "keyat" && x.T == p.Type, x.Op == "valueat" && x.T == p.Value:
		default:
			v.errf("map operation %s of %s with type %s", x.Op, x.Map, x.T)
		}
		v.exprOf(x.I, Uint32)
	case *UMapCapacity:
		v.umapParam(x.Map)
	default:
		return false
	}
	return true
}

// bindUMap binds a, the argument of map parameter p.
func (m *Machine) bindUMap(p *Param, a any) error {
	var u UMap
	switch a := a.(type) {
	case UMap:
		u = a
	case *UMap:
		u = *a
	default:
		return fmt.Errorf("kernelir: kernel %s: argument %s is %T, want a kernelir.UMap", m.k.Name, p.Name, a)
	}
	b := &umapBinding{p: p, erasable: u.Erasable, bounded: u.Bounded}
	bind := func(what string, v View, t Type, min int) (*mview, error) {
		mv := &mview{p: p, v: v}
		if len(v.Extents) != 1 || len(v.Strides) != 1 || v.Strides[0] != 1 || v.Offset != 0 {
			return nil, fmt.Errorf("kernelir: kernel %s: map %s: %s is not a contiguous rank-1 view", m.k.Name, p.Name, what)
		}
		if !bindData(mv, t, v.Data) {
			return nil, fmt.Errorf("kernelir: kernel %s: map %s: %s holds %T, want a []%s", m.k.Name, p.Name, what, v.Data, t)
		}
		if v.Extents[0] < min || mv.size < v.Extents[0] {
			return nil, fmt.Errorf("kernelir: kernel %s: map %s: %s has extent %d and data of %d, want at least %d", m.k.Name, p.Name, what, v.Extents[0], mv.size, min)
		}
		return mv, nil
	}
	var err error
	if b.keys, err = bind("keys", u.Keys, p.Type, 1); err != nil {
		return err
	}
	capacity := u.Keys.Extents[0]
	if capacity >= math.MaxUint32 {
		return fmt.Errorf("kernelir: kernel %s: map %s of capacity %d", m.k.Name, p.Name, capacity)
	}
	b.capacity = uint32(capacity)
	if b.used, err = bind("used", u.Used, Uint32, (capacity+31)/32); err != nil {
		return err
	}
	if b.heads, err = bind("heads", u.Heads, Uint32, 1); err != nil {
		return err
	}
	if b.next, err = bind("next", u.Next, Uint32, capacity+1); err != nil {
		return err
	}
	if b.flags, err = bind("flags", u.Flags, Uint32, 1); err != nil {
		return err
	}
	if p.Value != Invalid {
		if b.values, err = bind("values", u.Values, p.Value, capacity); err != nil {
			return err
		}
	}
	if m.umaps == nil {
		m.umaps = map[string]*umapBinding{}
	}
	m.umaps[p.Name] = b
	return nil
}

// UMapHash is Kokkos's pod_hash of a key of type t whose bits (as a
// Machine holds them: a float32 as the bits of its float64) are u:
// MurmurHash3 (x86, 32-bit, seed 0) of the key's little-endian bytes.
func UMapHash(t Type, u uint64) uint32 {
	w, n := umapKeyBytes(t, u)
	h := uint32(0)
	for ; n >= 4; n -= 4 {
		h = murmurBlock(h, uint32(w))
		w >>= 32
	}
	if n > 0 {
		k := uint32(w) & (1<<(8*n) - 1)
		k *= 0xcc9e2d51
		k = bits.RotateLeft32(k, 15)
		k *= 0x1b873593
		h ^= k
	}
	size := uint32(t.Bits() / 8)
	if t == Bool {
		size = 1
	}
	h ^= size
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

func murmurBlock(h, k uint32) uint32 {
	k *= 0xcc9e2d51
	k = bits.RotateLeft32(k, 15)
	k *= 0x1b873593
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

// umapKeyBytes returns the bytes of a key of type t with bits u, low
// byte first, and their number.
func umapKeyBytes(t Type, u uint64) (uint64, int) {
	switch t {
	case Float32:
		return uint64(math.Float32bits(float32(math.Float64frombits(u)))), 4
	case Bool:
		return u & 1, 1
	}
	n := t.Bits() / 8
	if n < 8 {
		u &= 1<<(8*n) - 1
	}
	return u, n
}

// umapExpr runs the map node e, and reports whether it was one.
func (x *exec) umapExpr(e Expr) (uint64, bool) {
	switch e := e.(type) {
	case *UMapInsert:
		b := x.m.umaps[e.Map]
		k := x.expr(e.Key)
		v := x.expr(e.Value)
		idx, status := b.insert(k, v, e.Add)
		switch e.Result {
		case "success":
			return b2u(status&umapSuccess != 0), true
		case "existing":
			return b2u(status&umapExisting != 0), true
		case "failed":
			return b2u(idx == math.MaxUint32), true
		case "freed":
			return b2u(status&umapFreed != 0), true
		case "index":
			return uint64(idx), true
		}
		return 0, true
	case *UMapFind:
		b := x.m.umaps[e.Map]
		i := b.find(x.expr(e.Key))
		if e.Exists {
			return b2u(i != math.MaxUint32 && b.validAt(i)), true
		}
		return uint64(i), true
	case *UMapAt:
		b := x.m.umaps[e.Map]
		i := uint32(x.expr(e.I))
		if e.Op == "validat" {
			return b2u(b.validAt(i)), true
		}
		if i >= b.capacity {
			method := "KeyAt"
			if e.Op == "valueat" {
				method = "ValueAt"
			}
			runErr("%s.%s(%d): index out of range [0, %d)", e.Map, method, i, b.capacity)
		}
		if e.Op == "keyat" {
			return b.keys.get(int(i)), true
		}
		return b.values.get(int(i)), true
	case *UMapCapacity:
		return uint64(x.m.umaps[e.Map].capacity), true
	}
	return 0, false
}

// The status bits of an insert's result, as containers' (Kokkos's).
const (
	umapSuccess  = 1 << 31
	umapExisting = 1 << 30
	umapFreed    = 1 << 29
	umapListMask = umapFreed - 1
	umapInvalid  = math.MaxUint32
)

func (b *umapBinding) validAt(i uint32) bool {
	return i < b.capacity && uint32(b.used.get(int(i/32)))&(1<<(i%32)) != 0
}

// keyEqual reports whether the key at index i has bits k: the same
// bytes.
func (b *umapBinding) keyEqual(i uint32, k uint64) bool {
	a, _ := umapKeyBytes(b.p.Type, b.keys.get(int(i)))
	c, _ := umapKeyBytes(b.p.Type, k)
	return a == c
}

func (b *umapBinding) find(k uint64) uint32 {
	nheads := uint32(b.heads.v.Extents[0])
	curr := uint32(b.heads.get(int(UMapHash(b.p.Type, k) % nheads)))
	for curr != umapInvalid && !b.keyEqual(curr, k) {
		curr = uint32(b.next.get(int(curr)))
	}
	return curr
}

// ptr is a place of a list: a head (next false) or an index's next.
type umapPtr struct {
	next bool
	i    uint32
}

func (b *umapBinding) load(p umapPtr) uint32 {
	if p.next {
		return uint32(b.next.get(int(p.i)))
	}
	return uint32(b.heads.get(int(p.i)))
}

func (b *umapBinding) store(p umapPtr, u uint32) {
	if p.next {
		b.next.set(int(p.i), uint64(u))
	} else {
		b.heads.set(int(p.i), uint64(u))
	}
}

// insert is containers.UnorderedMap's insert (Kokkos's), run by one
// thread: it returns the index and the status bits.
func (b *umapBinding) insert(k, v uint64, add bool) (uint32, uint32) {
	status := uint32(0)
	if b.erasable {
		return umapInvalid, 0
	}
	nblocks := uint32(b.used.v.Extents[0])
	if n := (b.capacity + 31) / 32; n < nblocks {
		nblocks = n
	}
	maxAttempts := nblocks
	if b.bounded && 32 < nblocks {
		maxAttempts = 32
	}
	nheads := uint32(b.heads.v.Extents[0])
	list := UMapHash(b.p.Type, k) % nheads
	ptr := umapPtr{i: list}
	newIndex := uint32(umapInvalid)
	hint := uint32(uint64(list) * uint64(b.capacity) / uint64(nheads))
	attempts := uint32(0)
	for {
		curr := b.load(ptr)
		for curr != umapInvalid && !b.keyEqual(curr, k) {
			if status&umapListMask < umapListMask {
				status++
			}
			hint = curr
			ptr = umapPtr{next: true, i: curr}
			curr = b.load(ptr)
		}
		if curr != umapInvalid {
			freed := newIndex != umapInvalid
			if freed {
				b.release(newIndex)
			}
			status = umapExisting | status&umapListMask
			if freed {
				status |= umapFreed
			}
			if add && b.values != nil {
				b.values.set(int(curr), addBits(b.p.Value, b.values.get(int(curr)), v))
			}
			return curr, status
		}
		if newIndex == umapInvalid {
			found, h := b.findUnsetNear(hint, list, nblocks)
			hint = h
			if !found {
				if attempts++; attempts >= maxAttempts {
					b.flags.set(0, 1)
					return umapInvalid, status
				}
			} else if b.take(hint) {
				newIndex = hint
				b.keys.set(int(newIndex), k)
				if b.values != nil {
					b.values.set(int(newIndex), v)
				}
			}
		} else if b.flags.get(0) != 0 {
			if b.load(ptr) == umapInvalid {
				b.store(ptr, newIndex)
				return newIndex, umapSuccess | status&umapListMask
			}
			b.release(newIndex)
			return umapInvalid, status
		}
		if newIndex != umapInvalid && b.load(ptr) == umapInvalid {
			b.store(ptr, newIndex)
			return newIndex, umapSuccess | status&umapListMask
		}
	}
}

// addBits returns a+b in type t, on a Machine's bits.
func addBits(t Type, a, b uint64) uint64 {
	switch t {
	case Float32:
		return math.Float64bits(float64(float32(math.Float64frombits(a)) + float32(math.Float64frombits(b))))
	case Float64:
		return math.Float64bits(math.Float64frombits(a) + math.Float64frombits(b))
	}
	return norm(t, a+b)
}

func (b *umapBinding) take(i uint32) bool {
	if i >= b.capacity {
		return false
	}
	w := uint32(b.used.get(int(i / 32)))
	mask := uint32(1) << (i % 32)
	b.used.set(int(i/32), uint64(w|mask))
	return w&mask == 0
}

func (b *umapBinding) release(i uint32) {
	if i < b.capacity {
		w := uint32(b.used.get(int(i / 32)))
		b.used.set(int(i/32), uint64(w&^(1<<(i%32))))
	}
}

// findUnsetNear is Kokkos's Bitset::find_any_unset_near, as
// containers.UnorderedMap's.
func (b *umapBinding) findUnsetNear(hint, dir, nblocks uint32) (bool, uint32) {
	blockIdx := hint / 32
	if blockIdx >= nblocks {
		blockIdx = 0
	}
	offset := hint % 32
	block := ^uint32(b.used.get(int(blockIdx)))
	if r := b.capacity % 32; r != 0 && blockIdx == nblocks-1 {
		block &= 1<<r - 1
	}
	if block == 0 {
		bi := int64(blockIdx)
		if dir&2 != 0 {
			bi--
		} else {
			bi++
		}
		if bi < 0 {
			bi = int64(nblocks) - 1
		}
		if bi >= int64(nblocks) {
			bi = 0
		}
		return false, uint32(bi)*32 + offset
	}
	if dir&1 != 0 {
		offset = (offset + 31) % 32
	}
	block = bits.RotateLeft32(block, -int(offset))
	var pos uint32
	if dir&1 == 0 {
		pos = uint32(bits.TrailingZeros32(block))
	} else {
		pos = uint32(31 - bits.LeadingZeros32(block))
	}
	return true, (pos+offset)%32 + blockIdx*32
}
