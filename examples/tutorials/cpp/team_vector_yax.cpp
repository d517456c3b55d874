// team-vector-yax: the Kokkos tutorial's team_vector_loop exercise (E
// products y_e^T*A_e*x_e, one team per e, rows over TeamThreadRange,
// columns over ThreadVectorRange), the C++ side of
// examples/tutorials/team-vector-yax. With -DTEAM_SCRATCH it is the
// team_scratch_memory exercise (team-scratch): each team first copies x_e
// into a level-0 scratch view and reads x from there.
#include <Kokkos_Core.hpp>

#include "tut.hpp"

#ifdef TEAM_SCRATCH
static const char* name = "team-scratch";
#else
static const char* name = "team-vector-yax";
#endif

int main(int argc, char* argv[]) {
  tut::Sizes s = tut::parse(argc, argv);
  tut::fill(s, 1 << 18, 1 << 10);
  const int N = s.N, M = s.M, E = s.E, nrepeat = s.nrepeat;
  std::printf("  Total size S = %d N = %d M = %d E = %d\n", s.S, N, M, E);
  Kokkos::initialize(argc, argv);
  {
    using Layout = Kokkos::LayoutRight;
    Kokkos::View<double**, Layout> y("y", E, N), x("x", E, M);
    Kokkos::View<double***, Layout> A("A", E, N, M);
    auto hy = Kokkos::create_mirror_view(y);
    auto hx = Kokkos::create_mirror_view(x);
    auto hA = Kokkos::create_mirror_view(A);
    for (int e = 0; e < E; e++) {
      for (int i = 0; i < N; ++i) hy(e, i) = 1;
      for (int i = 0; i < M; ++i) hx(e, i) = 1;
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i) hA(e, j, i) = 1;
    }
    Kokkos::deep_copy(y, hy);
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(A, hA);

    using team_policy = Kokkos::TeamPolicy<>;
    using member_type = team_policy::member_type;
#ifdef TEAM_SCRATCH
    using ScratchView = Kokkos::View<double*, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const int scratch = ScratchView::shmem_size(M);
    const auto policy = team_policy(E, Kokkos::AUTO, 32).set_scratch_size(0, Kokkos::PerTeam(scratch));
#else
    const auto policy = team_policy(E, Kokkos::AUTO, 32);
#endif
    const double solution = double(N) * double(M) * double(E);
    Kokkos::Timer timer;
    for (int repeat = 0; repeat < nrepeat; repeat++) {
      double result = 0;
      Kokkos::parallel_reduce(
          "yAx", policy,
          KOKKOS_LAMBDA(const member_type& team, double& update) {
            const int e = team.league_rank();
#ifdef TEAM_SCRATCH
            ScratchView sx(team.team_scratch(0), M);
            if (team.team_rank() == 0) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, M), [&](const int i) { sx(i) = x(e, i); });
            }
            team.team_barrier();
#define XE(i) sx(i)
#else
#define XE(i) x(e, i)
#endif
            double rows = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, N),
                [&](const int j, double& partN) {
                  double row = 0;
                  Kokkos::parallel_reduce(
                      Kokkos::ThreadVectorRange(team, M),
                      [&](const int i, double& partM) { partM += A(e, j, i) * XE(i); }, row);
                  partN += y(e, j) * row;
                },
                rows);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { update += rows; });
          },
          result);
      if (repeat == nrepeat - 1) std::printf("  Computed result for %d x %d x %d is %lf\n", N, M, E, result);
      if (result != solution) std::printf("  Error: result( %lf ) != solution( %lf )\n", result, solution);
    }
    double time = timer.seconds();
    double Gbytes = 1.0e-9 * E * double(sizeof(double) * (M + M * N + N));
    std::printf("  N( %d ) M( %d ) E( %d ) nrepeat ( %d ) problem( %g MB ) time( %g s ) bandwidth( %g GB/s )\n", N,
                M, E, nrepeat, Gbytes * 1000, time, Gbytes * nrepeat / time);
    tut::emit(name, "s", time);
  }
  Kokkos::finalize();
  return 0;
}
