/*
 * test_nvcc.c - unit tests for the nvcc env (cmocka): the launch-limit
 * analysis of lang/cuda_launch.c (cuda_launch_check) on the RMS-normalisation
 * case and on legal configurations, what prepare() writes and plans, and
 * what judge() makes of real nvcc 13 output and of the harness's lines.
 *
 * The analysis and the judge tests need no toolchain.  Real runs: each
 * candidate is prepared into a mkdtemp work directory, the planned stages
 * run here without a sandbox, and their logs go to judge(); skipped when
 * nvcc is not installed.  Without a GPU the harness's run ends skipped.
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "base/buf.h"
#include "envs/env.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/feedback.h"
#include "model/sample.h"
#include "lang/cuda_launch.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_nvcc;

/* sm_90 (CUDA C++ Programming Guide, technical specifications). */
static const struct cuda_launch_limits sm90 = {
	.grid_x = 2147483647LL,
	.grid_yz = 65535,
	.block_xy = 1024,
	.block_z = 64,
	.threads = 1024,
	.smem_static = 48 << 10,
	.smem_optin = 227 << 10,
};

static int
fx_setup(void **state)
{
	return fx_init(state, "nvcc");
}

/* The issues of code; *n their count.  New array. */
static struct cuda_launch_issue *
check(const char *code, size_t *n)
{
	struct cuda_launch_issue *is;
	struct err err;

	if (cuda_launch_check(code, strlen(code), &sm90, &is, n,
	    &err) < 0)
		fail_msg("check: %s", err.msg);
	for (size_t i = 0; i < *n; i++)
		print_message("  line %d: %s\n", is[i].line, is[i].msg);
	return is;
}

/* --- the analysis ------------------------------------------------------ */

/*
 * The RMS-normalisation kernel that puts spatial_size (512 * 512 =
 * 262144) on gridDim.y: legal C++, compiles, and every launch fails at
 * run time with "invalid configuration argument".
 */
static const char rms_gridy[] =
    "constexpr int batch_size = 2, features = 64, dim1 = 512, dim2 = 512;\n"
    "constexpr int spatial_size = dim1 * dim2;\n"
    "\n"
    "__global__ void rms_norm_kernel(const float *x, float *y)\n"
    "{\n"
    "\t__shared__ float sq[features];\n"
    "\t/* ... */\n"
    "}\n"
    "\n"
    "void rms_norm(const float *x, float *y)\n"
    "{\n"
    "\tdim3 grid;\n"
    "\tgrid.x = batch_size;\n"
    "\tgrid.y = spatial_size;\n"
    "\tdim3 block(features);\n"
    "\n"
    "\trms_norm_kernel<<<grid, block>>>(x, y);\n"
    "}\n";

static void
test_nvcc_launch_rmsnorm_grid_y(void **state)
{
	struct cuda_launch_issue *is;
	size_t n;

	(void)state;
	is = check(rms_gridy, &n);
	assert_int_equal(n, 1);
	assert_int_equal(is[0].kind, CUDA_LAUNCH_GRID);
	assert_int_equal(is[0].line, 14);		/* grid.y = ... */
	assert_int_equal(is[0].launch_line, 17);
	assert_true(is[0].value == 262144);
	assert_true(is[0].limit == 65535);
	assert_string_equal(is[0].msg, "gridDim.y = spatial_size = 262144 is"
	    " over the limit of 65535 in the launch of rms_norm_kernel at"
	    " line 17");
	free(is);
}

/* The same mistake written three other ways. */
static void
test_nvcc_launch_rmsnorm_other_forms(void **state)
{
	static const char decl[] =
	    "const int spatial_size = 262144;\n"
	    "void f(float *x, int batch)\n"
	    "{\n"
	    "\tdim3 grid(batch, spatial_size);\n"
	    "\tk<<<grid, 64>>>(x);\n"
	    "}\n";
	static const char inline_dim3[] =
	    "#define SPATIAL (512 * 512)\n"	/* not a plain integer */
	    "enum { BATCH = 2, SPATIAL_SIZE = 1 << 18 };\n"
	    "void f(float *x)\n"
	    "{\n"
	    "\tk<<<dim3(BATCH, SPATIAL_SIZE), 64>>>(x);\n"
	    "\tk<<<dim3(BATCH, SPATIAL), 64>>>(x);\n"
	    "}\n";
	static const char fields[] =
	    "constexpr int M = 1 << 20;\n"
	    "void f(float *x)\n"
	    "{\n"
	    "\tdim3 block(16, 16);\n"
	    "\tdim3 grid(M / block.x, (M + block.y - 1) / block.y);\n"
	    "\tk<<<grid, block>>>(x);\n"
	    "}\n";
	static const char local[] =
	    "void f(float *x)\n"
	    "{\n"
	    "\tint spatial = 512 * 512;\t/* never written again */\n"
	    "\tdim3 grid = {2, (unsigned)spatial};\n"
	    "\tk<<<grid, 64>>>(x);\n"
	    "}\n";
	struct cuda_launch_issue *is;
	size_t n;

	(void)state;
	is = check(decl, &n);
	assert_int_equal(n, 1);
	assert_int_equal(is[0].line, 4);
	assert_int_equal(is[0].launch_line, 5);
	assert_true(is[0].value == 262144);
	free(is);

	is = check(inline_dim3, &n);
	assert_int_equal(n, 1);
	assert_int_equal(is[0].line, 5);
	assert_non_null(strstr(is[0].msg, "gridDim.y = SPATIAL_SIZE ="
	    " 262144"));
	free(is);

	/* block.y of a known dim3: 2^20 / 16 = 65536 blocks. */
	is = check(fields, &n);
	assert_int_equal(n, 1);
	assert_int_equal(is[0].line, 5);
	assert_true(is[0].value == 65536);
	assert_non_null(strstr(is[0].msg, "gridDim.y = (M + block.y - 1) /"
	    " block.y = 65536"));
	free(is);

	is = check(local, &n);
	assert_int_equal(n, 1);
	assert_int_equal(is[0].kind, CUDA_LAUNCH_GRID);
	assert_int_equal(is[0].line, 4);
	free(is);
}

/* Configurations at the limits, which must not be reported. */
static void
test_nvcc_launch_legal_configurations(void **state)
{
	static const char legal[] =
	    "constexpr int spatial_size = 512 * 512;\n"
	    "constexpr int TILE = 32;\n"
	    "#define THREADS 1024\n"
	    "__global__ void k(float *p)\n"
	    "{\n"
	    "\t__shared__ float a[8192];\n"		/* 32 KiB */
	    "\t__shared__ float4 b[1024];\n"		/* + 16 KiB = 48 KiB */
	    "\textern __shared__ float dyn[];\n"
	    "}\n"
	    "__global__ void big(float *p) { extern __shared__ float d[]; }\n"
	    "void f(float *p)\n"
	    "{\n"
	    "\tk<<<spatial_size, 1024>>>(p);\n"		/* (262144, 1, 1) */
	    "\tk<<<dim3(spatial_size, 1, 1), THREADS>>>(p);\n"
	    "\tdim3 g(65535, 65535);\n"
	    "\tdim3 b(TILE, TILE);\n"			/* 1024 threads */
	    "\tk<<<g, b>>>(p);\n"
	    "\tk<<<2147483647, dim3(1, 1, 64)>>>(p);\n"
	    "\tk<<<dim3(1, 65535, 65535), dim3(16, 8, 8)>>>(p);\n"
	    "\tcudaFuncSetAttribute(big,"
	    " cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);\n"
	    "\tbig<<<1, 256, 227 * 1024>>>(p);\n"	/* the opt-in */
	    "\tbig<<<1, 256, 48 * 1024>>>(p);\n"	/* none needed */
	    "}\n";
	struct cuda_launch_issue *is;
	size_t n = 99;

	(void)state;
	is = check(legal, &n);
	assert_int_equal(n, 0);
	assert_null(is);
}

