package cuda

import (
	"runtime"
	"sync"
	"unsafe"
)

// Staged copies between pageable Go memory and device memory.
//
// The driver copies pageable memory slowly (it stages it through its own
// small pinned buffers, one at a time). These copies stage instead through
// two pinned buffers per transfer: several goroutines copy chunk i+1
// between the Go slice and one buffer while the DMA engine moves chunk i
// from or to the other.

// Tuning of staged copies. The chunk size was chosen by measuring 8, 16,
// 32 and 64 MiB chunks (docs/guide/cuda.md).
const (
	stageChunk      = 32 << 20 // bytes per pinned buffer
	stageMin        = 1 << 20  // smaller copies go straight to the driver
	stageMaxWorkers = 16       // host copy goroutines per chunk: min(GOMAXPROCS, stageMaxWorkers)
	stageKeep       = 4        // idle stagers kept per device
)

type stager struct {
	size int
	buf  [2]unsafe.Pointer // cuMemAllocHost memory
	ev   [2]uintptr        // CUevent
}

// getStager returns an idle stager of the current chunk size. A stager
// given back by an asynchronous copy may still have transfers in flight:
// its events are waited for before it is handed out again.
func (dev *Device) getStager(c ctxCall) (*stager, error) {
	dev.stagersMu.Lock()
	for i := len(dev.stagers) - 1; i >= 0; i-- {
		st := dev.stagers[i]
		if st.size == stageChunk {
			dev.stagers = append(dev.stagers[:i], dev.stagers[i+1:]...)
			dev.stagersMu.Unlock()
			for b := range 2 {
				if err := c.do("cuEventSynchronize", "staging buffer", c.dev.drv.cuEventSynchronize, st.ev[b]); err != nil {
					st.destroy(c)
					return nil, err
				}
			}
			return st, nil
		}
	}
	dev.stagersMu.Unlock()
	st := &stager{size: stageChunk}
	d := dev.drv
	for i := range 2 {
		if err := c.do("cuMemAllocHost_v2", "staging buffer", d.cuMemAllocHost, uintptr(unsafe.Pointer(&st.buf[i])), uintptr(st.size)); err != nil {
			st.destroy(c)
			return nil, err
		}
		const disableTiming = 2
		if err := c.do("cuEventCreate", "staging buffer", d.cuEventCreate, uintptr(unsafe.Pointer(&st.ev[i])), disableTiming); err != nil {
			st.destroy(c)
			return nil, err
		}
	}
	return st, nil
}

func (st *stager) destroy(c ctxCall) {
	d := c.dev.drv
	for i := range 2 {
		if st.buf[i] != nil {
			_ = c.do("cuMemFreeHost", "", d.cuMemFreeHost, uintptr(st.buf[i]))
		}
		if st.ev[i] != 0 {
			_ = c.do("cuEventDestroy_v2", "", d.cuEventDestroy, st.ev[i])
		}
	}
}

func (dev *Device) putStager(c ctxCall, st *stager) {
	dev.stagersMu.Lock()
	if len(dev.stagers) < stageKeep && st.size == stageChunk {
		dev.stagers = append(dev.stagers, st)
		st = nil
	}
	dev.stagersMu.Unlock()
	if st != nil {
		st.destroy(c)
	}
}

