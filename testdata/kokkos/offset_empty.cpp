// Prints the extents, begins and ends of an OffsetView with an empty
// range {b, b-1}.
#include <Kokkos_Core.hpp>
#include <Kokkos_OffsetView.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::Experimental::OffsetView<double**, Kokkos::HostSpace> a("a", {-2, 3}, {5, 4});
    std::printf("a: extents %zu %zu begins %ld %ld ends %ld %ld size %zu\n", a.extent(0), a.extent(1),
                (long)a.begin(0), (long)a.begin(1), (long)a.end(0), (long)a.end(1), a.size());
    Kokkos::Experimental::OffsetView<double*, Kokkos::HostSpace> z("z", {0, -1});
    std::printf("z: extent %zu begin %ld end %ld\n", z.extent(0), (long)z.begin(0), (long)z.end(0));
  }
  Kokkos::finalize();
}
