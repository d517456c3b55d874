// Prints Kokkos::Experimental::DynamicView's chunk_size, chunk_max,
// extent and allocation_extent after resize_serial for a few minimum
// chunk sizes, maximum extents and extents, and the elements a deep_copy
// from a View leaves after a shrink and a growth within the last chunk,
// for TestDynamicViewKokkos.
//
//   g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include dynamicview_sizes.cpp \
//     -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o dynamicview_sizes
//   OMP_NUM_THREADS=1 ./dynamicview_sizes > dynamicview_sizes.txt
#include <Kokkos_Core.hpp>
#include <Kokkos_DynamicView.hpp>
#include <cstdio>

using DV = Kokkos::Experimental::DynamicView<double*, Kokkos::HostSpace>;

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const unsigned mins[] = {2, 3, 4, 5, 16, 17, 100};
    const unsigned maxs[] = {0, 1, 10, 64, 1000};
    for (unsigned mn : mins)
      for (unsigned mx : maxs) {
        DV d("d", mn, mx);
        printf("%u %u %zu %zu", mn, mx, d.chunk_size(), d.chunk_max());
        for (unsigned n : {0u, 1u, 7u, 33u, 1000u, 5u}) {
          if (n > d.chunk_max() * d.chunk_size()) continue;
          d.resize_serial(n);
          printf(" %u:%zu:%zu", n, d.extent(0), d.allocation_extent());
        }
        printf("\n");
      }
    // Elements kept past the extent: 10 elements, shrink to 5, grow to 8.
    DV d("k", 4, 64);
    d.resize_serial(10);
    Kokkos::View<double*, Kokkos::HostSpace> v("v", 10);
    for (int i = 0; i < 10; i++) v(i) = 1.5 * i + 1;
    Kokkos::deep_copy(d, v);
    d.resize_serial(5);
    d.resize_serial(8);
    printf("kept");
    for (int i = 0; i < 8; i++) printf(" %g", d(i));
    printf("\n");
    // deep_copy copies the extents' overlap.
    Kokkos::View<double*, Kokkos::HostSpace> w("w", 12);
    Kokkos::deep_copy(w, d);
    printf("overlap");
    for (int i = 0; i < 12; i++) printf(" %g", w(i));
    printf("\n");
  }
  Kokkos::finalize();
}
