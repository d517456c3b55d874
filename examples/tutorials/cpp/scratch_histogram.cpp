// scratch-histogram: a 16-bin histogram of an N×M matrix of bins, counted
// by teams into scratch-pad histograms (atomics there, then one atomic
// per bin into the global one) and by indices into local arrays, the C++
// side of examples/tutorials/scratch-histogram. The bins are splitmix64 of
// each element's position modulo 16, as the Go program's.
//
//   scratch-histogram [N [M [nrepeat [rows]]]]     (defaults 100000 100 1 128)
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <vector>

#include "tut.hpp"

constexpr int bins = 16;

using ScratchView = Kokkos::View<int*, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

static double team_scratch(Kokkos::View<int**> v, Kokkos::View<int*> r, int rows) {
  using team_policy = Kokkos::TeamPolicy<>;
  using member_type = team_policy::member_type;
  const int n = v.extent(0), m = v.extent(1);
  Kokkos::Timer timer;
  Kokkos::parallel_for(
      "team-scratch histogram",
      team_policy((n + rows - 1) / rows, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(ScratchView::shmem_size(bins))),
      KOKKOS_LAMBDA(const member_type& team) {
        ScratchView h(team.team_scratch(0), bins);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins), [&](int b) { h(b) = 0; });
        team.team_barrier();
        const int lo = team.league_rank() * rows;
        const int hi = lo + rows < n ? lo + rows : n;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lo, hi), [&](int i) {
          for (int j = 0; j < m; j++) Kokkos::atomic_inc(&h(v(i, j)));
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins), [&](int b) { Kokkos::atomic_add(&r(b), h(b)); });
      });
  Kokkos::fence();
  return timer.seconds();
}

static double local_array(Kokkos::View<int**> v, Kokkos::View<int*> r, int rows) {
  const int n = v.extent(0), m = v.extent(1);
  Kokkos::Timer timer;
  Kokkos::parallel_for(
      "local-array histogram", (n + rows - 1) / rows, KOKKOS_LAMBDA(const int k) {
        int h[bins] = {};
        const int hi = k * rows + rows < n ? k * rows + rows : n;
        for (int i = k * rows; i < hi; i++)
          for (int j = 0; j < m; j++) h[v(i, j)]++;
        for (int b = 0; b < bins; b++) Kokkos::atomic_add(&r(b), h[b]);
      });
  Kokkos::fence();
  return timer.seconds();
}

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    const int N = argc > 1 ? std::atoi(argv[1]) : 100000;
    const int M = argc > 2 ? std::atoi(argv[2]) : 100;
    const int nrepeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    const int rows = argc > 4 ? std::max(1, std::atoi(argv[4])) : 128;
    Kokkos::View<int**> values("V", N, M);
    Kokkos::View<int*> results("R", bins);
    auto hv = Kokkos::create_mirror_view(values);
    long want[bins] = {};
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) {
        uint64_t z = uint64_t(int64_t(i) * M + j) + 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        hv(i, j) = int(z % bins);
        want[hv(i, j)]++;
      }
    Kokkos::deep_copy(values, hv);
    long runs = 0;
    auto median = [&](auto f) {
      std::vector<double> t;
      for (int k = 0; k < nrepeat; k++, runs++) t.push_back(f(values, results, rows));
      std::sort(t.begin(), t.end());
      return t[t.size() / 2];
    };
    double t = median(team_scratch);
    std::printf("Time TeamScratch: %d %d %g\n", N, M, t);
    tut::emit("scratch-histogram.team-scratch", "s", t);
    t = median(local_array);
    std::printf("Time LocalArray: %d %d %g\n", N, M, t);
    tut::emit("scratch-histogram.local-array", "s", t);
    auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, results);
    for (int b = 0; b < bins; b++)
      if (hr(b) != runs * want[b]) {
        std::printf("Error: bin %d counts %d, want %ld\n", b, hr(b), runs * want[b]);
        status = 1;
      }
  }
  Kokkos::finalize();
  return status;
}
