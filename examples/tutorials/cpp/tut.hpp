// Shared by the C++ side of the tutorial examples: the exercises' sizes
// (exponents of 2 on the command line, completed as their checkSizes
// does) and the JSON line {"name","unit","value"} each program prints for
// run.sh, the same as the Go programs'.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tut {

inline void emit(const char* name, const char* unit, double v) {
  std::printf("{\"name\":\"%s\",\"unit\":\"%s\",\"value\":%.9g}\n", name, unit, v);
  std::fflush(stdout);
}

struct Sizes {
  int N = -1, M = -1, S = -1, E = -1, nrepeat = 100;
};

inline int pow2(const char* s) { return (int)std::pow(2, std::atof(s)); }

// parse reads -N/-Rows, -M/-Columns, -S/-Size, -E/-Elements (exponents of
// 2) and -nrepeat; Kokkos's own --kokkos-* arguments are left alone.
inline Sizes parse(int argc, char* argv[]) {
  Sizes s;
  for (int i = 1; i + 1 < argc; i++) {
    const char* a = argv[i];
    if (!std::strcmp(a, "-N") || !std::strcmp(a, "-Rows")) s.N = pow2(argv[++i]);
    else if (!std::strcmp(a, "-M") || !std::strcmp(a, "-Columns")) s.M = pow2(argv[++i]);
    else if (!std::strcmp(a, "-S") || !std::strcmp(a, "-Size")) s.S = pow2(argv[++i]);
    else if (!std::strcmp(a, "-E") || !std::strcmp(a, "-Elements")) s.E = pow2(argv[++i]);
    else if (!std::strcmp(a, "-nrepeat")) s.nrepeat = std::atoi(argv[++i]);
  }
  return s;
}

// fill completes s as the exercises' checkSizes: S defaults to defaultS
// (or the larger of N and M), M to 1024 (or S), the missing one of N and
// M to S over the other, E to defaultE. It exits on bad sizes.
inline void fill(Sizes& s, int defaultS, int defaultE) {
  if (s.S == -1 && (s.N == -1 || s.M == -1)) {
    s.S = defaultS;
    if (s.S < s.N) s.S = s.N;
    if (s.S < s.M) s.S = s.M;
  }
  if (s.S == -1) s.S = s.N * s.M;
  if (s.N == -1 && s.M == -1) s.M = s.S > 1024 ? 1024 : s.S;
  if (s.M == -1) s.M = s.S / s.N;
  if (s.N == -1) s.N = s.S / s.M;
  if (s.E == -1) s.E = defaultE;
  if (s.S <= 0 || s.N <= 0 || s.M <= 0 || s.nrepeat < 0) {
    std::printf("  Sizes must be greater than 0.\n");
    std::exit(1);
  }
  if (s.N * s.M != s.S) {
    std::printf("  N * M != S\n");
    std::exit(1);
  }
}

}  // namespace tut
