// team-yax: the Kokkos tutorial's team_policy exercise (y^T*A*x with one
// team per row, the row's dot product split over TeamThreadRange), the
// C++ side of examples/tutorials/team-yax.
#include <Kokkos_Core.hpp>

#include "tut.hpp"

int main(int argc, char* argv[]) {
  tut::Sizes s = tut::parse(argc, argv);
  tut::fill(s, 1 << 22, 0);
  const int N = s.N, M = s.M, nrepeat = s.nrepeat;
  std::printf("  Total size S = %d N = %d M = %d\n", s.S, N, M);
  Kokkos::initialize(argc, argv);
  {
    using Layout = Kokkos::LayoutRight;
    Kokkos::View<double*, Layout> y("y", N), x("x", M);
    Kokkos::View<double**, Layout> A("A", N, M);
    auto hy = Kokkos::create_mirror_view(y);
    auto hx = Kokkos::create_mirror_view(x);
    auto hA = Kokkos::create_mirror_view(A);
    for (int i = 0; i < N; ++i) hy(i) = 1;
    for (int i = 0; i < M; ++i) hx(i) = 1;
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i) hA(j, i) = 1;
    Kokkos::deep_copy(y, hy);
    Kokkos::deep_copy(x, hx);
    Kokkos::deep_copy(A, hA);

    using team_policy = Kokkos::TeamPolicy<>;
    using member_type = team_policy::member_type;
    const double solution = double(N) * double(M);
    Kokkos::Timer timer;
    for (int repeat = 0; repeat < nrepeat; repeat++) {
      double result = 0;
      Kokkos::parallel_reduce(
          "yAx", team_policy(N, Kokkos::AUTO),
          KOKKOS_LAMBDA(const member_type& team, double& update) {
            const int j = team.league_rank();
            double row = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, M), [&](const int i, double& part) { part += A(j, i) * x(i); }, row);
            if (team.team_rank() == 0) update += y(j) * row;
          },
          result);
      if (repeat == nrepeat - 1) std::printf("  Computed result for %d x %d is %lf\n", N, M, result);
      if (result != solution) std::printf("  Error: result( %lf ) != solution( %lf )\n", result, solution);
    }
    double time = timer.seconds();
    double Gbytes = 1.0e-9 * double(sizeof(double) * (M + M * N + N));
    std::printf("  N( %d ) M( %d ) nrepeat ( %d ) problem( %g MB ) time( %g s ) bandwidth( %g GB/s )\n", N, M,
                nrepeat, Gbytes * 1000, time, Gbytes * nrepeat / time);
    tut::emit("team-yax", "s", time);
  }
  Kokkos::finalize();
  return 0;
}
