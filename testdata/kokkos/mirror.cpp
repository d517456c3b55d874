// Prints the strides of create_mirror and create_mirror_view of padded and
// LayoutStride views, and whether create_mirror_view of a const view is a
// new allocation.
#include <Kokkos_Core.hpp>
#include <cstdio>
template <class V> void show(const char* name, const V& v) {
  std::printf("%s:", name);
  for (int k = 0; k < (int)v.rank(); k++) std::printf(" %zu", (size_t)v.stride(k));
  std::printf(" span %zu\n", (size_t)v.span());
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    using HS = Kokkos::HostSpace;
    Kokkos::View<double**, Kokkos::LayoutRight, HS> r(Kokkos::view_alloc("r", Kokkos::AllowPadding), 5, 13);
    Kokkos::View<double**, Kokkos::LayoutLeft, HS> l(Kokkos::view_alloc("l", Kokkos::AllowPadding), 13, 5);
    show("padded right", r); show("mirror", Kokkos::create_mirror(r));
    show("padded left", l); show("mirror", Kokkos::create_mirror(l));
    Kokkos::View<double**, Kokkos::LayoutLeft, HS> l2("l2", Kokkos::LayoutLeft(3, 4));
    Kokkos::LayoutLeft pl(3, 4); pl.stride = 7;
    Kokkos::View<double**, Kokkos::LayoutLeft, HS> l3("l3", pl);
    show("left stride 7", l3); show("mirror", Kokkos::create_mirror(l3));
    Kokkos::View<double**, Kokkos::LayoutStride, HS> s("s", Kokkos::LayoutStride(3, 9, 4, 2));
    show("stride (9, 2)", s); show("mirror", Kokkos::create_mirror(s));
    Kokkos::View<double***, HS> a("a", 4, 5, 6);
    auto sub = Kokkos::subview(a, Kokkos::ALL, 2, Kokkos::make_pair(1, 4));
    show("subview stride", sub); show("mirror", Kokkos::create_mirror(sub));
    show("mirror_view", Kokkos::create_mirror_view(sub));
    Kokkos::View<const double**, HS> c = l2.size() ? Kokkos::View<const double**, HS>(Kokkos::View<double**, HS>("c", 3, 4)) : Kokkos::View<const double**, HS>();
    auto mc = Kokkos::create_mirror_view(c);
    std::printf("const mirror_view new allocation: %d, writable: %d\n", (int)(mc.data() != c.data()),
                (int)!std::is_const_v<typename decltype(mc)::value_type>);
    auto mcs = Kokkos::create_mirror_view(HS(), c);
    std::printf("const mirror_view(HostSpace) new allocation: %d, writable: %d\n", (int)(mcs.data() != c.data()),
                (int)!std::is_const_v<typename decltype(mcs)::value_type>);
    auto mcc = Kokkos::create_mirror_view_and_copy(HS(), c);
    std::printf("const mirror_view_and_copy(HostSpace) new allocation: %d, writable: %d\n", (int)(mcc.data() != c.data()),
                (int)!std::is_const_v<typename decltype(mcc)::value_type>);
  }
  Kokkos::finalize();
}
