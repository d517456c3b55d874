// mdrange: the Kokkos tutorial's MDRange exercise (y and x filled by range
// loops, A by a 2-D MDRangePolicy, where they live; then y^T*A*x), the
// C++ side of examples/tutorials/mdrange.
#include <Kokkos_Core.hpp>

#include "tut.hpp"

int main(int argc, char* argv[]) {
  tut::Sizes s = tut::parse(argc, argv);
  tut::fill(s, 1 << 22, 0);
  const int N = s.N, M = s.M, nrepeat = s.nrepeat;
  std::printf("  Total size S = %d N = %d M = %d\n", s.S, N, M);
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double*> y("y", N), x("x", M);
    Kokkos::View<double**> A("A", N, M);
    Kokkos::parallel_for("init_y", Kokkos::RangePolicy<>(0, N), KOKKOS_LAMBDA(const int i) { y(i) = 1; });
    Kokkos::parallel_for("init_x", Kokkos::RangePolicy<>(0, M), KOKKOS_LAMBDA(const int i) { x(i) = 1; });
    Kokkos::parallel_for(
        "init_A", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {N, M}),
        KOKKOS_LAMBDA(const int j, const int i) { A(j, i) = 1; });
    Kokkos::fence();

    const double solution = double(N) * double(M);
    Kokkos::Timer timer;
    for (int repeat = 0; repeat < nrepeat; repeat++) {
      double result = 0;
      Kokkos::parallel_reduce(
          "yAx", N,
          KOKKOS_LAMBDA(int j, double& update) {
            double row = 0;
            for (int i = 0; i < M; ++i) row += A(j, i) * x(i);
            update += y(j) * row;
          },
          result);
      if (repeat == nrepeat - 1) std::printf("  Computed result for %d x %d is %lf\n", N, M, result);
      if (result != solution) std::printf("  Error: result( %lf ) != solution( %lf )\n", result, solution);
    }
    double time = timer.seconds();
    double Gbytes = 1.0e-9 * double(sizeof(double) * (M + M * N + N));
    std::printf("  N( %d ) M( %d ) nrepeat ( %d ) problem( %g MB ) time( %g s ) bandwidth( %g GB/s )\n", N, M,
                nrepeat, Gbytes * 1000, time, Gbytes * nrepeat / time);
    tut::emit("mdrange", "s", time);
  }
  Kokkos::finalize();
  return 0;
}
