/*
 * harness.c - assay's x86-asm harness (docs/envs/x86-asm.md).
 *
 * Built by the env's build stage with the task's reference and the
 * candidate's object:
 *   gcc -O2 -fwrapv -g -o run/bench cand.o harness.c abi.s
 * sig.h (the parameter table and settings) and thunks.h (the reference,
 * included from ref.c under the name assay_ref_SYMBOL and made static,
 * and the calls through an array of arguments) are written by the env
 * from the task's signature.
 *
 *   ./bench check    equivalence on seeded random inputs, callee-saved
 *                    registers, then the timing ratio
 *   ./bench cg-ref   one call of the reference on the timing input,
 *   ./bench cg-cand  or of the candidate, for callgrind
 *
 * each with the run's SECRET and a newline on fd 5 (a pipe).  Every
 * line it prints starts with SECRET, which the env removes from the
 * stored log, so that a candidate that prints lines of its own cannot
 * pass.  Exit status: 0 the candidate is equivalent and keeps the ABI, 1
 * it is not, 2 bad usage, 3 the reference itself crashed or hung.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifdef ASSAY_CHECKER
#include <linux/sockios.h>
#include <seccomp.h>
#endif
#if !defined(ASSAY_CHECKER) && !defined(ASSAY_WORKER)
#error "build with -DASSAY_CHECKER (run/check) or -DASSAY_WORKER (run/bench)"
#endif

enum assay_type { ASSAY_T_VOID, ASSAY_T_I8, ASSAY_T_I16, ASSAY_T_I32,
	ASSAY_T_I64, ASSAY_T_U8, ASSAY_T_U16, ASSAY_T_U32, ASSAY_T_U64,
	ASSAY_T_SIZE };

struct assay_param {
	const char	*name;
	enum assay_type	 type;
	int		 pointer;	/* an array of type, length ASSAY_LEN */
	int		 is_const;	/* read only */
	int		 ranged;	/* values (elements) in [lo, hi] */
	int64_t		 lo, hi;	/* bit patterns for unsigned types */
};

#include "sig.h"

#define ASSAY_GUARD	64	/* bytes of pattern before and after a buffer */
#define ASSAY_SLACK	64	/* room to misalign a buffer's start */
#define ASSAY_SHOWN	10	/* mismatch lines printed, at most */
#define ASSAY_CALL_S	2	/* a call that takes longer hangs */
#define ASSAY_NOISE	0.03	/* timing differences below are noise */
#define ASSAY_ROUNDS	31	/* interleaved timing rounds */
#define ASSAY_BATCH_NS	1000000	/* a timed batch lasts at least this */

/* abi.s: canaries around a call of fn; reps calls of fn. */
uint64_t assay_abi_call(const void *fn, const uint64_t *args, uint64_t *bad);
uint64_t assay_time_calls(const void *fn, uint64_t *args, long reps,
	    uint64_t mask, void (*change)(uint64_t *args));

static uint64_t assay_call_ref(const uint64_t *v)
    __attribute__((noipa, aligned(64)));
static const void *assay_ref_addr(void);
#ifdef ASSAY_WORKER
static uint64_t assay_call_cand(const uint64_t *v)
    __attribute__((noipa, aligned(64)));
static const void *assay_cand_addr(void);
#endif

#ifdef ASSAY_CHECKER
static char	 assay_secret[64];	/* the checker's alone */
#endif
static uint64_t	 assay_rng;
static const int assay_len = ASSAY_LEN;	/* -1: no length parameter */

/* Where a signal found us: which function ran, in which case. */
static volatile sig_atomic_t assay_in;	/* 0 harness, 1 ref, 2 candidate */
static volatile sig_atomic_t assay_sig;
static sigjmp_buf assay_jmp;

struct assay_buf {
	unsigned char	*base;		/* mapping: guard, data, guard */
	unsigned char	*data;		/* the array the function sees */
	size_t		 cap;		/* bytes of the mapping */
};

/* One parameter's storage for both functions, and the clean input. */
struct assay_arg {
	struct assay_buf ref, cand;
	unsigned char	*input;		/* what both get before the call */
};

static void
assay_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
assay_say(const char *fmt, ...)
{
	va_list ap;

#ifdef ASSAY_CHECKER
	printf("%s ", assay_secret);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
#else
	/* The candidate's process has no secret: what it says is not a
	 * result, and goes where the candidate's own output goes. */
	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
#endif
}

/* splitmix64: small, seeded, the same sequence on every machine. */
static uint64_t
assay_next(void)
{
	uint64_t z = (assay_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t
assay_size(enum assay_type t)
{
	static const size_t sz[] = { 0, 1, 2, 4, 8, 1, 2, 4, 8, 8 };

	return sz[t];
}

static int
assay_signed(enum assay_type t)
{
	return t >= ASSAY_T_I8 && t <= ASSAY_T_I64;
}

/* A value cut to type t, sign- or zero-extended back to 64 bits. */
static uint64_t
assay_norm(enum assay_type t, uint64_t v)
{
	size_t bits = assay_size(t) * 8;

	if (bits == 0 || bits == 64)
		return v;
	v &= (UINT64_C(1) << bits) - 1;
	if (assay_signed(t) && (v >> (bits - 1)) != 0)
		v |= ~((UINT64_C(1) << bits) - 1);
	return v;
}

static uint64_t
assay_min(enum assay_type t)
{
	size_t bits = assay_size(t) * 8;

	return assay_signed(t) ? assay_norm(t, UINT64_C(1) << (bits - 1)) : 0;
}

static uint64_t
assay_max(enum assay_type t)
{
	size_t bits = assay_size(t) * 8;

	if (assay_signed(t))
		return (UINT64_C(1) << (bits - 1)) - 1;
	return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static void
assay_print(char *buf, size_t n, enum assay_type t, uint64_t v)
{
	if (assay_signed(t))
		snprintf(buf, n, "%" PRId64, (int64_t)assay_norm(t, v));
	else
		snprintf(buf, n, "%" PRIu64, assay_norm(t, v));
}

/* Value modes: how a case fills its arrays and picks its scalars. */
enum assay_mode { M_RANDOM, M_MAX, M_MIN, M_EXTREMES, M_SMALL, M_NMODES };

static const char *const assay_modes[] = { "random", "all max", "all min",
	"min/max alternating", "small" };

/* Is v (normalised to t) within [lo, hi] in t's order? */
static int
assay_within(enum assay_type t, uint64_t v, uint64_t lo, uint64_t hi)
{
	if (assay_signed(t))
		return (int64_t)v >= (int64_t)lo && (int64_t)v <= (int64_t)hi;
	return v >= lo && v <= hi;
}

/* A value of p's type (or its elements') in mode m, within its range. */
static uint64_t
assay_value(const struct assay_param *p, enum assay_mode m, size_t i)
{
	enum assay_type t = p->type;
	uint64_t lo = p->ranged ? (uint64_t)p->lo : assay_min(t);
	uint64_t hi = p->ranged ? (uint64_t)p->hi : assay_max(t);
	uint64_t span = hi - lo, r = assay_next(), v;

	switch (m) {
	case M_MAX:
		return hi;
	case M_MIN:
		return lo;
	case M_EXTREMES:
		return i % 2 == 0 ? lo : hi;
	case M_SMALL:
		/* -3..3 (0..6 unsigned), or anywhere in a range without
		 * them. */
		v = (uint64_t)((int64_t)(r % 7) - (assay_signed(t) ? 3 : 0));
		if (assay_within(t, v, lo, hi))
			return v;
		return span == UINT64_MAX ? r : lo + r % (span + 1);
	default:
		/* A few edge values, else uniform in the range. */
		switch (r % 16) {
		case 0:
			return lo;
		case 1:
			return hi;
		case 2:
			return assay_within(t, 0, lo, hi) ? 0 : lo;
		default:
			r = assay_next();
			return span == UINT64_MAX ? r : lo + r % (span + 1);
		}
	}
}

static void
assay_store(unsigned char *p, enum assay_type t, uint64_t v)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	switch (assay_size(t)) {
	case 1:
		memcpy(p, &b, 1);
		break;
	case 2:
		memcpy(p, &h, 2);
		break;
	case 4:
		memcpy(p, &w, 4);
		break;
	default:
		memcpy(p, &v, 8);
	}
}

static uint64_t
assay_load(const unsigned char *p, enum assay_type t)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t v;

	switch (assay_size(t)) {
	case 1:
		memcpy(&b, p, 1);
		return assay_norm(t, b);
	case 2:
		memcpy(&h, p, 2);
		return assay_norm(t, h);
	case 4:
		memcpy(&w, p, 4);
		return assay_norm(t, w);
	default:
		memcpy(&v, p, 8);
		return v;
	}
}

static void
assay_buf_init(struct assay_buf *b, size_t bytes)
{
	b->cap = ASSAY_GUARD + ASSAY_SLACK + bytes + ASSAY_GUARD;
	b->base = mmap(NULL, b->cap, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->base == MAP_FAILED) {
		assay_say("harness: out of memory (%zu bytes)", b->cap);
		exit(2);
	}
	b->data = b->base + ASSAY_GUARD;
}

/* The guard pattern of byte i. */
static unsigned char
assay_guard(size_t i)
{
	return (unsigned char)(0xa5 ^ (i * 29));
}

/* Fill the mapping with the guard pattern and place data at off bytes. */
static void
assay_buf_place(struct assay_buf *b, size_t off)
{
	for (size_t i = 0; i < b->cap; i++)
		b->base[i] = assay_guard(i);
	b->data = b->base + ASSAY_GUARD + off;
}

/* Bytes of the guards that changed: before and after the data. */
static void
assay_buf_guards(const struct assay_buf *b, size_t bytes, size_t *before,
    size_t *after)
{
	size_t start = (size_t)(b->data - b->base);

	*before = *after = 0;
	for (size_t i = 0; i < start; i++)
		*before += b->base[i] != assay_guard(i);
	for (size_t i = start + bytes; i < b->cap; i++)
		*after += b->base[i] != assay_guard(i);
}

static void
assay_signal(int sig)
{
	if (assay_in == 0) {
		/* Not in a function under test: the harness's own fault. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	assay_sig = sig;
	siglongjmp(assay_jmp, 1);
}

static void
assay_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
	    SIGALRM };
	stack_t ss;
	struct sigaction sa;

	/* The candidate may leave rsp anywhere: handle on a stack of our
	 * own. */
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = assay_signal;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

static void
assay_alarm(int s)
{
	struct itimerval it;

	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = s;
	setitimer(ITIMER_REAL, &it, NULL);
}

static const char *
assay_signame(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV, a bad memory access";
	case SIGBUS:
		return "SIGBUS, a misaligned or bad access";
	case SIGILL:
		return "SIGILL, an instruction this CPU does not have";
	case SIGFPE:
		return "SIGFPE, a division by zero or overflow";
	case SIGTRAP:
		return "SIGTRAP, a breakpoint";
	default:
		return "a signal";
	}
}

/* --- the cases ------------------------------------------------------- */

struct assay_case {
	int		 index;
	size_t		 n;		/* elements of every array */
	enum assay_mode	 mode;
	size_t		 misalign;	/* elements past a 64-byte boundary */
	int		 dirty;		/* garbage above 32-bit arguments */
	uint64_t	 scalar[ASSAY_NPARAMS + 1];
};

static struct assay_arg assay_args[ASSAY_NPARAMS + 1];

static size_t
assay_bytes(const struct assay_param *p, size_t n)
{
	return p->pointer ? n * assay_size(p->type) : 0;
}

/* The length's range: [lo, hi] of the length parameter, else [0, max]. */
static void
assay_len_range(uint64_t *lo, uint64_t *hi, uint64_t max)
{
	*lo = 0;
	*hi = max;
	if (assay_len >= 0 && assay_params[assay_len].ranged) {
		*lo = (uint64_t)assay_params[assay_len].lo;
		*hi = (uint64_t)assay_params[assay_len].hi;
		if (*hi > max)
			*hi = max;
		if (*lo > *hi)
			*lo = *hi;
	}
}

/*
 * Case k: the first 8 * M_NMODES cases take n = 0..7 (from the length's
 * lower bound) in every mode; then random lengths, half of them short.
 */
static void
assay_case_make(struct assay_case *c, int k, size_t max_n)
{
	uint64_t lo, hi;

	memset(c, 0, sizeof *c);
	c->index = k;
	assay_len_range(&lo, &hi, max_n);
	if (k < 8 * M_NMODES) {
		c->n = (size_t)(lo + (uint64_t)(k % 8));
		if (c->n > hi)
			c->n = (size_t)hi;
		c->mode = (enum assay_mode)(k / 8);
	} else {
		uint64_t r = assay_next(), top = hi;

		if (r % 2 == 0 && top > lo + 64)
			top = lo + 64;
		c->n = (size_t)(lo + assay_next() % (top - lo + 1));
		c->mode = r % 5 == 0 ? (enum assay_mode)(assay_next() %
		    M_NMODES) : M_RANDOM;
		c->dirty = k % 4 == 3;
	}
	c->misalign = (size_t)(k % 4);
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];

		if (i == assay_len)
			c->scalar[i] = c->n;
		else if (!p->pointer)
			c->scalar[i] = assay_norm(p->type,
			    assay_value(p, c->mode, 0));
	}
}

