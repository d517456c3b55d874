// parallel-scan: the Kokkos tutorial's parallel_scan exercise (out(i) = i!
// by an exclusive product scan with a functor whose init and join make
// the product), the C++ side of examples/tutorials/parallel-scan.
//
//   parallel-scan [n [nrepeat]]     (defaults 10 1)
#include <Kokkos_Core.hpp>

#include <cmath>

#include "tut.hpp"

template <typename ValueType>
struct Factorial {
  using value_type = ValueType;
  Kokkos::View<value_type*> out;

  KOKKOS_FUNCTION void init(value_type& v) const { v = 1; }
  KOKKOS_FUNCTION void join(value_type& lhs, const value_type& rhs) const { lhs *= rhs; }
  KOKKOS_FUNCTION void operator()(int i, value_type& partial, bool final) const {
    if (final) out(i) = partial;
    partial *= i + 1;
  }
};

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    int n = argc > 1 ? std::atoi(argv[1]) : 10;
    int nrepeat = argc > 2 ? std::atoi(argv[2]) : 1;
    if (nrepeat < 1) nrepeat = 1;
    Kokkos::View<double*> view("view", n);
    Kokkos::Timer timer;
    for (int r = 0; r < nrepeat; r++) Kokkos::parallel_scan("factorial", n, Factorial<double>{view});
    Kokkos::fence();
    double time = timer.seconds();

    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, view);
    std::printf("Factorial: \n");
    double ref = 1;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      if (i < 20) std::printf("%d: %g should be %g\n", i, h(i), ref);
      if (!(h(i) == ref || std::fabs(h(i) - ref) <= 1e-12 * std::fabs(ref))) bad++;
      ref *= i + 1;
    }
    std::printf("n( %d ) nrepeat( %d ) time( %g s )\n", n, nrepeat, time);
    tut::emit("parallel-scan", "s", time);
    if (bad) {
      std::printf("Error: %d of %d factorials differ from the sequential loop's\n", bad, n);
      status = 1;
    }
  }
  Kokkos::finalize();
  return status;
}
