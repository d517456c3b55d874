package main

// The hand-written kernels the cuda suites measure device bodies against,
// compiled by the benchmark's own loader (rawcuda.go) and launched by a
// bare cuLaunchKernel.

// streamSource holds the hand-written BabelStream kernels on double, one
// thread per element (grid ⌈n/256⌉ × 256), as in BabelStream's CUDA
// version, and its two-pass dot product: dot_partial on a fixed grid, each
// block reducing its grid-strided products in shared memory (256 threads),
// then dot_final, one block of 256 threads reducing the partials.
const streamSource = `
#define TBSIZE 256
extern "C" __global__ void stream_copy(const double *a, double *c, int n) {
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i];
}
extern "C" __global__ void stream_mul(double *b, const double *c, double scalar, int n) {
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) b[i] = scalar * c[i];
}
extern "C" __global__ void stream_add(const double *a, const double *b, double *c, int n) {
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void stream_triad(double *a, const double *b, const double *c, double scalar, int n) {
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) a[i] = b[i] + scalar * c[i];
}
extern "C" __global__ void dot_partial(const double *a, const double *b, double *partial, int n) {
	__shared__ double tb[TBSIZE];
	double s = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += a[i] * b[i];
	tb[threadIdx.x] = s;
	for (int off = blockDim.x / 2; off > 0; off /= 2) {
		__syncthreads();
		if (threadIdx.x < off) tb[threadIdx.x] += tb[threadIdx.x + off];
	}
	if (threadIdx.x == 0) partial[blockIdx.x] = tb[0];
}
extern "C" __global__ void dot_final(const double *partial, int m, double *out) {
	__shared__ double tb[TBSIZE];
	double s = 0;
	for (int i = threadIdx.x; i < m; i += blockDim.x) s += partial[i];
	tb[threadIdx.x] = s;
	for (int off = blockDim.x / 2; off > 0; off /= 2) {
		__syncthreads();
		if (threadIdx.x < off) tb[threadIdx.x] += tb[threadIdx.x + off];
	}
	if (threadIdx.x == 0) *out = tb[0];
}
`

// streamNames are streamSource's entry points, in the order of the
// constants below.
var streamNames = []string{"stream_copy", "stream_mul", "stream_add", "stream_triad", "dot_partial", "dot_final"}

// Indices of streamNames.
const (
	streamCopy = iota
	streamMul
	streamAdd
	streamTriad
	dotPartial
	dotFinal
)

// outerSource holds the View example's SetC by hand, c(i0, i1) = a(i0) *
// b(i1) into a LayoutLeft array (c[i0 + i1*n0]) on a 2-D grid of blocks of
// (32, 8) threads.
const outerSource = `
extern "C" __global__ void set_c(const double *a, const double *b, double *c, int n0, int n1) {
	const int i0 = blockIdx.x * blockDim.x + threadIdx.x;
	const int i1 = blockIdx.y * blockDim.y + threadIdx.y;
	if (i0 < n0 && i1 < n1) c[i0 + (size_t)i1 * n0] = a[i0] * b[i1];
}
`

// outerNames are outerSource's entry points.
var outerNames = []string{"set_c"}

// outerSetC is set_c's index in outerNames.
const outerSetC = 0

// emptySource is the launch baseline: a kernel equivalent to the one
// cuda.ParallelFor builds for an empty body over a RangePolicy with no
// bindings (package cuda's generated gk_for), with the same two int
// arguments, begin and end, and the same grid-strided loop over them,
// whose body does nothing. cudalaunch launches it with the same grid
// (⌈n/256⌉, at most 2^20 blocks) and block (256) as cuda.ParallelFor, on
// the same stream (the legacy default stream, 0), so that the two differ
// in what runs on the host before cuLaunchKernel and in nothing else.
const emptySource = `
extern "C" __global__ void empty_for(const int begin, const int end) {
	const int step = gridDim.x * blockDim.x;
	for (int i = begin + blockIdx.x * blockDim.x + threadIdx.x; i < end; i += step) {
	}
}
`

// emptyNames are emptySource's entry points.
var emptyNames = []string{"empty_for"}
