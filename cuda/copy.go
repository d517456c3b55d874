package cuda

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Copies and fills.
//
// Addresses (uintptr) name memory of this package's blocks: a Block's Addr
// plus an offset, in any of the three spaces and on any device (CUDA's
// unified addressing tells the driver where each lies). Each range is
// checked against the live blocks first: a range outside every live block
// (freed, or never allocated here) is an error matching ErrFreed, never a
// driver fault. Pageable Go memory is passed as a []byte.
//
// The package-level functions are synchronous: they run on the device's
// legacy default stream, so they start after work queued earlier on every
// Stream of the device, and return when the copy is complete. The Stream
// methods queue the work on the stream and return at once, except where Go
// memory is involved: those return once the Go memory is no longer needed.
//
// Between device memory of two devices a copy runs on the stream's device
// (without a stream, the destination's), with peer access enabled on first
// use; where the two devices are not peers it is staged through pinned host
// memory and returns when complete, on a stream too.

// Copy copies n bytes from src to dst and waits for the copy.
func Copy(dst, src uintptr, n int) error { return copyOn(nil, dst, src, n) }

// Copy queues a copy of n bytes from src to dst on the stream.
func (s *Stream) Copy(dst, src uintptr, n int) error { return copyOn(s, dst, src, n) }

func copyOn(s *Stream, dst, src uintptr, n int) error {
	if n == 0 {
		return nil
	}
	de, err := lookup(dst, n)
	if err != nil {
		return err
	}
	se, err := lookup(src, n)
	if err != nil {
		return err
	}
	run, done, err := copyPeer(s, dst, src, de, se, n)
	if done {
		return err
	}
	c, h, dev, end, err := s.begin(run)
	if err != nil {
		return err
	}
	defer end()
	if err := c.do("cuMemcpyAsync", de.Label, dev.drv.cuMemcpyAsync, dst, src, uintptr(n), h); err != nil {
		return err
	}
	if s == nil {
		return c.do("cuStreamSynchronize", de.Label, dev.drv.cuStreamSynchronize, 0)
	}
	return nil
}

// memcpy2D is CUDA_MEMCPY2D.
type memcpy2D struct {
	srcXInBytes, srcY uintptr
	srcMemoryType     uint32
	_                 uint32
	srcHost           uintptr
	srcDevice         uintptr
	srcArray          uintptr
	srcPitch          uintptr
	dstXInBytes, dstY uintptr
	dstMemoryType     uint32
	_                 uint32
	dstHost           uintptr
	dstDevice         uintptr
	dstArray          uintptr
	dstPitch          uintptr
	widthInBytes      uintptr
	height            uintptr
}

const (
	memHost    = 1
	memUnified = 4
)

func span2D(pitch, width, height int) int {
	if height == 0 || width == 0 {
		return 0
	}
	return pitch*(height-1) + width
}

func check2D(dstPitch, srcPitch, width, height int) error {
	if width < 0 || height < 0 || dstPitch < width || srcPitch < width {
		return fmt.Errorf("cuda: 2-D copy of %d rows of %d bytes with pitches dst %d, src %d: each pitch must be at least the width", height, width, dstPitch, srcPitch)
	}
	return nil
}

// Copy2D copies height rows of width bytes; row i starts at src +
// i*srcPitch and lands at dst + i*dstPitch. It waits for the copy.
func Copy2D(dst uintptr, dstPitch int, src uintptr, srcPitch int, width, height int) error {
	return copy2DOn(nil, dst, dstPitch, nil, src, srcPitch, nil, width, height)
}

// Copy2D queues a 2-D copy (see the function Copy2D) on the stream.
func (s *Stream) Copy2D(dst uintptr, dstPitch int, src uintptr, srcPitch int, width, height int) error {
	return copy2DOn(s, dst, dstPitch, nil, src, srcPitch, nil, width, height)
}

// Copy2DFromHost copies height rows of width bytes from Go memory (row i
// at src[i*srcPitch:]) to dst + i*dstPitch, and waits for the copy.
func Copy2DFromHost(dst uintptr, dstPitch int, src []byte, srcPitch int, width, height int) error {
	return copy2DOn(nil, dst, dstPitch, nil, 0, srcPitch, src, width, height)
}

// Copy2DToHost copies height rows of width bytes from src + i*srcPitch to
// Go memory (row i at dst[i*dstPitch:]), and waits for the copy.
func Copy2DToHost(dst []byte, dstPitch int, src uintptr, srcPitch int, width, height int) error {
	return copy2DOn(nil, 0, dstPitch, dst, src, srcPitch, nil, width, height)
}

