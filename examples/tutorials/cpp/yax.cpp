// yax: the Kokkos tutorial's exercises 2 and 3 (y^T*A*x with the views in
// the default memory space, filled on host mirrors and deep-copied), the
// C++ side of examples/tutorials/yax. With -DYAX_LAYOUT it is exercise 4
// (yax-layout): the same over LayoutRight, then LayoutLeft views.
#include <Kokkos_Core.hpp>

#include "tut.hpp"

template <class Layout>
static void run(const char* name, int N, int M, int nrepeat) {
  using Vec = Kokkos::View<double*, Layout>;
  using Mat = Kokkos::View<double**, Layout>;
  Vec y("y", N), x("x", M);
  Mat A("A", N, M);
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
  tut::emit(name, "s", time);
}

int main(int argc, char* argv[]) {
  tut::Sizes s = tut::parse(argc, argv);
  tut::fill(s, 1 << 22, 0);
  std::printf("  Total size S = %d N = %d M = %d\n", s.S, s.N, s.M);
  Kokkos::initialize(argc, argv);
  {
#ifdef YAX_LAYOUT
    run<Kokkos::LayoutRight>("yax-layout.right", s.N, s.M, s.nrepeat);
    run<Kokkos::LayoutLeft>("yax-layout.left", s.N, s.M, s.nrepeat);
#else
    run<Kokkos::DefaultExecutionSpace::array_layout>("yax", s.N, s.M, s.nrepeat);
#endif
  }
  Kokkos::finalize();
  return 0;
}
