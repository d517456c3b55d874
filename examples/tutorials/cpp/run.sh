#!/usr/bin/env bash
# run.sh KOKKOS_PREFIX [THREADS [ROUNDS]]
#
# Builds the C++ tutorial programs (this directory) against the Kokkos
# installed in KOKKOS_PREFIX and the Go ones (examples/tutorials/*), then
# runs each exercise on both sides ROUNDS times (default 5), alternating
# which side goes first, and prints a table of the median times and their
# ratio Go/C++ (above 1: Go is slower).
#
#   C++: OMP_NUM_THREADS=THREADS OMP_PROC_BIND=spread OMP_PLACES=threads
#   Go:  GOMAXPROCS=THREADS
#
# THREADS defaults to the number of CPUs. With a Kokkos built with CUDA
# (KOKKOS_ENABLE_CUDA in its KokkosCore_config.h), the C++ programs are
# compiled with Kokkos's nvcc_wrapper and run on the GPU, and the Go ones
# are given -cuda (a CUDA stream, views in cuda.Space).
#
# On a machine without Go, build the Go programs elsewhere with
# gobuild.sh DIR (static binaries, one per exercise, named as CASES names
# them) and give DIR as GOBIN_DIR: run.sh then runs those and builds none.
#
# Environment:
#   BUILD   build directory (default ${TMPDIR:-/tmp}/gokkos-tutorials)
#   OUT     results directory (default $BUILD/results-tTHREADS-DATE)
#   ONLY    space-separated exercise names to run (default all)
#   JOBS    parallel compile jobs (default 2)
#   CXX     C++ compiler for a Kokkos without CUDA (default: Kokkos's own)
#   GOTAGS  build tags for the Go programs
#   GOBIN_DIR  directory of prebuilt Go programs (gobuild.sh); Go is not
#           needed then
#   NOBUILD set to 1 to reuse the binaries in BUILD
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 KOKKOS_PREFIX [THREADS [ROUNDS]]" >&2
  exit 2
