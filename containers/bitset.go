package containers

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gokkos/kokkos"
)

// blockBits is the number of bits of a Bitset block, an unsigned int in
// Kokkos.
const (
	blockBits  = 32
	blockMask  = blockBits - 1
	blockShift = 5
)

// ScanDirection is the direction of FindAnySetNear and FindAnyUnsetNear:
// which way the search runs within the hint's block, and which way the
// hint moves when the block has no bit sought (Kokkos's
// BIT_SCAN_REVERSE and MOVE_HINT_BACKWARD flags).
type ScanDirection uint32

const (
	// BitScanForwardMoveHintForward is the default: the first bit at or
	// after the hint's position in its block, cyclically; the next block
	// when there is none.
	BitScanForwardMoveHintForward ScanDirection = 0
	// BitScanReverse searches the block backward from the hint's
	// position.
	BitScanReverse ScanDirection = 1
	// MoveHintBackward moves the hint to the previous block.
	MoveHintBackward ScanDirection = 2

	BitScanReverseMoveHintForward  = BitScanReverse
	BitScanForwardMoveHintBackward = MoveHintBackward
	BitScanReverseMoveHintBackward = BitScanReverse | MoveHintBackward
)

// Bitset is Kokkos's Bitset: a fixed number of bits, stored in blocks of
// 32 in a view of uint32 (bit i is bit i%32 of block i/32) in any memory
// space. Set, Reset and Test of one bit are atomic, safe from many
// goroutines at once; they need memory the host can access (they panic on
// device memory: copy the bits to a Bitset in HostSpace with
// DeepCopyBitset). SetAll, ResetAll, Count and DeepCopyBitset work in
// every space.
//
// Copies of a Bitset share its bits, as in Kokkos. The zero Bitset has
// size 0 and no blocks.
type Bitset struct {
	size     int
	lastMask uint32
	blocks   kokkos.View1[uint32]
	data     []uint32 // the blocks, when the host can access them
}

// NewBitset allocates a Bitset of n bits, all reset, labelled label
// ("Bitset" when label is empty), in HostSpace or the space given with
// InSpace (Kokkos's Bitset(view_alloc(...), n)). n must be in [0, 2^32).
// WithoutInitializing is refused with an error wrapping kokkos.ErrOption,
// as Kokkos refuses it.
func NewBitset(label string, n int, opts ...kokkos.Option) (Bitset, error) {
	if label == "" {
		label = "Bitset"
	}
	if n < 0 || n > 1<<32-1 {
		return Bitset{}, fmt.Errorf("containers: NewBitset %q of %d bits: the size must be in [0, 2^32): %w", label, n, kokkos.ErrShape)
	}
	if noInit(opts) {
		return Bitset{}, fmt.Errorf("containers: NewBitset %q of %d bits: option WithoutInitializing is not allowed: a Bitset starts with every bit reset: %w", label, n, kokkos.ErrOption)
	}
	v, err := kokkos.NewView1[uint32](label, (n+blockMask)>>blockShift, opts...)
	if err != nil {
		return Bitset{}, fmt.Errorf("containers: NewBitset %q of %d bits: %w", label, n, err)
	}
	b := Bitset{size: n, blocks: v}
	if r := n & blockMask; r != 0 {
		b.lastMask = 1<<r - 1
	}
	if v.Space().HostAccessible() && v.Extent(0) > 0 {
		b.data = v.Data()
	}
	return b, nil
}

// Size returns the number of bits.
func (b *Bitset) Size() int { return b.size }

// Label returns the label of the blocks' view.
func (b *Bitset) Label() string { return b.blocks.Label() }

// Space returns the memory space of the blocks.
func (b *Bitset) Space() kokkos.MemorySpace { return b.blocks.Space() }

// IsAllocated reports whether the blocks are allocated (and not
// released).
func (b *Bitset) IsAllocated() bool { return b.blocks.IsAllocated() }

// Blocks returns the view of the blocks: bit i is bit i%32 of element
// i/32; the bits of the last block past Size are never set.
func (b *Bitset) Blocks() kokkos.View1[uint32] { return b.blocks }

// MaxHint returns the number of blocks (Kokkos's max_hint).
func (b *Bitset) MaxHint() int { return b.blocks.Extent(0) }

// Release releases the blocks.
func (b *Bitset) Release() error { return b.blocks.Release() }

