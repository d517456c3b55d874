package algorithms

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// The kernels of the radix sort on a device space (device.go). Keys are
// sorted as unsigned integers of 32 or 64 bits whose order is the keys'
// (flip32, flip64), radixBits bits a pass from the lowest: RadixCount counts each block's keys per digit
// into counts, scanCounts turns the counts, digit-major, into the
// position of each block's first key of each digit, and RadixScatter
// moves the keys (and their positions, for a sort by key) there. A block
// is a team of threads, each thread a run of per consecutive keys, so
// that the scatter, which places each thread's run in order after the
// runs of the threads before it, is stable.

// radixBits is the width of a digit.
const radixBits = 4

// radixBuckets is the number of digits' values.
const radixBuckets = 1 << radixBits

// flip32 maps key i to its ordering bits, or back: mode 1 flips the sign
// bit (signed integers), 2 is the float transform (every bit of a
// negative number, the sign bit of the others), 3 its inverse.
//
//kokkos:kernel
func flip32(i int, k kokkos.View1[uint32], mode int) {
	x := k.At(i)
	switch mode {
	case 1:
		x ^= 0x8000_0000
	case 2:
		x ^= -(x >> 31) | 0x8000_0000
	case 3:
		x ^= (x>>31 - 1) | 0x8000_0000
	}
	k.Set(i, x)
}

// flip64 is flip32 for 64-bit keys.
//
//kokkos:kernel
func flip64(i int, k kokkos.View1[uint64], mode int) {
	x := k.At(i)
	switch mode {
	case 1:
		x ^= 0x8000_0000_0000_0000
	case 2:
		x ^= -(x >> 63) | 0x8000_0000_0000_0000
	case 3:
		x ^= (x>>63 - 1) | 0x8000_0000_0000_0000
	}
	k.Set(i, x)
}

// positions sets p(i) to i: the keys' positions, sorted with them by key.
//
//kokkos:kernel
func positions(i int, p kokkos.View1[uint32]) {
	p.Set(i, uint32(i))
}

// radixCount32 counts the keys of block t.LeagueRank() by their digit at
// shift, each thread its run of per keys in a column of the team's
// scratch, and stores the block's count of digit d at counts(d*blocks +
// block).
//
//kokkos:kernel
func radixCount32(t kernel.Team, keys kokkos.View1[uint32], counts kokkos.View1[int32], shift, per int) {
	c := kokkos.ScratchView1[int32](t.TeamScratch(0), radixBuckets*t.TeamSize())
	ts, r := t.TeamSize(), t.TeamRank()
	for d := range radixBuckets {
		c.Set(d*ts+r, 0)
	}
	lo := (t.LeagueRank()*ts + r) * per
	hi := min(lo+per, keys.Extent(0))
	for i := lo; i < hi; i++ {
		d := int(keys.At(i)>>shift) & (radixBuckets - 1)
		c.Set(d*ts+r, c.At(d*ts+r)+1)
	}
	t.TeamBarrier()
	for d := range t.TeamThreadRange(0, radixBuckets) {
		var s int32
		for q := range ts {
			s += c.At(d*ts + q)
		}
		counts.Set(d*t.LeagueSize()+t.LeagueRank(), s)
	}
}

// radixCount64 is radixCount32 for 64-bit keys.
//
//kokkos:kernel
func radixCount64(t kernel.Team, keys kokkos.View1[uint64], counts kokkos.View1[int32], shift, per int) {
	c := kokkos.ScratchView1[int32](t.TeamScratch(0), radixBuckets*t.TeamSize())
	ts, r := t.TeamSize(), t.TeamRank()
	for d := range radixBuckets {
		c.Set(d*ts+r, 0)
	}
	lo := (t.LeagueRank()*ts + r) * per
	hi := min(lo+per, keys.Extent(0))
	for i := lo; i < hi; i++ {
		d := int(keys.At(i)>>shift) & (radixBuckets - 1)
		c.Set(d*ts+r, c.At(d*ts+r)+1)
	}
	t.TeamBarrier()
	for d := range t.TeamThreadRange(0, radixBuckets) {
		var s int32
		for q := range ts {
			s += c.At(d*ts + q)
		}
		counts.Set(d*t.LeagueSize()+t.LeagueRank(), s)
	}
}