/* Each limit once over. */
static void
test_nvcc_launch_each_limit(void **state)
{
	static const char code[] =
	    "__global__ void k(float *p)\n"			/* 1 */
	    "{\n"
	    "\t__shared__ double a[4096];\n"		/* 32 KiB */
	    "\t__shared__ float b[32][129];\n"		/* + 16.1 KiB: over */
	    "}\n"
	    "__global__ void d(float *p) { extern __shared__ float s[]; }\n"
	    "__global__ void e(float *p) { extern __shared__ float s[]; }\n"
	    "void f(float *p)\n"
	    "{\n"
	    "\tdim3 block(32, 64);\n"			/* 10 */
	    "\tk<<<1, block>>>(p);\n"
	    "\tk<<<dim3(1, 1, 70000), dim3(1, 1, 128)>>>(p);\n"
	    "\tk<<<2147483648LL, 2048>>>(p);\n"
	    "\td<<<1, 128, 64 * 1024>>>(p);\n"		/* no opt-in */
	    "\tcudaFuncSetAttribute((void *)e,"
	    " cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);\n"
	    "\te<<<1, 128, 100001>>>(p);\n"		/* over its opt-in */
	    "\te<<<1, 128, 228 * 1024>>>(p);\n"		/* over 227 KiB */
	    "}\n";
	struct cuda_launch_issue *is;
	size_t n;

	(void)state;
	is = check(code, &n);
	assert_int_equal(n, 9);
	/* Source order; dynamic shared memory last. */
	assert_int_equal(is[0].kind, CUDA_LAUNCH_STATIC_SMEM);
	assert_int_equal(is[0].line, 4);
	assert_true(is[0].value == 32768 + 32 * 129 * 4);
	assert_true(is[0].limit == 49152);
	assert_int_equal(is[1].kind, CUDA_LAUNCH_THREADS);
	assert_int_equal(is[1].line, 10);
	assert_int_equal(is[1].launch_line, 11);
	assert_true(is[1].value == 2048);
	assert_string_equal(is[1].msg, "blockDim 32 x 64 x 1 = 2048 threads"
	    " per block is over the limit of 1024 in the launch of k at line"
	    " 11");
	assert_int_equal(is[2].kind, CUDA_LAUNCH_GRID);
	assert_non_null(strstr(is[2].msg, "gridDim.z = 70000"));
	assert_int_equal(is[3].kind, CUDA_LAUNCH_BLOCK);
	assert_non_null(strstr(is[3].msg, "blockDim.z = 128 is over the limit"
	    " of 64"));
	assert_int_equal(is[4].kind, CUDA_LAUNCH_GRID);
	assert_non_null(strstr(is[4].msg, "gridDim.x = 2147483648LL ="
	    " 2147483648"));
	/* blockDim.x over 1024: one issue, not a second for the threads. */
	assert_int_equal(is[5].kind, CUDA_LAUNCH_BLOCK);
	assert_non_null(strstr(is[5].msg, "blockDim.x = 2048"));
	assert_int_equal(is[6].kind, CUDA_LAUNCH_DYN_SMEM);
	assert_int_equal(is[6].line, 14);
	assert_true(is[6].value == 65536);
	assert_non_null(strstr(is[6].msg, "without cudaFuncSetAttribute(d,"));
	assert_int_equal(is[7].kind, CUDA_LAUNCH_DYN_SMEM);
	assert_true(is[7].limit == 100000);
	assert_non_null(strstr(is[7].msg, "over the 100000 bytes its"
	    " cudaFuncSetAttribute opts in to"));
	assert_int_equal(is[8].kind, CUDA_LAUNCH_DYN_SMEM);
	assert_true(is[8].limit == 227 * 1024);
	assert_non_null(strstr(is[8].msg, "over the target's limit of 232448"));
	free(is);
}

/* Values the check cannot know are never reported. */
static void
test_nvcc_launch_unknown_values_not_reported(void **state)
{
	static const char code[] =
	    "const int N = 100000;\n"
	    "#define TWICE 70000\n"
	    "#define TWICE 1\n"
	    "int rows(void);\n"
	    "void f(float *p, int n, int N2, dim3 given)\n"
	    "{\n"
	    "\tk<<<dim3(1, n), 256>>>(p);\n"		/* a parameter */
	    "\tint t = 2048;\n"
	    "\tt = 256;\n"					/* written again */
	    "\tk<<<1, t>>>(p);\n"
	    "\tint u = 4096;\n"
	    "\tint *pu = &u;\n"				/* address taken */
	    "\tk<<<1, u>>>(p);\n"
	    "\tk<<<dim3(1, rows()), 256>>>(p);\n"	/* a call */
	    "\tk<<<dim3(1, TWICE), 256>>>(p);\n"	/* two #defines */
	    "\tk<<<given, 4096.0>>>(p);\n"			/* a float */
	    "\tdim3 g(1, N);\n"
	    "\tif (N > 65535)\n"
	    "\t\tg.y = 1;\n"				/* the last write counts */
	    "\tk<<<g, 256>>>(p);\n"
	    "}\n"
	    "void h(float *p, int N)\n"			/* hides the constant */
	    "{\n"
	    "\tk<<<dim3(1, N), 256>>>(p);\n"
	    "}\n"
	    "dim3 big(1, 70000);\n"
	    "void i(float *p, const dim3 &big)\n"		/* hides the dim3 */
	    "{\n"
	    "\tk<<<big, 256>>>(p);\n"
	    "}\n"
	    "template <int N>\n"				/* hides it too */
	    "void j(float *p)\n"
	    "{\n"
	    "\tk<<<dim3(1, N), 256>>>(p);\n"
	    "}\n";
	struct cuda_launch_issue *is;
	size_t n = 99;

	(void)state;
	is = check(code, &n);
	assert_int_equal(n, 0);
	free(is);
}

/* The issues' count and values, in order, for a table of cases. */
struct lc_case {
	const char	*name;
	const char	*code;
	int		 n;		/* issues */
	long long	 value;		/* of the first */
	int		 line;		/* of the first */
};

static void
check_cases(const struct lc_case *cases, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		struct cuda_launch_issue *is;
		size_t n;

		print_message("%s\n", cases[i].name);
		is = check(cases[i].code, &n);
		if ((int)n != cases[i].n)
			fail_msg("%s: %zu issues, want %d", cases[i].name, n,
			    cases[i].n);
		if (n > 0 && (is[0].value != cases[i].value ||
		    is[0].line != cases[i].line))
			fail_msg("%s: value %lld at line %d, want %lld at %d",
			    cases[i].name, is[0].value, is[0].line,
			    cases[i].value, cases[i].line);
		free(is);
	}
}

/*
 * A local whose address is taken, that is bound to a reference or passed
 * to one, is unknown: a function may change it unseen.  Those passed by
 * value, by const reference or to CUDA's API are not.
 */