// hostData returns the blocks for access from the host, and panics when
// the host cannot reach them.
func (b *Bitset) hostData(op string, i int) []uint32 {
	if b.data == nil && b.blocks.Extent(0) > 0 {
		panic(fmt.Sprintf("containers: %s(%d) on Bitset %q of %d bits in %s: %v: copy it to a Bitset in HostSpace with DeepCopyBitset", op, i, b.Label(), b.size, b.Space().Name(), kokkos.ErrNotHostAccessible))
	}
	if b.data != nil && b.blocks.Allocation().Released() {
		panic(fmt.Sprintf("containers: %s(%d) on Bitset %q of %d bits: %v", op, i, b.Label(), b.size, kokkos.ErrReleased))
	}
	return b.data
}

// Set sets bit i atomically and reports whether this call changed it
// (Kokkos's set(i)). An i outside [0, Size) sets nothing and returns
// false, as in Kokkos.
func (b *Bitset) Set(i int) bool {
	d := b.hostData("Set", i)
	if uint(i) >= uint(b.size) {
		return false
	}
	m := uint32(1) << (i & blockMask)
	return atomic.OrUint32(&d[i>>blockShift], m)&m == 0
}

// Reset resets bit i atomically and reports whether this call changed it
// (Kokkos's reset(i)). An i outside [0, Size) returns false.
func (b *Bitset) Reset(i int) bool {
	d := b.hostData("Reset", i)
	if uint(i) >= uint(b.size) {
		return false
	}
	m := uint32(1) << (i & blockMask)
	return atomic.AndUint32(&d[i>>blockShift], ^m)&m != 0
}

// Test reports whether bit i is set, reading it atomically (Kokkos's
// test(i)). An i outside [0, Size) returns false.
func (b *Bitset) Test(i int) bool {
	d := b.hostData("Test", i)
	if uint(i) >= uint(b.size) {
		return false
	}
	return atomic.LoadUint32(&d[i>>blockShift])&(1<<(i&blockMask)) != 0
}

// SetAll sets every bit (Kokkos's set()). It is not atomic with respect
// to Set, Reset and Test of single bits at the same time.
func (b *Bitset) SetAll() error {
	n := b.blocks.Extent(0)
	if n == 0 {
		return nil
	}
	if err := kokkos.Fill(&b.blocks, ^uint32(0)); err != nil {
		return fmt.Errorf("containers: SetAll of Bitset %q: %w", b.Label(), err)
	}
	if b.lastMask != 0 {
		last := b.blocks.Subview0(n - 1)
		if err := kokkos.Fill(&last, b.lastMask); err != nil {
			return fmt.Errorf("containers: SetAll of Bitset %q: %w", b.Label(), err)
		}
	}
	return nil
}

// ResetAll resets every bit (Kokkos's reset() and clear()).
func (b *Bitset) ResetAll() error {
	if b.blocks.Extent(0) == 0 {
		return nil
	}
	if err := kokkos.Fill(&b.blocks, 0); err != nil {
		return fmt.Errorf("containers: ResetAll of Bitset %q: %w", b.Label(), err)
	}
	return nil
}

// Count returns the number of bits set (Kokkos's count()). On memory the
// host cannot access it counts a host copy of the blocks.
func (b *Bitset) Count() (int, error) {
	return countBlocks(b)
}

func countBlocks(b *Bitset) (int, error) {
	d := b.data
	if d == nil && b.blocks.Extent(0) > 0 {
		h, err := kokkos.CreateMirrorViewAndCopy(b.blocks)
		if err != nil {
			return 0, fmt.Errorf("containers: Count of Bitset %q: %w", b.Label(), err)
		}
		d = h.Data()
	}
	n := 0
	for i := range d {
		n += bits.OnesCount32(atomic.LoadUint32(&d[i]))
	}
	return n, nil
}

// FindAnySetNear looks for a set bit near hint, as Kokkos's
// find_any_set_near: within hint's block (hint/32; block 0 when that is
// past the last block), from hint's position in it forward or, with
// BitScanReverse, backward, cyclically. It returns true and the bit's
// index when the block has a set bit, and otherwise false and a hint into
// the next block (the previous one with MoveHintBackward, wrapping around)
// at the same position, to call it again with: a search over all blocks
// takes up to MaxHint calls.
func (b *Bitset) FindAnySetNear(hint int, dir ScanDirection) (bool, int) {
	d := b.hostData("FindAnySetNear", hint)
	if len(d) == 0 {
		return false, 0
	}
	h := uint32(hint)
	blk := h >> blockShift
	if blk >= uint32(len(d)) {
		blk = 0
	}
	block := atomic.LoadUint32(&d[blk])
	if b.lastMask != 0 && int(blk) == len(d)-1 {
		block &= b.lastMask
	}
	return b.findAny(blk, h&blockMask, block, dir)
}

