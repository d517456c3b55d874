// histogram: the Kokkos tutorial's scatter_view exercise (an N-bin
// histogram of an N×M matrix of bins counted with atomics, with one copy
// per OpenMP thread, and with a ScatterView), the C++ side of
// examples/tutorials/histogram. The bins are splitmix64 of each element's
// position modulo N, as the Go program's (the tutorial uses rand()).
//
//   histogram [N [M [nrepeat]]]     (defaults 100000 100 1; median of nrepeat)
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <algorithm>
#include <vector>

#ifdef KOKKOS_ENABLE_OPENMP
#include <omp.h>
#endif

#include "tut.hpp"

static int32_t value(int i, int j, int m, int n) {
  uint64_t z = uint64_t(int64_t(i) * m + j) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return int32_t(z % uint64_t(n));
}

static double atomic_loop(Kokkos::View<int**> v, Kokkos::View<int*, Kokkos::MemoryTraits<Kokkos::Atomic>> r) {
  Kokkos::Timer timer;
  Kokkos::parallel_for(
      "Atomic Loop", v.extent(0), KOKKOS_LAMBDA(const int i) {
        for (int j = 0; j < int(v.extent(1)); j++) r(v(i, j))++;
      });
  Kokkos::fence();
  return timer.seconds();
}

#ifdef KOKKOS_ENABLE_OPENMP
static double openmp_loop(Kokkos::View<int**, Kokkos::HostSpace> v, Kokkos::View<int*, Kokkos::HostSpace> r,
                          Kokkos::View<int**, Kokkos::HostSpace> dup) {
  Kokkos::Timer timer;
  Kokkos::deep_copy(dup, 0);
  Kokkos::parallel_for(
      "Duplicated Loop", Kokkos::RangePolicy<Kokkos::OpenMP>(0, v.extent(0)), KOKKOS_LAMBDA(const int i) {
        int tid = omp_get_thread_num();
        for (int j = 0; j < int(v.extent(1)); j++) dup(tid, v(i, j))++;
      });
  Kokkos::parallel_for(
      "Reduce Loop", Kokkos::RangePolicy<Kokkos::OpenMP>(0, r.extent(0)), KOKKOS_LAMBDA(const int i) {
        for (int tid = 0; tid < int(dup.extent(0)); tid++) r(i) += dup(tid, i);
      });
  Kokkos::fence();
  return timer.seconds();
}
#endif

static double scatter_view_loop(Kokkos::View<int**> v, Kokkos::View<int*> r) {
  Kokkos::Experimental::ScatterView<int*> results(r);
  Kokkos::Timer timer;
  results.reset();
  Kokkos::parallel_for(
      "ScatterView Loop", v.extent(0), KOKKOS_LAMBDA(const int i) {
        auto access = results.access();
        for (int j = 0; j < int(v.extent(1)); j++) access(v(i, j)) += 1;
      });
  Kokkos::Experimental::contribute(r, results);
  Kokkos::fence();
  return timer.seconds();
}

template <class F>
static double median(int n, F&& f) {
  std::vector<double> t;
  for (int k = 0; k < n; k++) t.push_back(f());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    int N = argc > 1 ? std::atoi(argv[1]) : 100000;
    int M = argc > 2 ? std::atoi(argv[2]) : 100;
    int nrepeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;

    Kokkos::View<int**> values("V", N, M);
    Kokkos::View<int*> results("R", N);
    auto hv = Kokkos::create_mirror_view(values);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) hv(i, j) = value(i, j, M, N);
    Kokkos::deep_copy(values, hv);

    long runs = 0;
    double t = median(nrepeat, [&] { runs++; return atomic_loop(values, results); });
    std::printf("Time Atomic: %d %d %g\n", N, M, t);
    tut::emit("histogram.atomic", "s", t);
#ifdef KOKKOS_ENABLE_OPENMP
    if constexpr (std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::OpenMP>::value) {
      // The copies are made outside the timing, as in the tutorial.
      Kokkos::View<int**, Kokkos::HostSpace> dup("Rdup", Kokkos::OpenMP().concurrency(), N);
      t = median(nrepeat, [&] { runs++; return openmp_loop(values, results, dup); });
      std::printf("Time Duplicated: %d %d %g\n", N, M, t);
      tut::emit("histogram.duplicated", "s", t);
    }
#endif
    t = median(nrepeat, [&] { runs++; return scatter_view_loop(values, results); });
    std::printf("Time ScatterView: %d %d %g\n", N, M, t);
    tut::emit("histogram.scatter-view", "s", t);

    long total = 0;
    Kokkos::parallel_reduce("check", N, KOKKOS_LAMBDA(int i, long& s) { s += results(i); }, total);
    if (total != runs * long(N) * long(M)) {
      std::printf("Error: the histogram counts %ld values, want %ld\n", total, runs * long(N) * long(M));
      status = 1;
    }
  }
  Kokkos::finalize();
  return status;
}
