// mc-pi: the Kokkos tutorial's random_number exercise (pi from 2^N darts,
// dart_groups per index, generators from a Random_XorShift64_Pool), the
// C++ side of examples/tutorials/mc-pi, with the reduction timed.
//
//   mc-pi N [dart_groups]
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cmath>

#include "tut.hpp"

template <class Pool>
struct GenRandom {
  Pool pool;
  double rad;
  long groups;
  using gen_type = typename Pool::generator_type;

  KOKKOS_INLINE_FUNCTION void operator()(long, long& hits) const {
    gen_type g = pool.get_state();
    for (long it = 0; it < groups; ++it) {
      double x = Kokkos::rand<gen_type, double>::draw(g);
      double y = Kokkos::rand<gen_type, double>::draw(g);
      if (x * x + y * y <= rad * rad) ++hits;
    }
    pool.free_state(g);
  }
};

int main(int argc, char* argv[]) {
  if (argc < 2) {
    std::printf("RNG Example: Need at least one argument (number darts) to run; second optional argument for serial_iterations\n");
    return -1;
  }
  Kokkos::initialize(argc, argv);
  {
    const double rad = 1.0;
    const long N = std::atoi(argv[1]);
    const long groups = argc > 2 ? std::atoi(argv[2]) : 1;
    const long darts = std::pow(2, N);
    std::printf("Reference Value for pi:  %lf\n", 3.14159265358979323846);
    using Pool = Kokkos::Random_XorShift64_Pool<>;
    Pool pool(5374857);
    long hits = 0;
    Kokkos::Timer timer;
    Kokkos::parallel_reduce("MC-pi-estimate", darts / groups, GenRandom<Pool>{pool, rad, groups}, hits);
    double time = timer.seconds();
    std::printf("darts = %ld  hits = %ld  pi est = %lf\n", darts, hits, 4.0 * double(hits) / double(darts));
    std::printf("generator( XorShift64 pool ) time( %g s )\n", time);
    tut::emit("mc-pi", "s", time);
  }
  Kokkos::finalize();
  return 0;
}
