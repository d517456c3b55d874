package backendtest

import (
	"fmt"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// maxTeam is the largest team the fake executor runs, a CUDA block's.
const maxTeam = 1024

// eachTeam calls f for every team of the league of s, a team launch's
// shape, in league order, until f fails. Each team has s.Team.Size
// threads (1 for Auto) of one vector lane each, which the Machine runs
// one at a time from one barrier or collective to the next.
func eachTeam(s *backend.Shape, f func(kernelir.TeamRun) error) error {
	ts := s.Team
	size := ts.Size
	if size == backend.TeamAuto {
		size = 1
	}
	switch {
	case ts.League < 0:
		return fmt.Errorf("backendtest: a league of %d teams", ts.League)
	case size < 1 || size > maxTeam:
		return fmt.Errorf("%w: backendtest: a team of %d threads: the fake executor runs 1 to %d, or Auto", backend.ErrUnsupported, ts.Size, maxTeam)
	case ts.Vector < 1 && ts.Vector != backend.TeamAuto:
		return fmt.Errorf("backendtest: vector length %d", ts.Vector)
	}
	for l := range 2 {
		if ts.Scratch[l][0] < 0 || ts.Scratch[l][1] < 0 {
			return fmt.Errorf("backendtest: scratch sizes %v", ts.Scratch)
		}
	}
	for r := range ts.League {
		if err := f(kernelir.TeamRun{LeagueRank: r, LeagueSize: ts.League, Size: size, Scratch: ts.Scratch}); err != nil {
			return err
		}
	}
	return nil
}