/* Fill the input arrays of case c and place both functions' copies. */
static void
assay_case_fill(const struct assay_case *c)
{
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];
		struct assay_arg *a = &assay_args[i];
		size_t sz = assay_size(p->type), bytes = assay_bytes(p, c->n);

		if (!p->pointer)
			continue;
		for (size_t e = 0; e < c->n; e++)
			assay_store(a->input + e * sz, p->type,
			    assay_value(p, c->mode, e));
		assay_buf_place(&a->ref, c->misalign * sz);
		assay_buf_place(&a->cand, c->misalign * sz);
		memcpy(a->ref.data, a->input, bytes);
		memcpy(a->cand.data, a->input, bytes);
	}
}

/* The argument registers of case c for the reference (clean) or the
 * candidate (with garbage above 32-bit values when dirty). */
static void
assay_case_args(const struct assay_case *c, int cand, uint64_t *v)
{
	for (int i = 0; i < 6; i++)
		v[i] = 0;
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];

		if (p->pointer) {
			const struct assay_buf *b = cand ? &assay_args[i].cand :
			    &assay_args[i].ref;

			v[i] = (uint64_t)(uintptr_t)b->data;
		} else if (cand && c->dirty && assay_size(p->type) <= 4) {
			/* The ABI leaves bits 32-63 undefined: the callee
			 * must not read them. */
			v[i] = (c->scalar[i] & 0xffffffffu) |
			    (UINT64_C(0xdead5a5a) << 32);
		} else {
			v[i] = c->scalar[i];
		}
	}
}

/* "n=3 k=-1": the scalar arguments of a case. */
static void
assay_case_scalars(const struct assay_case *c, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < ASSAY_NPARAMS && len + 1 < n; i++) {
		char v[32];

		if (assay_params[i].pointer)
			continue;
		assay_print(v, sizeof v, assay_params[i].type, c->scalar[i]);
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s",
		    len > 0 ? " " : "", assay_params[i].name, v);
	}
	if (len >= n)
		buf[n - 1] = '\0';
}

/* " a={1,2,3}": the input arrays of a short case, for the feedback. */
static void
assay_case_inputs(const struct assay_case *c, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	if (c->n > 8)
		return;
	for (int i = 0; i < ASSAY_NPARAMS && len + 1 < n; i++) {
		const struct assay_param *p = &assay_params[i];

		if (!p->pointer)
			continue;
		len += (size_t)snprintf(buf + len, n - len, " %s={", p->name);
		for (size_t e = 0; e < c->n && len + 1 < n; e++) {
			char v[32];

			assay_print(v, sizeof v, p->type,
			    assay_load(assay_args[i].input + e *
			    assay_size(p->type), p->type));
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
			    e > 0 ? "," : "", v);
		}
		if (len + 1 < n)
			len += (size_t)snprintf(buf + len, n - len, "}");
	}
	if (len >= n)
		buf[n - 1] = '\0';
}

#define ASSAY_CEX_ELEMS	16	/* array elements a counterexample lists */

static int	assay_cex_said;	/* the counterexample line went out */

/*
 * The first failing case, once, as one line the judge reads into the
 * run's counterexample (docs/envs/x86-asm.md, "Counterexample"):
 *   COUNTEREXAMPLE {"case":K,"mode":"random","dirty":false,"n":N,
 *     "inputs":{"x":"5","a":"{1,2,3}"},"at":"return","reference":"12",
 *     "candidate":"0"}
 * Every value a string of digits (a uint64_t fits no JSON integer of
 * the judge's), an array its first ASSAY_CEX_ELEMS inputs in braces with
 * "..." after them; names are the signature's C identifiers, so nothing
 * needs escaping.  ref is NULL where the candidate gave no result (it
 * crashed, hung or wrote outside its array: at says which).
 */
static void
assay_cex(const struct assay_case *c, const char *at, const char *ref,
    const char *cand)
{
	char line[4096];
	size_t len = 0;
	int first = 1;

	if (assay_cex_said++)
		return;
#define CEX_ADD(...) do {						\
	if (len < sizeof line)						\
		len += (size_t)snprintf(line + len, sizeof line - len,	\
		    __VA_ARGS__);					\
} while (0)
	CEX_ADD("{\"case\":%d,\"mode\":\"%s\",\"dirty\":%s", c->index,
	    assay_modes[c->mode], c->dirty ? "true" : "false");
	if (assay_len >= 0)
		CEX_ADD(",\"n\":%zu", c->n);
	CEX_ADD(",\"inputs\":{");
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];
		char v[32];

		CEX_ADD("%s\"%s\":\"", first ? "" : ",", p->name);
		first = 0;
		if (!p->pointer) {
			assay_print(v, sizeof v, p->type, c->scalar[i]);
			CEX_ADD("%s\"", v);
			continue;
		}
		CEX_ADD("{");
		for (size_t e = 0; e < c->n && e < ASSAY_CEX_ELEMS; e++) {
			assay_print(v, sizeof v, p->type,
			    assay_load(assay_args[i].input + e *
			    assay_size(p->type), p->type));
			CEX_ADD("%s%s", e > 0 ? "," : "", v);
		}
		CEX_ADD("%s}\"", c->n > ASSAY_CEX_ELEMS ? ",..." : "");
	}
	CEX_ADD("},\"at\":\"%s\"", at);
	if (ref != NULL)
		CEX_ADD(",\"reference\":\"%s\"", ref);
	CEX_ADD(",\"candidate\":\"%s\"}", cand);
