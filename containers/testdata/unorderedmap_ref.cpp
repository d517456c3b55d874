// Reference values for unorderedmap_test.go: Kokkos 4.6.1's pod_hash of
// some keys and the capacity UnorderedMap gives some hints.
//
//   g++ -O2 -std=c++20 -fopenmp -I/work/sbs/kokkos-install/include unorderedmap_ref.cpp \
//     -L/work/sbs/kokkos-install/lib -lkokkoscontainers -lkokkoscore -ldl -o /tmp/umapref && \
//     /tmp/umapref > unorderedmap_ref.txt
#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdint>
#include <cstdio>

struct Pair {
  int32_t a;
  float b;
};

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // Keys: splitmix64 of 0, 1, 2, ... as each type.
    uint64_t z = 0;
    auto next = [&z]() {
      uint64_t x = (z += 0x9e3779b97f4a7c15ull);
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
      return x ^ (x >> 31);
    };
    for (int i = 0; i < 8; i++) {
      uint64_t x = next();
      uint32_t u32 = uint32_t(x);
      uint8_t b3[3] = {uint8_t(x), uint8_t(x >> 8), uint8_t(x >> 16)};
      uint16_t u16 = uint16_t(x >> 40);
      Pair p{int32_t(x >> 32), float(int32_t(x)) / 1024.0f};
      struct {
        uint64_t w[3];
      } k24 = {{x, ~x, x * 3}};
      std::printf("hash u64 %llu %u\n", (unsigned long long)x,
                  Kokkos::pod_hash<uint64_t>()(x));
      std::printf("hash u32 %u %u\n", u32, Kokkos::pod_hash<uint32_t>()(u32));
      std::printf("hash u16 %u %u\n", u16, Kokkos::pod_hash<uint16_t>()(u16));
      std::printf("hash b3 %u %u %u %u\n", b3[0], b3[1], b3[2],
                  Kokkos::pod_hash<uint8_t[3]>()(b3));
      std::printf("hash pair %d %a %u\n", p.a, p.b, Kokkos::pod_hash<Pair>()(p));
      std::printf("hash k24 %llu %u\n", (unsigned long long)x,
                  Kokkos::pod_hash<decltype(k24)>()(k24));
    }
    for (uint32_t hint : {0u, 1u, 100u, 109u, 110u, 1000u, 100000u, 1u << 20}) {
      Kokkos::UnorderedMap<uint64_t, int> m(hint);
      std::printf("capacity %u %u\n", hint, m.capacity());
    }
  }
  Kokkos::finalize();
}
