/*
 * assay_harness.h - helpers for the harness of an nvcc task (assay,
 * docs/envs/nvcc.md).  assay writes this file next to the harness and
 * builds it with
 *   nvcc -arch=sm_XX -O2 -DASSAY_NONCE="SECRET" -DASSAY_SM=XX
 *        -o run/harness HARNESS candidate.o
 * The harness is the task's host program: it calls the candidate's entry
 * (declared in the task's interface), checks the result against its own
 * reference, times the candidate with CUDA events, and ends with
 * assay_pass() or assay_fail().  assay believes only the lines these
 * helpers print, which start with the per-run secret; the candidate,
 * compiled apart, never sees it.  The lines:
 *   SECRET no-gpu: WHY               then exit 77: the run is skipped
 *   SECRET metric NAME VALUE         a number for the run's metrics
 *   SECRET result pass               then exit 0
 *   SECRET result fail SUB: DETAIL   then exit 1; SUB is mismatch,
 *                                    launch-error or runtime-error
 */
#ifndef ASSAY_HARNESS_H
#define ASSAY_HARNESS_H

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#ifndef ASSAY_NONCE
#define ASSAY_NONCE "untagged"
#endif
#ifndef ASSAY_SM
#define ASSAY_SM 0
#endif

/* One tagged line on stdout, flushed before anything else can happen. */
static void
assay_line(const char *fmt, ...)
{
	va_list ap;

	fputs(ASSAY_NONCE " ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* The run is a fail: SUB (mismatch, launch-error, runtime-error), why. */
[[noreturn]] static void
assay_fail(const char *sub, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	assay_line("result fail %s: %s", sub, msg);
	exit(1);
}

[[noreturn]] static void
assay_pass(void)
{
	assay_line("result pass");
	exit(0);
}

/* A number for the run's metrics; say the unit in the name
 * (avg_kernel_ms). */
static void
assay_metric(const char *name, double value)
{
	assay_line("metric %s %.6g", name, value);
}

/* A CUDA call of the harness itself that must work. */
#define ASSAY_CUDA(call) do {						\
	cudaError_t assay_e_ = (call);					\
	if (assay_e_ != cudaSuccess)					\
		assay_fail("runtime-error", "%s: %s (%s:%d)", #call,	\
		    cudaGetErrorString(assay_e_), __FILE__, __LINE__);	\
} while (0)

/*
 * Call first.  Without a usable GPU (no driver: "CUDA driver version is
 * insufficient for CUDA runtime version"; no device; a device older than
 * the target), say so and exit 77: assay records the run as skipped.
 */
static void
assay_require_gpu(void)
{
	cudaDeviceProp p;
	int n = 0, drv = 0, rt = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess) {
		assay_line("no-gpu: %s", cudaGetErrorString(e));
		exit(77);
	}
	if (n == 0) {
		assay_line("no-gpu: no CUDA device");
		exit(77);
	}
	ASSAY_CUDA(cudaGetDeviceProperties(&p, 0));
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	printf("assay: device 0: %s, sm_%d%d, driver %d, runtime %d\n",
	    p.name, p.major, p.minor, drv, rt);
	if (p.major * 10 + p.minor < ASSAY_SM) {
		assay_line("no-gpu: %s is sm_%d%d, older than the target sm_%d",
		    p.name, p.major, p.minor, ASSAY_SM);
		exit(77);
	}
}

/*
 * After the candidate's entry has launched its kernels: a launch error
 * ("invalid configuration argument": a grid or block over the limits)
 * or a fault while they ran fails the run.
 */
static void
assay_check_launch(const char *what)
{
	cudaError_t e = cudaGetLastError();

	if (e != cudaSuccess)
		assay_fail("launch-error", "%s: %s", what,
		    cudaGetErrorString(e));
	e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		assay_fail("runtime-error", "%s: %s", what,
		    cudaGetErrorString(e));
}

/*
 * got[i] against want[i] (host arrays of n): |got - want| <= atol +
 * rtol * |want| everywhere, else a mismatch naming the first index that
 * is off, how many are, and the largest error.
 */
static void
assay_expect_close(const float *got, const float *want, size_t n,
    double atol, double rtol)
{
	size_t bad = 0, first = 0;
	double worst = 0;

	for (size_t i = 0; i < n; i++) {
		double d = std::fabs((double)got[i] - (double)want[i]);

		if (!(d <= atol + rtol * std::fabs((double)want[i]))) {
			if (bad++ == 0)
				first = i;
			if (!(d <= worst))
				worst = d;
		}
	}
	if (bad > 0)
		assay_fail("mismatch", "%zu of %zu values differ; first at"
		    " index %zu: got %g, want %g; largest error %g", bad, n,
		    first, (double)got[first], (double)want[first], worst);
}

/*
 * Milliseconds per call of launch() on the GPU: warmup calls, then iters
 * calls between two CUDA events, each checked with
 * assay_check_launch().
 */
template <class F>
static double
assay_time_ms(F launch, int warmup, int iters)
{
	cudaEvent_t start, stop;
	float ms = 0;

	for (int i = 0; i < warmup; i++)
		launch();
	assay_check_launch("warm-up");
	ASSAY_CUDA(cudaEventCreate(&start));
	ASSAY_CUDA(cudaEventCreate(&stop));
	ASSAY_CUDA(cudaEventRecord(start));
	for (int i = 0; i < iters; i++)
		launch();
	ASSAY_CUDA(cudaEventRecord(stop));
	assay_check_launch("timed launches");
	ASSAY_CUDA(cudaEventSynchronize(stop));
	ASSAY_CUDA(cudaEventElapsedTime(&ms, start, stop));
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	return iters > 0 ? ms / iters : 0;
}

#endif
