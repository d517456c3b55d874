package backendtest

import "github.com/gokkos/kokkos/backend"

// ExecutionSpace returns f's executor (Executor), one per Fake, made on
// first use: the default instance of the Fake's execution space, which
// views in f report as theirs (backend.SpaceExec).
func (f *Fake) ExecutionSpace() backend.Exec {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.exec == nil {
		f.exec = f.Executor()
	}
	return f.exec
}

// SetGarbage makes Allocate fill the blocks it does not zero by calling
// fill on the bytes asked for (random bytes, say), instead of leaving them
// all 0xAB: memory that a missing initialization would leave non-zero in
// a way a test can tell from a fill. A nil fill restores 0xAB.
func (f *Fake) SetGarbage(fill func([]byte)) {
	f.mu.Lock()
	f.garbage = fill
	f.mu.Unlock()
}

var _ backend.SpaceExec = (*Fake)(nil)
