// kokkos_random prints the draws of Kokkos 4.6.1's Random_XorShift64 and
// Random_XorShift1024 pools that package random's tests compare against
// (kokkos_random.txt):
//
//	g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include kokkos_random.cpp \
//	    -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o kokkos_random
//	./kokkos_random > kokkos_random.txt
//
// Each line is "pool seed states index draw value": the draws of every
// kind, in order, from get_state(index) of a pool of the given seed and
// number of states; "fill ..." lines are fill_random of Serial views with a
// one-state Serial pool. Integers are printed in decimal, floats as C's %a.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cinttypes>
#include <cstdio>
#include <vector>

template <class Pool>
void draws(const char* name, uint64_t seed, int n) {
  Pool pool;
  pool.init(seed, n);
  std::vector<int> idx = {0, 1, n / 2, n - 1};
  for (int k = 0; k < (int)idx.size(); k++) {
    int i = idx[k];
    if (i >= n || (k > 0 && i <= idx[k - 1])) continue;
    auto g = pool.get_state(i);
#define P(kind, fmt, expr) \
  std::printf("%s %" PRIu64 " %d %d %s " fmt "\n", name, seed, n, i, kind, expr)
    P("urand", "%u", g.urand());
    P("urand64", "%" PRIu64, g.urand64());
    P("urandN", "%u", g.urand(1000u));
    P("urandN", "%u", g.urand(3000000000u));
    P("urandRange", "%u", g.urand(7u, 100u));
    P("urand64N", "%" PRIu64, g.urand64(uint64_t(1000000000000)));
    P("urand64N", "%" PRIu64, g.urand64(uint64_t(15000000000000000000ull)));
    P("urand64Range", "%" PRIu64, g.urand64(uint64_t(5), uint64_t(1000000000000000)));
    P("rand", "%d", g.rand());
    P("randN", "%d", g.rand(999));
    P("randN", "%d", g.rand(1500000000));
    P("randRange", "%d", g.rand(-50, 50));
    P("randRange", "%d", g.rand(10, -10));
    P("rand64", "%" PRId64, g.rand64());
    P("rand64N", "%" PRId64, g.rand64(int64_t(1000000000000000)));
    P("rand64Range", "%" PRId64, g.rand64(int64_t(-1000000000000), int64_t(1000000000000)));
    P("frand", "%a", (double)g.frand());
    P("frandN", "%a", (double)g.frand(2.5f));
    P("frandRange", "%a", (double)g.frand(-1.0f, 3.0f));
    P("drand", "%a", g.drand());
    P("drandN", "%a", g.drand(2.5));
    P("drandRange", "%a", g.drand(-1.0, 3.0));
    P("normal", "%a", g.normal());
    P("normalMeanStd", "%a", g.normal(1.5, 2.0));
    for (int r = 0; r < 8; r++) P("urand64", "%" PRIu64, g.urand64());
    pool.free_state(g);
    // The stored state continues the sequence.
    auto h = pool.get_state(i);
    P("again", "%" PRIu64, h.urand64());
    pool.free_state(h);
#undef P
  }
}

template <class Pool>
void fills(const char* name, uint64_t seed) {
  Pool pool(seed);  // one state: Serial's concurrency
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::Serial> d("d", 300, 3);
  Kokkos::fill_random(Kokkos::Serial(), d, pool, -1.0, 2.0);
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 3; j++)
      std::printf("fill %s %" PRIu64 " d2 %d %a\n", name, seed, i * 3 + j, d(i, j));
  Kokkos::View<int32_t*, Kokkos::Serial> n("n", 260);
  Kokkos::fill_random(Kokkos::Serial(), n, pool, 1000);
  for (int i = 0; i < 260; i++)
    std::printf("fill %s %" PRIu64 " i1 %d %d\n", name, seed, i, n(i));
  Kokkos::View<float***, Kokkos::LayoutLeft, Kokkos::Serial> f("f", 130, 2, 2);
  Kokkos::fill_random(Kokkos::Serial(), f, pool, 0.5f, 4.0f);
  for (int i = 0; i < 130; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++)
        std::printf("fill %s %" PRIu64 " f3 %d %a\n", name, seed, (i * 2 + j) * 2 + k, (double)f(i, j, k));
  Kokkos::View<uint64_t*, Kokkos::Serial> u("u", 200);
  Kokkos::fill_random(Kokkos::Serial(), u, pool, uint64_t(10), uint64_t(1) << 40);
  for (int i = 0; i < 200; i++)
    std::printf("fill %s %" PRIu64 " u1 %d %" PRIu64 "\n", name, seed, i, u(i));
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using S = Kokkos::Serial;
  for (uint64_t seed : {uint64_t(0), uint64_t(1), uint64_t(5374857), uint64_t(12345678901234567ull)}) {
    for (int n : {1, 4, 13, 1000, 2049}) {
      draws<Kokkos::Random_XorShift64_Pool<S>>("xorshift64", seed, n);
      draws<Kokkos::Random_XorShift1024_Pool<S>>("xorshift1024", seed, n);
    }
  }
  for (uint64_t seed : {uint64_t(0), uint64_t(981)}) {
    fills<Kokkos::Random_XorShift64_Pool<S>>("xorshift64", seed);
    fills<Kokkos::Random_XorShift1024_Pool<S>>("xorshift1024", seed);
  }
  return 0;
}