#undef CEX_ADD
	if (len < sizeof line)
		assay_say("COUNTEREXAMPLE %s", line);
}

static const char *const assay_regs[] = { "rbx", "rbp", "r12", "r13", "r14",
	"r15", "rsp", "df", "stack" };
#define ASSAY_NREGS (sizeof assay_regs / sizeof assay_regs[0])

/* What each bit of abi.s's mask means, for a person. */
static const char *const assay_reg_what[] = { "callee-saved rbx",
	"callee-saved rbp", "callee-saved r12", "callee-saved r13",
	"callee-saved r14", "callee-saved r15",
	"rsp (not restored on return)", "the direction flag (left set)",
	"the caller's stack above the return address" };

struct assay_tally {
	long		 cases, mismatches, crashes, hangs, shown;
	uint64_t	 clobbered;	/* every register any call clobbered */
};

/*
 * Compare the two functions' results of case c: the return value, every
 * array (a const one must not change), the guards.  Returns 1 when the
 * candidate differs, after printing the first difference (while fewer
 * than ASSAY_SHOWN lines went out).
 */
static int
assay_case_compare(const struct assay_case *c, uint64_t rr, uint64_t rc,
    struct assay_tally *t)
{
	char sc[256], in[512], rv[32], cv[32], where[128];
	int bad = 0;

	where[0] = '\0';
	if (ASSAY_RET != ASSAY_T_VOID && assay_norm(ASSAY_RET, rr) !=
	    assay_norm(ASSAY_RET, rc)) {
		assay_print(rv, sizeof rv, ASSAY_RET, rr);
		assay_print(cv, sizeof cv, ASSAY_RET, rc);
		bad = 1;
	}
	for (int i = 0; i < ASSAY_NPARAMS && !bad; i++) {
		const struct assay_param *p = &assay_params[i];
		const struct assay_arg *a = &assay_args[i];
		size_t sz = assay_size(p->type), before, after;

		if (!p->pointer)
			continue;
		for (size_t e = 0; e < c->n; e++) {
			uint64_t x = assay_load(a->ref.data + e * sz, p->type);
			uint64_t y = assay_load(a->cand.data + e * sz, p->type);

			if (x == y)
				continue;
			assay_print(rv, sizeof rv, p->type, x);
			assay_print(cv, sizeof cv, p->type, y);
			snprintf(where, sizeof where, " %s[%zu]%s", p->name, e,
			    p->is_const ? " (a const input, changed)" : "");
			bad = 1;
			break;
		}
		if (bad)
			break;
		assay_buf_guards(&a->cand, assay_bytes(p, c->n), &before,
		    &after);
		if (before + after > 0) {
			snprintf(where, sizeof where, " %s: wrote %zu bytes"
			    " %s the array", p->name, after > 0 ? after :
			    before, after > 0 ? "past the end of" :
			    "before the start of");
			bad = 2;
		}
	}
	if (!bad)
		return 0;
	t->mismatches++;
	if (bad == 2)
		assay_cex(c, "guard zone", NULL, where + 1);
	else
		assay_cex(c, where[0] != '\0' ? where + 1 : "return", rv, cv);
	if (t->shown++ >= ASSAY_SHOWN)
		return 1;
	assay_case_scalars(c, sc, sizeof sc);
	assay_case_inputs(c, in, sizeof in);
	if (bad == 2)
		assay_say("MISMATCH %s%s%s (case %d%s)", sc, where, in,
		    c->index, c->dirty ? ", garbage in the upper halves of"
		    " 32-bit arguments, as the ABI allows" : "");
	else
		assay_say("MISMATCH %s%s ref=%s asm=%s%s (case %d, %s%s)", sc,
		    where, rv, cv, in, c->index, assay_modes[c->mode],
		    c->dirty ? ", garbage in the upper halves of 32-bit"
		    " arguments, as the ABI allows" : "");
	return 1;
}

/* Run the reference on case c; exits 3 when it crashes or hangs. */
static uint64_t
assay_case_ref(const struct assay_case *c, const uint64_t *v)
{
	uint64_t r;
	char sc[256];

	if (sigsetjmp(assay_jmp, 1) != 0) {
		assay_alarm(0);
		assay_in = 0;
		assay_case_scalars(c, sc, sizeof sc);
		assay_say("REFERENCE %s %s (case %d): the task's reference is"
		    " at fault", sc, assay_sig == SIGALRM ? "did not return" :
		    assay_signame(assay_sig), c->index);
		exit(3);
	}
	assay_in = 1;
	assay_alarm(ASSAY_CALL_S);
	r = assay_call_ref(v);
	assay_alarm(0);
	assay_in = 0;
	return r;
}

static void
assay_abi_report(uint64_t bad, const struct assay_case *c,
    struct assay_tally *t)
{
	char sc[256], list[256];
	size_t len = 0;
	uint64_t fresh = bad & ~t->clobbered;

	t->clobbered |= bad;
	if (fresh == 0)
		return;
	list[0] = '\0';
	for (size_t r = 0; r < ASSAY_NREGS; r++)
		if (fresh & (UINT64_C(1) << r))
			len += (size_t)snprintf(list + len, sizeof list - len,
			    "%s%s", len > 0 ? ", " : "", assay_reg_what[r]);
	assay_case_scalars(c, sc, sizeof sc);
	assay_say("ABI asm clobbered %s (%s, case %d)", list, sc[0] != '\0' ?
	    sc : "no scalars", c->index);
}

/*
 * The timing input as a case: time_n elements (clipped to the length's
 * range), random values, 64-byte aligned, both sides filled.
 */
static void
assay_time_case(struct assay_case *c)
{
	uint64_t lo, hi;

	assay_rng = ASSAY_SEED ^ 0x74696d65ULL;
	assay_case_make(c, 8 * M_NMODES, ASSAY_TIME_N);
	assay_len_range(&lo, &hi, ASSAY_TIME_N);
	c->n = (size_t)hi;
	c->mode = M_RANDOM;
	c->misalign = 0;
	c->dirty = 0;
	if (assay_len >= 0)
		c->scalar[assay_len] = c->n;
	assay_case_fill(c);
}
/* --- the two processes ------------------------------------------------ */

/*
 * The candidate's code runs only in bench (ASSAY_WORKER), a process of
 * its own that holds no secret and prints no result: it answers the
 * checker's requests, on fd 3, with raw results, on fd 4.  check
 * (ASSAY_CHECKER), which has no candidate code in it, reads the secret,
 * runs the reference itself, compares, times both from outside and
 * prints every result line.  The reference's timing runs in a process of
 * its own too (a fork of the checker), so that both sides are measured
 * alike.
 */
enum assay_op {
	ASSAY_OP_CASE = 1,	/* arg: the case; ASSAY_CASES the timing one */
	ASSAY_OP_TIME_SETUP,	/* fill the timing input */
	ASSAY_OP_BATCH,		/* arg calls on the timing input */
	ASSAY_OP_TIME_BUFS	/* the timing input's arrays, as they are */
};

struct assay_cmd {
	uint32_t	 op, pad;
	int64_t		 arg;
	uint64_t	 seed;	/* ASSAY_OP_BATCH: the changes' (both sides) */
};

/* status: 0 returned (ret, bad), 1 crashed (sig), 2 did not return. */
struct assay_reply {
	int32_t		 status, sig;
	uint64_t	 ret, bad;
};

static int
assay_read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, (char *)p + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

static int
assay_write_full(int fd, const void *p, size_t n)
{
	size_t put = 0;

	while (put < n) {
		ssize_t k = write(fd, (const char *)p + put, n - put);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		put += (size_t)k;
	}
	return 0;
}

/* The timing input's arguments: the reference's buffers and the
 * candidate's, both filled with the same input. */
static uint64_t assay_tv[6], assay_tv_cand[6];
static uint64_t assay_ret_mask;	/* the return type's bits; 0 for void */

/* The timing input, in both sides' buffers. */
static void
assay_time_input(void)
{
	struct assay_case c;
	size_t bits = assay_size(ASSAY_RET) * 8;

	assay_time_case(&c);
	assay_case_args(&c, 0, assay_tv);
	assay_case_args(&c, 1, assay_tv_cand);
	assay_ret_mask = bits == 0 ? 0 : bits == 64 ? ~UINT64_C(0) :
	    (UINT64_C(1) << bits) - 1;
}

/* Elements of every array of the timing input. */
static size_t
assay_time_elems(void)
{
	return assay_len >= 0 ? (size_t)assay_tv[assay_len] :
	    (size_t)ASSAY_TIME_N;
}

