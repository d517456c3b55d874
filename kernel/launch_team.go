package kernel

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// first returns the position of the kernel's first parameter after its
// indices (or its Team).
func (e *entry) first() int {
	if e.Team {
		return 1
	}
	return e.Rank
}

// teamShape checks that a launch over a TeamPolicy (team) is of a team
// kernel, and one over an index range of a kernel with indices.
func (e *entry) teamShape(team bool) error {
	switch {
	case e.Team && !team:
		return fmt.Errorf("%w: kernel %s is a team kernel (its first parameter is a kernel.Team): launch it over a kokkos.TeamPolicy (kokkos.Teams(league, size))", ErrArgs, e.Name)
	case !e.Team && team:
		return fmt.Errorf("%w: kernel %s takes %d indices, not a kernel.Team: launch it over a %s, not a TeamPolicy", ErrArgs, e.Name, e.Rank, rangeKind(e.Rank))
	}
	return nil
}

// rangeKind names the policy of a kernel of rank indices.
func rangeKind(rank int) string {
	if rank == 1 {
		return "RangePolicy"
	}
	return fmt.Sprintf("MDRangePolicy of rank %d", rank)
}

// forTeam runs the team kernel e over p: on the host through
// kokkos.ParallelForTeam, its generated body called once for every thread
// of every team.
func (e *entry) forTeam(label string, p kokkos.TeamPolicy, vals []any) error {
	if !hostSpace(p.Space()) {
		return e.deviceTeam(label, p, vals)
	}
	h, ok := e.Host.(func(*Launch, []any) (func(m *kokkos.TeamMember), error))
	if !ok {
		return fmt.Errorf("%w: kernel %s: the generated host kernel is a %T: run go generate", ErrStale, e.Name, e.Host)
	}
	b, err := bind(h, vals)
	if err != nil {
		return err
	}
	kokkos.ParallelForTeam(label, p, b)
	return nil
}

// reduceTeam runs the team reduction kernel e over p and returns the join
// by r of every thread's contributions, as kokkos.ParallelReduceTeam does
// (the same bits for any number of pool workers).
func reduceTeam[T any](e *entry, label string, p kokkos.TeamPolicy, r kokkos.Reducer[T], vals []any) (T, error) {
	var zero T
	if !hostSpace(p.Space()) {
		return deviceTeamReduce(e, label, p, r, vals)
	}
	h, ok := e.Host.(func(*Launch, []any) (func(m *kokkos.TeamMember, acc *T), error))
	if !ok {
		return zero, e.accError(zero)
	}
	b, err := bind(h, vals)
	if err != nil {
		return zero, err
	}
	return kokkos.ParallelReduceTeam(label, p, r, b), nil
}
