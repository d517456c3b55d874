// heat3d: the Kokkos tutorial's 3-D heat conduction exercise without MPI
// (inner cells over a 3-D MDRangePolicy, each surface over a 2-D one, then
// a reduction that sums T and advances it), the C++ side of
// examples/tutorials/heat3d.
//
//   heat3d [-X 200] [-Y 200] [-Z 200] [-N 10000] [-I 100] [-T0 0] [-dt 0.1] [-q 1] [-sigma 1] [-P 1]
#include <Kokkos_Core.hpp>

#include "tut.hpp"

enum { left, right, down, up, front, back };

struct InnerDT {
  Kokkos::View<double***> T, dT;
  double q;
  KOKKOS_FUNCTION void operator()(int x, int y, int z) const {
    double t = T(x, y, z), d = 0;
    d += q * (T(x - 1, y, z) - t);
    d += q * (T(x + 1, y, z) - t);
    d += q * (T(x, y - 1, z) - t);
    d += q * (T(x, y + 1, z) - t);
    d += q * (T(x, y, z - 1) - t);
    d += q * (T(x, y, z + 1) - t);
    dT(x, y, z) = d;
  }
};

template <int Surface>
struct SurfaceDT {
  Kokkos::View<double***> T, dT;
  double q, sigma, P;
  KOKKOS_FUNCTION void operator()(int i, int j) const {
    const int X = T.extent(0), Y = T.extent(1), Z = T.extent(2);
    int x = 0, y = 0, z = 0;
    if (Surface == left) { x = 0; y = i; z = j; }
    if (Surface == right) { x = X - 1; y = i; z = j; }
    if (Surface == down) { x = i; y = 0; z = j; }
    if (Surface == up) { x = i; y = Y - 1; z = j; }
    if (Surface == front) { x = i; y = j; z = 0; }
    if (Surface == back) { x = i; y = j; z = Z - 1; }
    double t = T(x, y, z), d = 0;
    if (x > 0) d += q * (T(x - 1, y, z) - t);
    if (x < X - 1) d += q * (T(x + 1, y, z) - t);
    if (y > 0) d += q * (T(x, y - 1, z) - t);
    if (y < Y - 1) d += q * (T(x, y + 1, z) - t);
    if (z > 0) d += q * (T(x, y, z - 1) - t);
    if (z < Z - 1) d += q * (T(x, y, z + 1) - t);
    if (x == 0) d += P;
    int faces = (x == 0) + (x == X - 1) + (y == 0) + (y == Y - 1) + (z == 0) + (z == Z - 1);
    d -= sigma * t * t * t * t * faces;
    dT(x, y, z) = d;
  }
};

struct ComputeT {
  Kokkos::View<double***> T, dT;
  double dt;
  KOKKOS_FUNCTION void operator()(int x, int y, int z, double& sum) const {
    sum += T(x, y, z);
    T(x, y, z) += dt * dT(x, y, z);
  }
};

template <int Surface>
static void surface(const char* label, Kokkos::View<double***> T, Kokkos::View<double***> dT, double q, double sigma,
                    double P, int lo0, int lo1, int hi0, int hi1) {
  Kokkos::parallel_for(label, Kokkos::MDRangePolicy<Kokkos::Rank<2>>({lo0, lo1}, {hi0, hi1}),
                       SurfaceDT<Surface>{T, dT, q, sigma, P});
}

int main(int argc, char* argv[]) {
  int X = 200, Y = 200, Z = 200, N = 10000, I = 100;
  double T0 = 0, dt = 0.1, q = 1, sigma = 1, P = 1;
  for (int i = 1; i + 1 < argc; i++) {
    if (!std::strcmp(argv[i], "-X")) X = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "-Y")) Y = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "-Z")) Z = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "-N")) N = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "-I")) I = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "-T0")) T0 = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "-dt")) dt = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "-q")) q = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "-sigma")) sigma = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "-P")) P = std::atof(argv[i + 1]);
  }
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double***> T("System::T", X, Y, Z), dT("System::dT", X, Y, Z);
    Kokkos::deep_copy(T, T0);
    Kokkos::Timer timer;
    for (int t = 0; t <= N; t++) {
      if (t > N / 2) P = 0.0;
      Kokkos::parallel_for("ComputeInnerDT",
                           Kokkos::MDRangePolicy<Kokkos::Rank<3>>({1, 1, 1}, {X - 1, Y - 1, Z - 1}), InnerDT{T, dT, q});
      surface<left>("ComputeSurfaceDT_Left", T, dT, q, sigma, P, 0, 0, Y, Z);
      surface<right>("ComputeSurfaceDT_Right", T, dT, q, sigma, P, 0, 0, Y, Z);
      surface<down>("ComputeSurfaceDT_Down", T, dT, q, sigma, P, 1, 0, X - 1, Z);
      surface<up>("ComputeSurfaceDT_Up", T, dT, q, sigma, P, 1, 0, X - 1, Z);
      surface<front>("ComputeSurfaceDT_front", T, dT, q, sigma, P, 1, 1, X - 1, Y - 1);
      surface<back>("ComputeSurfaceDT_back", T, dT, q, sigma, P, 1, 1, X - 1, Y - 1);
      double sum = 0;
      Kokkos::parallel_reduce("ComputeT", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {X, Y, Z}),
                              ComputeT{T, dT, dt}, sum);
      double ave = sum / (1e-9 * (double(X) * Y * Z));
      if (t % I == 0 || t == N) {
        double time = timer.seconds();
        std::printf("%i T=%lf Time (%lf %lf)\n", t, ave, time, time / t);
      }
    }
    tut::emit("heat3d", "s", timer.seconds());
  }
  Kokkos::finalize();
  return 0;
}
