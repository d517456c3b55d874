/* A Kokkos Tools library for the tests of package tools that checks what
 * the tools of kokkos-tools assume of the events they receive, and aborts
 * the program, as space-time-stack does, when an assumption fails:
 *
 *   - the library is never entered from two threads at once (the tools
 *     keep their state in plain globals);
 *   - every end_* ends the innermost open frame, with the kernel id its
 *     begin_* wrote (space-time-stack: "Expected ... to end, got different
 *     kernel ID"); pop_profile_region closes a region, end_deep_copy a copy;
 *   - no kernel begins while another kernel is open: the simple kernel
 *     timer adds an end_* to the kernel begun last;
 *   - the name passed to begin_* still holds the same text at end_* (a
 *     tool may keep the pointer, as Kokkos keeps the string alive through
 *     the kernel);
 *   - nothing is left open at finalize ("Program ended before ... ended").
 *
 * At finalize it prints, through stdio and without flushing, the calls per
 * kernel label counted as the simple kernel timer counts them (each end_*
 * to the kernel begun last), then a summary line, then "strict_tool: the
 * last words" without a newline, which only a flush writes out. With STRICT_TOOL_PRINT
 * set it also prints a line per event, as kernel-logger does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Kokkos_Profiling_KokkosPDeviceInfo { size_t deviceID; };
struct Kokkos_Profiling_SpaceHandle { char name[64]; };

enum kind { FOR, REDUCE, SCAN, FENCE, REGION, COPY };
static const char *kind_names[] = {"parallel_for", "parallel_reduce", "parallel_scan",
                                   "fence", "region", "deep_copy"};

struct frame {
  enum kind kind;
  uint64_t id;
  const char *name; /* the pointer the caller passed */
  char copy[256];   /* its text at the begin */
};

#define MAX_FRAMES 1024
#define MAX_LABELS 256

static struct frame stack[MAX_FRAMES];
static int depth;
static uint64_t next_id = 1;
static int inside;
static int print_events;
static long long events, allocs, deallocs, live_allocs;

static struct { char label[256]; unsigned long long calls; } labels[MAX_LABELS];
static int nlabels;
static int current = -1; /* the label of the kernel begun last */

static void fail(const char *fmt, const char *arg) {
  fprintf(stderr, "strict_tool: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  abort();
}

/* enter marks the library busy, and fails if it already was; the short
 * wait widens the window in which a second thread would be caught. */
static void enter(void) {
  if (__atomic_exchange_n(&inside, 1, __ATOMIC_ACQ_REL))
    fail("%s", "the library was entered from two threads at once");
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 500);
  events++;
}

static void leave(void) { __atomic_store_n(&inside, 0, __ATOMIC_RELEASE); }

static int label_index(const char *name) {
  for (int i = 0; i < nlabels; i++)
    if (strcmp(labels[i].label, name) == 0) return i;
  if (nlabels == MAX_LABELS) fail("%s", "too many kernel labels");
  snprintf(labels[nlabels].label, sizeof labels[nlabels].label, "%s", name);
  return nlabels++;
}

static void push(enum kind k, uint64_t id, const char *name) {
  if (depth == MAX_FRAMES) fail("%s", "frames nested too deeply");
  if (name == NULL) fail("%s", "a NULL name");
  struct frame *f = &stack[depth++];
  f->kind = k;
  f->id = id;
  f->name = name;
  snprintf(f->copy, sizeof f->copy, "%s", name);
}

static void pop(enum kind k, uint64_t id) {
  if (depth == 0) fail("the %s ended has no frame open", kind_names[k]);
  struct frame *f = &stack[depth - 1];
  if (f->kind != k || f->id != id) {
    static char msg[600];
    snprintf(msg, sizeof msg, "Expected \"%s\" (%s) to end, got different kernel ID (%s)",
             f->copy, kind_names[f->kind], kind_names[k]);
    fail("%s", msg);
  }
  if (strncmp(f->name, f->copy, sizeof f->copy - 1) != 0)
    fail("the name passed at the begin of \"%s\" changed before its end", f->copy);
  depth--;
}

void kokkosp_init_library(const int loadSeq, const uint64_t interfaceVer,
                          const uint32_t devInfoCount,
                          struct Kokkos_Profiling_KokkosPDeviceInfo *deviceInfo) {
  (void)loadSeq, (void)interfaceVer, (void)devInfoCount, (void)deviceInfo;
  print_events = getenv("STRICT_TOOL_PRINT") != NULL;
  printf("strict_tool: init\n");
}