// scanCounts stores the exclusive prefix sum of counts in offsets.
//
//kokkos:kernel
func scanCounts(i int, counts, offsets kokkos.View1[int32], acc *int32, final bool) {
	x := counts.At(i)
	if final {
		offsets.Set(i, *acc)
	}
	*acc += x
}

// radixScatter32 moves the keys of block t.LeagueRank() from src to dst
// by their digit at shift, and with pos nonzero their positions from
// psrc to pdst: each thread recounts its run, the team turns its columns
// into each thread's first position per digit (the block's, from
// offsets, plus the runs of the threads before it), and each thread
// stores its run in order.
//
//kokkos:kernel
func radixScatter32(t kernel.Team, src, dst kokkos.View1[uint32], psrc, pdst kokkos.View1[uint32], offsets kokkos.View1[int32], shift, per, pos int) {
	c := kokkos.ScratchView1[int32](t.TeamScratch(0), radixBuckets*t.TeamSize())
	ts, r := t.TeamSize(), t.TeamRank()
	for d := range radixBuckets {
		c.Set(d*ts+r, 0)
	}
	lo := (t.LeagueRank()*ts + r) * per
	hi := min(lo+per, src.Extent(0))
	for i := lo; i < hi; i++ {
		d := int(src.At(i)>>shift) & (radixBuckets - 1)
		c.Set(d*ts+r, c.At(d*ts+r)+1)
	}
	t.TeamBarrier()
	for d := range t.TeamThreadRange(0, radixBuckets) {
		s := offsets.At(d*t.LeagueSize() + t.LeagueRank())
		for q := range ts {
			x := c.At(d*ts + q)
			c.Set(d*ts+q, s)
			s += x
		}
	}
	t.TeamBarrier()
	for i := lo; i < hi; i++ {
		k := src.At(i)
		d := int(k>>shift) & (radixBuckets - 1)
		p := int(c.At(d*ts + r))
		c.Set(d*ts+r, int32(p+1))
		dst.Set(p, k)
		if pos != 0 {
			pdst.Set(p, psrc.At(i))
		}
	}
}

// radixScatter64 is radixScatter32 for 64-bit keys.
//
//kokkos:kernel
func radixScatter64(t kernel.Team, src, dst kokkos.View1[uint64], psrc, pdst kokkos.View1[uint32], offsets kokkos.View1[int32], shift, per, pos int) {
	c := kokkos.ScratchView1[int32](t.TeamScratch(0), radixBuckets*t.TeamSize())
	ts, r := t.TeamSize(), t.TeamRank()
	for d := range radixBuckets {
		c.Set(d*ts+r, 0)
	}
	lo := (t.LeagueRank()*ts + r) * per
	hi := min(lo+per, src.Extent(0))
	for i := lo; i < hi; i++ {
		d := int(src.At(i)>>shift) & (radixBuckets - 1)
		c.Set(d*ts+r, c.At(d*ts+r)+1)
	}
	t.TeamBarrier()
	for d := range t.TeamThreadRange(0, radixBuckets) {
		s := offsets.At(d*t.LeagueSize() + t.LeagueRank())
		for q := range ts {
			x := c.At(d*ts + q)
			c.Set(d*ts+q, s)
			s += x
		}
	}
	t.TeamBarrier()
	for i := lo; i < hi; i++ {
		k := src.At(i)
		d := int(k>>shift) & (radixBuckets - 1)
		p := int(c.At(d*ts + r))
		c.Set(d*ts+r, int32(p+1))
		dst.Set(p, k)
		if pos != 0 {
			pdst.Set(p, psrc.At(i))
		}
	}
}

// gather32 stores src(p(i)) at dst(i): values moved with their sorted
// keys.
//
//kokkos:kernel
func gather32(i int, p kokkos.View1[uint32], src, dst kokkos.View1[uint32]) {
	dst.Set(i, src.At(int(p.At(i))))
}

// gather64 is gather32 for 8-byte values.
//
//kokkos:kernel
func gather64(i int, p kokkos.View1[uint32], src, dst kokkos.View1[uint64]) {
	dst.Set(i, src.At(int(p.At(i))))
}