static void
test_nvcc_launch_aliases_unknown(void **state)
{
	static const struct lc_case cases[] = {
	    { "dim3 by reference",
		"void clamp(dim3 &g) { if (g.y > 65535) { g.x = (g.y + 65534)"
		" / 65535; g.y = 65535; } }\n"
		"void run(float *x, int n)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tclamp(g);\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "pointer alias",
		"void run(float *x, int n)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tdim3 *p = &g;\n"
		"\tp->y = 1;\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "address passed",
		"void fix(dim3 *g) { g->y = 1; }\n"
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tfix(&g);\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "int by reference",
		"void shrink(int &t) { t = 256; }\n"
		"void run(float *x)\n"
		"{\n"
		"\tint threads = 2048;\n"
		"\tshrink(threads);\n"
		"\tk<<<1, threads>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "defined after the call",
		"void run(float *x)\n"
		"{\n"
		"\tint threads = 2048;\n"
		"\tshrink(threads);\n"
		"\tk<<<1, threads>>>(x);\n"
		"}\n"
		"void shrink(int &t) { t = 256; }\n", 0, 0, 0 },
	    { "a function not in the text",
		"void run(float *x)\n"
		"{\n"
		"\tint threads = 2048;\n"
		"\tadjust(threads);\n"
		"\tk<<<1, threads>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a reference variable, a method, a lambda by reference",
		"struct C { void fix(int &t); };\n"
		"void run(float *x, C c)\n"
		"{\n"
		"\tint a = 2048, b = 2048, d = 2048;\n"
		"\tint &r = a;\n"
		"\tr = 1;\n"
		"\tc.fix(b);\n"
		"\tauto f = [&] { d = 1; };\n"
		"\tf();\n"
		"\tk<<<1, a>>>(x);\n"
		"\tk<<<1, b>>>(x);\n"
		"\tk<<<1, d>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a macro that writes",
		"#define FIX g.y = 1\n"
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tFIX;\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a global dim3: any function may write it",
		"dim3 G(1, 70000);\n"
		"void launch(float *x) { k<<<G, 1>>>(x); }\n"
		"void setup(void) { G.y = 1; }\n", 0, 0, 0 },
	    /* Still found. */
	    { "by value, by const reference, to CUDA",
		"void show(dim3 g);\n"
		"void look(const dim3 &g, const int &t);\n"
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tint t = 64;\n"
		"\tshow(g);\n"
		"\tlook(g, t);\n"
		"\tcudaMemset(x, 0, t);\n"
		"\tprintf(\"%u\\n\", g.y);\n"
		"\tk<<<g, t>>>(x);\n"
		"}\n", 1, 70000, 5 },
	};

	(void)state;
	check_cases(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Under #if 0 nothing counts; under #ifdef X, #if N > 1 nothing is sure:
 * launches there are not checked, names defined there have no value.
 */
static void
test_nvcc_launch_preprocessor(void **state)
{
	static const struct lc_case cases[] = {
	    { "#if 0 / #else",
		"void run(float *x)\n"
		"{\n"
		"#if 0\n"
		"\tk<<<1, 4096>>>(x);\n"
		"#else\n"
		"\tk<<<1, 256>>>(x);\n"
		"#endif\n"
		"}\n", 0, 0, 0 },
	    { "#ifdef BIG",
		"#define T 2048\n"
		"#ifdef SMALL\n"
		"#undef T\n"
		"#define T 256\n"
		"#endif\n"
		"#ifdef BIG\n"
		"const int G = 70000;\n"
		"#else\n"
		"const int G = 1;\n"
		"#endif\n"
		"void run(float *x)\n"
		"{\n"
		"\tk<<<dim3(1, G), T>>>(x);\n"
		"#ifdef BIG\n"
		"\tk<<<1, 2048>>>(x);\n"
		"#endif\n"
		"}\n", 0, 0, 0 },
	    { "a write the preprocessor may skip",
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"#ifdef FIX\n"
		"\tg.y = 1;\n"
		"#endif\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    /* Still found: what is compiled for sure. */
	    { "#if 1, #else of #if 0",
		"#if 0\n"
		"#define T 256\n"
		"#else\n"
		"#define T 2048\n"
		"#endif\n"
		"void run(float *x)\n"
		"{\n"
		"#if 1\n"
		"\tk<<<1, T>>>(x);\n"
		"#endif\n"
		"}\n", 1, 2048, 9 },
	};

	(void)state;
	check_cases(cases, sizeof cases / sizeof cases[0]);
}

/*
 * A write under a condition (if/else, switch, a loop, ?:, &&, a lambda,
 * try) leaves the value unknown after it; so does a later write in a loop
 * around the launch.  A write and a launch in the same branch, in that
 * order, are still followed.
 */
static void
test_nvcc_launch_conditional_writes(void **state)
{
	static const struct lc_case cases[] = {
	    { "if",
		"void run(float *x, int n)\n"
		"{\n"
		"\tdim3 g(1, 1);\n"
		"\tif (n > 1000000000)\n"
		"\t\tg.y = 70000;\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a loop that clamps",
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\twhile (g.y > 65535) {\n"
		"\t\tg.y = (g.y + 1) / 2;\n"
		"\t\tg.x = g.x * 2;\n"
		"\t}\n"
		"\tk<<<g, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a later write in the loop around the launch",
		"void run(float *x)\n"
		"{\n"
		"\tdim3 g(1, 70000);\n"
		"\tfor (;;) {\n"
		"\t\tif (g.y <= 65535) {\n"
		"\t\t\tk<<<g, 1>>>(x);\n"
		"\t\t\tbreak;\n"
		"\t\t}\n"
		"\t\tg.y--;\n"
		"\t}\n"
		"}\n", 0, 0, 0 },
	    { "switch, ?:, &&",
		"void run(float *x, int m, bool c)\n"
		"{\n"
		"\tdim3 g(1, 70000), h(1, 70000), i(1, 70000);\n"
		"\tswitch (m) { case 0: g.y = 1; break; default: g.y = 2; }\n"
		"\tc ? (h.y = 1) : (h.y = 2);\n"
		"\tc && (i.y = 1);\n"
		"\tk<<<g, 1>>>(x);\n"
		"\tk<<<h, 1>>>(x);\n"
		"\tk<<<i, 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "a branch the launch is not in",
		"void run(float *x, bool c)\n"
		"{\n"
		"\tdim3 g(1, 1);\n"
		"\tif (c) {\n"
		"\t\tg.y = 70000;\n"
		"\t} else {\n"
		"\t\tk<<<g, 1>>>(x);\n"
		"\t}\n"
		"\tdim3 b(1, 1);\n"
		"\tif (c) { dim3 b(2048); }\n"	/* another b */
		"\tk<<<1, b>>>(x);\n"
		"}\n", 0, 0, 0 },
	    /* Still found. */
	    { "the same branch",
		"void run(float *x, bool c)\n"
		"{\n"
		"\tif (c) {\n"
		"\t\tdim3 g(1, 1);\n"
		"\t\tg.y = 70000;\n"
		"\t\tk<<<g, 1>>>(x);\n"
		"\t}\n"
		"}\n", 1, 70000, 5 },
	    { "every turn of a loop",
		"void run(float *x)\n"
		"{\n"
		"\tdim3 b(32, 64);\n"
		"\tfor (int i = 0; i < 8; i++)\n"
		"\t\tk<<<1, b>>>(x);\n"
		"}\n", 1, 2048, 3 },
	};

	(void)state;
	check_cases(cases, sizeof cases / sizeof cases[0]);
}

/*
 * dim3's fields and the launch's integers are unsigned int: a value is
 * taken modulo 2^32.  Arithmetic that overflows int is not followed.
 */
static void
test_nvcc_launch_unsigned_conversion(void **state)
{
	static const struct lc_case cases[] = {
	    { "2^32 + 1 is 1",
		"void run(float *x)\n"
		"{\n"
		"\tk<<<dim3(1, 4294967297ULL), 1>>>(x);\n"
		"\tdim3 b(1, 1);\n"
		"\tb.x = 4294967296LL + 512;\n"
		"\tk<<<1, b>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "int overflow",
		"void run(float *x)\n"
		"{\n"
		"\tk<<<dim3(1, 70000 * 70000 / 70000), 1>>>(x);\n"
		"\tk<<<dim3(1, 65536 * 65536), 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    { "not an integer",
		"void run(float *x)\n"
		"{\n"
		"\tfloat f = 3;\n"
		"\tk<<<dim3(1, 100000 / (int)(f / 2)), 1>>>(x);\n"
		"}\n", 0, 0, 0 },
	    /* Still found. */
	    { "2^32 + 70000 is 70000",
		"void run(float *x)\n"
		"{\n"
		"\tk<<<dim3(1, 4295037296ULL), 1>>>(x);\n"
		"}\n", 1, 70000, 3 },
	    { "-1 is 4294967295",
		"void run(float *x)\n"
		"{\n"
		"\tk<<<1, -1>>>(x);\n"
		"}\n", 1, 4294967295LL, 3 },
	};

	(void)state;
	check_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Deep nesting must not exhaust the stack; broken code still parses. *//* Deep nesting must not exhaust the stack; broken code still parses. */
static void
test_nvcc_launch_hostile_input(void **state)
{
	struct buf b = BUF_INIT;
	struct cuda_launch_issue *is;
	size_t n;

	(void)state;
	buf_adds(&b, "void f() { k<<<dim3(1, ");
	for (int i = 0; i < 20000; i++)
		buf_addc(&b, '(');
	buf_adds(&b, "70000");
	for (int i = 0; i < 20000; i++)
		buf_addc(&b, ')');
	buf_adds(&b, "), 1>>>(p); k<<<1, 2048>>>(p)\n"
	    "void g( { dim3 g(1, 70000); k<<<g, 1>>>(p); }\n");
	is = check(buf_str(&b), &n);
	/* The nested value is too deep to follow: not reported. */
	for (size_t i = 0; i < n; i++)
		assert_true(is[i].value != 70000 || is[i].line == 2);
	free(is);
	buf_release(&b);
}

/* --- judge on recorded output -------------------------------------------- */

/* Does s start with prefix? */
static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A plan as prepare() leaves it, for judge() alone. */
static void
judge_plan(struct env_plan *p, const char *nonce,
    const struct cuda_launch_issue *launch)
{
	static const char *const none[] = { "true", NULL };

	env_plan_init(p);
	p->cand_file = xstrdup("candidate.cu");
	snprintf(p->nonce, sizeof p->nonce, "%s", nonce);
	if (launch != NULL) {
		p->launch = xcalloc(1, sizeof *p->launch);
		*p->launch = *launch;
		p->nlaunch = 1;
	}
	env_plan_stage(p, "compile", none);
	env_plan_stage(p, "build", none);
	env_plan_stage(p, "want", none);
	env_plan_stage(p, "run", none);
}

/* Judge logs (NULL: the stage did not run) with exit codes: compile,
 * build, want (the checker without the candidate), run (ADR 0056). */
static void
judge_logs(const struct env_plan *p, const char *const *logs,
    const int *codes, struct run *r)
{
	struct env_stage_result res[4];
	/* A build stage is planned only for a task with a harness. */
	struct task t = { .env_params = (char *)"{\"harness\":"
	    "\"harness.cu\"}" };
	size_t n = 0;

	memset(res, 0, sizeof res);
	memset(r, 0, sizeof *r);
	for (; n < 4 && logs[n] != NULL; n++) {
		res[n].ran = 1;
		res[n].log = logs[n];
		res[n].log_len = strlen(logs[n]);
		res[n].exit_code = codes[n];
	}
	env_nvcc.judge(&t, p, res, n, ENV_STOP_NONE, r);
}

/* ptxas -v of nvcc 13.0 (V13.0.88) for sm_90, as it printed it. */
static const char ptxas_log[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z4tilePKfPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z4tilePKfPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem\n"
    "ptxas info    : Compile time = 2.276 ms\n"
    "ptxas info    : Compiling entry function '_Z5spillPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5spillPf\n"
    "    40 bytes stack frame, 36 bytes spill stores, 28 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 0 barriers\n";

static void
test_nvcc_judge_ptxas_metrics(void **state)
{
	const char *logs[] = { ptxas_log, NULL };
	const int codes[] = { 0 };
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "", NULL);
	judge_logs(&p, logs, codes, &r);
	assert_str(r.verdict, "pass");
	assert_str(r.stage, "compile");
	assert_str(r.metrics, "{\"kernels\":2,\"registers\":255,"
	    "\"smem_bytes\":1024,\"stack_bytes\":40,\"spill_stores\":36,"
	    "\"spill_loads\":28}");
	/* The bottleneck, as information: _Z5spillPf spills first.  255
	 * registers are 8160 a warp (255 * 32 rounded up to 256), so
	 * 65536 / 8160 = 8 of sm_90's 64 warps fit: 12.5 %. */
	{
		json_t *fb = json_loads(r.feedback, 0, NULL);
		json_t *bn = json_object_get(fb, "bottleneck");
		const char *text = json_string_value(json_object_get(bn,
		    "text"));

		assert_non_null(bn);
		assert_int_equal(json_integer_value(json_object_get(bn,
		    "warps")), 8);
		assert_int_equal(json_integer_value(json_object_get(bn,
		    "max_warps")), 64);
		assert_true(json_real_value(json_object_get(bn,
		    "occupancy")) == 0.125);
		assert_string_equal(json_string_value(json_object_get(bn,
		    "kernel")), "_Z5spillPf");
		assert_true(json_is_false(json_object_get(bn, "timed")));
		assert_non_null(text);
		assert_true(starts(text, "register spills: 36 bytes stored"
		    " and 28 loaded to local memory (_Z5spillPf first; 255"
		    " registers a thread)\n"));
		assert_non_null(strstr(text, "(no GPU ran it: nothing was"
		    " timed)"));
		json_decref(fb);
	}
	run_release(&r);
	env_plan_release(&p);
}

/* Without spills, a kernel of many registers names the occupancy they
 * leave; one of few, that nothing limits.  sm_86 holds 48 warps. */
static void
test_nvcc_judge_bottleneck_occupancy(void **state)
{
	static const char heavy[] =
	    "ptxas info    : Compiling entry function '_Z4widePf' for"
	    " 'sm_86'\n"
	    "ptxas info    : Function properties for _Z4widePf\n"
	    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill"
	    " loads\n"
	    "ptxas info    : Used 168 registers, used 0 barriers\n";
	static const char light[] =
	    "ptxas info    : Compiling entry function '_Z3addPf' for"
	    " 'sm_90'\n"
	    "ptxas info    : Function properties for _Z3addPf\n"
	    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill"
	    " loads\n"
	    "ptxas info    : Used 16 registers, used 0 barriers\n";
	struct task t = { .env_params = (char *)"{\"arch\":\"sm_86\"}" };
	struct env_stage_result res;
	struct env_plan p;
	struct run r;
	json_t *fb;
	const char *text;

	(void)state;
	judge_plan(&p, "", NULL);
	memset(&res, 0, sizeof res);
	memset(&r, 0, sizeof r);
	res.ran = 1;
	res.log = heavy;
	res.log_len = strlen(heavy);
	env_nvcc.judge(&t, &p, &res, 1, ENV_STOP_NONE, &r);
	fb = json_loads(r.feedback, 0, NULL);
	text = json_string_value(json_object_get(json_object_get(fb,
	    "bottleneck"), "text"));
	/* 168 * 32 = 5376 a warp: 65536 / 5376 = 12 of 48 warps, 25 %. */
	assert_non_null(text);
	assert_true(starts(text, "registers: _Z4widePf uses 168 a thread:"
	    " 12 of 48 warps fit an SM (25 % occupancy, sm_86)\n"));
	json_decref(fb);
	run_release(&r);

	t.env_params = (char *)"{}";
	memset(&r, 0, sizeof r);
	res.log = light;
	res.log_len = strlen(light);
	env_nvcc.judge(&t, &p, &res, 1, ENV_STOP_NONE, &r);
	fb = json_loads(r.feedback, 0, NULL);
	text = json_string_value(json_object_get(json_object_get(fb,
	    "bottleneck"), "text"));
	/* 16 * 32 = 512 a warp: 128 would fit, capped at sm_90's 64. */
	assert_non_null(text);
	assert_true(starts(text, "no resource limit: at most 16 registers a"
	    " thread (64 of 64 warps an SM, 100 % occupancy), no spills,"
	    " sm_90\n"));
	assert_null(strstr(text, "..."));	/* no line was cut */
	json_decref(fb);
	run_release(&r);
	env_plan_release(&p);
}

/* The harness's tagged lines; untagged ones are the candidate's. */
/* The checker's counterexample line: the first value out of tolerance,
 * both values, the tolerance; one without the secret, or cut, is no
 * counterexample. */
static void
test_nvcc_judge_counterexample(void **state)
{
	const char *mism[] = { "", "", "", "candidate output: T0123"
	    " counterexample array=1 of=1 index=0 got=1 want=1 atol=1 rtol=1"
	    " bad=1 n=8\n"
	    "T0123 counterexample array=2 of=2 index=5 got=1.5 want=0.25"
	    " atol=0.001 rtol=0.01 bad=3 n=8\n"
	    "T0123 result fail mismatch: 3 of 8 values differ in array 2;"
	    " first at index 5: got 1.5, want 0.25; largest error 1.25\n",
	    NULL };
	const char *nan_[] = { "", "", "", "T0123 counterexample array=1 of=1"
	    " index=7 got=nan want=2 atol=0.001 rtol=0.001 bad=1 n=8\n"
	    "T0123 result fail mismatch: 1 of 8 values differ\n", NULL };
	const char *cut[] = { "", "", "", "T0123 counterexample array=1 of=1"
	    " index=9 got=1 want=2 atol=0.001 rtol=0.001 bad=1 n=8\n"
	    "T0123 result fail mismatch: 1 of 8 values differ\n", NULL };
	const int one[] = { 0, 0, 0, 1 };
	struct env_plan p;
	json_t *root, *cex;
	struct run r;

	(void)state;
	judge_plan(&p, "T0123", NULL);
	judge_logs(&p, mism, one, &r);
	assert_str(r.subcategory, "mismatch");
	assert_str(feedback_text(r.feedback, "counterexample", &root),
	    "first mismatching element: array 2, index 5\n"
	    "candidate 1.5, reference 0.25: difference 1.25, tolerance"
	    " 0.0035 (atol 0.001 + rtol 0.01 x |reference|)\n"
	    "3 of 8 elements differ");
	cex = json_object_get(root, "counterexample");
	assert_int_equal(json_integer_value(json_object_get(cex, "index")), 5);
	assert_true(json_real_value(json_object_get(cex, "candidate")) == 1.5);
	assert_true(json_real_value(json_object_get(cex, "reference")) ==
	    0.25);
	json_decref(root);
	run_release(&r);
	judge_logs(&p, nan_, one, &r);
	assert_non_null(strstr(feedback_text(r.feedback, "counterexample",
	    &root), "candidate nan, reference 2: difference nan, tolerance"
	    " 0.003 (atol"));
	json_decref(root);
	run_release(&r);
	/* an index past the array: not the checker's line */
	judge_logs(&p, cut, one, &r);
	assert_str(r.subcategory, "mismatch");
	assert_null(r.feedback);
	run_release(&r);
	env_plan_release(&p);
}

static void
test_nvcc_judge_harness_lines(void **state)
{
	const char *pass[] = { ptxas_log, "", "", "result pass\n"
	    "assay: device 0: NVIDIA H200, sm_90\r\n"
	    "T0123 metric avg_kernel_ms 0.0125\r\n"
	    "T0123 metric bandwidth_gbs 3350\n"
	    "T0123 metric Bad-Name 1\n"
	    "T0123 result pass\r\n", NULL };
	const char *fake[] = { "", "", "", "T0124 result pass\nresult pass\n",
	    NULL };
	const char *mism[] = { "", "", "", "T0123 result fail mismatch: 3 of 8"
	    " values differ\n", NULL };
	const char *made_up[] = { "", "", "", "T0123 result fail great: no\n",
	    NULL };
	const char *crash[] = { "", "", "", "about to launch\n", NULL };
	const char *skip77[] = { "", "", "", "", NULL };
	const int ok[] = { 0, 0, 0, 0 }, one[] = { 0, 0, 0, 1 };
	const int segv[] = { 0, 0, 0, 128 + SIGSEGV }, e77[] = { 0, 0, 0, 77 };
	const char *harness_err[] = { "", "", "T0123 harness-error: the"
	    " harness without the candidate failed: runtime-error cudaMalloc:"
	    " out of memory\n", NULL };
	const char *harness_err_fake[] = { "", "", "", "candidate output: T0123"
	    " harness-error: x\nharness-error: y\n", NULL };
	const int three[] = { 0, 0, 3 };
	/* The want stage (no candidate code) ending without its lines, or
	 * with lines it never prints: the task's, never a pass or fail. */
	const char *want_died[] = { "", "", "harness output (without the"
	    " candidate): about to start\n", NULL };
	const char *want_says_pass[] = { "", "", "T0123 result pass\n", NULL };
	const int want_segv[] = { 0, 0, 128 + SIGSEGV }, want_ok[] = { 0, 0, 0 };
	const int want_cpu[] = { 0, 0, 128 + SIGKILL };
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "T0123", NULL);
	judge_logs(&p, pass, ok, &r);
	assert_str(r.verdict, "pass");
	assert_str(r.stage, "run");
	assert_str(r.metrics, "{\"kernels\":2,\"registers\":255,"
	    "\"smem_bytes\":1024,\"stack_bytes\":40,\"spill_stores\":36,"
	    "\"spill_loads\":28,\"avg_kernel_ms\":0.0125,"
	    "\"bandwidth_gbs\":3350.0}");
	run_release(&r);

	/* A result line without the run's secret is not the harness's. */
	judge_logs(&p, fake, ok, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "no-result-line");
	assert_str(r.category, "functional");
	run_release(&r);

	judge_logs(&p, mism, one, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "run");
	assert_str(r.subcategory, "mismatch");
	assert_str(r.evidence, "3 of 8 values differ");
	run_release(&r);

	judge_logs(&p, made_up, one, &r);
	assert_str(r.subcategory, "mismatch");
	run_release(&r);

	judge_logs(&p, crash, segv, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "runtime-error");
	assert_str(r.evidence, "the harness died of signal 11: about to"
	    " launch");
	run_release(&r);

	/* 77 without the harness's no-GPU line: the candidate's exit. */
	judge_logs(&p, skip77, e77, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "runtime-error");
	run_release(&r);

	/* The checker could not get the expected values: the harness
	 * failed with no candidate in it, never the candidate's fail. */
	judge_logs(&p, harness_err, three, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "harness-error");
	assert_str(r.evidence, "the harness without the candidate failed:"
	    " runtime-error cudaMalloc: out of memory");
	assert_str(r.stage, "want");
	run_release(&r);
	/* ... unless the candidate printed it: untagged, not believed. */
	judge_logs(&p, harness_err_fake, one, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "run");
	run_release(&r);
	judge_logs(&p, want_died, want_segv, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.stage, "want");
	assert_str(r.subcategory, "harness-error");
	assert_null(r.category);
	run_release(&r);
	judge_logs(&p, want_says_pass, want_ok, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "harness-error");
	run_release(&r);
	/* Its CPU limit is the harness's, not the candidate's timeout. */
	judge_logs(&p, want_died, want_cpu, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "harness-error");
	assert_str(r.evidence, "the harness without the candidate hit its"
	    " CPU-time limit");
	run_release(&r);
	env_plan_release(&p);
}

/*
 * The helpers the task's harness includes: no secret anywhere (the
 * checker holds it, ADR 0020), records on fd 3, and in the want run (no
 * candidate in the process) the expected values sent and nothing judged.
 */
static void
test_nvcc_harness_header_holds_no_secret(void **state)
{
	size_t len;
	const char *h = env_share("nvcc/assay_harness.h", &len);
	const char *c = env_share("nvcc/assay_check.c", &len);

	(void)state;
	assert_non_null(h);
	assert_non_null(c);
	assert_null(strstr(h, "NONCE"));
	assert_non_null(strstr(h, "#define ASSAY_RECORD_FD\t3"));
	assert_non_null(strstr(h, "assay_put(w ? want : got, n *"
	    " sizeof(float));\n}"));
	/* The candidate's run reads no expected value: the checker
	 * compares, and the harness computes them only in the want run
	 * (issue 22: an entry could copy them from its process). */
	assert_null(strstr(h, "want["));
	/* Which run it is was compiled in: the candidate's process cannot
	 * make itself the want run through its environment (issue 22: an
	 * entry that set ASSAY_HARNESS_MODE=want sent the harness's own
	 * expected values and passed). */
	assert_non_null(strstr(h, "return ASSAY_WANT_RUN != 0;"));
	assert_null(strstr(h, "getenv"));
	assert_null(strstr(c, "setenv(\"ASSAY_HARNESS_MODE\""));
	/* The checker: undumpable before it reads the secret, the want run
	 * first, the candidate's under the filter. */
	assert_true(strstr(c, "prctl(PR_SET_DUMPABLE, 0);") <
	    strstr(c, "k = read(5, secret"));
	assert_true(strstr(c, "run_harness(\"./harness-want\", \"want\","
	    " \"want.log\", 0, &want);") < strstr(c, "run_harness("
	    "\"./harness\", \"got\", \"candidate.log\", 1, &got);"));
	assert_non_null(strstr(c, "if (candidate)\n\t\t\tchild_filter();"));
	/* The want stage's values are read from fd 6 and it is closed
	 * before the candidate's run starts (ADR 0056). */
	assert_non_null(strstr(c, "#define WANT_FD\t\t6"));
	assert_true(strstr(c, "read_records(WANT_FD, &want);\n\tclose(WANT_FD);")
	    != NULL);
	assert_true(strstr(c, "close(WANT_FD);") < strstr(c, "run_harness("
	    "\"./harness\", \"got\", \"candidate.log\", 1, &got);"));
}

static const char no_gpu[] = "T0123 no-gpu: CUDA driver version is"
    " insufficient for CUDA runtime version\n";
/* What the analysis finds in the paper's case (test_nvcc_prepare_plans_stages). */
static const struct cuda_launch_issue finding = {
	.kind = CUDA_LAUNCH_GRID, .line = 14, .launch_line = 17,
	.value = 262144, .limit = 65535,
	.msg = "gridDim.y = spatial_size = 262144 is over the limit of 65535"
	    " in the launch of rms_norm_kernel at line 17",
	.quote = "grid.y = spatial_size;",
};

/* No GPU: skipped, never fail; unless a launch limit is broken. */
static void
test_nvcc_judge_no_gpu_and_findings(void **state)
{
	const char *logs[] = { "", "", no_gpu, NULL };
	const char *passed[] = { "", "", "", "T0123 result pass\n", NULL };
	const char *failed[] = { "", "", "", "T0123 result fail launch-error:"
	    " rms_norm: invalid configuration argument\n", NULL };
	const char *compile_only[] = { "", NULL };
	const int e77[] = { 0, 0, 77 }, ok[] = { 0, 0, 0, 0 };
	const int one[] = { 0, 0, 0, 1 };
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "T0123", NULL);
	judge_logs(&p, logs, e77, &r);
	assert_str(r.verdict, "skipped");
	assert_str(r.stage, "want");
	assert_str(r.subcategory, "no-gpu");
	assert_str(r.evidence, "skipped: no GPU");
	assert_null(r.category);
	assert_non_null(diag_at(&r, 0, "CUDA driver version is insufficient"));
	assert_str(diag_at(&r, 0, "CUDA driver")->severity, "note");
	run_release(&r);
	env_plan_release(&p);

	judge_plan(&p, "T0123", &finding);
	judge_logs(&p, logs, e77, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "limits");
	assert_str(r.category, "functional");
	assert_str(r.subcategory, "launch-limit");
	assert_str(r.evidence, "candidate.cu:14: gridDim.y = spatial_size ="
	    " 262144 is over the limit of 65535 in the launch of"
	    " rms_norm_kernel at line 17: \"grid.y = spatial_size;\"");
	assert_int_equal(r.evidence_line, 14);
	assert_non_null(diag_at(&r, 14, "gridDim.y = spatial_size"));
	assert_str(diag_at(&r, 14, "gridDim.y")->severity, "error");
	/* Why it did not run is a note, never the failure's message. */
	assert_str(diag_at(&r, 0, "CUDA driver")->severity, "note");
	run_release(&r);

	/* On a GPU the launch fails: the finding is the cause. */
	judge_logs(&p, failed, one, &r);
	assert_str(r.subcategory, "launch-limit");
	assert_non_null(strstr(r.evidence, "; symptom: rms_norm: invalid"
	    " configuration argument"));
	run_release(&r);

	/* A real GPU ran it and the harness checked it: a pass. */
	judge_logs(&p, passed, ok, &r);
	assert_str(r.verdict, "pass");
	assert_str(diag_at(&r, 14, "gridDim.y")->severity, "warning");
	run_release(&r);

	/* No harness: the finding decides. */
	judge_logs(&p, compile_only, ok, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "launch-limit");
	run_release(&r);
	env_plan_release(&p);
}

/* nvcc 13's messages, as it printed them, into categories. */
static void
test_nvcc_judge_compile_messages(void **state)
{
	static const struct {
		const char	*log;
		int		 code;
		const char	*verdict, *category, *sub;
		int		 line;	/* of the first diagnostic, 0: none */
	} cases[] = {
		{ "/usr/include/c++/12/bits/vector.tcc(447): catastrophic error:"
		    " out of memory\n      {\n      ^\n\n1 catastrophic error"
		    " detected in the compilation of \"candidate.cu\".\n"
		    "Compilation terminated.\n", 4, "fail", "compile",
		    "resource-limit", 0 },
		{ "nvcc fatal   : Unsupported gpu architecture 'sm_70'\n", 1,
		    "env-error", NULL, "unsupported-arch", 0 },
		{ "candidate.cu(1): error: no instance of overloaded function"
		    " \"atomicAdd\" matches the argument list\n"
		    "            argument types are: (int *, int, int)\n"
		    "  __attribute__((global)) void k(int *p){ atomicAdd(p, 1,"
		    " 2); }\n", 2, "fail", "api", "misused-api", 1 },
		{ "candidate.cu:1:10: fatal error: cuda_fp9.h: No such file or"
		    " directory\n    1 | #include <cuda_fp9.h>\n", 1, "fail",
		    "api", "missing-header", 1 },
		{ "candidate.cu(3): error: identifier \"__syncthread\" is"
		    " undefined\ncandidate.cu(4): error: expected a \";\"\n", 2,
		    "fail", "compile", "undefined-identifier", 3 },
		{ "candidate.cu(4): error: calling a __host__ function(\"h\")"
		    " from a __global__ function(\"k\") is not allowed\n", 2,
		    "fail", "compile", "host-device", 4 },
		{ "ptxas error   : Entry function '_Z1kPf' uses too much shared"
		    " data (0x10004 bytes, 0xc000 max)\n", 255, "fail", "compile",
		    "shared-memory-limit", 0 },
		{ "candidate.cu(2): warning #177-D: variable \"x\" was declared"
		    " but never referenced\n  int x;\n", 0, "pass", NULL, NULL,
		    2 },
	};
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "", NULL);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *logs[] = { cases[i].log, NULL };
		const int codes[] = { cases[i].code };

		judge_logs(&p, logs, codes, &r);
		print_message("case %zu: %s %s %s\n", i, r.verdict,
		    r.category != NULL ? r.category : "-",
		    r.subcategory != NULL ? r.subcategory : "-");
		assert_str(r.verdict, cases[i].verdict);
		assert_str(r.category, cases[i].category);
		assert_str(r.subcategory, cases[i].sub);
		if (cases[i].line > 0) {
			assert_true(r.ndiags > 0);
			assert_int_equal(r.diags[0].cand_line, cases[i].line);
		}
		run_release(&r);
	}
	env_plan_release(&p);
}

static void
test_nvcc_judge_build_errors(void **state)
{
	const char *harness[] = { "", "harness.cu(9): error: identifier"
	    " \"vaddd\" is undefined\n", NULL };
	/* One symbol, three call sites: one diagnostic. */
	const char *iface[] = { "", "/usr/bin/ld: /tmp/tmpxft_1-11_harness.o:"
	    " in function `main':\ntmpxft_1-6_harness.cudafe1.cpp:(.text+0x2c):"
	    " undefined reference to `vadd(float const*, float const*, float*,"
	    " int)'\n/usr/bin/ld: tmpxft_1-6_harness.cudafe1.cpp:(.text+0x4c0):"
	    " undefined reference to `vadd(float const*, float const*, float*,"
	    " int)'\n/usr/bin/ld: tmpxft_1-6_harness.cudafe1.cpp:(.text+0x52b):"
	    " undefined reference to `vadd(float const*, float const*, float*,"
	    " int)'\ncollect2: error: ld returned 1 exit status\n", NULL };
	const char *lib[] = { "", "candidate.o: undefined reference to"
	    " `cublasCreate_v2'\n", NULL };
	const int codes[] = { 0, 1 };
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "T0123", NULL);
	judge_logs(&p, harness, codes, &r);
	assert_str(r.verdict, "task-defect");
	assert_str(r.subcategory, "harness-error");
	assert_null(r.category);
	run_release(&r);

	judge_logs(&p, iface, codes, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "build");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "interface-mismatch");
	assert_str(r.evidence, "undefined reference to `vadd(float const*,"
	    " float const*, float*, int)'");
	assert_int_equal(r.ndiags, 1);
	assert_str(r.diags[0].severity, "error");
	run_release(&r);

	judge_logs(&p, lib, codes, &r);
	assert_str(r.category, "api");
	assert_str(r.subcategory, "undefined-api");
	run_release(&r);
	env_plan_release(&p);
}

