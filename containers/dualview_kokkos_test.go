package containers_test

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestDualViewKokkosTrace replays the operations of
// testdata/dualview_flags.cpp on a DualView1 in a host-accessible device
// space and compares its sync state after each with what Kokkos 4.6.1
// printed (testdata/dualview_flags.txt).
func TestDualViewKokkosTrace(t *testing.T) {
	f, err := os.Open("testdata/dualview_flags.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	space := backendtest.FakeDevice(true)
	dv := kokkos.Must(containers.NewDualView1[int32]("dv", 3, kokkos.InSpace(space)))
	defer dv.Release()
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		var op, n, nh, nd, ndev, nhost, ext int
		var mark string
		if _, err := fmt.Sscan(sc.Text(), &op, &n, &mark, &nh, &nd, &ndev, &nhost, &ext); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		var msg string
		switch op {
		case 0:
			msg = panics(dv.ModifyHost)
		case 1:
			msg = panics(dv.ModifyDevice)
		case 2:
			err = dv.SyncHost()
		case 3:
			err = dv.SyncDevice()
		case 4:
			err = dv.Sync(space)
		case 5:
			err = dv.Sync(kokkos.HostSpace)
		case 6:
			dv.ClearSyncState()
		case 7:
			err = dv.Resize(n)
		case 8:
			err = dv.Realloc(n)
		}
		if err != nil {
			t.Fatalf("line %d: op %d: %v", line, op, err)
		}
		if (msg != "") != (mark == "P") {
			t.Fatalf("line %d: op %d panicked %q; Kokkos's modify check: %s", line, op, msg, mark)
		}
		got := [5]int{b2i(dv.NeedSyncHost()), b2i(dv.NeedSyncDevice()), b2i(dv.NeedSync(space)), b2i(dv.NeedSync(kokkos.HostSpace)), dv.Extent(0)}
		if want := [5]int{nh, nd, ndev, nhost, ext}; got != want {
			t.Fatalf("line %d: op %d: need_sync_host, need_sync_device, need_sync<dev>, need_sync<host>, extent = %v, Kokkos: %v", line, op, got, want)
		}
	}
	if line < 400 {
		t.Fatalf("%d lines in the trace", line)
	}
}
