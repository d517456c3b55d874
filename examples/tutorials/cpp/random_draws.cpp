// random-draws: draws per second from a Random_XorShift64_Pool, the C++
// side of examples/tutorials/random-draws. Each of 2^N indices takes a
// state (get_state), sums `draws` drand() of it and gives it back
// (free_state), in a parallel_reduce; then fill_random fills a view of
// 2^N * draws doubles in [0, 1) from the same pool. Both are timed.
//
//   random-draws N [draws]
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cmath>

#include "tut.hpp"

template <class Pool>
struct Draws {
  Pool pool;
  long draws;

  KOKKOS_INLINE_FUNCTION void operator()(long, double& sum) const {
    auto g = pool.get_state();
    for (long d = 0; d < draws; ++d) sum += g.drand();
    pool.free_state(g);
  }
};

int main(int argc, char* argv[]) {
  if (argc < 2) {
    std::printf("random-draws N [draws]: 2^N indices of draws drand() each (default 16)\n");
    return -1;
  }
  Kokkos::initialize(argc, argv);
  {
    const long n = std::pow(2, std::atoi(argv[1]));
    const long draws = argc > 2 ? std::atoi(argv[2]) : 16;
    using Pool = Kokkos::Random_XorShift64_Pool<>;
    Pool pool(5374857);
    double sum = 0;
    Kokkos::Timer timer;
    Kokkos::parallel_reduce("random-draws", n, Draws<Pool>{pool, draws}, sum);
    double time = timer.seconds();
    std::printf("indices = %ld  draws = %ld  mean = %f  draws/s = %.4g\n", n, n * draws, sum / double(n * draws), double(n * draws) / time);
    tut::emit("random-draws", "s", time);

    Kokkos::View<double*> v("v", n * draws);
    Kokkos::fence();
    timer.reset();
    Kokkos::fill_random(v, pool, 0.0, 1.0);
    time = timer.seconds();
    double fsum = 0;
    Kokkos::parallel_reduce("random-draws-sum", n * draws, KOKKOS_LAMBDA(long i, double& s) { s += v(i); }, fsum);
    std::printf("fill_random: %ld values  mean = %f  values/s = %.4g\n", n * draws, fsum / double(n * draws), double(n * draws) / time);
    tut::emit("random-draws.fill", "s", time);
  }
  Kokkos::finalize();
  return 0;
}