/*
 * Between timed calls the input changes (assay_time_calls() calls
 * assay_change() before each): one element of every array, at a place
 * and with a value drawn from the batch's seed, which the checker draws
 * from getrandom() and sends both sides alike, and every scalar but the
 * length, to a value drawn uniformly from its range.  So no timed call
 * sees the input of the call before it, a candidate that remembers an
 * answer for an input that looks the same (its address, its length, a
 * few elements) answers wrongly within a batch, and every answer is
 * compared (the fold, and the arrays at the end).  An array's values
 * come from a pool drawn once, from the task's seed, from the values a
 * random case draws (in the range); a scalar's are drawn afresh, so that
 * no table of a few hundred answers covers them.  The change costs the
 * same few instructions on both sides.
 */
#define ASSAY_POOL	256	/* values a parameter's pool holds */

static uint64_t	assay_pool[ASSAY_NPARAMS + 1][ASSAY_POOL];
static uint64_t	assay_lo[ASSAY_NPARAMS + 1];	/* a scalar's range: */
static uint64_t	assay_span[ASSAY_NPARAMS + 1];	/* hi - lo + 1, 0 all */
static uint64_t	assay_change_x;	/* the changes' state (xorshift64) */
static int	assay_change_on;	/* anything to change */

/* The pools of every parameter but the length. */
static void
assay_change_setup(void)
{
	uint64_t keep = assay_rng;

	assay_rng = ASSAY_SEED ^ 0x6368616e6765ULL;
	assay_change_on = 0;
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];

		if (i == assay_len)
			continue;
		assay_lo[i] = p->ranged ? (uint64_t)p->lo : assay_min(p->type);
		assay_span[i] = (p->ranged ? (uint64_t)p->hi :
		    assay_max(p->type)) - assay_lo[i] + 1;
		for (int k = 0; k < ASSAY_POOL; k++)
			assay_pool[i][k] = assay_norm(assay_params[i].type,
			    assay_value(&assay_params[i], M_RANDOM,
			    (size_t)k));
		assay_change_on = 1;
	}
	assay_rng = keep;
}

/* Before each timed call: the input changes (above). */
static void
assay_change(uint64_t *args)
{
	uint64_t x = assay_change_x, n = assay_time_elems();

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	assay_change_x = x;
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_param *p = &assay_params[i];
		uint64_t v = assay_pool[i][x % ASSAY_POOL];

		if (i == assay_len) {
			continue;
		} else if (!p->pointer) {
			/* lo + x * span / 2^64: uniform in [lo, hi]. */
			args[i] = assay_norm(p->type, assay_span[i] == 0 ? x :
			    assay_lo[i] + (uint64_t)(((unsigned __int128)x *
			    assay_span[i]) >> 64));
		} else if (n > 0) {
			size_t at = (size_t)(((x >> 32) * (n & 0xffffffffu))
			    >> 32);

			assay_store((unsigned char *)(uintptr_t)args[i] +
			    at * assay_size(p->type), p->type, v);
		}
		x = (x << 23) | (x >> 41);
	}
}

/*
 * Answer requests from in on out until in ends: fn on side's buffers (1
 * the candidate's, with garbage above 32-bit arguments where a case has
 * it; 0 the reference's).  Faults and hangs of fn are caught and
 * reported; the caller exits when this returns.
 */
static void
assay_serve(const void *fn, int side, int in, int out)
{
	static struct assay_reply r;	/* static: kept over a longjmp */
	static struct assay_case c;
	static uint64_t v[6];
	struct assay_cmd cmd;

	assay_rng = ASSAY_SEED;
	while (assay_read_full(in, &cmd, sizeof cmd) == 0) {
		memset(&r, 0, sizeof r);
		switch (cmd.op) {
		case ASSAY_OP_CASE:
			if (cmd.arg == ASSAY_CASES) {
				assay_time_case(&c);
			} else {
				assay_case_make(&c, (int)cmd.arg, ASSAY_MAX_N);
				assay_case_fill(&c);
			}
			assay_case_args(&c, side, v);
			if (sigsetjmp(assay_jmp, 1) != 0) {
				assay_alarm(0);
				assay_in = 0;
				r.status = assay_sig == SIGALRM ? 2 : 1;
				r.sig = assay_sig;
				r.ret = r.bad = 0;
			} else {
				assay_in = 2;
				assay_alarm(ASSAY_CALL_S);
				r.ret = assay_abi_call(fn, v, &r.bad);
				assay_alarm(0);
				assay_in = 0;
			}
			if (assay_write_full(out, &r, sizeof r) < 0)
				return;
			/* Each array's whole mapping: data and guards. */
			for (int i = 0; r.status == 0 && i < ASSAY_NPARAMS;
			    i++) {
				const struct assay_buf *b = side ?
				    &assay_args[i].cand : &assay_args[i].ref;

				if (assay_params[i].pointer &&
				    assay_write_full(out, b->base, b->cap) < 0)
					return;
			}
			break;
		case ASSAY_OP_TIME_SETUP:
			assay_time_input();
			assay_change_setup();
			if (assay_write_full(out, &r, sizeof r) < 0)
				return;
			break;
		case ASSAY_OP_BATCH:
			if (sigsetjmp(assay_jmp, 1) != 0) {
				assay_in = 0;
				r.status = 1;
				r.sig = assay_sig;
				r.ret = 0;
			} else {
				assay_change_x = cmd.seed | 1;
				assay_in = 2;
				r.ret = assay_time_calls(fn, side ?
				    assay_tv_cand : assay_tv, (long)cmd.arg,
				    assay_ret_mask, assay_change_on ?
				    assay_change : NULL);
				assay_in = 0;
			}
			if (assay_write_full(out, &r, sizeof r) < 0)
				return;
			break;
		case ASSAY_OP_TIME_BUFS:
			if (assay_write_full(out, &r, sizeof r) < 0)
				return;
			for (int i = 0; i < ASSAY_NPARAMS; i++) {
				const struct assay_buf *b = side ?
				    &assay_args[i].cand : &assay_args[i].ref;

				if (assay_params[i].pointer &&
				    assay_write_full(out, b->data,
				    assay_bytes(&assay_params[i],
				    assay_time_elems())) < 0)
					return;
			}
			break;
		default:
			return;
		}
	}
}

#ifdef ASSAY_CHECKER

/* A process that runs a function for the checker. */
struct assay_worker {
	pid_t		 pid;
	int		 to, from;	/* requests, replies */
	int		 hung;		/* it took too long and was killed */
	char		 why[160];	/* how it ended, once it has */
};

static struct assay_worker assay_cw = { -1, -1, -1, 0, "" };	/* bench */
static struct assay_worker assay_rw = { -1, -1, -1, 0, "" };	/* ref */
static uint64_t assay_batch_seed;	/* the next batches' changes */

/* Wait for w to end and say how in w->why. */
static void
assay_reap(struct assay_worker *w)
{
	int st = 0;

	if (w->to >= 0)
		close(w->to);
	if (w->from >= 0)
		close(w->from);
	w->to = w->from = -1;
	if (w->pid <= 0)
		return;
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	w->pid = -1;
	if (w->hung)
		snprintf(w->why, sizeof w->why, "did not answer within %d s",
		    ASSAY_CALL_S + 3);
	else if (WIFSIGNALED(st))
		snprintf(w->why, sizeof w->why, "ended: it was killed by"
		    " signal %d (%s)",
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		snprintf(w->why, sizeof w->why, "could not be started");
	else
		snprintf(w->why, sizeof w->why, "ended: it exited with"
		    " status %d",
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static int
assay_send(struct assay_worker *w, enum assay_op op, int64_t arg)
{
	struct assay_cmd cmd;

	if (w->to < 0)
		return -1;
	memset(&cmd, 0, sizeof cmd);
	cmd.op = op;
	cmd.arg = arg;
	cmd.seed = assay_batch_seed;
	if (assay_write_full(w->to, &cmd, sizeof cmd) < 0) {
		kill(w->pid, SIGKILL);
		assay_reap(w);
		return -1;
	}
	return 0;
}

/* n bytes from w, each read within ms (-1: no limit); -1 when w ended
 * or was too slow (then it is killed and reaped). */
static int
assay_recv(struct assay_worker *w, void *p, size_t n, int ms)
{
	size_t got = 0;

	while (got < n && w->from >= 0) {
		struct pollfd pfd = { w->from, POLLIN, 0 };
		int k = poll(&pfd, 1, ms);
		ssize_t r;

		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0) {
			w->hung = 1;
			break;
		}
		r = read(w->from, (char *)p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got == n)
		return 0;
	if (w->pid > 0)
		kill(w->pid, SIGKILL);
	assay_reap(w);
	return -1;
}

/*
 * The candidate's process, and every process it starts, may signal
 * itself only, and may not ask for SIGIO or SIGURG to be sent elsewhere
 * (a stopped reference would time slow).  Added to the sandbox's own
 * filter; it cannot be lifted.  Exits 126 when it cannot be loaded.
 */
static void
assay_child_filter(void)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	scmp_datum_t me = (scmp_datum_t)getpid();
	const int self[] = { SCMP_SYS(kill), SCMP_SYS(tgkill),
	    SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo) };
	const char *const never[] = { "tkill", "pidfd_open",
	    "pidfd_send_signal", "pidfd_getfd" };
	int rc = f == NULL ? -1 : 0;

	for (size_t i = 0; rc == 0 && i < sizeof self / sizeof self[0]; i++)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), self[i], 1,
		    SCMP_A0(SCMP_CMP_NE, me));
	for (size_t i = 0; rc == 0 && i < sizeof never / sizeof never[0];
	    i++) {
		int nr = seccomp_syscall_resolve_name(never[i]);

		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), nr, 0);
	}
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, F_SETOWN));
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, F_SETOWN_EX));
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, F_SETSIG));
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, FIOSETOWN));
	if (rc == 0)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, SIOCSPGRP));
	if (rc != 0 || seccomp_load(f) != 0)
		_exit(126);
	seccomp_release(f);
}

