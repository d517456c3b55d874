// dualview: the Kokkos tutorial's dualview exercise (Exercises/dualview/
// Solution): density and temperature set on the host, pressure, internal
// energy and enthalpy computed on the device by functors that sync their
// inputs to it and mark their output modified there, the results synced
// back and checked. The C++ side of examples/tutorials/dualview; as the
// exercise, but with the size and the number of steps as arguments and
// the time of the steps and the final syncs.
//
//   dualview [size [nsteps]]     (defaults 1000000 1)
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>

#include <cstdio>
#include <cstdlib>

#include "tut.hpp"

using view_type = Kokkos::DualView<double*>;
const double density_0 = 1;
const double temperature_0 = 300;
const double gasConstant = 1;
const double C_v = 1;

using memory_space = view_type::memory_space;

struct ComputePressure {
  Kokkos::View<double*, memory_space> pressure;
  Kokkos::View<const double*, memory_space, Kokkos::MemoryRandomAccess> temperature, density;
  ComputePressure(view_type dv_pressure, view_type dv_temperature, view_type dv_density) {
    pressure = dv_pressure.view<memory_space>();
    density = dv_density.view<memory_space>();
    temperature = dv_temperature.view<memory_space>();
    dv_pressure.sync<memory_space>();
    dv_temperature.sync<memory_space>();
    dv_density.sync<memory_space>();
    dv_pressure.modify<memory_space>();
  }
  KOKKOS_FUNCTION void operator()(const int i) const { pressure(i) = density(i) * gasConstant * temperature(i); }
};

struct ComputeInternalEnergy {
  Kokkos::View<double*, memory_space> energy;
  Kokkos::View<const double*, memory_space, Kokkos::MemoryRandomAccess> temperature;
  ComputeInternalEnergy(view_type dv_energy, view_type dv_temperature) {
    energy = dv_energy.view<memory_space>();
    temperature = dv_temperature.view<memory_space>();
    dv_energy.sync<memory_space>();
    dv_temperature.sync<memory_space>();
    dv_energy.modify<memory_space>();
  }
  KOKKOS_FUNCTION void operator()(const int i) const { energy(i) = C_v * temperature(i); }
};

struct ComputeEnthalpy {
  Kokkos::View<double*, memory_space> enthalpy;
  Kokkos::View<const double*, memory_space, Kokkos::MemoryRandomAccess> density, pressure, energy;
  ComputeEnthalpy(view_type dv_enthalpy, view_type dv_energy, view_type dv_pressure, view_type dv_density) {
    enthalpy = dv_enthalpy.view<memory_space>();
    density = dv_density.view<memory_space>();
    pressure = dv_pressure.view<memory_space>();
    energy = dv_energy.view<memory_space>();
    dv_density.sync<memory_space>();
    dv_pressure.sync<memory_space>();
    dv_energy.sync<memory_space>();
    dv_enthalpy.modify<memory_space>();
  }
  KOKKOS_FUNCTION void operator()(const int i) const { enthalpy(i) = energy(i) + pressure(i) / density(i); }
};

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    const int size = argc > 1 ? std::atoi(argv[1]) : 1000000;
    const int nsteps = argc > 2 ? std::atoi(argv[2]) : 1;
    view_type pressure("pressure", size), density("density", size), temperature("temperature", size),
        energy("energy", size), enthalpy("enthalpy", size);

    Kokkos::Timer timer;
    // load_state
    auto h_density = density.view_host();
    auto h_temperature = temperature.view_host();
    for (int j = 0; j < size; ++j) {
      h_density(j) = density_0;
      h_temperature(j) = temperature_0;
    }
    density.modify<view_type::host_mirror_space>();
    temperature.modify<view_type::host_mirror_space>();

    for (int step = 0; step < nsteps; ++step) {
      Kokkos::parallel_for("ComputePressure", size, ComputePressure(pressure, temperature, density));
      Kokkos::fence();
      Kokkos::parallel_for("ComputeInternalEnergy", size, ComputeInternalEnergy(energy, temperature));
      Kokkos::fence();
      Kokkos::parallel_for("ComputeEnthalpy", size, ComputeEnthalpy(enthalpy, energy, pressure, density));
      Kokkos::fence();
    }
    pressure.sync<view_type::host_mirror_space>();
    energy.sync<view_type::host_mirror_space>();
    enthalpy.sync<view_type::host_mirror_space>();
    double time = timer.seconds();

    // check_results
    const double thePressure = gasConstant * density_0 * temperature_0;
    const double theEnergy = C_v * temperature_0;
    const double theEnthalpy = theEnergy + thePressure / density_0;
    auto p = pressure.view_host();
    auto e = energy.view_host();
    auto h = enthalpy.view_host();
    double pressureError = 0, energyError = 0, enthalpyError = 0;
    for (int i = 0; i < size; ++i) {
      pressureError += (p(i) - thePressure) * (p(i) - thePressure);
      energyError += (e(i) - theEnergy) * (e(i) - theEnergy);
      enthalpyError += (h(i) - theEnthalpy) * (h(i) - theEnthalpy);
    }
    std::printf("pressure error = %g\nenergy error = %g\nenthalpy error = %g\n", pressureError, energyError,
                enthalpyError);
    std::printf("size( %d ) nsteps( %d ) time( %g s )\n", size, nsteps, time);
    tut::emit("dualview", "s", time);
    if (pressureError != 0 || energyError != 0 || enthalpyError != 0) status = 1;
  }
  Kokkos::finalize();
  return status;
}
