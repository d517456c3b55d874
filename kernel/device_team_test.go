package kernel

import (
	"reflect"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// teamSample is a team kernel, registered below with made-up generated
// code.
func teamSample(t Team, a kokkos.View1[float64], s float32, acc *float64) {}

// recLauncher records the launches it is handed.
type recLauncher struct {
	device
	l   backend.Launch
	red backend.Reduction
}

func (r *recLauncher) For(l *backend.Launch) error { r.l = *l; return nil }
func (r *recLauncher) Reduce(l *backend.Launch, red backend.Reduction) (uint64, error) {
	r.l, r.red = *l, red
	return 0x4004000000000000, nil // 2.5
}
func (r *recLauncher) Scan(l *backend.Launch, red backend.Reduction) (uint64, error) { return 0, nil }

// TestDeviceTeam checks the launch of a team kernel on a device: the
// backend's kernel is a team kernel of rank 0 whose parameters follow the
// team, and the shape holds the policy's league, sizes and scratch.
func TestDeviceTeam(t *testing.T) {
	e := &entry{Spec: Spec{Name: "kernel.teamSample", Pattern: PatternReduce, Team: true, Params: []Param{{Name: "a", View: true}, {Name: "s"}}, IR: "kernelir 1\n"}, fn: reflect.TypeOf(teamSample)}
	a, err := kokkos.NewView1[float64]("a", 3)
	if err != nil {
		t.Fatal(err)
	}
	r := &recLauncher{}
	p := kokkos.Teams(7, 64).WithVectorLength(4).SetScratchSize(0, 16, 8).SetScratchSize(1, 1024, 0).On(r)
	got, err := deviceTeamReduce(e, "sum", p, kokkos.Sum[float64](), []any{a, float32(1.5)})
	if err != nil || got != 2.5 {
		t.Fatalf("deviceTeamReduce: %v, %v", got, err)
	}
	k := r.l.Kernel
	if !k.Team || k.Rank != 0 || len(k.Params) != 2 || k.Params[0].Elem != backend.KindFloat64 || k.Params[0].Rank != 1 || k.Params[1].Elem != backend.KindFloat32 || k.Acc != backend.KindFloat64 {
		t.Fatalf("kernel %+v", k)
	}
	want := backend.TeamShape{League: 7, Size: 64, Vector: 4, Scratch: [2][2]int{{16, 8}, {1024, 0}}}
	if r.l.Shape.Rank != 0 || r.l.Shape.Team != want || r.red != (backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64}) {
		t.Fatalf("shape %+v, reduction %+v; want %+v", r.l.Shape, r.red, want)
	}
	if err := e.deviceTeam("for", kokkos.Teams(0, kokkos.Auto).On(r), []any{a, float32(1.5)}); err != nil {
		t.Fatal(err)
	}
	if want := (backend.TeamShape{League: 0, Size: backend.TeamAuto, Vector: backend.TeamAuto}); r.l.Shape.Team != want || r.l.Label != "for" {
		t.Fatalf("shape %+v, want %+v", r.l.Shape.Team, want)
	}
}
