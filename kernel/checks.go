package kernel

import "sync/atomic"

// hostChecks makes the host launches of nocheck kernels check their
// accesses (CheckHostBounds).
var hostChecks atomic.Bool

// CheckHostBounds sets whether the host launches of kernels marked
// //kokkos:kernel nocheck check every view access against the view's
// extents, as every other kernel's do, and returns the former setting. It
// is off by default: such a kernel then loads and stores without a test,
// and an index outside a view is undefined behaviour, as with package
// unsafe. Tests turn it on to run the same kernels checked, where an index
// outside a view panics naming the kernel's line, the view, its label, the
// indices and the extents. A launch reads the setting once, when it binds
// its arguments; kernels without nocheck always check on the host.
func CheckHostBounds(on bool) (was bool) { return hostChecks.Swap(on) }

// Checks reports, to the generated host kernel of a nocheck kernel, whether
// it must check its accesses (CheckHostBounds was on when the launch
// bound its arguments). It is true for a Launch that is not live.
func (l *Launch) Checks() bool { return l == nil || !l.live || l.checks }