void kokkosp_finalize_library(void) {
  enter();
  if (depth > 0) fail("Program ended before \"%s\" ended", stack[depth - 1].copy);
  for (int i = 0; i < nlabels; i++)
    printf("strict_tool: calls %llu %s\n", labels[i].calls, labels[i].label);
  printf("strict_tool: finalize: %lld events, %lld allocations, %lld deallocations, %lld live\n",
         events, allocs, deallocs, live_allocs);
  /* A line without its newline, which only a flush writes out. */
  printf("strict_tool: the last words");
  leave();
}

static void begin_kernel(enum kind k, const char *name, uint32_t devID, uint64_t *kID) {
  enter();
  for (int i = 0; i < depth; i++)
    if (stack[i].kind <= SCAN) {
      static char msg[600];
      snprintf(msg, sizeof msg, "kernel \"%.250s\" begun while kernel \"%.250s\" is open",
               name ? name : "(null)", stack[i].copy);
      fail("%s", msg);
    }
  *kID = next_id++;
  push(k, *kID, name);
  current = label_index(name);
  if (print_events) printf("strict_tool: begin %s %s %u\n", kind_names[k], name, devID);
  leave();
}

static void end_kernel(enum kind k, uint64_t kID) {
  enter();
  pop(k, kID);
  if (current >= 0) labels[current].calls++;
  if (print_events) printf("strict_tool: end %s %llu\n", kind_names[k], (unsigned long long)kID);
  leave();
}

void kokkosp_begin_parallel_for(const char *n, const uint32_t d, uint64_t *k) { begin_kernel(FOR, n, d, k); }
void kokkosp_end_parallel_for(const uint64_t k) { end_kernel(FOR, k); }
void kokkosp_begin_parallel_reduce(const char *n, const uint32_t d, uint64_t *k) { begin_kernel(REDUCE, n, d, k); }
void kokkosp_end_parallel_reduce(const uint64_t k) { end_kernel(REDUCE, k); }
void kokkosp_begin_parallel_scan(const char *n, const uint32_t d, uint64_t *k) { begin_kernel(SCAN, n, d, k); }
void kokkosp_end_parallel_scan(const uint64_t k) { end_kernel(SCAN, k); }

void kokkosp_begin_fence(const char *name, const uint32_t devID, uint64_t *kID) {
  enter();
  *kID = next_id++;
  push(FENCE, *kID, name);
  if (print_events) printf("strict_tool: begin fence %s %u\n", name, devID);
  leave();
}

void kokkosp_end_fence(const uint64_t kID) {
  enter();
  pop(FENCE, kID);
  if (print_events) printf("strict_tool: end fence %llu\n", (unsigned long long)kID);
  leave();
}

void kokkosp_push_profile_region(const char *name) {
  enter();
  push(REGION, 0, name);
  if (print_events) printf("strict_tool: push %s\n", name);
  leave();
}

void kokkosp_pop_profile_region(void) {
  enter();
  pop(REGION, 0);
  if (print_events) printf("strict_tool: pop\n");
  leave();
}

static void check_space(const struct Kokkos_Profiling_SpaceHandle *h) {
  if (strncmp(h->name, "Host", 64) != 0 && strncmp(h->name, "Cuda", 4) != 0)
    fail("unknown memory space \"%.64s\"", h->name);
}

void kokkosp_allocate_data(const struct Kokkos_Profiling_SpaceHandle space,
                           const char *label, const void *ptr, const uint64_t size) {
  enter();
  check_space(&space);
  allocs++, live_allocs++;
  if (print_events) printf("strict_tool: allocate %s %s %llu\n", space.name, label, (unsigned long long)size);
  (void)ptr;
  leave();
}

void kokkosp_deallocate_data(const struct Kokkos_Profiling_SpaceHandle space,
                             const char *label, const void *ptr, const uint64_t size) {
  enter();
  check_space(&space);
  deallocs++, live_allocs--;
  if (print_events) printf("strict_tool: deallocate %s %s %llu\n", space.name, label, (unsigned long long)size);
  (void)ptr;
  leave();
}

void kokkosp_begin_deep_copy(struct Kokkos_Profiling_SpaceHandle dst_handle,
                             const char *dst_name, const void *dst_ptr,
                             struct Kokkos_Profiling_SpaceHandle src_handle,
                             const char *src_name, const void *src_ptr, uint64_t size) {
  enter();
  check_space(&dst_handle);
  check_space(&src_handle);
  (void)dst_ptr, (void)src_ptr;
  push(COPY, 0, dst_name);
  if (print_events) printf("strict_tool: begin deep_copy %s %s %llu\n", dst_name, src_name, (unsigned long long)size);
  leave();
}

void kokkosp_end_deep_copy(void) {
  enter();
  pop(COPY, 0);
  if (print_events) printf("strict_tool: end deep_copy\n");
  leave();
}