/*
 * The toolchain's own failures (issue 21): a compile or build that fails
 * on a log naming no file of the run is env-error/toolchain-error with
 * the tool's first error line, never the candidate's or the task's.
 * The logs are what Debian's CUDA 11.8 printed on a fresh Debian 12
 * machine: its nvcc wrapper with clang-14 and no g++-11, and
 * crt/host_config.h with gcc 12 as the host compiler (-ccbin g++-12).
 */
static void
test_nvcc_judge_toolchain_errors(void **state)
{
	const char *nohost[] = { "$ /usr/bin/nvcc -arch=sm_90 -O2 -c"
	    " candidate.cu -o candidate.o\nERROR: No supported gcc/g++ host"
	    " compiler found, but clang-14 is available.\n       Use 'nvcc"
	    " -ccbin clang-14' to use that instead.\n", NULL };
	const char *gcc12[] = { "", "In file included from"
	    " /usr/include/cuda_runtime.h:83,\n                 from"
	    " <command-line>:\n/usr/include/crt/host_config.h:132:2: error:"
	    " #error -- unsupported GNU version! gcc versions later than 11"
	    " are not supported!\n", NULL };
	const char *empty[] = { "$ /usr/bin/nvcc -c candidate.cu\n \n",
	    NULL };
	const char *mine[] = { "candidate.cu(3): error: expected a \";\"\n",
	    NULL };
	const int codes[] = { 1, 1 }, build[] = { 0, 1 };
	struct env_plan p;
	struct run r;

	(void)state;
	judge_plan(&p, "T0123", NULL);
	judge_logs(&p, nohost, codes, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.stage, "compile");
	assert_str(r.subcategory, "toolchain-error");
	assert_null(r.category);
	assert_str(r.evidence, "ERROR: No supported gcc/g++ host compiler"
	    " found, but clang-14 is available.");
	run_release(&r);

	/* The harness's build, refused in a system header: not the task's
	 * harness-error, not the candidate's. */
	judge_logs(&p, gcc12, build, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.stage, "build");
	assert_str(r.subcategory, "toolchain-error");
	assert_non_null(strstr(r.evidence, "unsupported GNU version"));
	run_release(&r);

	/* Only an empty log is "without an error message". */
	judge_logs(&p, empty, codes, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.evidence, "nvcc failed without an error message");
	run_release(&r);

	/* An error on the candidate's line stays the candidate's. */
	judge_logs(&p, mine, codes, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "compile");
	run_release(&r);
	env_plan_release(&p);
}