// FindAnyUnsetNear is FindAnySetNear for a bit that is not set (Kokkos's
// find_any_unset_near). Unlike Kokkos, which reads past its blocks, a hint
// past the last block searches block 0.
func (b *Bitset) FindAnyUnsetNear(hint int, dir ScanDirection) (bool, int) {
	d := b.hostData("FindAnyUnsetNear", hint)
	if len(d) == 0 {
		return false, 0
	}
	h := uint32(hint)
	blk := h >> blockShift
	if blk >= uint32(len(d)) {
		blk = 0
	}
	block := ^atomic.LoadUint32(&d[blk])
	if b.lastMask != 0 && int(blk) == len(d)-1 {
		block &= b.lastMask
	}
	return b.findAny(blk, h&blockMask, block, dir)
}

// findAny is Kokkos's find_any_helper, scan_block and update_hint.
func (b *Bitset) findAny(blk, offset, block uint32, dir ScanDirection) (bool, int) {
	if block == 0 {
		n := int64(len(b.data))
		i := int64(blk) + 1
		if dir&MoveHintBackward != 0 {
			i = int64(blk) - 1
		}
		if i < 0 {
			i = n - 1
		}
		if i >= n {
			i = 0
		}
		return false, int(uint32(i)*blockBits + offset)
	}
	if dir&BitScanReverse != 0 {
		offset = (offset + blockMask) & blockMask
	}
	block = bits.RotateLeft32(block, -int(offset))
	var pos uint32
	if dir&BitScanReverse == 0 {
		pos = uint32(bits.TrailingZeros32(block))
	} else {
		pos = uint32(31 - bits.LeadingZeros32(block))
	}
	return true, int((pos+offset)&blockMask + blk<<blockShift)
}

// Const returns a read-only view of b's bits (Kokkos's ConstBitset).
func (b *Bitset) Const() ConstBitset { return ConstBitset{b: *b} }

// ConstBitset is a read-only Bitset (Kokkos's ConstBitset): it shares the
// bits of the Bitset it came from and offers what reads them.
type ConstBitset struct{ b Bitset }

// Size returns the number of bits.
func (c *ConstBitset) Size() int { return c.b.size }

// Test reports whether bit i is set; false outside [0, Size).
func (c *ConstBitset) Test(i int) bool { return c.b.Test(i) }

// Count returns the number of bits set.
func (c *ConstBitset) Count() (int, error) { return countBlocks(&c.b) }

// IsAllocated reports whether the blocks are allocated.
func (c *ConstBitset) IsAllocated() bool { return c.b.IsAllocated() }

// Space returns the memory space of the blocks.
func (c *ConstBitset) Space() kokkos.MemorySpace { return c.b.Space() }

// BitsetSource is a Bitset or a ConstBitset, the source of DeepCopyBitset.
type BitsetSource interface{ bitset() *Bitset }

func (b *Bitset) bitset() *Bitset      { return b }
func (c *ConstBitset) bitset() *Bitset { return &c.b }

// DeepCopyBitset copies the bits of src (a *Bitset or *ConstBitset) into
// dst, between any memory spaces, as Kokkos's deep_copy of bitsets. The
// sizes must be equal: otherwise the error wraps kokkos.ErrShape.
func DeepCopyBitset(dst *Bitset, src BitsetSource) error {
	return deepCopyBitset(nil, dst, src)
}

// DeepCopyBitsetOn is DeepCopyBitset ordered on exec (see
// kokkos.DeepCopyOn): dst holds the bits once exec.Fence() has returned.
func DeepCopyBitsetOn(exec kokkos.ExecutionSpace, dst *Bitset, src BitsetSource) error {
	return deepCopyBitset(exec, dst, src)
}

func deepCopyBitset(exec kokkos.ExecutionSpace, dst *Bitset, src BitsetSource) error {
	s := src.bitset()
	if dst.size != s.size {
		return fmt.Errorf("containers: DeepCopyBitset from Bitset %q of %d bits to Bitset %q of %d bits: the sizes differ; make the destination with NewBitset of the source's size: %w", s.Label(), s.size, dst.Label(), dst.size, kokkos.ErrShape)
	}
	if dst.blocks.Extent(0) == 0 {
		return nil
	}
	var err error
	if exec == nil {
		err = kokkos.DeepCopy[uint32](&dst.blocks, &s.blocks)
	} else {
		err = kokkos.DeepCopyOn[uint32](exec, &dst.blocks, &s.blocks)
	}
	if err != nil {
		return fmt.Errorf("containers: DeepCopyBitset from Bitset %q to Bitset %q: %w", s.Label(), dst.Label(), err)
	}
	return nil
}
