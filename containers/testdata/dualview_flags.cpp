// Prints the sync state of a Kokkos::DualView after each of a fixed
// pseudo-random sequence of operations, for TestDualViewKokkosTrace.
//
// The DualView's device is Device<Serial, HostSpace> and its host mirror's
// the default host execution space (OpenMP), so that Kokkos keeps the
// counters although both views are one (the shared case). A modify that
// Kokkos's KOKKOS_ENABLE_DEBUG_DUALVIEW_MODIFY_CHECK would abort on is not
// made and printed as P (gokkos panics there).
//
//   g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include dualview_flags.cpp \
//     -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o dualview_flags
//   OMP_NUM_THREADS=1 ./dualview_flags > dualview_flags.txt
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <cstdint>
#include <cstdio>

using Dev = Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>;
using DV = Kokkos::DualView<int*, Kokkos::LayoutRight, Dev>;
using HostExec = Kokkos::DefaultHostExecutionSpace;

static uint64_t state = 12345;
static uint64_t next() {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    static_assert(!DV::impl_dualview_is_single_device::value);
    DV dv("dv", 3);
    for (int i = 0; i < 400; i++) {
      uint64_t x = next();
      int op = x % 9;
      int n = 1 + (x >> 8) % 4;
      char mark = '.';
      switch (op) {
        case 0:
          if (dv.need_sync_host()) mark = 'P'; else dv.modify_host();
          break;
        case 1:
          if (dv.need_sync_device()) mark = 'P'; else dv.modify_device();
          break;
        case 2: dv.sync_host(); break;
        case 3: dv.sync_device(); break;
        case 4: dv.sync<Kokkos::Serial>(); break;
        case 5: dv.sync<HostExec>(); break;
        case 6: dv.clear_sync_state(); break;
        case 7: dv.resize(n); break;
        case 8: dv.realloc(n); break;
      }
      printf("%d %d %c %d %d %d %d %d\n", op, n, mark, (int)dv.need_sync_host(),
             (int)dv.need_sync_device(), (int)dv.need_sync<Kokkos::Serial>(),
             (int)dv.need_sync<HostExec>(), (int)dv.extent(0));
    }
  }
  Kokkos::finalize();
}