func copy2DOn(s *Stream, dst uintptr, dstPitch int, dstGo []byte, src uintptr, srcPitch int, srcGo []byte, width, height int) error {
	if err := check2D(dstPitch, srcPitch, width, height); err != nil {
		return err
	}
	if width == 0 || height == 0 {
		return nil
	}
	m := new(memcpy2D)
	m.widthInBytes, m.height = uintptr(width), uintptr(height)
	m.srcPitch, m.dstPitch = uintptr(srcPitch), uintptr(dstPitch)
	var pin runtime.Pinner
	defer pin.Unpin()
	var dev *Device
	label := ""
	if dstGo != nil {
		if len(dstGo) < span2D(dstPitch, width, height) {
			return fmt.Errorf("cuda: 2-D copy needs %d bytes of Go memory, dst has %d", span2D(dstPitch, width, height), len(dstGo))
		}
		pin.Pin(&dstGo[0])
		m.dstMemoryType, m.dstHost = memHost, uintptr(unsafe.Pointer(&dstGo[0]))
	} else {
		e, err := lookup(dst, span2D(dstPitch, width, height))
		if err != nil {
			return err
		}
		dev, label = e.dev, e.Label
		m.dstMemoryType, m.dstDevice = memUnified, dst
	}
	if srcGo != nil {
		if len(srcGo) < span2D(srcPitch, width, height) {
			return fmt.Errorf("cuda: 2-D copy needs %d bytes of Go memory, src has %d", span2D(srcPitch, width, height), len(srcGo))
		}
		pin.Pin(&srcGo[0])
		m.srcMemoryType, m.srcHost = memHost, uintptr(unsafe.Pointer(&srcGo[0]))
	} else {
		e, err := lookup(src, span2D(srcPitch, width, height))
		if err != nil {
			return err
		}
		if dev == nil {
			dev, label = e.dev, e.Label
		}
		m.srcMemoryType, m.srcDevice = memUnified, src
	}
	if dstGo == nil && srcGo == nil {
		run, done, err := copy2DPeer(s, dst, dstPitch, src, srcPitch, width, height)
		if done {
			return err
		}
		dev = run
	}
	c, h, dev, end, err := s.begin(dev)
	if err != nil {
		return err
	}
	defer end()
	if err := c.do("cuMemcpy2DAsync_v2", label, dev.drv.cuMemcpy2DAsync, uintptr(unsafe.Pointer(m)), h); err != nil {
		return err
	}
	if s == nil || dstGo != nil || srcGo != nil {
		err = c.do("cuStreamSynchronize", label, dev.drv.cuStreamSynchronize, h)
	}
	runtime.KeepAlive(dstGo)
	runtime.KeepAlive(srcGo)
	return err
}

// Fill sets count elements of elemSize bytes (1, 2, 4 or 8) at dst to the
// low elemSize bytes of pattern (in the machine's byte order), and waits.
// dst must be aligned to the element size (4 bytes for 8-byte elements).
func Fill(dst uintptr, elemSize int, pattern uint64, count int) error {
	return fillOn(nil, dst, elemSize*count, elemSize, pattern, count, 1)
}

// Fill queues a fill (see the function Fill) on the stream.
func (s *Stream) Fill(dst uintptr, elemSize int, pattern uint64, count int) error {
	return fillOn(s, dst, elemSize*count, elemSize, pattern, count, 1)
}

// Fill2D sets height rows of width elements of elemSize bytes; row i
// starts at dst + i*pitch (pitch in bytes). It waits for the fill.
func Fill2D(dst uintptr, pitch, elemSize int, pattern uint64, width, height int) error {
	return fillOn(nil, dst, pitch, elemSize, pattern, width, height)
}

// Fill2D queues a 2-D fill (see the function Fill2D) on the stream.
func (s *Stream) Fill2D(dst uintptr, pitch, elemSize int, pattern uint64, width, height int) error {
	return fillOn(s, dst, pitch, elemSize, pattern, width, height)
}

