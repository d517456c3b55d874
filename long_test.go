//go:build !longtest

package kokkos

import (
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// The test files built only with -tags longtest: they instantiate the
// generic views for some forty element types (atomics of every width,
// assignments between element kinds, MDRange bodies of every rank), which
// doubles the memory needed to compile this package's tests (2.7 GB with
// them, 1.4 GB without). .ci/run builds them; each file skips here, so
// that the count of skipped tests shows what was left out.
func TestLongFiles(t *testing.T) {
	for _, f := range []struct{ file, what string }{
		{"assign_test.go", "7 tests and a fuzz target: assignments and conversions between views of every element kind"},
		{"atomic_view_test.go", "10 tests: atomic views of every element type"},
		{"atomic16_test.go", "12 tests: 16-byte atomics, with and without the lock path"},
		{"mdrange_test.go", "6 tests: MDRange loops and reductions of ranks 2 to 6"},
		{"reduce_loc_test.go", "3 tests: MinLoc, MaxLoc and MinMaxLoc reductions"},
	} {
		t.Run(f.file, func(t *testing.T) { testutil.SkipUnlessLong(t, f.what) })
	}
}
