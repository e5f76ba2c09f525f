/*
 * assay_harness.h - helpers for the harness of an nvcc task (assay,
 * docs/envs/nvcc.md, ADR 0020).  assay writes this file next to the
 * harness and builds the harness twice:
 *   run/harness-want   from harness-want.o (-DASSAY_WANT_RUN=1), linked
 *                      with a stub in place of the candidate
 *   run/harness        from harness.o, linked with the candidate
 * (nvcc -arch=sm_XX -O2 -DASSAY_SM=XX -c HARNESS).  The harness is the task's host program: it makes inputs
 * (the same in every run: seed its generator), computes the expected
 * result on the host ONLY under if (assay_want_mode()), calls the
 * candidate's entry, hands the result to assay_expect_close(), times the
 * candidate with CUDA events, and ends with assay_pass() or assay_fail().
 * assay_want_mode() is a constant of the build, so in run/harness the
 * expected values are never computed: the candidate's process, which
 * may read all of its memory, never holds them (docs/security.md).
 *
 * No secret is compiled in, and nothing printed here is believed: the
 * helpers write records to fd 3, a pipe of assay's checker (run/check),
 * which holds the run's secret and runs both binaries.  In the want run
 * (built with ASSAY_WANT_RUN=1, no candidate code in the process)
 * assay_expect_close() sends the expected values; in the candidate's run
 * it sends what the candidate produced.  The checker compares the two,
 * at the want run's tolerances, and prints the result.  Records:
 *   no-gpu WHY                       then exit 77
 *   metric NAME VALUE
 *   expect N ATOL RTOL\n + N floats  (host byte order)
 *   pass                             then exit 0
 *   fail SUB DETAIL                  then exit 1; SUB is mismatch,
 *                                    launch-error or runtime-error
 */
#ifndef ASSAY_HARNESS_H
#define ASSAY_HARNESS_H

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include <cuda_runtime.h>

#ifndef ASSAY_SM
#define ASSAY_SM 0
#endif

#define ASSAY_RECORD_FD	3	/* the checker's pipe */

#ifndef ASSAY_WANT_RUN
#define ASSAY_WANT_RUN 0
#endif

/* The want run: the harness without the candidate (a stub in its
 * place), which sends the expected values and checks nothing.  Fixed
 * when the harness is compiled, never read at run time: the candidate's
 * process must not be able to make itself the want run. */
static bool
assay_want_mode(void)
{
	return ASSAY_WANT_RUN != 0;
}

/* n bytes to the checker; without a checker (the harness run by hand),
 * to nowhere. */
static void
assay_put(const void *p, size_t n)
{
	const char *b = (const char *)p;

	while (n > 0) {
		ssize_t k = write(ASSAY_RECORD_FD, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		b += k;
		n -= (size_t)k;
	}
}

/* One record line, and a copy on stdout for a person. */
static void
assay_record(const char *fmt, ...)
{
	char line[768];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	for (int i = 0; i < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	std::printf("assay: %.*s\n", n, line);
	std::fflush(stdout);
	line[n] = '\n';
	assay_put(line, (size_t)n + 1);
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
	assay_record("fail %s %s", sub, msg);
	std::exit(1);
}

[[noreturn]] static void
assay_pass(void)
{
	assay_record("pass");
	std::exit(0);
}

/* A number for the run's metrics; say the unit in the name
 * (avg_kernel_ms).  Measured in the candidate's process: reported, never
 * a verdict. */
static void
assay_metric(const char *name, double value)
{
	if (!assay_want_mode())
		assay_record("metric %s %.6g", name, value);
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
		assay_record("no-gpu %s", cudaGetErrorString(e));
		std::exit(77);
	}
	if (n == 0) {
		assay_record("no-gpu no CUDA device");
		std::exit(77);
	}
	ASSAY_CUDA(cudaGetDeviceProperties(&p, 0));
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	std::printf("assay: device 0: %s, sm_%d%d, driver %d, runtime %d\n",
	    p.name, p.major, p.minor, drv, rt);
	if (p.major * 10 + p.minor < ASSAY_SM) {
		assay_record("no-gpu %s is sm_%d%d, older than the target"
		    " sm_%d", p.name, p.major, p.minor, ASSAY_SM);
		std::exit(77);
	}
}

/*
 * After the candidate's entry has launched its kernels: a launch error
 * ("invalid configuration argument": a grid or block over the limits)
 * or a fault while they ran fails the run.  Nothing to check in the want
 * run.
 */
static void
assay_check_launch(const char *what)
{
	cudaError_t e;

	if (assay_want_mode())
		return;
	e = cudaGetLastError();
	if (e != cudaSuccess)
		assay_fail("launch-error", "%s: %s", what,
		    cudaGetErrorString(e));
	e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		assay_fail("runtime-error", "%s: %s", what,
		    cudaGetErrorString(e));
}

/*
 * got against want (host arrays of n floats): |got - want| <= atol +
 * rtol * |want| everywhere.  The checker is sent want (the want run) or
 * got (the candidate's run) and compares them across the two runs: it
 * names the first index that is off, how many are, and the largest
 * error.  In the candidate's run want is not read (compute it only under
 * assay_want_mode(); it may be left unset there).
 */
static void
assay_expect_close(const float *got, const float *want, size_t n,
    double atol, double rtol)
{
	bool w = assay_want_mode();

	assay_record("expect %zu %.17g %.17g", n, atol, rtol);
	assay_put(w ? want : got, n * sizeof(float));
}

/*
 * Milliseconds per call of launch() on the GPU: warmup calls, then iters
 * calls between two CUDA events, each checked with
 * assay_check_launch().  The want run times nothing.
 */
template <class F>
static double
assay_time_ms(F launch, int warmup, int iters)
{
	cudaEvent_t start, stop;
	float ms = 0;

	if (assay_want_mode())
		return 0;
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