func fillOn(s *Stream, dst uintptr, pitch, es int, pat uint64, w, rows int) error {
	if es != 1 && es != 2 && es != 4 && es != 8 {
		return fmt.Errorf("cuda: fill element size %d: must be 1, 2, 4 or 8", es)
	}
	if w < 0 || rows < 0 || pitch < w*es {
		return fmt.Errorf("cuda: fill of %d rows of %d %d-byte elements with pitch %d", rows, w, es, pitch)
	}
	if w == 0 || rows == 0 {
		return nil
	}
	if dst%uintptr(min(es, 4)) != 0 || (rows > 1 && pitch%min(es, 4) != 0) {
		return fmt.Errorf("cuda: fill of %d-byte elements at %#x with pitch %d: misaligned", es, dst, pitch)
	}
	e, c, h, dev, end, err := s.beginAt(dst, span2D(pitch, w*es, rows))
	if err != nil {
		return err
	}
	if err := checkFillDevice(s, e); err != nil {
		end()
		return err
	}
	defer end()
	if err := fillRaw(c, h, e.Label, dst, pitch, es, pat, w, rows); err != nil {
		return err
	}
	if s == nil {
		return c.do("cuStreamSynchronize", e.Label, dev.drv.cuStreamSynchronize, 0)
	}
	return nil
}

// fillSync fills a block not yet registered (used for zeroing at
// allocation).
func fillSync(dev *Device, dst uintptr, es int, pat uint64, count int, label string) error {
	c, unlock, err := dev.bind()
	if err != nil {
		return err
	}
	defer unlock()
	if err := fillRaw(c, 0, label, dst, count*es, es, pat, count, 1); err != nil {
		return err
	}
	return c.do("cuStreamSynchronize", label, dev.drv.cuStreamSynchronize, 0)
}

// fillRaw queues the memsets of a fill on stream h. Eight-byte patterns
// whose halves are equal become 4-byte memsets; others are seeded and
// doubled by copies (see below).
func fillRaw(c ctxCall, h uintptr, label string, dst uintptr, pitch, es int, pat uint64, w, rows int) error {
	d := c.dev.drv
	if es == 8 && uint32(pat) == uint32(pat>>32) {
		es, w, pat = 4, 2*w, pat&0xffffffff
	}
	P, W, R := uintptr(pitch), uintptr(w), uintptr(rows)
	switch es {
	case 1:
		if rows == 1 {
			return c.do("cuMemsetD8Async", label, d.cuMemsetD8Async, dst, uintptr(uint8(pat)), W, h)
		}
		return c.do("cuMemsetD2D8Async", label, d.cuMemsetD2D8Async, dst, P, uintptr(uint8(pat)), W, R, h)
	case 2:
		if rows == 1 {
			return c.do("cuMemsetD16Async", label, d.cuMemsetD16Async, dst, uintptr(uint16(pat)), W, h)
		}
		return c.do("cuMemsetD2D16Async", label, d.cuMemsetD2D16Async, dst, P, uintptr(uint16(pat)), W, R, h)
	case 4:
		if rows == 1 {
			return c.do("cuMemsetD32Async", label, d.cuMemsetD32Async, dst, uintptr(uint32(pat)), W, h)
		}
		return c.do("cuMemsetD2D32Async", label, d.cuMemsetD2D32Async, dst, P, uintptr(uint32(pat)), W, R, h)
	}
	// Eight-byte patterns: seed up to 256 elements of the first row with
	// two strided 4-byte memsets, then double the filled prefix with
	// device-to-device copies, first along the row, then over the rows.
	lo, hi := uintptr(uint32(pat)), uintptr(uint32(pat>>32))
	seed := min(W, 256)
	if err := c.do("cuMemsetD2D32Async", label, d.cuMemsetD2D32Async, dst, 8, lo, 1, seed, h); err != nil {
		return err
	}
	if err := c.do("cuMemsetD2D32Async", label, d.cuMemsetD2D32Async, dst+4, 8, hi, 1, seed, h); err != nil {
		return err
	}
	for k := seed; k < W; k *= 2 {
		if err := c.do("cuMemcpyAsync", label, d.cuMemcpyAsync, dst+8*k, dst, 8*min(k, W-k), h); err != nil {
			return err
		}
	}
	for k := uintptr(1); k < R; k *= 2 {
		m := &memcpy2D{srcMemoryType: memUnified, srcDevice: dst, srcPitch: P,
			dstMemoryType: memUnified, dstDevice: dst + k*P, dstPitch: P, widthInBytes: 8 * W, height: min(k, R-k)}
		if err := c.do("cuMemcpy2DAsync_v2", label, d.cuMemcpy2DAsync, uintptr(unsafe.Pointer(m)), h); err != nil {
			return err
		}
	}
	return nil
}
