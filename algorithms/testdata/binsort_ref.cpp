// Bin counts and offsets of Kokkos 4.6.1's BinSort with BinOp1D and
// BinOp3D on keys computed from splitmix64 of their positions, for
// TestBinSortKokkos (binsort_ref.txt holds the output).
//
//   g++ -O2 -std=c++20 -fopenmp -I$KOKKOS/include binsort_ref.cpp \
//     -L$KOKKOS/lib -lkokkoscontainers -lkokkoscore -ldl -o binsort_ref
//   OMP_NUM_THREADS=1 ./binsort_ref > binsort_ref.txt
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include <cstdio>

static uint64_t splitmix(uint64_t i) {
  uint64_t z = i + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double unit(uint64_t i) { return double(splitmix(i) >> 11) * 0x1.0p-53; }

template <class BS>
static void print(const char* name, const BS& bs) {
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, bs.get_bin_count());
  auto o = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, bs.get_bin_offsets());
  std::printf("%s counts", name);
  for (size_t k = 0; k < c.extent(0); k++) std::printf(" %d", c(k));
  std::printf("\n%s offsets", name);
  for (size_t k = 0; k < o.extent(0); k++) std::printf(" %d", int(o(k)));
  std::printf("\n");
}

template <class T>
static void one(const char* name, int n, int nbins, T (*key)(int)) {
  Kokkos::View<T*> keys("keys", n);
  auto h = Kokkos::create_mirror_view(keys);
  T lo = key(0), hi = key(0);
  for (int i = 0; i < n; i++) {
    h(i) = key(i);
    lo = h(i) < lo ? h(i) : lo;
    hi = h(i) > hi ? h(i) : hi;
  }
  Kokkos::deep_copy(keys, h);
  using Op = Kokkos::BinOp1D<Kokkos::View<T*>>;
  Kokkos::BinSort<Kokkos::View<T*>, Op> bs(keys, Op(nbins, lo, hi), false);
  bs.create_permute_vector();
  print(name, bs);
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    one<double>("f64", 1000, 37, [](int i) { return unit(i); });
    one<float>("f32", 777, 10, [](int i) { return float(unit(i) * 200 - 100); });
    one<int>("i32small", 500, 100, [](int i) { return int(splitmix(i) % 50) - 20; });
    one<int>("i32", 900, 64, [](int i) { return int(splitmix(i) % 1000); });
    const int n = 500;
    Kokkos::View<double* [3]> pos("pos", n);
    auto h = Kokkos::create_mirror_view(pos);
    for (int i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) h(i, d) = unit(3 * i + d);
    Kokkos::deep_copy(pos, h);
    using Op3 = Kokkos::BinOp3D<Kokkos::View<double* [3]>>;
    int nb[3] = {3, 4, 5};
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    Kokkos::BinSort<Kokkos::View<double* [3]>, Op3> bs(pos, Op3(nb, lo, hi), false);
    bs.create_permute_vector();
    print("p3", bs);
  }
  Kokkos::finalize();
}
