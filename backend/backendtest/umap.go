package backendtest

import (
	"fmt"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// umap checks u, the map bound to p, and returns it over the Fake's
// memory for a Machine.
func (e *FakeExecutor) umap(l *backend.Launch, p *backend.Param, u *backend.UMap) (kernelir.UMap, error) {
	if u == nil {
		return kernelir.UMap{}, fmt.Errorf("backendtest: %q: map %s not bound", l.Label, p.Name)
	}
	out := kernelir.UMap{Erasable: u.Erasable, Bounded: u.Bounded}
	dst := [6]*kernelir.View{&out.Used, &out.Heads, &out.Next, &out.Flags, &out.Keys, &out.Values}
	for n, d := range u.Views() {
		elem := backend.KindUint32
		switch n {
		case 4:
			elem = p.Elem
		case 5:
			if p.Value == backend.KindInvalid {
				continue
			}
			elem = p.Value
		}
		vp := &backend.Param{Name: p.Name + "." + backend.UMapArrays[n], View: true, Rank: 1, Elem: elem, Write: true}
		v, err := e.view(l, vp, d)
		if err != nil {
			return kernelir.UMap{}, err
		}
		*dst[n] = v
	}
	return out, nil
}