fi
K=$(cd "$1" && pwd)
T=${2:-$(nproc)}
ROUNDS=${3:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${BUILD:-${TMPDIR:-/tmp}/gokkos-tutorials}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
OUT=${OUT:-$BUILD/results-t$T-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"

CFG=$(ls "$K"/include/KokkosCore_config.h 2>/dev/null || true)
[ -n "$CFG" ] || { echo "run.sh: no include/KokkosCore_config.h under $K" >&2; exit 1; }
CUDA=0
grep -q '^#define KOKKOS_ENABLE_CUDA\b' "$CFG" && CUDA=1

# Each exercise: name, the C++ program's arguments, the Go program's.
# The sizes keep one run near a second on a small host; edit to taste.
CASES=(
  "yax|-N 12 -M 10 -nrepeat 100|-N 12 -M 10 -nrepeat 100"
  "yax-layout|-N 12 -M 10 -nrepeat 100|-N 12 -M 10 -nrepeat 100"
  "mdrange|-N 12 -M 10 -nrepeat 100|-N 12 -M 10 -nrepeat 100"
  "team-yax|-N 12 -M 10 -nrepeat 100|-N 12 -M 10 -nrepeat 100"
  "team-vector-yax|-S 16 -M 8 -E 6 -nrepeat 100|-S 16 -M 8 -E 6 -nrepeat 100"
  "team-scratch|-S 16 -M 8 -E 6 -nrepeat 100|-S 16 -M 8 -E 6 -nrepeat 100"
  "histogram|100000 100 3|-nrepeat 3 100000 100"
  "scratch-histogram|100000 100 3 128|-nrepeat 3 -rows 128 100000 100"
  "parallel-scan|4194304 10|4194304 10"
  "heat3d|-X 100 -Y 100 -Z 100 -N 50 -I 50|-X 100 -Y 100 -Z 100 -N 50 -I 50"
  "mc-pi|24 1|24 1"
  "dualview|4194304 10|4194304 10"
  "sort|-N 26 -nrepeat 3|-N 26 -nrepeat 3"
  "unordered-map|4000000 4000000 5|-nrepeat 5 4000000 4000000"
  "random-draws|20 16|20 16"
)
selected() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

if [ "${NOBUILD:-0}" != 1 ]; then
  echo "== C++ (Kokkos $K, CUDA $CUDA) in $BUILD/cpp"
  CMAKE_ARGS=(-DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$K")
  if [ "$CUDA" = 1 ]; then
    CMAKE_ARGS+=(-DCMAKE_CXX_COMPILER="$K/bin/nvcc_wrapper")
  else
    [ -n "${CXX:-}" ] && CMAKE_ARGS+=(-DCMAKE_CXX_COMPILER="$CXX")
    CMAKE_ARGS+=(-DCMAKE_CXX_FLAGS="-O3 -march=x86-64-v3")
  fi
  cmake -S "$HERE" -B "$BUILD/cpp" "${CMAKE_ARGS[@]}" > "$BUILD/cmake.log" 2>&1 ||
    { cat "$BUILD/cmake.log" >&2; exit 1; }
  cmake --build "$BUILD/cpp" -j "${JOBS:-2}" > "$BUILD/make.log" 2>&1 ||
    { tail -40 "$BUILD/make.log" >&2; exit 1; }
  if [ -z "${GOBIN_DIR:-}" ]; then
    echo "== Go in $BUILD/go${GOTAGS:+ (tags $GOTAGS)}"
    mkdir -p "$BUILD/go"
    for c in "${CASES[@]}"; do
      n=${c%%|*}
      (cd "$ROOT" && CGO_ENABLED=0 go build ${GOTAGS:+-tags "$GOTAGS"} -o "$BUILD/go/$n" "./examples/tutorials/$n")
    done
  fi
fi
GODIR=$BUILD/go
if [ -n "${GOBIN_DIR:-}" ]; then
  GODIR=$(cd "$GOBIN_DIR" && pwd)
  for c in "${CASES[@]}"; do
    n=${c%%|*}
    selected "$n" || continue
    [ -x "$GODIR/$n" ] || { echo "run.sh: no Go program $GODIR/$n (build them with gobuild.sh $GOBIN_DIR)" >&2; exit 1; }
  done
fi

GOCUDA=()
[ "$CUDA" = 1 ] && GOCUDA=(-cuda)
run_cpp() { # name args round
  env -u KOKKOS_TOOLS_LIBS OMP_NUM_THREADS="$T" OMP_PROC_BIND=spread OMP_PLACES=threads \
    "$BUILD/cpp/$1" $2 >> "$OUT/$1.cpp.r$3.txt" 2>&1 || echo "run.sh: C++ $1 failed, see $OUT/$1.cpp.r$3.txt" >&2
}
run_go() { # name args round
  # The flags go first: some programs take positional sizes.
  env -u KOKKOS_NUM_THREADS GOMAXPROCS="$T" "$GODIR/$1" "${GOCUDA[@]}" $2 >> "$OUT/$1.go.r$3.txt" 2>&1 ||
    echo "run.sh: Go $1 failed, see $OUT/$1.go.r$3.txt" >&2
}

{
  echo "host:    $(uname -n), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "kokkos:  $K ($(grep -E 'define KOKKOS_VERSION ' "$CFG" | awk '{print $3}'), CUDA $CUDA)"
  if [ -n "${GOBIN_DIR:-}" ]; then
    echo "gokkos:  prebuilt in $GODIR$( [ -f "$GODIR/VERSION" ] && echo "; $(cat "$GODIR/VERSION")")"
  else
    echo "gokkos:  $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (dirty)'); $(go version)"
  fi
  echo "threads: $T; rounds: $ROUNDS; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/machine.txt"

for r in $(seq 1 "$ROUNDS"); do
  for c in "${CASES[@]}"; do
    IFS='|' read -r n cargs gargs <<< "$c"
    selected "$n" || continue
    if [ $((r % 2)) -eq 1 ]; then run_cpp "$n" "$cargs" "$r"; run_go "$n" "$gargs" "$r"
    else run_go "$n" "$gargs" "$r"; run_cpp "$n" "$cargs" "$r"; fi
  done
  echo "round $r/$ROUNDS done, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt"
done

# median NAME SIDE: the median of the figure NAME over the side's rounds.
median() {
  cat "$OUT"/*."$2".r*.txt 2>/dev/null | { grep -F "{\"name\":\"$1\"," || true; } |
    sed 's/.*"value":\([^}]*\)}.*/\1/' | sort -g |
    awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) printf "%.4g\n", v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
names=$(cat "$OUT"/*.r*.txt 2>/dev/null | grep -o '{"name":"[^"]*"' | sed 's/{"name":"//; s/"$//' | sort -u || true)
{
  echo
  echo "| figure | C++ Kokkos (s) | Go gokkos (s) | Go/C++ |"
  echo "| --- | ---: | ---: | ---: |"
  for n in $names; do
    c=$(median "$n" cpp)
    g=$(median "$n" go)
    ratio=$(awk -v c="$c" -v g="$g" 'BEGIN {if (c == "-" || g == "-" || c == 0) print "-"; else printf "%.2f", g / c}')
    printf "| %s | %s | %s | %s |\n" "$n" "$c" "$g" "$ratio"
  done
  echo
  echo "medians of $ROUNDS rounds, $T threads; Go/C++ above 1: Go is slower"
} | tee "$OUT/table.md"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt"
echo "results in $OUT"
