package cuda

import "unsafe"

// A StreamOption is an option of (*Device).NewStream.
type StreamOption int

// HighPriority makes NewStream create a stream of the device's highest
// priority (cuStreamCreateWithPriority with the greatest priority of
// cuCtxGetStreamPriorityRange): when kernels of several streams wait for
// the multiprocessors, the device starts the blocks of this stream's
// kernels first. It lets a short kernel on the critical path, such as a
// stencil's boundary rows whose halo exchange follows, run ahead of a long
// kernel queued at the same time on a stream of the default priority,
// instead of waiting behind its blocks. Blocks already running are not
// preempted.
const HighPriority StreamOption = 1

// newPriorityStream creates st's stream with the device's greatest
// priority.
func (dev *Device) newPriorityStream(st *streamState) error {
	c, unlock, err := dev.bind()
	if err != nil {
		return err
	}
	defer unlock()
	var least, greatest int32
	if err := c.do("cuCtxGetStreamPriorityRange", "", dev.drv.cuCtxGetStreamPriorityRange, uintptr(unsafe.Pointer(&least)), uintptr(unsafe.Pointer(&greatest))); err != nil {
		return err
	}
	// The priority is a C int passed by value: sign-extended, as the
	// register holds it.
	return c.do("cuStreamCreateWithPriority", "", dev.drv.cuStreamCreateWithPriority, uintptr(unsafe.Pointer(&st.h)), 0, uintptr(int64(greatest)))
}

// priority returns the stream's priority (cuStreamGetPriority).
func (s *Stream) priority() (int, error) {
	c, h, _, end, err := s.begin(s.dev)
	if err != nil {
		return 0, err
	}
	defer end()
	var p int32
	err = c.do("cuStreamGetPriority", "", s.dev.drv.cuStreamGetPriority, h, uintptr(unsafe.Pointer(&p)))
	return int(p), err
}

// priorityRange returns the device's least and greatest stream priorities.
func (dev *Device) priorityRange() (least, greatest int, err error) {
	var l, g int32
	err = dev.call("cuCtxGetStreamPriorityRange", "", dev.drv.cuCtxGetStreamPriorityRange, uintptr(unsafe.Pointer(&l)), uintptr(unsafe.Pointer(&g)))
	return int(l), int(g), err
}