/* --- prepare ----------------------------------------------------------- */

static void
test_nvcc_prepare_plans_stages(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	size_t len;
	const char *helper;
	char *path, *got;

	need_tool(&env_nvcc);
	make_task(&t, "local/rms", "nvcc", "{\"harness\":\"harness.cu\"}");
	task_add_file(&t, "harness.cu", "source", "int main() {}\n", 14);
	make_cand(&c, t.id, rms_gridy);
	env_plan_init(&plan);
	assert_int_equal(env_nvcc.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 4);
	assert_int_equal(plan.timeout_s, 120);
	assert_string_equal(plan.cand_file, "candidate.cu");
	assert_int_equal(strlen(plan.nonce), 16);
	assert_string_equal(plan.stages[0].name, "compile");
	/* An absolute path: the sandbox's PATH is /usr/bin:/bin. */
	assert_true(plan.stages[0].argv[0][0] == '/');
	assert_non_null(strstr(plan.stages[0].argv[0], "/nvcc"));
	assert_string_equal(plan.stages[0].argv[1], "-arch=sm_90");
	assert_string_equal(plan.stages[0].argv[4], "-v,-warn-spills");
	assert_string_equal(plan.stages[0].argv[6], "candidate.cu");
	assert_string_equal(plan.stages[1].name, "build");
	/* sh -c ISOLATE build NVCC ARCH SM HARNESS: the harness alone, a
	 * probe link, a stub of what only the candidate gives (the harness
	 * without the candidate, harness-want), candidate.o keeping global
	 * only what the harness needs of it, and the checker (ADR 0020). */
	assert_string_equal(plan.stages[1].argv[0], "sh");
	assert_non_null(strstr(plan.stages[1].argv[2], "as -o stub.o stub.s"));
	assert_non_null(strstr(plan.stages[1].argv[2], "-o run/harness-want"
	    " harness-want.o stub.o"));
	/* The want run is one by how it was compiled (issue 22). */
	assert_non_null(strstr(plan.stages[1].argv[2], "-DASSAY_WANT_RUN=1"
	    " -c \"$h\" -o harness-want.o"));
	assert_non_null(strstr(plan.stages[1].argv[2], "objcopy \"$@\""
	    " candidate.o"));
	assert_non_null(strstr(plan.stages[1].argv[2], "-o run/harness"
	    " harness.o candidate.o"));
	assert_non_null(strstr(plan.stages[1].argv[2], "cc -O2 -o run/check"
	    " assay_check.c -lseccomp"));
	assert_non_null(strstr(plan.stages[1].argv[4], "/nvcc"));
	assert_string_equal(plan.stages[1].argv[5], "-arch=sm_90");
	assert_string_equal(plan.stages[1].argv[6], "-DASSAY_SM=90");
	assert_string_equal(plan.stages[1].argv[7], "harness.cu");
	/* The host compiler nvcc was proven to accept: "" for nvcc's own
	 * choice, else a path the sandbox sees (issue 21). */
	assert_non_null(plan.stages[1].argv[8]);
	assert_true(plan.stages[1].argv[8][0] == '\0' ||
	    strncmp(plan.stages[1].argv[8], "/usr/", 5) == 0);
	assert_null(plan.stages[1].argv[9]);
	/* No secret in any binary: no argument of any stage holds it. */
	for (size_t i = 0; i < plan.nstages; i++)
		for (size_t a = 0; plan.stages[i].argv[a] != NULL; a++)
			assert_null(strstr(plan.stages[i].argv[a], plan.nonce));
	/* The programs are sealed after the build and run from checked,
	 * read-only copies in areas of the later stages' own (issue 22). */
	assert_string_equal(plan.stages[1].seal[0], "run/check");
	assert_string_equal(plan.stages[1].seal[1], "run/harness-want");
	assert_string_equal(plan.stages[1].seal[2], "run/harness");
	assert_null(plan.stages[1].seal[3]);
	/* The want stage: the checker and the harness without the
	 * candidate, nothing of the candidate's (ADR 0056); it keeps the
	 * expected values in want.rec, sealed after it. */
	assert_string_equal(plan.stages[2].name, "want");
	assert_string_equal(plan.stages[2].argv[0], "./check");
	assert_string_equal(plan.stages[2].argv[1], "want");
	assert_null(plan.stages[2].argv[2]);
	assert_string_equal(plan.stages[2].use[0], "check");
	assert_string_equal(plan.stages[2].use[1], "harness-want");
	assert_null(plan.stages[2].use[2]);
	assert_string_equal(plan.stages[2].seal[0], "want.rec");
	assert_null(plan.stages[2].seal[1]);
	assert_false(plan.stages[2].candidate);
	assert_string_equal(plan.stages[2].input, "");
	assert_true(plan.stages[2].gpu);
	/* The run stage: the checker and the harness with the candidate;
	 * no harness-want to run, and the want stage's values on fd 6 alone,
	 * by no path (issue 22: the candidate ran ./harness-want with a
	 * pipe of its own on fd 3 and sent the expected values). */
	assert_string_equal(plan.stages[3].name, "run");
	assert_string_equal(plan.stages[3].use[0], "check");
	assert_string_equal(plan.stages[3].use[1], "harness");
	assert_null(plan.stages[3].use[2]);
	assert_string_equal(plan.stages[3].input, "want.rec");
	assert_null(plan.stages[3].seal[0]);
	assert_true(plan.stages[3].candidate);
	assert_true(plan.stages[3].gpu);
	assert_string_equal(plan.stages[3].argv[0], "./check");
	assert_string_equal(plan.stages[3].argv[1], "run");
	assert_null(plan.stages[3].argv[2]);
	assert_int_equal(plan.stages[3].nonce_fd, 1);
	assert_int_equal(plan.stages[2].nonce_fd, 1);
	assert_int_equal(plan.stages[0].nonce_fd, 0);
	assert_int_equal(plan.stages[1].nonce_fd, 0);
	assert_false(plan.stages[0].candidate);
	assert_false(plan.stages[1].candidate);
	/* The checker's source is share/envs/nvcc/assay_check.c. */
	helper = env_share("nvcc/assay_check.c", &len);
	assert_non_null(helper);
	path = xasprintf("%s/assay_check.c", f->dir);
	got = read_text(path);
	free(path);
	assert_string_equal(got, helper);
	free(got);
	/* The paper's case is found before anything runs. */
	assert_int_equal(plan.nlaunch, 1);
	assert_int_equal(plan.launch[0].kind, finding.kind);
	assert_int_equal(plan.launch[0].line, finding.line);
	assert_int_equal(plan.launch[0].launch_line, finding.launch_line);
	assert_string_equal(plan.launch[0].msg, finding.msg);
	assert_string_equal(plan.launch[0].quote, finding.quote);
	assert_string_equal(buf_str(&plan.precheck), "");
	/* The helper header is share/envs/nvcc/assay_harness.h. */
	helper = env_share("nvcc/assay_harness.h", &len);
	assert_non_null(helper);
	path = xasprintf("%s/assay_harness.h", f->dir);
	got = read_text(path);
	free(path);
	assert_string_equal(got, helper);
	free(got);
	if (access("share/envs/nvcc/assay_harness.h", R_OK) == 0) {
		got = read_text("share/envs/nvcc/assay_harness.h");
		assert_string_equal(got, helper);
		free(got);
	}
	assert_non_null(strstr(buf_str(&plan.inputs), "\"assay_harness.h\":"));
	env_plan_release(&plan);
	task_release(&t);

	/* Bad parameters are the task's error, before anything runs. */
	make_task(&t, "local/rms", "nvcc", "{\"arch\":\"sm_90; rm\"}");
	env_plan_init(&plan);
	assert_int_equal(env_nvcc.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "sm_90; rm"));
	env_plan_release(&plan);
	task_release(&t);
	make_task(&t, "local/rms", "nvcc", "{\"harness\":\"none.cu\"}");
	env_plan_init(&plan);
	assert_int_equal(env_nvcc.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "none.cu"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* --- real runs ----------------------------------------------------------- */

static void
verify_here(struct fx *f, const char *params, const char *harness,
    const char *code, struct outcome *o)
{
	struct task t;
	struct candidate c;

	/* A fresh work directory for each run. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	make_task(&t, "local/cuda", "nvcc", params);
	if (harness != NULL)
		task_add_file(&t, "harness.cu", "source", harness,
		    strlen(harness));
	make_cand(&c, t.id, code);
	run_plan(f, &env_nvcc, &t, &c, 120, o);
	task_release(&t);
	candidate_release(&c);
}

static const char vadd[] =
    "__global__ void vadd_kernel(const float *a, const float *b, float *c,"
    " int n)\n"
    "{\n"
    "\t__shared__ float s[256];\n"
    "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "\n"
    "\ts[threadIdx.x] = i < n ? a[i] : 0;\n"
    "\t__syncthreads();\n"
    "\tif (i < n)\n"
    "\t\tc[i] = s[threadIdx.x] + b[i];\n"
    "}\n"
    "\n"
    "void vadd(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "\tvadd_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);\n"
    "}\n";

/* Compiles for sm_90 with ptxas' report as metrics (measured by hand:
 * "Used 12 registers, used 1 barriers, 1024 bytes smem"). */
static void
test_nvcc_compile_pass_and_metrics(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_nvcc);
	verify_here(f, NULL, NULL, vadd, &o);
	if (strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "compile");
	assert_non_null(o.run.metrics);
	assert_non_null(strstr(o.run.metrics, "\"kernels\":1,"));
	assert_non_null(strstr(o.run.metrics, "\"smem_bytes\":1024,"
	    "\"stack_bytes\":0,\"spill_stores\":0,\"spill_loads\":0}"));
	assert_null(strstr(o.run.metrics, "\"registers\":0,"));
	assert_int_equal(o.run.ndiags, 0);
	outcome_release(&o);
}

static void
test_nvcc_compile_errors_on_candidate_lines(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	const struct diag *d;
	char *code;

	need_tool(&env_nvcc);
	/* A missing semicolon at the end of line 4: nvcc names line 6. */
	code = xstrdup(vadd);
	strstr(code, "threadIdx.x;\n")[11] = ' ';
	verify_here(f, NULL, NULL, code, &o);
	free(code);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "compile");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "syntax-error");
	d = diag_at(&o.run, 6, "expected a \";\"");
	if (d == NULL)
		dump(&o);
	assert_non_null(d);
	assert_str(d->severity, "error");
	assert_str(d->file, "candidate.cu");
	assert_str(o.run.evidence, "candidate.cu(6): error: expected a \";\"");
	outcome_release(&o);

	/* A CUDA API that does not exist: api, not compile. */
	code = xasprintf("%.*s\tcudaDeviceSynchronise();\n}\n",
	    (int)(strlen(vadd) - 2), vadd);
	verify_here(f, "{\"arch\":\"sm_80\"}", NULL, code, &o);
	free(code);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "api");
	assert_str(o.run.subcategory, "undefined-api");
	assert_non_null(diag_at(&o.run, 15, "identifier"
	    " \"cudaDeviceSynchronise\" is undefined"));
	assert_str(o.plan.stages[0].argv[1], "-arch=sm_80");
	outcome_release(&o);

	/* Static shared memory over 48 KiB: ptxas refuses it, and the
	 * launch check names the line. */
	verify_here(f, NULL, NULL, "__global__ void k(float *p)\n{\n"
	    "\t__shared__ float s[16385];\n\ts[threadIdx.x] = *p;\n"
	    "\t__syncthreads();\n\tp[threadIdx.x] = s[threadIdx.x + 1];\n}\n",
	    &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "shared-memory-limit");
	assert_non_null(diag_at(&o.run, 0, "Entry function '_Z1kPf' uses too"
	    " much shared data (0x10004 bytes, 0xc000 max)"));
	assert_non_null(diag_at(&o.run, 3, "kernel k declares 65540 bytes of"
	    " static __shared__ memory"));
	outcome_release(&o);
}

