// sort: Kokkos::sort of N random doubles in [0, 1), the C++ side of
// examples/tutorials/sort. The keys are splitmix64 of each position,
// scaled to [0, 1) by their top 53 bits, as the Go program's. One sort
// warms up; each of nrepeat sorts of fresh copies of the keys is timed
// (the copy is not), and the median is reported. On host spaces Kokkos
// 4.6.1 sorts with std::sort on the calling thread; on CUDA with Thrust.
//
//   sort [-N e] [-nrepeat r]     (defaults: e 26, r 3; N = 2^e keys)
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <vector>

#include "tut.hpp"

static uint64_t bits(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

static double key(int64_t i) {
  uint64_t z = uint64_t(i) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    int e = 26, nrepeat = 3;
    for (int i = 1; i + 1 < argc; i++) {
      if (!std::strcmp(argv[i], "-N")) e = std::atoi(argv[++i]);
      else if (!std::strcmp(argv[i], "-nrepeat")) nrepeat = std::max(1, std::atoi(argv[++i]));
    }
    const int64_t n = int64_t(1) << e;
    Kokkos::View<double*> orig("orig", n), keys("keys", n);
    auto h = Kokkos::create_mirror_view(orig);
    uint64_t sum = 0;  // of the keys' bits: the same in any order
    for (int64_t i = 0; i < n; i++) {
      h(i) = key(i);
      sum += bits(h(i));
    }
    Kokkos::deep_copy(orig, h);
    Kokkos::deep_copy(keys, orig);
    Kokkos::sort(keys);  // warm-up
    Kokkos::fence();
    std::vector<double> t;
    for (int r = 0; r < nrepeat; r++) {
      Kokkos::deep_copy(keys, orig);
      Kokkos::fence();
      Kokkos::Timer timer;
      Kokkos::sort(keys);
      Kokkos::fence();
      t.push_back(timer.seconds());
    }
    std::sort(t.begin(), t.end());
    Kokkos::deep_copy(h, keys);
    uint64_t got = 0;
    for (int64_t i = 0; i < n; i++) {
      got += bits(h(i));
      if (i > 0 && h(i) < h(i - 1)) {
        std::printf("Error: key %ld (%g) is less than key %ld (%g)\n", long(i), h(i), long(i - 1), h(i - 1));
        status = 1;
        break;
      }
    }
    if (got != sum) {
      std::printf("Error: the sorted keys' bits sum to %llu, the keys' to %llu\n", (unsigned long long)got, (unsigned long long)sum);
      status = 1;
    }
    std::printf("first %.17g last %.17g checksum %llu\n", h(0), h(n - 1), (unsigned long long)got);
    std::printf("Time Sort: %ld %d %g\n", long(n), nrepeat, t[t.size() / 2]);
    tut::emit("sort", "s", t[t.size() / 2]);
  }
  Kokkos::finalize();
  return status;
}
