package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gokkos/kokkos/backend"
)

// Copies between the memory of two devices.
//
// Which device runs a copy: the device of the stream given (DeepCopyOn's
// execution-space instance, as Kokkos's deep_copy(exec, ...)); without a
// stream, the destination's device when the destination is device memory,
// else the source's when it is, else the destination's. Pinned and unified
// memory are reachable from every device; device memory (cuMemAlloc) of
// another device than the one that runs the copy is reached through peer
// access.
//
// Peer access from device A to device B is enabled (cuCtxEnablePeerAccess
// in A's context) the first time a copy run by A touches B's device
// memory, once per ordered pair for the life of the process. Where it is
// enabled the copy runs directly: the driver's copy engines for
// contiguous bytes (cuMemcpyAsync under unified addressing, which moves
// them device to device over NVLink or PCIe), the strided copy kernel on
// the running device reading or writing the peer's memory for layout
// changes and strided views.
//
// Where it cannot be (cuDeviceCanAccessPeer says no, or the driver
// refuses), the copy is staged through pinned host memory and is
// synchronous even on a stream: it waits for the stream's earlier work,
// copies contiguous bytes in chunks through two pinned buffers of the
// source's device (the next chunk leaves the source while the last one
// reaches the destination), and returns when the bytes are in place, so
// work queued on the stream afterwards runs after it. A strided copy is
// packed on the source's device into a contiguous device temporary in the
// destination's order, staged so, and unpacked on the destination's
// device (or staged straight into a destination that is contiguous in
// that order).

// forceStagedPeer makes every copy between two devices' memory take the
// staged path, as where peer access is impossible; tests set it.
var forceStagedPeer atomic.Bool

// CUresult codes of cuCtxEnablePeerAccess.
const (
	codePeerAccessUnsupported    = 217
	codePeerAccessAlreadyEnabled = 704
	codeTooManyPeers             = 711
)

// peerLink is the outcome of enabling peer access for one ordered pair.
type peerLink struct {
	once sync.Once
	ok   bool
	err  error
}

type peerKey struct{ from, to int }

// peerLinks maps a peerKey to its *peerLink.
var peerLinks sync.Map

// peerAccess enables, once per ordered pair, access from device from's
// context to device to's memory, and reports whether it is enabled. A
// device that cannot reach the other (or a driver that refuses for want
// of resources) gives false and no error; forceStagedPeer gives false.
func peerAccess(from, to *Device) (bool, error) {
	if from == to {
		return true, nil
	}
	if forceStagedPeer.Load() {
		return false, nil
	}
	v, _ := peerLinks.LoadOrStore(peerKey{from.ordinal, to.ordinal}, new(peerLink))
	l := v.(*peerLink)
	l.once.Do(func() { l.ok, l.err = enablePeer(from, to) })
	return l.ok, l.err
}

func enablePeer(from, to *Device) (bool, error) {
	can, err := canAccessPeer(from.drv, from.handle, to.handle)
	if err != nil || !can {
		return false, err
	}
	err = from.call("cuCtxEnablePeerAccess", "", from.drv.cuCtxEnablePeerAccess, to.ctx, 0)
	var e *Error
	if errors.As(err, &e) {
		switch e.Code {
		case codePeerAccessAlreadyEnabled:
			return true, nil
		case codePeerAccessUnsupported, codeTooManyPeers:
			return false, nil
		}
		e.Detail = fmt.Sprintf("device %d to device %d", from.ordinal, to.ordinal)
		return false, e
	}
	return err == nil, err
}

// memDev returns the device whose device memory e is, nil for pinned and
// unified memory (reachable from every device).
func memDev(e *entry) *Device {
	if e.kind == kindDevice {
		return e.dev
	}
	return nil
}

// runner returns the device that runs a copy between de and se: s's
// device, else the destination's device memory's, else the source's,
// else the destination's.
func runner(s *Stream, de, se *entry) *Device {
	switch {
	case s != nil:
		return s.dev
	case memDev(de) != nil:
		return de.dev
	case memDev(se) != nil:
		return se.dev
	}
	return de.dev
}

