// Prints Kokkos's stride(k) for k in [rank, 8) of small views of each layout.
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cstdio>
template <class V> void show(const char* name, const V& v) {
  std::printf("%s rank %d:", name, (int)v.rank());
  for (int k = 0; k < 8; k++) std::printf(" %zu", (size_t)v.stride(k));
  std::printf("\n");
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double, Kokkos::LayoutRight, Kokkos::HostSpace> r0("r0");
    Kokkos::View<double, Kokkos::LayoutLeft, Kokkos::HostSpace> l0("l0");
    Kokkos::View<double, Kokkos::LayoutStride, Kokkos::HostSpace> s0("s0", Kokkos::LayoutStride());
    show("right", r0); show("left", l0); show("stride", s0);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> r2("r2", 3, 5);
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> l2("l2", 3, 5);
    Kokkos::View<double**, Kokkos::LayoutStride, Kokkos::HostSpace> s2("s2", Kokkos::LayoutStride(3, 7, 5, 1));
    show("right", r2); show("left", l2); show("stride", s2);
    Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> l3(Kokkos::view_alloc("l3", Kokkos::AllowPadding), 17, 4, 2);
    show("left padded", l3);
    Kokkos::DynRankView<double, Kokkos::LayoutRight, Kokkos::HostSpace> dr("dr", 3, 5);
    Kokkos::DynRankView<double, Kokkos::LayoutLeft, Kokkos::HostSpace> dl("dl", 3, 5);
    show("dynrank right", dr); show("dynrank left", dl);
  }
  Kokkos::finalize();
}
