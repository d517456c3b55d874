package kokkos

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// TestSubviewRank8Random checks the generated Subview methods of View8,
// which FuzzSubview (built on a DynRankView, of rank 7 at most) cannot
// reach: random extents, layouts and arguments (indices, All, pairs),
// every element of the result against the parent's, and a write through
// the result read back from the parent.
func TestSubviewRank8Random(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for trial := range 400 {
		ext := make([]int, 8)
		for r := range ext {
			ext[r] = 1 + rng.IntN(3)
		}
		p := makeTestView(t, rng, "P", ext, trial%3, false).v
		pd := p.viewDesc()
		args := make([]any, 8)
		begin := make([]int, 8)
		var keep, sub []int
		for r := range 8 {
			switch rng.IntN(3) {
			case 0:
				i := rng.IntN(ext[r])
				args[r], begin[r] = i, i
			case 1:
				args[r] = All
				keep, sub = append(keep, r), append(sub, ext[r])
			default:
				b := rng.IntN(ext[r] + 1)
				e := b + rng.IntN(ext[r]-b+1)
				args[r], begin[r] = Pair(b, e), b
				keep, sub = append(keep, r), append(sub, e-b)
			}
		}
		pv := reflect.New(reflect.TypeOf(p))
		pv.Elem().Set(reflect.ValueOf(p))
		in := make([]reflect.Value, 8)
		for r := range args {
			in[r] = reflect.ValueOf(&args[r]).Elem()
		}
		w := pv.MethodByName(fmt.Sprintf("Subview%d", len(keep))).Call(in)[0].Interface().(View[float64])
		wd := w.viewDesc()
		name := fmt.Sprintf("extents %v layout %v arguments %v", ext, pd.layout, args)
		if wd.rank != len(keep) || !slices.Equal(wd.extents(), sub) || wd.label() != "P" {
			t.Fatalf("%s: rank %d extents %v label %q, want %d %v", name, wd.rank, wd.extents(), wd.label(), len(keep), sub)
		}
		pidx := slices.Clone(begin)
		testutil.ForEachIndex(sub, func(idx []int) {
			for k, r := range keep {
				pidx[r] = begin[r] + idx[k]
			}
			po := offsetOf(pd.strides(), pidx)
			wo := offsetOf(wd.strides(), idx)
			if wd.data[wo] != pd.data[po] {
				t.Fatalf("%s: sub%v = %v, want parent%v = %v", name, idx, wd.data[wo], pidx, pd.data[po])
			}
			x := rng.Float64()
			wd.data[wo] = x
			if pd.data[po] != x {
				t.Fatalf("%s: a write to sub%v did not reach parent%v", name, idx, pidx)
			}
		})
	}
}
