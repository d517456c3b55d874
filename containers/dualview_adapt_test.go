package containers_test

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// dualOps is what the tests call on a DualView of any rank.
type dualOps interface {
	ModifyHost()
	ModifyDevice()
	Modify(kokkos.MemorySpace)
	ClearSyncState()
	NeedSyncHost() bool
	NeedSyncDevice() bool
	NeedSync(kokkos.MemorySpace) bool
	SyncHost() error
	SyncHostOn(kokkos.ExecutionSpace) error
	SyncDevice() error
	SyncDeviceOn(kokkos.ExecutionSpace) error
	Sync(kokkos.MemorySpace) error
	SyncOn(kokkos.ExecutionSpace, kokkos.MemorySpace) error
	IsAllocated() bool
	Label() string
	Space() kokkos.MemorySpace
	Rank() int
	Extent(int) int
	Span() int
	Release() error
}

// dualAdapter gives rank-independent access to a DualView of any rank.
type dualAdapter[T any] struct {
	dv      dualOps
	host    func() kokkos.View[T]
	dev     func() kokkos.View[T]
	mirror  func(v kokkos.View[T]) (kokkos.View[T], []T) // a compact host copy of v's shape, and its elements
	resize  func(ext []int, opts ...kokkos.Option) error
	realloc func(ext []int, opts ...kokkos.Option) error
}

func newDual[T any](label string, ext []int, opts ...kokkos.Option) (dualAdapter[T], error) {
	switch len(ext) {
	case 0:
		dv, err := containers.NewDualView0[T](label, opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View0[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return nil },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(o...) }}, err
	case 1:
		dv, err := containers.NewDualView1[T](label, ext[0], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View1[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], o...) }}, err
	case 2:
		dv, err := containers.NewDualView2[T](label, ext[0], ext[1], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View2[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], e[1], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], e[1], o...) }}, err
	case 3:
		dv, err := containers.NewDualView3[T](label, ext[0], ext[1], ext[2], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View3[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], e[1], e[2], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], e[1], e[2], o...) }}, err
	case 4:
		dv, err := containers.NewDualView4[T](label, ext[0], ext[1], ext[2], ext[3], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View4[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], e[1], e[2], e[3], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], e[1], e[2], e[3], o...) }}, err
	case 5:
		dv, err := containers.NewDualView5[T](label, ext[0], ext[1], ext[2], ext[3], ext[4], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View5[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], e[1], e[2], e[3], e[4], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], e[1], e[2], e[3], e[4], o...) }}, err
	case 6:
		dv, err := containers.NewDualView6[T](label, ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View6[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error { return p.Resize(e[0], e[1], e[2], e[3], e[4], e[5], o...) },
			func(e []int, o ...kokkos.Option) error { return p.Realloc(e[0], e[1], e[2], e[3], e[4], e[5], o...) }}, err
	case 7:
		dv, err := containers.NewDualView7[T](label, ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], ext[6], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View7[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error {
				return p.Resize(e[0], e[1], e[2], e[3], e[4], e[5], e[6], o...)
			},
			func(e []int, o ...kokkos.Option) error {
				return p.Realloc(e[0], e[1], e[2], e[3], e[4], e[5], e[6], o...)
			}}, err
	case 8:
		dv, err := containers.NewDualView8[T](label, ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], ext[6], ext[7], opts...)
		p := &dv
		return dualAdapter[T]{p, func() kokkos.View[T] { return p.ViewHost() }, func() kokkos.View[T] { return p.ViewDevice() },
			func(v kokkos.View[T]) (kokkos.View[T], []T) {
				m := kokkos.Must(kokkos.CreateMirror(v.(kokkos.View8[T])))
				return m, m.Data()
			},
			func(e []int, o ...kokkos.Option) error {
				return p.Resize(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], o...)
			},
			func(e []int, o ...kokkos.Option) error {
				return p.Realloc(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], o...)
			}}, err
	}
	panic("newDual: rank above 8")
}