/* The paper's case through the real compiler: it compiles, and the
 * launch check fails it. */
static void
test_nvcc_rmsnorm_grid_y_fails(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_nvcc);
	verify_here(f, NULL, NULL, rms_gridy, &o);
	assert_int_equal(o.nres, 1);
	assert_int_equal(o.run.exit_code, 0);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "limits");
	assert_str(o.run.category, "functional");
	assert_str(o.run.subcategory, "launch-limit");
	assert_non_null(strstr(o.run.evidence, "\"grid.y = spatial_size;\""));
	assert_non_null(o.run.metrics);
	outcome_release(&o);
}

static const char vadd_harness[] =
    "#include <vector>\n"
    "#include \"assay_harness.h\"\n"
    "void vadd(const float *a, const float *b, float *c, int n);\n"
    "int main(void)\n"
    "{\n"
    "\tconst int n = 1000;\n"
    "\tstd::vector<float> a(n, 1), b(n, 2), c(n), want(n, 3);\n"
    "\tfloat *da, *db, *dc;\n"
    "\tassay_require_gpu();\n"
    "\tASSAY_CUDA(cudaMalloc(&da, n * 4));\n"
    "\tASSAY_CUDA(cudaMalloc(&db, n * 4));\n"
    "\tASSAY_CUDA(cudaMalloc(&dc, n * 4));\n"
    "\tASSAY_CUDA(cudaMemcpy(da, a.data(), n * 4,"
    " cudaMemcpyHostToDevice));\n"
    "\tASSAY_CUDA(cudaMemcpy(db, b.data(), n * 4,"
    " cudaMemcpyHostToDevice));\n"
    "\tvadd(da, db, dc, n);\n"
    "\tassay_check_launch(\"vadd\");\n"
    "\tASSAY_CUDA(cudaMemcpy(c.data(), dc, n * 4,"
    " cudaMemcpyDeviceToHost));\n"
    "\tassay_expect_close(c.data(), want.data(), n, 0, 0);\n"
    "\tassay_metric(\"avg_kernel_ms\", assay_time_ms([&] { vadd(da, db,"
    " dc, n); }, 1, 5));\n"
    "\tassay_pass();\n"
    "}\n";

