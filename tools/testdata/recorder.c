/* A Kokkos Tools library for the tests of package tools: it writes every
 * event it receives, with its arguments, to the file named by the
 * environment variable RECORDER_OUT, one line per event. Kernel and fence
 * ids are its own (1000, 1001, ...), to check that the ends receive them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct Kokkos_Profiling_KokkosPDeviceInfo { size_t deviceID; };
struct Kokkos_Profiling_SpaceHandle { char name[64]; };

static FILE *out;
static uint64_t next_id = 1000;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void say(const char *fmt, ...) {
  va_list ap;
  if (!out) return;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
  fflush(out);
}

void kokkosp_init_library(const int loadSeq, const uint64_t interfaceVer,
                          const uint32_t devInfoCount,
                          struct Kokkos_Profiling_KokkosPDeviceInfo *deviceInfo) {
  const char *path = getenv("RECORDER_OUT");
  if (path) out = fopen(path, "w");
  say("init %d %llu %u %s", loadSeq, (unsigned long long)interfaceVer, devInfoCount,
      deviceInfo ? "info" : "null");
}

void kokkosp_finalize_library(void) {
  say("finalize");
  if (out) fclose(out);
  out = NULL;
}

#define BEGIN(kind)                                                          \
  void kokkosp_begin_##kind(const char *name, const uint32_t devID,          \
                            uint64_t *kID) {                                 \
    *kID = next_id++;                                                        \
    say("begin_" #kind " %s %u %llu", name, devID, (unsigned long long)*kID); \
  }                                                                          \
  void kokkosp_end_##kind(const uint64_t kID) {                              \
    say("end_" #kind " %llu", (unsigned long long)kID);                      \
  }
BEGIN(parallel_for)
BEGIN(parallel_reduce)
BEGIN(parallel_scan)
BEGIN(fence)

void kokkosp_allocate_data(const struct Kokkos_Profiling_SpaceHandle space,
                           const char *label, const void *ptr, const uint64_t size) {
  say("allocate %s %s %d %llu", space.name, label, ptr != NULL, (unsigned long long)size);
}

void kokkosp_deallocate_data(const struct Kokkos_Profiling_SpaceHandle space,
                             const char *label, const void *ptr, const uint64_t size) {
  say("deallocate %s %s %d %llu", space.name, label, ptr != NULL, (unsigned long long)size);
}

void kokkosp_begin_deep_copy(struct Kokkos_Profiling_SpaceHandle dst_handle,
                             const char *dst_name, const void *dst_ptr,
                             struct Kokkos_Profiling_SpaceHandle src_handle,
                             const char *src_name, const void *src_ptr, uint64_t size) {
  say("begin_deep_copy %s %s %d %s %s %d %llu", dst_handle.name, dst_name,
      dst_ptr != NULL, src_handle.name, src_name, src_ptr != NULL,
      (unsigned long long)size);
}

void kokkosp_end_deep_copy(void) { say("end_deep_copy"); }

void kokkosp_push_profile_region(const char *name) { say("push %s", name); }

void kokkosp_pop_profile_region(void) { say("pop"); }