// crosses reports whether device memory of es lies on another device
// than run.
func crosses(run *Device, es ...*entry) bool {
	for _, e := range es {
		if d := memDev(e); d != nil && d != run {
			return true
		}
	}
	return false
}

// reachable enables peer access from run to the device memory of es on
// other devices and reports whether run reaches all of it.
func reachable(run *Device, es ...*entry) (bool, error) {
	for _, e := range es {
		d := memDev(e)
		if d == nil || d == run {
			continue
		}
		if ok, err := peerAccess(run, d); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// peerRoute decides how a copy between de and se on s (nil: synchronous)
// runs: on the device run, directly (staged false: peer access enabled
// where needed), or staged through the host.
func peerRoute(s *Stream, de, se *entry) (run *Device, staged bool, err error) {
	run = runner(s, de, se)
	if !crosses(run, de, se) {
		return run, false, nil
	}
	ok, err := reachable(run, de, se)
	return run, !ok, err
}

// pinCtx switches the calling goroutine's locked thread to dev's context.
func pinCtx(dev *Device) (ctxCall, error) {
	if r, _, _ := purego.SyscallN(dev.drv.cuCtxSetCurrent, dev.ctx); r != 0 {
		return ctxCall{}, dev.drv.err("cuCtxSetCurrent", r, "", fmt.Sprintf("device %d", dev.ordinal))
	}
	return ctxCall{dev}, nil
}

// stagedCopy copies n bytes from src (block se) to dst (block de) through
// the host, after the work queued on s, and returns when they are in
// place.
func stagedCopy(s *Stream, dst, src uintptr, de, se *entry, n int) error {
	if n <= 0 {
		return nil
	}
	if s != nil {
		if err := s.sync(); err != nil {
			return err
		}
	}
	dd, sd := memDev(de), memDev(se)
	if dd == nil || sd == nil || dd == sd {
		// All the device memory is on one device: copy there.
		return copyOn(nil, dst, src, n)
	}
	label := de.Label
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cs, err := pinCtx(sd)
	if err != nil {
		return err
	}
	st, err := sd.getStager(cs)
	if err != nil {
		return err
	}
	defer func() {
		// On an error, transfers from the buffers may still be queued.
		if c, err := pinCtx(dd); err == nil {
			_ = c.do("cuStreamSynchronize", label, dd.drv.cuStreamSynchronize, 0)
		}
		if c, err := pinCtx(sd); err == nil {
			sd.putStager(c, st)
		}
	}()
	cd, err := pinCtx(dd)
	if err != nil {
		return err
	}
	var ev [2]uintptr
	defer func() {
		if c, err := pinCtx(dd); err == nil {
			for _, e := range ev {
				if e != 0 {
					_ = c.do("cuEventDestroy_v2", label, dd.drv.cuEventDestroy, e)
				}
			}
		}
	}()
	const disableTiming = 2
	for i := range ev {
		if err := cd.do("cuEventCreate", label, dd.drv.cuEventCreate, uintptr(unsafe.Pointer(&ev[i])), disableTiming); err != nil {
			return err
		}
	}
	chunk := min(chunkFor(n), st.size)
	chunks := (n + chunk - 1) / chunk
	part := func(i int) (uintptr, int) {
		off := i * chunk
		return uintptr(off), min(chunk, n-off)
	}
	// Chunk i leaves the source (on the source's legacy stream) while
	// chunk i-1 reaches the destination (on the destination's).
	for i := 0; i <= chunks; i++ {
		if i < chunks {
			b := i & 1
			if i >= 2 {
				if cd, err = pinCtx(dd); err != nil {
					return err
				}
				if err := cd.do("cuEventSynchronize", label, dd.drv.cuEventSynchronize, ev[b]); err != nil {
					return err
				}
			}
			if cs, err = pinCtx(sd); err != nil {
				return err
			}
			off, m := part(i)
			if err := cs.do("cuMemcpyDtoHAsync_v2", se.Label, sd.drv.cuMemcpyDtoHAsync, uintptr(st.buf[b]), src+off, uintptr(m), 0); err != nil {
				return err
			}
			if err := cs.do("cuEventRecord", se.Label, sd.drv.cuEventRecord, st.ev[b], 0); err != nil {
				return err
			}
		}
		if i >= 1 {
			b := (i - 1) & 1
			if cs, err = pinCtx(sd); err != nil {
				return err
			}
			if err := cs.do("cuEventSynchronize", se.Label, sd.drv.cuEventSynchronize, st.ev[b]); err != nil {
				return err
			}
			if cd, err = pinCtx(dd); err != nil {
				return err
			}
			off, m := part(i - 1)
			if err := cd.do("cuMemcpyHtoDAsync_v2", label, dd.drv.cuMemcpyHtoDAsync, dst+off, uintptr(st.buf[b]), uintptr(m), 0); err != nil {
				return err
			}
			if err := cd.do("cuEventRecord", label, dd.drv.cuEventRecord, ev[b], 0); err != nil {
				return err
			}
		}
	}
	if cd, err = pinCtx(dd); err != nil {
		return err
	}
	return cd.do("cuStreamSynchronize", label, dd.drv.cuStreamSynchronize, 0)
}

// copyPeer copies n bytes between blocks of two devices, or on a stream
// of a third, as the file's comment says; it reports false when the copy
// is direct and left to the caller, which runs it on the device run.
func copyPeer(s *Stream, dst, src uintptr, de, se *entry, n int) (run *Device, done bool, err error) {
	run, staged, err := peerRoute(s, de, se)
	if err != nil || !staged {
		return run, err != nil, err
	}
	return run, true, stagedCopy(s, dst, src, de, se, n)
}

// denseIn reports whether s's elements fill [s.Addr, s.Addr+count*es)
// with exactly the strides ps.
func denseIn(s *backend.Strided, ps *[8]int) bool {
	for r := range s.Rank {
		if s.Extents[r] > 1 && s.Strides[r] != ps[r] {
			return false
		}
	}
	return true
}

// packedOrder returns the compact strides of s's extents that keep the
// order of s's strides (the largest outermost), and the element count.
func packedOrder(s *backend.Strided) ([8]int, int) {
	var o [8]int
	rank := s.Rank
	for r := range rank {
		o[r] = r
	}
	for i := 1; i < rank; i++ {
		for j := i; j > 0 && s.Strides[o[j]] > s.Strides[o[j-1]]; j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
	var ps [8]int
	n := 1
	for i := rank - 1; i >= 0; i-- {
		ps[o[i]] = n
		n *= max(s.Extents[o[i]], 1)
	}
	return ps, n
}

// tempBlock allocates a device temporary of n bytes on dev for a staged
// copy.
func tempBlock(dev *Device, n int) (backend.Block, error) {
	return allocate(dev.ordinal, kindDevice, "cuda.peer staging", n, false)
}

// stridedStaged copies src (block se) to dst (block de) through the host,
// as the file's comment says: after the work queued on s, returning when
// the copy is complete.
func stridedStaged(s *Stream, dst, src backend.Strided, de, se *entry) error {
	if s != nil {
		if err := s.sync(); err != nil {
			return err
		}
	}
	dd, sd := memDev(de), memDev(se)
	if dd == nil || sd == nil || dd == sd {
		// All the device memory is on one device: copy there.
		return stridedOn(dst, src, de.Label)
	}
	ps, count := packedOrder(&dst)
	n := count * dst.ElemSize
	tb, err := tempBlock(sd, n)
	if err != nil {
		return err
	}
	defer tb.Free()
	tmpS := dst
	tmpS.Addr, tmpS.Strides = tb.Addr, ps
	if err := stridedOn(tmpS, src, se.Label); err != nil {
		return err
	}
	tse, err := lookup(tb.Addr, n)
	if err != nil {
		return err
	}
	if denseIn(&dst, &ps) {
		return stagedCopy(nil, dst.Addr, tb.Addr, de, tse, n)
	}
	db, err := tempBlock(dd, n)
	if err != nil {
		return err
	}
	defer db.Free()
	tde, err := lookup(db.Addr, n)
	if err != nil {
		return err
	}
	if err := stagedCopy(nil, db.Addr, tb.Addr, tde, tse, n); err != nil {
		return err
	}
	tmpD := tmpS
	tmpD.Addr = db.Addr
	return stridedOn(dst, tmpD, de.Label)
}

// stridedOn runs a strided copy within one device and waits for it.
func stridedOn(dst, src backend.Strided, label string) error {
	done, err := copyStrided(nil, dst, src)
	if err == nil && !done {
		err = fmt.Errorf("cuda: strided copy of %v elements of %d bytes (%q): no kernel for the shape", src.Extents[:src.Rank], src.ElemSize, label)
	}
	return err
}

// copy2DPeer routes a 2-D copy between blocks of this package: it
// returns the device that runs it directly, or runs it staged (done).
func copy2DPeer(s *Stream, dst uintptr, dstPitch int, src uintptr, srcPitch int, width, height int) (run *Device, done bool, err error) {
	de, err := lookup(dst, span2D(dstPitch, width, height))
	if err != nil {
		return nil, true, err
	}
	se, err := lookup(src, span2D(srcPitch, width, height))
	if err != nil {
		return nil, true, err
	}
	run, staged, err := peerRoute(s, de, se)
	if err != nil || !staged {
		return run, err != nil, err
	}
	// As a strided copy of rows of words.
	w := 1
	for _, x := range copyWords {
		if width%x == 0 && dstPitch%x == 0 && srcPitch%x == 0 && dst%uintptr(x) == 0 && src%uintptr(x) == 0 {
			w = x
			break
		}
	}
	d := backend.Strided{Addr: dst, ElemSize: w, Rank: 2}
	d.Extents[0], d.Extents[1] = height, width/w
	d.Strides[0], d.Strides[1] = dstPitch/w, 1
	sv := d
	sv.Addr, sv.Strides[0] = src, srcPitch/w
	return run, true, stridedStaged(s, d, sv, de, se)
}

// checkFillDevice refuses a fill of device memory e on a stream of
// another device.
func checkFillDevice(s *Stream, e *entry) error {
	if s != nil && memDev(e) != nil && e.dev != s.dev {
		return fmt.Errorf("%w: fill of view %q: the view is on device %d, the stream on device %d; fill it on a stream of device %d",
			ErrBinding, e.Label, e.dev.ordinal, s.dev.ordinal, e.dev.ordinal)
	}
	return nil
}

// firstView names the first bound view, for errors: its name in the
// body and its label.
func (s *argSet) firstView() string {
	if len(s.views) == 0 {
		return "none"
	}
	v := &s.views[0]
	if v.d.Label == "" {
		return v.name
	}
	return fmt.Sprintf("%s (label %q)", v.name, v.d.Label)
}

// hostSide returns the stream on which a copy between Go memory and the n
// bytes at addr runs: s itself when s's device reaches that memory (peer
// access enabled where needed), else nil, the memory's own device
// synchronously, after the work queued on s. A nil s stays nil.
func hostSide(s *Stream, addr uintptr, n int) (*Stream, error) {
	if s == nil {
		return nil, nil
	}
	e, err := lookup(addr, n)
	if err != nil || !crosses(s.dev, e) {
		return s, nil // beginAt reports a bad range
	}
	ok, err := reachable(s.dev, e)
	if err != nil || ok {
		return s, err
	}
	return nil, s.sync()
}

// checkFillStrided refuses a strided fill of device memory on a stream of
// another device; memory outside the live blocks is left to the caller.
func checkFillStrided(s *Stream, dst *backend.Strided) error {
	if s == nil || checkStrided(dst) != nil {
		return nil
	}
	n := spanBytes(dst)
	if n == 0 {
		return nil
	}
	e, err := lookup(dst.Addr, n)
	if err != nil {
		return nil
	}
	return checkFillDevice(s, e)
}