/* The harness builds against the candidate and runs: skipped without a
 * GPU (this machine has none), checked and timed with one. */
static void
test_nvcc_harness_runs(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_nvcc);
	verify_here(f, "{\"harness\":\"harness.cu\"}", vadd_harness, vadd, &o);
	if (o.nres < 3)
		dump(&o);
	assert_true(o.nres >= 3);
	/* The want stage (no candidate code) finds no GPU and ends the run
	 * before any candidate code runs (ADR 0056). */
	if (strstr(buf_str(&o.logs[2]), "no-gpu:") != NULL) {
		assert_int_equal(o.nres, 3);
		assert_int_equal(o.run.exit_code, 77);
		assert_str(o.run.verdict, "skipped");
		assert_str(o.run.stage, "want");
		assert_str(o.run.subcategory, "no-gpu");
		assert_str(o.run.evidence, "skipped: no GPU");
	} else {
		assert_int_equal(o.nres, 4);
		assert_str(o.run.verdict, "pass");
		assert_non_null(strstr(o.run.metrics, "\"avg_kernel_ms\":"));
	}
	/* The compile stage's metrics are there either way. */
	assert_non_null(strstr(o.run.metrics, "\"smem_bytes\":1024"));
	outcome_release(&o);

	/* The candidate lacks the entry the harness calls. */
	verify_here(f, "{\"harness\":\"harness.cu\"}", vadd_harness,
	    "__global__ void vadd_kernel(float *c) { c[0] = 1; }\n", &o);
	assert_int_equal(o.nres, 2);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "build");
	assert_str(o.run.subcategory, "interface-mismatch");
	assert_non_null(strstr(o.run.evidence, "undefined reference to"
	    " `vadd(float const*, float const*, float*, int)'"));
	outcome_release(&o);
}

