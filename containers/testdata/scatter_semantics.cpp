// scatter_semantics prints what Kokkos's ScatterView does with a view that
// holds values: the view after construction and after updates, contribute
// into another view and into the view itself, reset_except and reset, for
// the duplicated and non-duplicated forms. TestScatterKokkosSemantics
// (scatter_semantics_test.go) does the same with package containers and
// compares with scatter_semantics.txt, which this program printed:
//
//   g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include scatter_semantics.cpp \
//     -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o /tmp/scatter_semantics
//   OMP_PROC_BIND=false OMP_NUM_THREADS=2 /tmp/scatter_semantics > scatter_semantics.txt
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstdio>

using Kokkos::Experimental::ScatterAtomic;
using Kokkos::Experimental::ScatterDuplicated;
using Kokkos::Experimental::ScatterMax;
using Kokkos::Experimental::ScatterNonAtomic;
using Kokkos::Experimental::ScatterNonDuplicated;
using Kokkos::Experimental::ScatterSum;

template <class V>
static void print(const char* name, const char* what, V v) {
  std::printf("%s: %s:", name, what);
  for (int i = 0; i < int(v.extent(0)); i++) std::printf(" %ld", long(v(i)));
  std::printf("\n");
}

template <class Space, class Op, class Dup, class Contrib>
static void run(const char* name, long k) {
  Kokkos::View<long*, Kokkos::LayoutRight, Space> v("v", 6), w("w", 6);
  for (int i = 0; i < 6; i++) {
    v(i) = 10 * i + 1;
    w(i) = 100 + i;
  }
  Kokkos::Experimental::ScatterView<long*, Kokkos::LayoutRight, Space, Op, Dup, Contrib> sv(v);
  print(name, "constructed", v);
  auto update = [=](long by) {
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Space>(0, 60), KOKKOS_LAMBDA(int i) {
          auto a = sv.access();
          a(i % 6).update(by * (i % 7) + k * (i % 5));
        });
    Kokkos::fence();
  };
  update(1);
  print(name, "updated", v);
  Kokkos::Experimental::contribute(w, sv);
  print(name, "contribute(w)", w);
  Kokkos::Experimental::contribute(v, sv);
  print(name, "contribute(v)", v);
  sv.reset_except(v);
  print(name, "reset_except(v)", v);
  update(2);
  Kokkos::Experimental::contribute(v, sv);
  print(name, "updated, contribute(v)", v);
  sv.reset_except(w);
  print(name, "reset_except(w)", v);
  sv.reset();
  print(name, "reset", v);
  Kokkos::Experimental::contribute(v, sv);
  print(name, "reset, contribute(v)", v);
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  run<Kokkos::OpenMP, ScatterSum, ScatterDuplicated, ScatterNonAtomic>("sum-dup", 3);
  run<Kokkos::OpenMP, ScatterSum, ScatterNonDuplicated, ScatterAtomic>("sum-atomic", 3);
  run<Kokkos::Serial, ScatterSum, ScatterNonDuplicated, ScatterNonAtomic>("sum-serial", 3);
  run<Kokkos::OpenMP, ScatterMax, ScatterDuplicated, ScatterNonAtomic>("max-dup", -40);
  run<Kokkos::OpenMP, ScatterMax, ScatterNonDuplicated, ScatterAtomic>("max-atomic", -40);
  Kokkos::finalize();
  return 0;
}
