// Prints Kokkos::Bitset's answers to set, reset, test, count,
// find_any_set_near and find_any_unset_near over a fixed pseudo-random
// sequence, for TestBitsetKokkosTrace.
//
//   g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include bitset_find.cpp \
//     -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o bitset_find
//   OMP_NUM_THREADS=1 ./bitset_find > bitset_find.txt
//
// Each line: size, then per operation "op arg result" where op is s
// (set), r (reset), t (test), S and U (find_any_set_near and
// find_any_unset_near, arg hint*4+direction, result found*2^32+index),
// A (set all), Z (reset all) and c (count).
#include <Kokkos_Bitset.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>

static uint64_t state = 777;
static uint64_t next() {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const unsigned sizes[] = {1, 5, 31, 32, 33, 64, 70, 100, 129, 300};
    for (unsigned n : sizes) {
      Kokkos::Bitset<Kokkos::Serial> b(n);
      printf("%u", n);
      const unsigned span = b.max_hint() * 32;
      for (int k = 0; k < 300; k++) {
        uint64_t x = next();
        unsigned i = (x >> 4) % (n + 3);  // some past the end
        switch (x % 16) {
          case 0: case 1: case 2: case 3: case 4:
            printf(" s %u %d", i, (int)b.set(i));
            break;
          case 5: case 6:
            printf(" r %u %d", i, (int)b.reset(i));
            break;
          case 7: case 8:
            printf(" t %u %d", i, (int)b.test(i));
            break;
          case 9: case 10: case 11: case 12: {
            unsigned hint = (x >> 6) % span, dir = (x >> 4) & 3;
            auto p = (x & 1) ? b.find_any_set_near(hint, dir)
                             : b.find_any_unset_near(hint, dir);
            printf(" %c %u %llu", (x & 1) ? 'S' : 'U', hint * 4 + dir,
                   ((unsigned long long)p.first << 32) + p.second);
            break;
          }
          case 13:
            if ((x >> 4) % 4 == 0) { b.set(); printf(" A 0 0"); }
            else printf(" c 0 %u", b.count());
            break;
          case 14:
            if ((x >> 4) % 6 == 0) { b.reset(); printf(" Z 0 0"); }
            else printf(" c 0 %u", b.count());
            break;
          default:
            printf(" c 0 %u", b.count());
        }
      }
      printf("\n");
    }
  }
  Kokkos::finalize();
}
