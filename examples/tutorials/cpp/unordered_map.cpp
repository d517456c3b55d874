// unordered_map: the Kokkos tutorial's unordered_map exercise (a global
// to local id map: num_ids global ids, the bytes of ~i reversed, inserted
// by a parallel loop with their local index, then checked), the C++ side
// of examples/tutorials/unordered-map. Besides the exercise's insert loop
// and its loop over the map's indices, it times a loop that finds every
// id again; each repetition clears the map first (not timed).
//
//   unordered_map [num_ids [map_capacity [nrepeat]]]
//       (defaults 100000, num_ids, 1; the median of nrepeat)
#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tut.hpp"

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    int num_ids = argc > 1 ? std::atoi(argv[1]) : 100000;
    int map_capacity = argc > 2 ? std::atoi(argv[2]) : num_ids;
    int nrepeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;

    Kokkos::View<uint64_t*> l2g("local_2_global", num_ids);
    Kokkos::parallel_for(
        "l2g", num_ids, KOKKOS_LAMBDA(int i) {
          constexpr uint64_t byte = 0xFFull;
          uint64_t tmp = static_cast<uint64_t>(~i);
          l2g(i) = (tmp & (byte << 0)) << 56 | (tmp & (byte << 8)) << 40 | (tmp & (byte << 16)) << 24 |
                   (tmp & (byte << 24)) << 8 | (tmp & (byte << 32)) >> 8 | (tmp & (byte << 40)) >> 24 |
                   (tmp & (byte << 48)) >> 40 | (tmp & (byte << 56)) >> 56;
        });

    Kokkos::UnorderedMap<uint64_t, int32_t> g2l(map_capacity);
    std::vector<double> tin, tfind;
    int insert_errors = 0, find_errors = 0, value_errors = 0;
    for (int r = 0; r < nrepeat; r++) {
      g2l.clear();
      Kokkos::fence();
      Kokkos::Timer timer;
      int errors = 0;
      Kokkos::parallel_reduce(
          "Insert", num_ids,
          KOKKOS_LAMBDA(int i, int& local_errors) {
            if (g2l.insert(l2g(i), i).failed()) local_errors += 1;
          },
          errors);
      tin.push_back(timer.seconds());
      insert_errors += errors;

      timer.reset();
      errors = 0;
      Kokkos::parallel_reduce(
          "Find", num_ids,
          KOKKOS_LAMBDA(int i, int& local_errors) {
            uint32_t x = g2l.find(l2g(i));
            if (!g2l.valid_at(x) || g2l.value_at(x) != i) local_errors += 1;
          },
          errors);
      tfind.push_back(timer.seconds());
      find_errors += errors;

      errors = 0;
      Kokkos::parallel_reduce(
          "Iterate", g2l.capacity(),
          KOKKOS_LAMBDA(int x, int& local_errors) {
            if (g2l.valid_at(x) && l2g(g2l.value_at(x)) != g2l.key_at(x)) local_errors += 1;
          },
          errors);
      value_errors += errors;
    }
    std::sort(tin.begin(), tin.end());
    std::sort(tfind.begin(), tfind.end());
    std::printf("Time Insert: %d %u %g\n", num_ids, g2l.capacity(), tin[tin.size() / 2]);
    std::printf("Time Find: %d %u %g\n", num_ids, g2l.capacity(), tfind[tfind.size() / 2]);
    tut::emit("unordered-map.insert", "s", tin[tin.size() / 2]);
    tut::emit("unordered-map.find", "s", tfind[tfind.size() / 2]);
    if (insert_errors > 0) {
      std::printf("Exceeded UnorderedMap capacity\n");
      status = 1;
    } else if (find_errors > 0 || value_errors > 0) {
      std::printf("UnorderedMap has incorrect values\n");
      status = 1;
    }
  }
  Kokkos::finalize();
  return status;
}