/* The candidate's output (fd 1 and 2 of bench), never the checker's. */
#define ASSAY_CAND_LOG	"candidate.log"

/* Close every fd from lo up. */
static void
assay_close_from(int lo)
{
	struct rlimit rl;

	if (syscall(SYS_close_range, lo, ~0U, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur > 65536)
		rl.rlim_cur = 65536;
	for (int fd = lo; fd < (int)rl.rlim_cur; fd++)
		close(fd);
}

/*
 * In a child: stdin /dev/null, stdout and stderr the candidate's log, fd
 * 3 and up the fds of fds[] (n of them), nothing else open.
 */
static void
assay_child_fds(const int *fds, int n)
{
	int hi[8], nul = open("/dev/null", O_RDONLY);
	int log = open(ASSAY_CAND_LOG, O_WRONLY | O_CREAT | O_APPEND, 0600);

	if (nul < 0)
		_exit(126);
	if (log < 0)
		log = open("/dev/null", O_WRONLY);
	for (int i = 0; i < n; i++)
		hi[i] = fcntl(fds[i], F_DUPFD, 64);
	nul = fcntl(nul, F_DUPFD, 64);
	log = fcntl(log, F_DUPFD, 64);
	if (dup2(nul, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
		_exit(126);
	for (int i = 0; i < n; i++)
		if (hi[i] < 0 || dup2(hi[i], 3 + i) < 0)
			_exit(126);
	assay_close_from(3 + n);
}

/* Start bench (the candidate) as a worker, under the child filter. */
static int
assay_start_cand(struct assay_worker *w)
{
	int req[2], rep[2];

	if (pipe2(req, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (w->pid == 0) {
		int fds[2] = { req[0], rep[1] };

		assay_child_fds(fds, 2);
		assay_child_filter();
		execl("./bench", "bench", "worker", (char *)NULL);
		_exit(127);
	}
	close(req[0]);
	close(rep[1]);
	w->to = req[1];
	w->from = rep[0];
	return 0;
}

/* Fork the reference's worker: the checker's code, never the secret
 * (called before it is read). */
static int
assay_start_ref(struct assay_worker *w)
{
	int req[2], rep[2];

	if (pipe2(req, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (w->pid == 0) {
		int fds[2] = { req[0], rep[1] };

		assay_child_fds(fds, 2);
		assay_serve(assay_ref_addr(), 0, 3, 4);
		_exit(0);
	}
	close(req[0]);
	close(rep[1]);
	w->to = req[1];
	w->from = rep[0];
	return 0;
}

/*
 * A reply no worker loop writes (the candidate wrote to its end of the
 * pipe): w is killed and says so.  1 when malformed.
 */
static int
assay_malformed(struct assay_worker *w, const struct assay_reply *r)
{
	int ok = r->status == 0 || r->status == 2 || (r->status == 1 &&
	    (r->sig == SIGSEGV || r->sig == SIGBUS || r->sig == SIGILL ||
	    r->sig == SIGFPE || r->sig == SIGTRAP || r->sig == SIGALRM));

	if (ok && r->bad < (UINT64_C(1) << ASSAY_NREGS))
		return 0;
	kill(w->pid, SIGKILL);
	assay_reap(w);
	snprintf(w->why, sizeof w->why, "was stopped: it sent a reply the"
	    " harness never writes (the candidate wrote to the harness's"
	    " pipe)");
	return 1;
}

/*
 * Run the candidate on case c in its process.  0 when it returned
 * (*out, *bad, and its arrays in assay_args[].cand), 1 when it crashed
 * (counted and shown), 2 when it hung or its process ended (the check
 * stops).
 */
static int
assay_case_cand(const struct assay_case *c, uint64_t *out, uint64_t *bad,
    struct assay_tally *t)
{
	struct assay_reply r;
	char sc[256], in[512], why[200];
	int how = 0;

	memset(&r, 0, sizeof r);
	if (assay_send(&assay_cw, ASSAY_OP_CASE, c->index) < 0 ||
	    assay_recv(&assay_cw, &r, sizeof r, (ASSAY_CALL_S + 3) * 1000) <
	    0 || assay_malformed(&assay_cw, &r))
		how = 3;
	for (int i = 0; how == 0 && r.status == 0 && i < ASSAY_NPARAMS; i++)
		if (assay_params[i].pointer && assay_recv(&assay_cw,
		    assay_args[i].cand.base, assay_args[i].cand.cap,
		    (ASSAY_CALL_S + 3) * 1000) < 0)
			how = 3;
	if (how == 0 && r.status == 0) {
		*out = r.ret;
		*bad = r.bad;
		return 0;
	}
	if (how == 0)
		how = r.status == 2 ? 2 : 1;
	if (how == 3 && assay_cw.hung)
		how = 2;
	t->mismatches++;
	t->crashes++;
	t->hangs += how == 2;
	assay_case_scalars(c, sc, sizeof sc);
	assay_case_inputs(c, in, sizeof in);
	if (how == 1)
		snprintf(why, sizeof why, "%s", assay_signame(r.sig));
	else if (how == 2)
		snprintf(why, sizeof why, "did not return within %d s",
		    ASSAY_CALL_S);
	else
		snprintf(why, sizeof why, "the candidate's process %s",
		    assay_cw.why);
	assay_cex(c, how == 2 ? "hang" : "crash", NULL, why);
	if (t->shown++ < ASSAY_SHOWN || how != 1)
		assay_say("%s %s%s: %s (case %d%s)", how == 2 ? "HANG" :
		    "CRASH", sc, in, why, c->index, c->dirty ? ", garbage in"
		    " the upper halves of 32-bit arguments, as the ABI allows" :
		    "");
	return how == 1 ? 1 : 2;
}

static int
assay_check(void)
{
	struct assay_tally t;
	struct assay_case c;
	uint64_t vr[6];

	memset(&t, 0, sizeof t);
	for (int k = 0; k < ASSAY_CASES; k++) {
		uint64_t rr, rc = 0, bad = 0;
		int how;

		assay_case_make(&c, k, ASSAY_MAX_N);
		assay_case_fill(&c);
		assay_case_args(&c, 0, vr);
		rr = assay_case_ref(&c, vr);
		t.cases++;
		how = assay_case_cand(&c, &rc, &bad, &t);
		if (how == 2)
			break;		/* more cases would only hang again */
		if (how == 1)
			continue;
		assay_abi_report(bad, &c, &t);
		assay_case_compare(&c, rr, rc, &t);
	}
	/* Every input the timing uses is checked: the timing input is
	 * the last case (ASSAY_CASES + 1 in all). */
	if (t.hangs == 0 && assay_cw.pid > 0) {
		uint64_t rr, rc = 0, bad = 0;

		assay_time_case(&c);
		c.index = ASSAY_CASES;
		assay_case_args(&c, 0, vr);
		rr = assay_case_ref(&c, vr);
		t.cases++;
		if (assay_case_cand(&c, &rc, &bad, &t) == 0) {
			assay_abi_report(bad, &c, &t);
			assay_case_compare(&c, rr, rc, &t);
		}
	}
	if (t.shown > ASSAY_SHOWN)
		assay_say("... %ld more mismatches not shown",
		    t.shown - ASSAY_SHOWN);
	assay_say("equivalence: %s (%ld mismatches / %ld cases%s)",
	    t.mismatches == 0 ? "PASS" : "FAIL", t.mismatches, t.cases,
	    t.hangs > 0 ? ", a hang" : t.crashes == 1 ? ", 1 crash" :
	    t.crashes > 1 ? ", crashes" : "");
	if (t.cases == t.crashes) {
		assay_say("abi: UNCHECKED (no call returned)");
	} else if (t.clobbered == 0) {
		assay_say("abi: PASS (rbx rbp r12 r13 r14 r15 rsp df kept over"
		    " %ld calls)", t.cases - t.crashes);
	} else {
		char list[128];
		size_t len = 0;

		for (size_t r = 0; r < ASSAY_NREGS; r++)
			if (t.clobbered & (UINT64_C(1) << r))
				len += (size_t)snprintf(list + len,
				    sizeof list - len, "%s%s", len > 0 ? " " :
				    "", assay_regs[r]);
		assay_say("abi: FAIL (%s)", list);
	}
	return t.mismatches == 0 && t.clobbered == 0 ? 0 : 1;
}

/* --- timing ---------------------------------------------------------- */

static int	assay_time_bad;	/* a timed result differed */
static long	assay_time_calls_n;	/* calls of each, so far */
static int	assay_cpu = -1;	/* pinned to it; -1 not pinned */
static char	assay_time_why[240];	/* why the timing stopped */

static int64_t
assay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The timing cannot go on: say why and leave assay_time_measure(). */
static void __attribute__((noreturn))
assay_time_stop(const struct assay_worker *w, const struct assay_reply *r)
{
	const char *who = w == &assay_rw ? "the reference" : "the candidate";

	if (r != NULL)
		snprintf(assay_time_why, sizeof assay_time_why, "%s: %s", who,
		    assay_signame(r->sig));
	else
		snprintf(assay_time_why, sizeof assay_time_why, "%s's process"
		    " %s", who, w->why);
	siglongjmp(assay_jmp, w == &assay_rw ? 2 : 1);
}

/*
 * Nanoseconds for reps calls of w's function on the timing input (its
 * own buffers), measured here, outside the process that runs them;
 * *hash folds every call's return value.
 */
static int64_t __attribute__((noinline))
assay_batch(struct assay_worker *w, long reps, uint64_t *hash)
{
	struct assay_reply r;
	int64_t t0 = assay_now_ns(), t1;

	if (assay_send(w, ASSAY_OP_BATCH, reps) < 0 ||
	    assay_recv(w, &r, sizeof r, -1) < 0)
		assay_time_stop(w, NULL);
	t1 = assay_now_ns();
	if (assay_malformed(w, &r))
		assay_time_stop(w, NULL);
	if (r.status != 0)
		assay_time_stop(w, &r);
	*hash = r.ret;
	return t1 - t0;
}

/*
 * One batch of each, the reference first or not: every timed result is
 * compared (the returns, folded, and at the end the buffers), so that a
 * candidate that answers differently while it is timed fails.
 */
static void
assay_pair(long reps, int ref_first, int64_t *a, int64_t *b)
{
	uint64_t hr, hc;

	/* Both sides change their input alike, in a way the candidate
	 * cannot know before the batch (assay_change()). */
	if (getrandom(&assay_batch_seed, sizeof assay_batch_seed, 0) !=
	    (ssize_t)sizeof assay_batch_seed)
		assay_batch_seed = (uint64_t)assay_now_ns() * 0x9e3779b97f4a7c15ULL;
	if (ref_first) {
		*a = assay_batch(&assay_rw, reps, &hr);
		*b = assay_batch(&assay_cw, reps, &hc);
	} else {
		*b = assay_batch(&assay_cw, reps, &hc);
		*a = assay_batch(&assay_rw, reps, &hr);
	}
	assay_time_calls_n += reps;
	if (hr != hc)
		assay_time_bad = 1;
}

/* Pin to the CPU we are on, as taskset -c would; the CPU's number, or
 * -1 when the affinity cannot be set.  The workers inherit it. */
static int
assay_pin(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

/*
 * One measurement: ASSAY_ROUNDS rounds, the reference and the candidate
 * alternating which goes first, the best batch of each.  Returns the
 * ratio reference / candidate (above 1: the candidate is faster).
 */
static double
assay_measure(long reps, double *ref_ns, double *cand_ns)
{
	int64_t best_r = INT64_MAX, best_c = INT64_MAX;

	for (int r = 0; r < ASSAY_ROUNDS; r++) {
		int64_t a, b;

		assay_pair(reps, r % 2 == 0, &a, &b);
		if (a < best_r)
			best_r = a;
		if (b < best_c)
			best_c = b;
	}
	if (best_r < 1)
		best_r = 1;
	if (best_c < 1)
		best_c = 1;
	*ref_ns = (double)best_r / (double)reps;
	*cand_ns = (double)best_c / (double)reps;
	return (double)best_r / (double)best_c;
}

/* A measurement's outcome. */
struct assay_timing {
	double	 ratio, ref_ns, cand_ns;
	long	 reps;
	int	 tries;
};

/* Calibrate, then measure up to three times; the best ratio in *t. */
static void __attribute__((noinline))
assay_time_measure(struct assay_timing *t)
{
	double r1, c1, ratio;
	int64_t a, b;

	/* Warm the caches and the branch predictors. */
	assay_pair(3, 1, &a, &b);
	t->reps = 1;
	for (;;) {
		assay_pair(t->reps, 1, &a, &b);
		if (t->reps >= (1L << 24) || a >= ASSAY_BATCH_NS)
			break;
		t->reps *= 2;
	}
	/* Only a verdict of "slower" rests on the ratio: measure again
	 * while it says so, and keep the best. */
	t->ratio = 0;
	t->tries = 0;
	do {
		ratio = assay_measure(t->reps, &r1, &c1);
		if (ratio > t->ratio) {
			t->ratio = ratio;
			t->ref_ns = r1;
			t->cand_ns = c1;
		}
	} while (++t->tries < 3 && t->ratio < 1 - ASSAY_NOISE);
}

/* The timing input's arrays of w, as they are now, into bufs[i]
 * (malloc'd; the caller frees).  -1 when w cannot answer. */
static int
assay_time_bufs(struct assay_worker *w, unsigned char **bufs)
{
	struct assay_reply r;

	if (assay_send(w, ASSAY_OP_TIME_BUFS, 0) < 0 ||
	    assay_recv(w, &r, sizeof r, -1) < 0)
		return -1;
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		size_t n = assay_bytes(&assay_params[i], assay_time_elems());

		if (!assay_params[i].pointer)
			continue;
		bufs[i] = malloc(n + 1);
		if (bufs[i] == NULL || assay_recv(w, bufs[i], n, -1) < 0)
			return -1;
	}
	return 0;
}

static int
assay_time(void)
{
	static struct assay_timing t;
	struct assay_case c;
	struct assay_reply r;
	unsigned char *rb[ASSAY_NPARAMS + 1], *cb[ASSAY_NPARAMS + 1];
	char sc[256], pin[32];
	int how, bad = 0;

	assay_time_input();
	if (assay_cpu >= 0)
		snprintf(pin, sizeof pin, "pinned to cpu %d", assay_cpu);
	else
		snprintf(pin, sizeof pin, "not pinned");
	if ((how = sigsetjmp(assay_jmp, 1)) != 0) {
		assay_in = 0;
		if (how == 2)
			assay_say("REFERENCE while timing: %s", assay_time_why);
		else
			assay_say("CRASH while timing: %s", assay_time_why);
		return how == 2 ? 3 : 1;
	}
	if (assay_send(&assay_rw, ASSAY_OP_TIME_SETUP, 0) < 0 ||
	    assay_recv(&assay_rw, &r, sizeof r, -1) < 0)
		assay_time_stop(&assay_rw, NULL);
	if (assay_send(&assay_cw, ASSAY_OP_TIME_SETUP, 0) < 0 ||
	    assay_recv(&assay_cw, &r, sizeof r, -1) < 0)
		assay_time_stop(&assay_cw, NULL);
	assay_time_measure(&t);
	/* The buffers after as many calls of each: the same, or the
	 * candidate answered differently while it was timed. */
	memset(rb, 0, sizeof rb);
	memset(cb, 0, sizeof cb);
	if (assay_time_bufs(&assay_rw, rb) < 0)
		assay_time_stop(&assay_rw, NULL);
	if (assay_time_bufs(&assay_cw, cb) < 0)
		assay_time_stop(&assay_cw, NULL);
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		if (assay_params[i].pointer && memcmp(rb[i], cb[i],
		    assay_bytes(&assay_params[i], assay_time_elems())) != 0)
			bad = 1;
		free(rb[i]);
		free(cb[i]);
	}
	if (assay_time_bad || bad) {
		assay_say("MISMATCH while timing: the candidate's results"
		    " differ from the reference's on the timing input (%ld"
		    " calls of each, all checked)", assay_time_calls_n);
		return 1;
	}
	memset(&c, 0, sizeof c);
	for (int i = 0; i < ASSAY_NPARAMS; i++)
		c.scalar[i] = assay_tv[i];
	assay_case_scalars(&c, sc, sizeof sc);
	assay_say("timing: ref %.1f ns/call, asm %.1f ns/call, ratio %.3f"
	    " (best of %d x %ld calls, %s%s%s, %d measurement%s)", t.ref_ns,
	    t.cand_ns, t.ratio, ASSAY_ROUNDS, t.reps, sc, sc[0] != '\0' ?
	    ", " : "", pin, t.tries, t.tries == 1 ? "" : "s");
	return 0;
}

/* --- callgrind ------------------------------------------------------- */

/* The most lines of one side "hot WHO LINE N" reports. */
#define ASSAY_HOT_MAX	8

struct assay_hot {
	long		line;
	long long	count;
};

/*
 * After valgrind's own process ended: kill whatever it left behind (the
 * checker is their subreaper, main()) and reap it.  Returns how many
 * processes were left, -1 when the kernel cannot list them (then the
 * profile is not believed either).
 */
static int
assay_kill_left(void)
{
	char path[64], buf[4096];
	int left = 0;

	snprintf(path, sizeof path, "/proc/self/task/%d/children",
	    (int)getpid());
	for (int round = 0; round < 64; round++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t k = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
		char *p, *e;

		if (fd >= 0)
			close(fd);
		if (k < 0)
			return -1;
		if (k == 0)
			return left;
		buf[k] = '\0';
		for (p = buf;; p = e) {
			long pid = strtol(p, &e, 10);

			if (e == p)
				break;
			if (pid > 0) {
				kill((pid_t)pid, SIGKILL);
				while (waitpid((pid_t)pid, NULL, __WALL) < 0 &&
				    errno == EINTR)
					;
				left++;
			}
		}
	}
	return left > 0 ? left : -1;	/* still forking: never believed */
}

/* Hottest first, then by line. */
static int
assay_hot_cmp(const void *x, const void *y)
{
	const struct assay_hot *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* A name's last component ("/tmp/x/cand.s" -> "cand.s"). */
static const char *
assay_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/*
 * callgrind's profile (--dump-line=yes --dump-instr=no, no compression)
 * in text: the self cost of every line of the file named file (by its
 * last component) into hot[] (at most ASSAY_HOT_MAX, hottest first, *nhot
 * of them), checked against total, the count valgrind's log gave: the
 * "summary:" and "totals:" lines and the sum of every self cost (call
 * lines' inclusive costs left out) must all be total.  NULL when the
 * profile adds up, else why not.
 */
static const char *
assay_profile(char *text, const char *file, long total,
    struct assay_hot *hot, int *nhot)
{
	static struct assay_hot all[4096];
	size_t nall = 0;
	long long sum = 0, summary = -1, totals = -1;
	int mine = 0, fl_mine = 0, after_call = 0;
	char *line, *save = NULL;

	*nhot = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *e;
		long ln;
		long long c;

		if (strncmp(line, "fl=", 3) == 0) {
			fl_mine = mine = strcmp(assay_base(line + 3), file) ==
			    0;
		} else if (strncmp(line, "fi=", 3) == 0 ||
		    strncmp(line, "fe=", 3) == 0) {
			mine = strcmp(assay_base(line + 3), file) == 0;
		} else if (strncmp(line, "fn=", 3) == 0) {
			mine = fl_mine;
		} else if (strncmp(line, "calls=", 6) == 0) {
			after_call = 1;
		} else if (strncmp(line, "summary: ", 9) == 0) {
			summary = strtoll(line + 9, NULL, 10);
		} else if (strncmp(line, "totals: ", 8) == 0) {
			totals = strtoll(line + 8, NULL, 10);
		} else if (*line >= '0' && *line <= '9') {
			ln = strtol(line, &e, 10);
			if (*e != ' ')
				return "a cost line it cannot read";
			c = strtoll(e + 1, &e, 10);
			if (*e != '\0' || c < 0)
				return "a cost line it cannot read";
			if (after_call) {	/* a call's inclusive cost */
				after_call = 0;
				continue;
			}
			sum += c;
			if (!mine || ln <= 0)
				continue;
			for (size_t i = 0; i < nall; i++)
				if (all[i].line == ln) {
					all[i].count += c;
					c = -1;
					break;
				}
			if (c >= 0 && nall < sizeof all / sizeof all[0])
				all[nall++] = (struct assay_hot){ ln, c };
		}
	}
	if (summary != total || totals != total || sum != total)
		return "the profile does not add up to valgrind's count";
	qsort(all, nall, sizeof all[0], assay_hot_cmp);
	for (size_t i = 0; i < nall && *nhot < ASSAY_HOT_MAX; i++)
		hot[(*nhot)++] = all[i];
	return NULL;
}

/*
 * The profile valgrind wrote to out (created here, before valgrind ran,
 * held open as fd): believed only when no process outlived valgrind's
 * (none could write it after valgrind did), the name is still that very
 * file, alone and as created (the candidate's code, which runs inside
 * valgrind's process, could have made it unwritable to valgrind or put
 * another in its place), and it adds up to valgrind's count (which came
 * through the pipe).  Prints "hot WHO LINE N" per hot line of file, or
 * "hot WHO none: WHY".
 */
static void
assay_hot_lines(const char *who, const char *out, int fd, const char *file,
    long total, int left)
{
	struct stat st, ln;
	struct assay_hot hot[ASSAY_HOT_MAX];
	const char *why = NULL;
	char *text = NULL;
	int nhot = 0;

	if (left != 0)
		why = left < 0 ? "cannot tell whether a process outlived"
		    " valgrind" : "a process outlived valgrind";
	else if (fstat(fd, &st) != 0 || lstat(out, &ln) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_ino != ln.st_ino || st.st_dev != ln.st_dev ||
	    (st.st_mode & 07777) != 0600)
		why = "the profile is not the file valgrind was given";
	else if (st.st_size <= 0 || st.st_size > (16 << 20))
		why = "no profile, or one over 16 MiB";
	else if ((text = malloc((size_t)st.st_size + 1)) == NULL ||
	    pread(fd, text, (size_t)st.st_size, 0) != st.st_size)
		why = "the profile could not be read";
	if (why == NULL) {
		text[st.st_size] = '\0';
		why = assay_profile(text, file, total, hot, &nhot);
	}
	free(text);
	if (why != NULL)
		assay_say("hot %s none: %s", who, why);
	for (int i = 0; why == NULL && i < nhot; i++)
		assay_say("hot %s %ld %lld", who, hot[i].line, hot[i].count);
}

/*
 * The counted call is checked as every call of the check is: the checker
 * runs the reference on the timing input itself (assay_count_expect()),
 * the candidate's process sends back what its counted call returned and
 * every array's whole mapping (bench cg-cand, fd 4), and they must be
 * the same.  A candidate that does other work when it is counted (it
 * knows valgrind by LD_PRELOAD, /proc/self/maps or its clock) answers
 * wrongly there, and fails.
 */
static uint64_t	 assay_want_ret;	/* the reference's, masked */
static unsigned char *assay_got;	/* what bench sent */
static size_t	 assay_got_cap;	/* bytes it should send */

static void
assay_count_expect(void)
{
	struct assay_case c;
	uint64_t vr[6];

	assay_time_input();
	assay_time_case(&c);
	c.index = ASSAY_CASES;
	assay_case_args(&c, 0, vr);
	assay_want_ret = assay_case_ref(&c, vr) & assay_ret_mask;
	assay_got_cap = sizeof(struct assay_reply);
	for (int i = 0; i < ASSAY_NPARAMS; i++)
		if (assay_params[i].pointer)
			assay_got_cap += assay_args[i].ref.cap;
	assay_got = malloc(assay_got_cap);
	if (assay_got == NULL)
		_exit(2);
}

/* 1 (and why) when the len bytes bench sent are not the reference's
 * result on the timing input. */
static int
assay_count_differs(size_t len, char *why, size_t n)
{
	struct assay_reply r;
	size_t off = sizeof r;
	char a[32], b[32];

	if (len != assay_got_cap) {
		snprintf(why, n, "the counted call sent %s result (%zu bytes,"
		    " want %zu): it did not return to the harness", len == 0 ?
		    "no" : "a malformed", len, assay_got_cap);
		return 1;
	}
	memcpy(&r, assay_got, sizeof r);
	if ((r.ret & assay_ret_mask) != assay_want_ret) {
		assay_print(a, sizeof a, ASSAY_RET, r.ret);
		assay_print(b, sizeof b, ASSAY_RET, assay_want_ret);
		snprintf(why, n, "the counted call returned %s, the reference"
		    " %s, on the timing input the check found it right on", a,
		    b);
		return 1;
	}
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		const struct assay_buf *rb = &assay_args[i].ref;

		if (!assay_params[i].pointer)
			continue;
		if (memcmp(assay_got + off, rb->base, rb->cap) != 0) {
			snprintf(why, n, "the counted call left array %s"
			    " (or its guard zones) other than the reference"
			    " did, on the timing input the check found it"
			    " right on", assay_params[i].name);
			return 1;
		}
		off += rb->cap;
	}
	return 0;
}

/*
 * Count the instructions of one call of the timing input under callgrind
 * (--toggle-collect=toggle), prog run as "prog mode"; valgrind's log
 * comes to the checker through a pipe, never through anything the
 * candidate writes to.  Prints "count WHO N", or "count WHO none: WHY"
 * when valgrind did not end on its own with exactly one count (the
 * candidate may have written one of its own, or replaced the process);
 * then the hot lines of file (assay_hot_lines()) from the profile
 * callgrind wrote to cg-WHO.out.
 */
static void
assay_count(const char *who, const char *prog, const char *mode,
    const char *toggle, int candidate, const char *file)
{
	int lp[2], rp[2] = { -1, -1 }, st = 0, ncount = 0, ofd, left = 0;
	long v = -1;
	pid_t pid;
	char *log = NULL, line[512], out[64], outopt[96], why[200];
	size_t len = 0, cap = 0, lo = 0, rlen = 0;

	/* Made before any code of this stage's candidate runs. */
	snprintf(out, sizeof out, "cg-%s.out", who);
	snprintf(outopt, sizeof outopt, "--callgrind-out-file=%s", out);
	ofd = open(out, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (ofd >= 0)
		fchmod(ofd, 0600);	/* whatever the umask */
	if (pipe2(lp, O_CLOEXEC) != 0 || (candidate &&
	    pipe2(rp, O_CLOEXEC) != 0)) {
		assay_say("count %s none: no pipe", who);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fds[2] = { lp[1], rp[1] };

		assay_child_fds(fds, candidate ? 2 : 1);
		if (candidate)
			assay_child_filter();
		execlp("valgrind", "valgrind", "--tool=callgrind", outopt,
		    "--dump-instr=no", "--dump-line=yes",
		    "--compress-strings=no", "--compress-pos=no",
		    "--log-fd=3", "--trace-children=yes", toggle, prog, mode,
		    (char *)NULL);
		_exit(127);
	}
	close(lp[1]);
	if (rp[1] >= 0)
		close(rp[1]);
	/* Valgrind's log, and the counted call's result (candidate), both
	 * read to their ends: neither writer may block on the other. */
	while (pid > 0 && (lp[0] >= 0 || rp[0] >= 0)) {
		struct pollfd pf[2] = { { lp[0], POLLIN, 0 },
		    { rp[0], POLLIN, 0 } };
		char chunk[4096];
		ssize_t k;

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents != 0) {
			k = read(rp[0], chunk, sizeof chunk);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				close(rp[0]);
				rp[0] = -1;
			} else {
				for (ssize_t i = 0; i < k; i++, rlen++)
					if (rlen < assay_got_cap)
						assay_got[rlen] =
						    (unsigned char)chunk[i];
			}
		}
		if (pf[0].revents == 0)
			continue;
		k = read(lp[0], chunk, sizeof chunk);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(lp[0]);
			lp[0] = -1;
			continue;
		}
		if (len + (size_t)k > (1 << 20))
			continue;	/* a flood: read on, keep the first MiB */
		if (len + (size_t)k + 1 > cap) {
			cap = (len + (size_t)k + 1) * 2;
			log = realloc(log, cap);
			if (log == NULL)
				_exit(2);
		}
		memcpy(log + len, chunk, (size_t)k);
		len += (size_t)k;
	}
	if (lp[0] >= 0)
		close(lp[0]);
	if (rp[0] >= 0)
		close(rp[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (pid > 0)
		left = assay_kill_left();
	while (lo < len) {
		const char *nl = memchr(log + lo, '\n', len - lo);
		size_t l = nl != NULL ? (size_t)(nl - (log + lo)) : len - lo;
		const char *p;

		snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line - 1 ?
		    l : sizeof line - 1), log + lo);
		lo += l + 1;
		if (strncmp(line, "==", 2) == 0 &&
		    (p = strstr(line, "== Collected : ")) != NULL &&
		    sscanf(p + 15, "%ld", &v) == 1)
			ncount++;
	}
	free(log);
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		assay_say("count %s none: valgrind %s", who, pid < 0 ?
		    "could not be started" : WIFSIGNALED(st) ? "was killed" :
		    "failed");
	} else if (ncount != 1) {
		assay_say("count %s none: %d counts in valgrind's log", who,
		    ncount);
	} else if (candidate && assay_count_differs(rlen, why, sizeof why)) {
		/* A count of a call whose result is not the reference's
		 * counted other work than the check's: never a measure. */
		assay_say("count %s %ld", who, v);
		assay_say("COUNTED FAIL: %s", why);
	} else {
		assay_say("count %s %ld", who, v);
		if (ofd < 0)
			assay_say("hot %s none: no file for the profile", who);
		else
			assay_hot_lines(who, out, ofd, file, v, left);
	}
	if (ofd >= 0)
		close(ofd);
}

/* At exit: no worker outlives the checker. */
static void
assay_end_workers(void)
{
	struct assay_worker *w[2] = { &assay_cw, &assay_rw };

	for (int i = 0; i < 2; i++)
		if (w[i]->pid > 0) {
			kill(w[i]->pid, SIGKILL);
			assay_reap(w[i]);
		}
}

/* Up to 16 KiB of what the candidate printed, each line marked: never a
 * result line. */
static void
assay_show_cand_log(void)
{
	static char buf[16384];
	char *p;
	int fd = open(ASSAY_CAND_LOG, O_RDONLY);
	ssize_t k = fd < 0 ? 0 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	if (k <= 0)
		return;
	buf[k] = '\0';
	for (p = buf; *p != '\0';) {
		size_t l = strcspn(p, "\n");

		printf("candidate output: %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
	fflush(stdout);
}

/* The secret, from fd 5 (a pipe), never argv; -1 when there is none. */
static int
assay_read_secret(void)
{
	ssize_t got = read(5, assay_secret, sizeof assay_secret - 1);

	close(5);
	if (got <= 1)
		return -1;
	assay_secret[got] = '\0';
	assay_secret[strcspn(assay_secret, "\n")] = '\0';
	return 0;
}

#endif /* ASSAY_CHECKER */

/* The arrays of both sides, as long as the longest case needs. */
static void
assay_alloc(void)
{
	size_t most = ASSAY_MAX_N > ASSAY_TIME_N ? ASSAY_MAX_N : ASSAY_TIME_N;

	assay_rng = ASSAY_SEED;
	for (int i = 0; i < ASSAY_NPARAMS; i++) {
		size_t bytes = most * assay_size(assay_params[i].type);

		if (!assay_params[i].pointer)
			continue;
		assay_buf_init(&assay_args[i].ref, bytes);
		assay_buf_init(&assay_args[i].cand, bytes);
		assay_args[i].input = malloc(bytes + 8);
		if (assay_args[i].input == NULL)
			exit(2);
	}
}

#ifdef ASSAY_WORKER
int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: bench worker|cg-cand\n");
		return 2;
	}
	assay_alloc();
	assay_signals();
	if (strcmp(argv[1], "cg-cand") == 0) {
		/* One call for callgrind (--toggle-collect=assay_call_cand):
		 * the count is valgrind's, read by the checker. */
		static struct assay_reply r;

		/* valgrind's preload, the one thing in the environment that
		 * differs from the run stage's (ADR 0059: knowing it is
		 * counted gains the candidate nothing, but it need not be
		 * told; /proc/self/maps still shows valgrind). */
		unsetenv("LD_PRELOAD");
		assay_time_input();
		if (sigsetjmp(assay_jmp, 1) != 0)
			return 1;
		assay_in = 2;
		r.ret = assay_call_cand(assay_tv_cand);
		assay_in = 0;
		/* The counted call's result goes to the checker, on fd 4,
		 * which compares it as the check does (assay_count()). */
		if (assay_write_full(4, &r, sizeof r) < 0)
			return 1;
		for (int i = 0; i < ASSAY_NPARAMS; i++)
			if (assay_params[i].pointer &&
			    assay_write_full(4, assay_args[i].cand.base,
			    assay_args[i].cand.cap) < 0)
				return 1;
		return 0;
	}
	if (strcmp(argv[1], "worker") != 0) {
		fprintf(stderr, "bench: unknown mode %s\n", argv[1]);
		return 2;
	}
	assay_serve(assay_cand_addr(), 1, 3, 4);
	return 0;
}
#else
int
main(int argc, char **argv)
{
	int rc;

	if (argc == 2 && strcmp(argv[1], "cg-ref") == 0) {
		/* Under callgrind (--toggle-collect=assay_call_ref). */
		close(5);
		assay_alloc();
		assay_signals();
		assay_time_input();
		assay_call_ref(assay_tv);
		return 0;
	}
	/* Nothing of this process may be read by another of the sandbox
	 * (/proc/PID/mem, fd, environ): the candidate's runs as the same
	 * user. */
	prctl(PR_SET_DUMPABLE, 0);
	if (argc != 2 || (strcmp(argv[1], "check") != 0 &&
	    strcmp(argv[1], "count") != 0) || assay_read_secret() < 0) {
		fprintf(stderr, "usage: check check|count|cg-ref 5<SECRET\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (strcmp(argv[1], "count") == 0) {
		/* What valgrind's process leaves behind comes to the
		 * checker, which kills it (assay_kill_left()). */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		assay_alloc();
		assay_signals();
		assay_count_expect();
		assay_count("ref", "./check", "cg-ref",
		    "--toggle-collect=assay_call_ref", 0, "ref.c");
		assay_count("cand", "./bench", "cg-cand",
		    "--toggle-collect=assay_call_cand", 1, "cand.s");
		return 0;
	}
	assay_cpu = assay_pin();
	assay_alloc();
	atexit(assay_end_workers);
	if (assay_start_ref(&assay_rw) != 0 ||
	    assay_start_cand(&assay_cw) != 0) {
		assay_say("harness: cannot start a worker");
		return 2;
	}
	assay_signals();
	rc = assay_check();
	if (rc == 0)
		rc = assay_time();
	assay_show_cand_log();
	return rc;
}
#endif

#include "thunks.h"