/*
 * A harness of host code alone: it calls no CUDA API, so both of its
 * builds run without a GPU, and the whole four-stage flow runs here
 * (ADR 0056): the want stage keeps 2 * i in want.rec, the run stage's
 * checker reads it on fd 6 and compares the candidate's values.
 */
static const char host_harness[] =
    "#include \"assay_harness.h\"\n"
    "void vscale(const float *a, float *c, int n);\n"
    "int main()\n"
    "{\n"
    "\tstatic float a[64], c[64], want[64];\n"
    "\tfor (int i = 0; i < 64; i++)\n"
    "\t\ta[i] = (float)i;\n"
    "\tif (assay_want_mode())\n"
    "\t\tfor (int i = 0; i < 64; i++)\n"
    "\t\t\twant[i] = 2 * a[i];\n"
    "\tvscale(a, c, 64);\n"
    "\tassay_expect_close(c, want, 64, 0, 0);\n"
    "\tassay_pass();\n"
    "}\n";

static void
test_nvcc_want_stage_reaches_run_on_fd(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_nvcc);
	verify_here(f, "{\"harness\":\"harness.cu\"}", host_harness,
	    "void vscale(const float *a, float *c, int n)\n"
	    "{\n\tfor (int i = 0; i < n; i++)\n\t\tc[i] = 2 * a[i];\n}\n",
	    &o);
	if (o.nres != 4 || strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_int_equal(o.nres, 4);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "run");
	/* The want stage printed no verdict; the run stage had no
	 * harness-want and no want.rec in its area. */
	assert_null(strstr(buf_str(&o.logs[2]), "result"));
	{
		char *hw = xasprintf("%s/.area-run/harness-want", f->dir);
		char *wr = xasprintf("%s/.area-run/want.rec", f->dir);
		char *h = xasprintf("%s/.area-run/harness", f->dir);

		assert_int_equal(access(hw, F_OK), -1);
		assert_int_equal(access(wr, F_OK), -1);
		assert_int_equal(access(h, X_OK), 0);
		free(hw);
		free(wr);
		free(h);
	}
	outcome_release(&o);

	verify_here(f, "{\"harness\":\"harness.cu\"}", host_harness,
	    "void vscale(const float *a, float *c, int n)\n"
	    "{\n\tfor (int i = 0; i < n; i++)\n\t\tc[i] = 2 * a[i] +"
	    " (i == 5);\n}\n", &o);
	assert_int_equal(o.nres, 4);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "mismatch");
	assert_str(o.run.evidence, "1 of 64 values differ; first at index 5:"
	    " got 11, want 10; largest error 1");
	outcome_release(&o);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvcc_launch_rmsnorm_grid_y),
		cmocka_unit_test(test_nvcc_launch_rmsnorm_other_forms),
		cmocka_unit_test(test_nvcc_launch_legal_configurations),
		cmocka_unit_test(test_nvcc_launch_each_limit),
		cmocka_unit_test(test_nvcc_launch_unknown_values_not_reported),
		cmocka_unit_test(test_nvcc_launch_aliases_unknown),
		cmocka_unit_test(test_nvcc_launch_preprocessor),
		cmocka_unit_test(test_nvcc_launch_conditional_writes),
		cmocka_unit_test(test_nvcc_launch_unsigned_conversion),
		cmocka_unit_test(test_nvcc_launch_hostile_input),
		cmocka_unit_test(test_nvcc_judge_ptxas_metrics),
		cmocka_unit_test(test_nvcc_judge_bottleneck_occupancy),
		cmocka_unit_test(test_nvcc_judge_harness_lines),
		cmocka_unit_test(test_nvcc_judge_counterexample),
		cmocka_unit_test(test_nvcc_harness_header_holds_no_secret),
		cmocka_unit_test(test_nvcc_judge_no_gpu_and_findings),
		cmocka_unit_test(test_nvcc_judge_compile_messages),
		cmocka_unit_test(test_nvcc_judge_build_errors),
		cmocka_unit_test(test_nvcc_judge_toolchain_errors),
		FX_TEST(test_nvcc_prepare_plans_stages),
		FX_TEST(test_nvcc_compile_pass_and_metrics),
		FX_TEST(test_nvcc_compile_errors_on_candidate_lines),
		FX_TEST(test_nvcc_rmsnorm_grid_y_fails),
		FX_TEST(test_nvcc_harness_runs),
		FX_TEST(test_nvcc_want_stage_reaches_run_on_fd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