// parallelCopy copies src into dst (equal lengths) with several goroutines.
func parallelCopy(dst, src []byte) {
	w := min(runtime.GOMAXPROCS(0), stageMaxWorkers)
	const minPart = 256 << 10
	w = max(1, min(w, len(src)/minPart))
	if w == 1 {
		copy(dst, src)
		return
	}
	part := (len(src)/w + 4095) &^ 4095
	var wg sync.WaitGroup
	for lo := part; lo < len(src); lo += part {
		hi := min(lo+part, len(src))
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	copy(dst[:part], src[:part])
	wg.Wait()
}

// chunkFor returns the chunk size of a staged copy of n bytes: at most a
// buffer, and small enough that even a short copy has a few chunks to
// overlap.
func chunkFor(n int) int {
	c := min(stageChunk, max(n/4, stageMin/2))
	return (c + 4095) &^ 4095
}

// CopyFromHost copies the Go memory src to dst and waits for the copy.
// Copies of 1 MiB and more are staged through pinned buffers (chunked,
// host copies overlapped with the DMA).
func CopyFromHost(dst uintptr, src []byte) error { return copyFromHost(nil, dst, src) }

// CopyFromHost copies src to dst after the work queued on the stream, and
// returns when src is no longer needed (the copy is then complete).
func (s *Stream) CopyFromHost(dst uintptr, src []byte) error { return copyFromHost(s, dst, src) }

// CopyToHost copies len(dst) bytes from src to the Go memory dst and waits
// for the copy; large copies are staged as in CopyFromHost.
func CopyToHost(dst []byte, src uintptr) error { return copyToHost(nil, dst, src) }

// CopyToHost copies to dst after the work queued on the stream, and
// returns when the copy is complete.
func (s *Stream) CopyToHost(dst []byte, src uintptr) error { return copyToHost(s, dst, src) }

// copyFromHostAsync stages src into pinned buffers and queues the
// transfers on s without waiting for the last ones: it returns once src is
// no longer needed. The stager goes back to the pool with its last
// transfers possibly in flight (getStager waits for them).
func copyFromHostAsync(s *Stream, dst uintptr, src []byte) error {
	return copyFromHostMode(s, dst, src, true)
}

func copyFromHost(s *Stream, dst uintptr, src []byte) error {
	return copyFromHostMode(s, dst, src, false)
}

func copyFromHostMode(s *Stream, dst uintptr, src []byte, async bool) error {
	n := len(src)
	if n == 0 {
		return nil
	}
	s2, err := hostSide(s, dst, n)
	if err != nil {
		return err
	}
	if s2 != s {
		s, async = s2, false
	}
	e, c, h, dev, end, err := s.beginAt(dst, n)
	if err != nil {
		return err
	}
	defer end()
	d := dev.drv
	if n < stageMin && !async {
		var pin runtime.Pinner
		pin.Pin(&src[0])
		defer pin.Unpin()
		if err := c.do("cuMemcpyHtoDAsync_v2", e.Label, d.cuMemcpyHtoDAsync, dst, uintptr(unsafe.Pointer(&src[0])), uintptr(n), h); err != nil {
			return err
		}
		return c.do("cuStreamSynchronize", e.Label, d.cuStreamSynchronize, h)
	}
	st, err := dev.getStager(c)
	if err != nil {
		return err
	}
	defer dev.putStager(c, st)
	chunk := chunkFor(n)
	for i, off := 0, 0; off < n; i, off = i+1, off+chunk {
		m := min(chunk, n-off)
		b := i & 1
		if i >= 2 {
			if err := c.do("cuEventSynchronize", e.Label, d.cuEventSynchronize, st.ev[b]); err != nil {
				return err
			}
		}
		parallelCopy(unsafe.Slice((*byte)(st.buf[b]), m), src[off:off+m])
		if err := c.do("cuMemcpyHtoDAsync_v2", e.Label, d.cuMemcpyHtoDAsync, dst+uintptr(off), uintptr(st.buf[b]), uintptr(m), h); err != nil {
			return err
		}
		if err := c.do("cuEventRecord", e.Label, d.cuEventRecord, st.ev[b], h); err != nil {
			return err
		}
	}
	if async {
		return nil
	}
	return c.do("cuStreamSynchronize", e.Label, d.cuStreamSynchronize, h)
}

func copyToHost(s *Stream, dst []byte, src uintptr) error {
	n := len(dst)
	if n == 0 {
		return nil
	}
	s, err := hostSide(s, src, n)
	if err != nil {
		return err
	}
	e, c, h, dev, end, err := s.beginAt(src, n)
	if err != nil {
		return err
	}
	defer end()
	d := dev.drv
	if n < stageMin {
		var pin runtime.Pinner
		pin.Pin(&dst[0])
		defer pin.Unpin()
		if err := c.do("cuMemcpyDtoHAsync_v2", e.Label, d.cuMemcpyDtoHAsync, uintptr(unsafe.Pointer(&dst[0])), src, uintptr(n), h); err != nil {
			return err
		}
		return c.do("cuStreamSynchronize", e.Label, d.cuStreamSynchronize, h)
	}
	st, err := dev.getStager(c)
	if err != nil {
		return err
	}
	defer dev.putStager(c, st)
	chunk := chunkFor(n)
	issue := func(i int) error {
		off := i * chunk
		m := min(chunk, n-off)
		b := i & 1
		if err := c.do("cuMemcpyDtoHAsync_v2", e.Label, d.cuMemcpyDtoHAsync, uintptr(st.buf[b]), src+uintptr(off), uintptr(m), h); err != nil {
			return err
		}
		return c.do("cuEventRecord", e.Label, d.cuEventRecord, st.ev[b], h)
	}
	chunks := (n + chunk - 1) / chunk
	if err := issue(0); err != nil {
		return err
	}
	for i := range chunks {
		if i+1 < chunks {
			if err := issue(i + 1); err != nil {
				return err
			}
		}
		b := i & 1
		if err := c.do("cuEventSynchronize", e.Label, d.cuEventSynchronize, st.ev[b]); err != nil {
			return err
		}
		off := i * chunk
		m := min(chunk, n-off)
		parallelCopy(dst[off:off+m], unsafe.Slice((*byte)(st.buf[b]), m))
	}
	return nil
}
