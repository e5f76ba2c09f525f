/*
 * x86asm.c - the x86-64 assembly optimisation env (design.md section 7,
 * toolchains.md section 4, docs/envs/x86-asm.md).
 *
 * The task gives a C prototype (env_params.signature), the reference in
 * ref.c and maybe the assembly the model was asked to optimise
 * (input.s); the candidate is a .s file defining the same symbol.
 * prepare() parses the prototype (x86sig.c) and writes a harness built
 * from it, then plans:
 *   as --64 -g -o cand.o pre.s cand.s [note.s]              assemble
 *   gcc -DASSAY_WORKER -o run/bench cand.o harness.c abi.s &&
 *   gcc -DASSAY_CHECKER -o run/check harness.c abi.s -lseccomp build
 *   ./check check                                (in run/)   run
 *   ./check count                                (in run/)   count
 * (the run's secret reaches check on fd 5, ENV_NONCE_FD, never argv).
 * The candidate runs only in bench, a process of its own that never
 * holds the secret nor the stage's stdout: check, which has no candidate
 * code, runs the reference, asks bench for raw results over pipes,
 * compares, times both from outside, runs callgrind on both and prints
 * every result line (ADR 0020).
 * pre.s aligns the candidate's code to 64 bytes and, for Intel syntax,
 * says ".intel_syntax noprefix" (a file of its own, so that candidate
 * line numbers stay right); note.s marks the stack non-executable when
 * the candidate lacks .note.GNU-stack.  The harness
 * includes ref.c with the symbol renamed and static, so the candidate
 * cannot call the reference, runs both on seeded random inputs with
 * edge cases and guard zones, calls the candidate through abi.s (canaries
 * in the callee-saved registers), then times both pinned, interleaved,
 * best of 31.  callgrind counts the instructions of one call of each
 * (the count stage is left out when valgrind is not installed).  Every
 * harness line starts with the run's secret (plan->nonce); the judge
 * believes only those.  A candidate equal to input.s up to whitespace and
 * comments is found here in prepare() and judged performance/copied-input.
 * Nothing runs here but the version queries; verify.c runs the stages.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/hash.h"
#include "envs/x86prog.h"
#include "envs/x86sig.h"
#include "model/feedback.h"
#include "model/vocab.h"

#define CAND_FILE "cand.s"
#define REF_FILE "ref.c"
#define INPUT_FILE "input.s"
#define NOISE 0.03		/* ratios within 3 % of 1 are noise */
#define X86_HOT_MAX 8		/* hot lines a side (harness.c's
				   ASSAY_HOT_MAX) */
/* So are differences under a nanosecond a call: a few cycles of call
 * overhead, which the placement of the code moves (identical
 * two-instruction functions measured 1.4 and 2.2 ns). */
#define NOISE_NS 1.0
/* The count and the clock disagree when each says so by this factor the
 * other way (fewer instructions, a slower clock): a busy machine has
 * timed an honest 1.8x-fewer-instructions candidate 1.16x "slower", a
 * count switched off by the candidate reads hundreds of times fewer. */
#define DISAGREE 1.5
/* The clock's noise on a busy machine: the reference timed against itself
 * read 1.16x "slower" while other jobs ran.  A clock slower than this
 * fails whatever the count says (ADR 0059): the count runs in valgrind,
 * where the candidate can know it is counted, the clock does not. */
#define BUSY 1.25
/* How many times more instructions a cycle the candidate may run than the
 * reference: a clock faster than the count allows by more than this is
 * not the work the count saw.  The clock's gain over the count's is the
 * ratio of the two instructions-per-cycle; compiled loops over arrays in
 * L1 or L2 run at 0.5 and more, an x86 core retires at most 4 to 6 a
 * cycle, so honest code stays under 12; a candidate that carries its
 * answer from one timed call to the next (reading the harness's memory)
 * runs 66x faster by the clock with 618x more instructions counted. */
#define IPC_SPAN 16.0
/* Before the candidate: its code starts on a 64-byte boundary, as the
 * reference does (thunks.h); Intel syntax when the task says so. */
#define PRE_ATT "\t.text\n\t.p2align 6\n"
#define PRE_INTEL PRE_ATT ".intel_syntax noprefix\n"
#define NOTE_GNU_STACK "\t.section .note.GNU-stack,\"\",@progbits\n"

/* The build stage: bench (the candidate's process) and check (the
 * checker, no candidate code); the link of bench comes first, so that
 * the candidate's link errors are the ones reported. */
#define BUILD_SCRIPT "\"$0\" -O2 -fwrapv -g -DASSAY_WORKER -o run/bench" \
	" cand.o harness.c abi.s && \"$0\" -O2 -fwrapv -g -DASSAY_CHECKER" \
	" -o run/check harness.c abi.s -lseccomp"

/*
 * The assemble stage ("$1" SYMBOL, the rest as's arguments): after as, the
 * candidate's object may export SYMBOL alone (objcopy makes every other
 * global local, so no function of the harness or the C library can be
 * interposed: a global printf saw the harness's secret), may hold no
 * common symbol, SYMBOL must be plain code (no ifunc, whose resolver runs
 * before main), and no section may run code outside the candidate's
 * calls (.init, .init_array and the like, by name or type), nor be one
 * the linker or loader builds (.dynamic, .interp, .got, .plt ...).
 *
 * The bytes of every executable section may not hold valgrind's client
 * requests, by which the candidate, running inside callgrind, would
 * switch the counting of itself off (CALLGRIND_TOGGLE_COLLECT; a 23x
 * slower sum passed as "2048x fewer instructions"): neither amd64's
 * special-instruction preamble (rol rdi by 3, 13, 61 and 51, the 16 bytes
 * valgrind's decoder looks for) nor the client-request marker xchg rbx,
 * rbx (48 87 db), at any byte offset, however written (.byte too); nor
 * may a section be writable and executable, nor .note.GNU-stack ask for
 * an executable stack (code written at run time would escape the scan).
 * A refusal is one line "x86-asm: forbidden-KIND: WHY" (judge_isolate()),
 * WHY starting "cand.s:LINE: " when the line table names one.
 */
static const char isolate[] =
    "s=$1; shift; as \"$@\" || exit\n"
    "x=$(readelf -SW cand.o | grep -E 'INIT_ARRAY|FINI_ARRAY|DYNAMIC|\\]"
    " \\.(preinit_array|init_array|fini_array|init|fini|ctors|dtors|jcr"
    "|tm_clone_table|dynamic|interp|got|plt|dynsym|dynstr|hash|gnu\\.hash"
    "|gnu\\.version[^ ]*)([. ]|$)' |"
    " sed -n 's/.*\\] \\([^ ]*\\).*/\\1/p' | head -n 1)\n"
    "[ -z \"$x\" ] || { echo \"x86-asm: forbidden-section: section $x is"
    " the loader's or runs code outside the candidate's calls\"; exit 1;"
    " }\n"
    "readelf -SW cand.o | awk '/^ *\\[ *[0-9]+\\]/ && $(NF-3) ~ /X/ {"
    " n = $0; sub(/^[^]]*\\] */, \"\", n); sub(/ .*/, \"\", n);"
    " print n, $(NF-8), $(NF-6), $(NF-5), $(NF-3) }' |\n"
    "while read -r n t o z f; do\n"
    "case $n:$f in\n"
    ".note.GNU-stack:*) echo \"x86-asm: forbidden-section: section"
    " .note.GNU-stack is executable: it asks for an executable stack\";"
    " exit 1;;\n"
    "*:*W*) echo \"x86-asm: forbidden-section: section $n is writable and"
    " executable: code that can be rewritten at run time\"; exit 1;;\n"
    "esac\n"
    "[ \"$t\" != NOBITS ] || continue\n"
    "x=$(od -An -v -tx1 -j $((0x$o)) -N $((0x$z)) cand.o | awk '{ for (i"
    " = 1; i <= NF; i++) b[m++] = $i } END { k = split(\"48 c1 c7 03 48"
    " c1 c7 0d 48 c1 c7 3d 48 c1 c7 33\", q, \" \"); for (i = 0; i < m;"
    " i++) { if (b[i] == \"48\" && b[i+1] == \"87\" && b[i+2] == \"db\")"
    " { printf \"0x%x xchg\\n\", i; exit } for (j = 1; j <= k && b[i+j-1]"
    " == q[j]; j++); if (j > k) { printf \"0x%x rol\\n\", i; exit } } }')\n"
    "[ -n \"$x\" ] || continue\n"
    "a=${x% *}\n"
    "l=$(addr2line -s -e cand.o -j \"$n\" \"$a\" 2>/dev/null)\n"
    "case ${l%% *} in cand.s:[1-9]*) l=\"${l%% *}: \";; *) l=;; esac\n"
    "case $x in\n"
    "*rol) w=\"valgrind's client-request preamble (rol rdi, 3; rol rdi,"
    " 13; rol rdi, 61; rol rdi, 51)\";;\n"
    "*) w=\"xchg rbx, rbx (bytes 48 87 db), valgrind's client-request"
    " marker,\";;\n"
    "esac\n"
    "echo \"x86-asm: forbidden-client-request: $l$w in section $n at $a:"
    " the candidate may not send requests to the profiler that counts"
    " it\"; exit 1\n"
    "done || exit\n"
    "objcopy --keep-global-symbol=\"$s\" cand.o || exit\n"
    "x=$(nm -g --defined-only cand.o | awk -v s=\"$s\" '$2 != \"T\" ||"
    " $3 != s { print $3 \" (\" $2 \")\"; exit }')\n"
    "[ -z \"$x\" ] || { echo \"x86-asm: forbidden-symbol: $x: the"
    " object may export $s alone, as plain code\"; exit 1; }\n";

/* Names the env writes; a task file may not take them. */
static const char *const reserved[] = { CAND_FILE, "cand.o", "harness.c",
	"sig.h", "thunks.h", "abi.s", "pre.s", "note.s", "run", NULL };

/* --- toolchain -------------------------------------------------------- */

/* Is valgrind where the sandbox's PATH (/usr/bin:/bin) finds it? */
static int
have_valgrind(void)
{
	return access("/usr/bin/valgrind", X_OK) == 0 ||
	    access("/bin/valgrind", X_OK) == 0;
}

/* "AMD EPYC": timing ratios belong to a CPU. */
static void
cpu_model(char *buf, size_t n)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, n, "unknown cpu");
	if (fp == NULL)
		return;
	while (fgets(line, sizeof line, fp) != NULL) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || colon == NULL)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, n, "%s", colon);
		break;
	}
	fclose(fp);
}

/* The SHA-256 of the harness's files as built in (share/envs/x86). */
static void
harness_hash(char *hex)
{
	static const char *const files[] = { "x86/harness.c", "x86/abi.s" };
	struct hash_ctx *h = hash_new();

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t len = 0;
		const char *data = env_share(files[i], &len);

		hash_update(h, files[i], strlen(files[i]) + 1);
		if (data != NULL)
			hash_update(h, data, len);
	}
	hash_final(h, hex);
}

static int
x86asm_toolchain(char *buf, size_t n, struct err *err)
{
	static const char *const gcc[] = { "gcc", "--version", NULL };
	static const char *const as[] = { "as", "--version", NULL };
	static const char *const vg[] = { "valgrind", "--version", NULL };
	char g[128], a[128], v[64], cpu[96], hex[HASH_HEX_LEN + 1];

#if !defined(__x86_64__)
	/* The harness runs the candidate here, natively. */
	return err_set(err, "x86-asm runs x86-64 code: this host is not"
	    " x86-64");
#endif
	if (env_tool_version(gcc, g, sizeof g) < 0)
		return err_set(err, "gcc is not installed (Debian package"
		    " gcc)");
	if (env_tool_version(as, a, sizeof a) < 0)
		return err_set(err, "as is not installed (Debian package"
		    " binutils)");
	if (!have_valgrind() || env_tool_version(vg, v, sizeof v) < 0)
		snprintf(v, sizeof v, "no valgrind");
	cpu_model(cpu, sizeof cpu);
	harness_hash(hex);
	/* The CPU decides the timing ratio, the harness the verdicts: a new
	 * one of either runs them again. */
	snprintf(buf, n, "%s; %s; %s; %s; harness %.12s", g, a, v, cpu, hex);
	return 0;
}

/* Without valgrind the count stage is left out: no instruction counts,
 * the timing ratio alone decides.  Nothing is skipped, but the speed
 * verdict rests on less. */
static int
x86asm_partial(const char *identity, char *buf, size_t n)
{
	if (strstr(identity, "; no valgrind;") == NULL)
		return 0;
	snprintf(buf, n, "valgrind (callgrind's instruction counts)");
	return 1;
}

/* --- copied input ----------------------------------------------------- */

/* Directives that say nothing about the code. */
static int
metadata(const char *line, size_t len)
{
	static const char *const words[] = { ".file", ".ident",
	    ".intel_syntax", ".att_syntax", ".section .note.GNU-stack",
	    ".section\t.note.GNU-stack" };

	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t wl = strlen(words[i]);

		if (len >= wl && memcmp(line, words[i], wl) == 0 &&
		    (len == wl || line[wl] == ' ' || line[wl] == '\t' ||
		    line[wl] == ','))
			return 1;
	}
	return 0;
}

/*
 * The code without comments (#, //, block comments, and ; in Intel
 * syntax), whitespace or metadata directives, for comparing two
 * assembly files.  Text in double quotes is kept as it is.
 */
static void
asm_normalize(const char *s, size_t len, int intel, struct buf *out)
{
	const char *end = s + len;
	struct buf line = BUF_INIT;
	int in_block = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl != NULL ? nl : end;
		int quoted = 0;

		buf_reset(&line);
		for (const char *p = s; p < e; p++) {
			if (in_block) {
				if (p + 1 < e && p[0] == '*' && p[1] == '/') {
					in_block = 0;
					p++;
				}
				continue;
			}
			if (quoted) {
				buf_addc(&line, *p);
				if (*p == '\\' && p + 1 < e)
					buf_addc(&line, *++p);
				else if (*p == '"')
					quoted = 0;
				continue;
			}
			if (*p == '"') {
				quoted = 1;
				buf_addc(&line, *p);
			} else if (p + 1 < e && p[0] == '/' && p[1] == '*') {
				in_block = 1;
				p++;
			} else if (*p == '#' || (intel && *p == ';') ||
			    (p + 1 < e && p[0] == '/' && p[1] == '/')) {
				break;
			} else {
				buf_addc(&line, *p);
			}
		}
		if (!metadata(buf_str(&line), line.len))
			for (size_t i = 0; i < line.len; i++)
				if (line.p[i] != ' ' && line.p[i] != '\t' &&
				    line.p[i] != '\r' && line.p[i] != '\f' &&
				    line.p[i] != '\v')
					buf_addc(out, line.p[i]);
		s = e + (nl != NULL);
	}
	buf_release(&line);
}

static int
copied_input(const char *cand, size_t clen, const char *input, size_t ilen,
    int intel)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	int same;

	asm_normalize(cand, clen, intel, &a);
	asm_normalize(input, ilen, intel, &b);
	same = a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
	buf_release(&a);
	buf_release(&b);
	return same;
}

/* Is the word w a whole token at p in line? */
static int
token_at(const char *line, const char *p, size_t wl)
{
	int before = p == line || !(p[-1] == '_' || (p[-1] >= 'a' &&
	    p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'));
	char a = p[wl];

	return before && !(a == '_' || (a >= 'a' && a <= 'z') ||
	    (a >= '0' && a <= '9'));
}

/*
 * The first candidate line that names register reg (any width: rbx,
 * ebx, bx, bl) outside a comment: where an ABI violation most likely
 * starts.  0 when none.
 */
static int
register_line(const char *code, size_t len, const char *reg)
{
	char names[4][8];
	size_t nn = 0;
	const char *p = code, *end = code + len;
	int lineno = 0;

	if (reg[0] == 'r' && reg[1] >= '0' && reg[1] <= '9') {
		snprintf(names[nn++], 8, "%s", reg);
		snprintf(names[nn++], 8, "%sd", reg);
		snprintf(names[nn++], 8, "%sw", reg);
		snprintf(names[nn++], 8, "%sb", reg);
	} else if (strcmp(reg, "rbx") == 0) {
		snprintf(names[nn++], 8, "rbx");
		snprintf(names[nn++], 8, "ebx");
		snprintf(names[nn++], 8, "bx");
		snprintf(names[nn++], 8, "bl");
	} else if (strcmp(reg, "rbp") == 0) {
		snprintf(names[nn++], 8, "rbp");
		snprintf(names[nn++], 8, "ebp");
		snprintf(names[nn++], 8, "bp");
		snprintf(names[nn++], 8, "bpl");
	} else {
		return 0;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);

		lineno++;
		line[strcspn(line, "#;")] = '\0';
		for (char *q = line; *q != '\0'; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q = (char)(*q - 'A' + 'a');
		for (size_t i = 0; i < nn; i++) {
			size_t wl = strlen(names[i]);

			for (const char *q = strstr(line, names[i]); q != NULL;
			    q = strstr(q + 1, names[i]))
				if (token_at(line, q, wl)) {
					free(line);
					return lineno;
				}
		}
		free(line);
		p += l + (nl != NULL);
	}
	return 0;
}

/*
 * One instruction of a candidate line, lower case, comments cut at # or
 * ;, labels and prefixes (lock, rep) skipped: the mnemonic (or directive)
 * and up to 4 operands, split at commas outside brackets and parentheses.
 * The strings point into line, which is changed.  0 when the line holds
 * no instruction.
 */
struct asm_insn {
	const char	*mnem;
	char		*ops[4];
	int		 nops;
};

static int
asm_split(char *line, struct asm_insn *in)
{
	char *p, *q;
	int depth = 0;

	memset(in, 0, sizeof *in);
	line[strcspn(line, "#;")] = '\0';
	for (p = line; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	p = line;
	for (;;) {
		p += strspn(p, " \t");
		q = p + strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_.$");
		if (q > p && *q == ':') {
			p = q + 1;	/* a label */
			continue;
		}
		if (*p == '\0')
			return 0;
		in->mnem = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
		if (strcmp(in->mnem, "lock") != 0 &&
		    strncmp(in->mnem, "rep", 3) != 0 &&
		    strcmp(in->mnem, "notrack") != 0)
			break;
	}
	p += strspn(p, " \t");
	while (*p != '\0' && in->nops < 4) {
		in->ops[in->nops++] = p;
		for (; *p != '\0'; p++) {
			if (*p == '[' || *p == '(')
				depth++;
			else if ((*p == ']' || *p == ')') && depth > 0)
				depth--;
			else if (*p == ',' && depth == 0)
				break;
		}
		q = p;
		if (*p == ',')
			*p++ = '\0';
		while (q > in->ops[in->nops - 1] && (q[-1] == ' ' ||
		    q[-1] == '\t' || q[-1] == '\r'))
			*--q = '\0';
		p += strspn(p, " \t");
	}
	return 1;
}

/* Is operand op the 64-bit register reg ("rsp", AT&T "%rsp")? */
static int
op_is(const char *op, const char *reg)
{
	if (op == NULL)
		return 0;
	if (*op == '%')
		op++;
	return strcmp(op, reg) == 0;
}

/* Is operand op a register of the rbp family (any width)? */
static int
op_is_rbp(const char *op)
{
	return op_is(op, "rbp") || op_is(op, "ebp") || op_is(op, "bp") ||
	    op_is(op, "bpl");
}

/*
 * A memory operand on base rsp or rbp with a constant displacement and no
 * index: [rsp+8], qword ptr [rbp-16] (Intel), 8(%rsp), (%rbp) (AT&T).
 * Fills the base ("rsp" or "rbp") and *disp; 0 when op is none of these.
 */
static int
mem_operand(const char *op, int intel, char *base, long *disp)
{
	char in[64], *end;
	size_t n = 0;
	const char *p;

	if (op == NULL)
		return 0;
	if (intel) {
		p = strchr(op, '[');
		if (p == NULL)
			return 0;
		for (p++; *p != '\0' && *p != ']' && n + 1 < sizeof in; p++)
			if (*p != ' ' && *p != '\t')
				in[n++] = *p;
		in[n] = '\0';
		if (*p != ']' || (strncmp(in, "rsp", 3) != 0 &&
		    strncmp(in, "rbp", 3) != 0))
			return 0;
		memcpy(base, in, 3);
		base[3] = '\0';
		if (in[3] == '\0') {
			*disp = 0;
			return 1;
		}
		if (in[3] != '+' && in[3] != '-')
			return 0;
		*disp = strtol(in + 3, &end, 0);
		return *end == '\0';
	}
	p = strchr(op, '(');
	if (p == NULL || (strcmp(p, "(%rsp)") != 0 && strcmp(p, "(%rbp)") != 0))
		return 0;
	memcpy(base, p + 2, 3);
	base[3] = '\0';
	if (p == op) {
		*disp = 0;
		return 1;
	}
	*disp = strtol(op, &end, 0);
	return end == p;
}

/* An immediate: 16 (Intel) or $16 (AT&T); 0 when op is not one. */
static int
imm_operand(const char *op, long *v)
{
	char *end;

	if (op == NULL || *op == '\0')
		return 0;
	*v = strtol(*op == '$' ? op + 1 : op, &end, 0);
	return *end == '\0';
}

/* Does the instruction leave its destination operand as it was? */
static int
reads_only(const char *m)
{
	static const char *const pre[] = { "cmp", "test", "push", "j",
	    "call", "comis", "ucomis", "ptest", "vptest", "prefetch", "nop" };

	if (strncmp(m, "cmpxchg", 7) == 0)
		return 0;
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
		if (strncmp(m, pre[i], strlen(pre[i])) == 0)
			return 1;
	return strcmp(m, "bt") == 0 || strcmp(m, "btq") == 0 ||
	    strcmp(m, "btl") == 0;
}

/*
 * The first candidate line that writes the caller's stack above the
 * return address: [rsp+d] with d at least 8 more than the candidate has
 * pushed or subtracted from rsp so far, or the same through an rbp frame
 * (push rbp; mov rbp, rsp).  rsp is followed along the text, not the
 * control flow; where it changes in a way not followed (mov, and), the
 * search stops.  0 when none is found: a heuristic for the evidence line,
 * the harness's canary is the check.
 */
static int
stack_store_line(const char *code, size_t len, int intel)
{
	const char *p = code, *end = code + len;
	long depth = 0, frame = 0, v, d;
	int lineno = 0, have_frame = 0, found = 0;

	while (p < end && found == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l), base[4];
		struct asm_insn in;
		const char *m, *dst, *src;

		lineno++;
		p += l + (nl != NULL);
		if (!asm_split(line, &in)) {
			free(line);
			continue;
		}
		m = in.mnem;
		if (strcmp(m, ".intel_syntax") == 0)
			intel = 1;
		else if (strcmp(m, ".att_syntax") == 0)
			intel = 0;
		dst = in.nops == 0 ? NULL : intel ? in.ops[0] :
		    in.ops[in.nops - 1];
		src = in.nops < 2 ? NULL : intel ? in.ops[1] : in.ops[0];
		if (m[0] == '.' || in.nops == 0) {
			if (strcmp(m, "leave") == 0 || strcmp(m, "leaveq") ==
			    0) {
				if (!have_frame)
					found = -1;
				depth = frame - 8;
				have_frame = 0;
			} else if (strncmp(m, "enter", 5) == 0) {
				found = -1;
			}
		} else if (strncmp(m, "push", 4) == 0) {
			depth += 8;
		} else if (strncmp(m, "pop", 3) == 0) {
			depth -= 8;
			if (op_is_rbp(dst))
				have_frame = 0;
		} else if (reads_only(m)) {
			/* Nothing written. */
		} else if (op_is(dst, "rsp")) {
			if ((strcmp(m, "sub") == 0 || strcmp(m, "subq") == 0) &&
			    imm_operand(src, &v))
				depth += v;
			else if ((strcmp(m, "add") == 0 ||
			    strcmp(m, "addq") == 0) && imm_operand(src, &v))
				depth -= v;
			else
				found = -1;	/* lost track of rsp */
		} else if (op_is_rbp(dst)) {
			have_frame = (strcmp(m, "mov") == 0 ||
			    strcmp(m, "movq") == 0) && op_is(src, "rsp");
			frame = depth;
		} else if (mem_operand(dst, intel, base, &d)) {
			if (strcmp(base, "rsp") == 0 && d - depth >= 8)
				found = lineno;
			else if (strcmp(base, "rbp") == 0 && have_frame &&
			    d - frame >= 8)
				found = lineno;
		}
		free(line);
	}
	return found > 0 ? found : 0;
}

/* The first candidate line with std, which sets the direction flag. */
static int
std_line(const char *code, size_t len)
{
	const char *p = code, *end = code + len;
	int lineno = 0, found = 0;

	while (p < end && found == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		struct asm_insn in;

		lineno++;
		p += l + (nl != NULL);
		if (asm_split(line, &in) && strcmp(in.mnem, "std") == 0)
			found = lineno;
		free(line);
	}
	return found;
}

/* --- prepare ---------------------------------------------------------- */

/* Can a value of type t be v? */
static int
fits(enum x86sig_type t, json_int_t v)
{
	size_t bits = x86sig_type_size(t) * 8;

	if (bits >= 64)
		return x86sig_type_signed(t) || v >= 0;
	if (x86sig_type_signed(t))
		return v >= -((json_int_t)1 << (bits - 1)) &&
		    v < ((json_int_t)1 << (bits - 1));
	return v >= 0 && v < ((json_int_t)1 << bits);
}

/* env_params.ranges: {"name": [lo, hi], ...} into sig. */
static int
read_ranges(const struct task *t, struct x86sig *sig, struct err *err)
{
	json_t *root, *ranges, *v;
	const char *key;
	int rc = 0;

	if (t->env_params == NULL)
		return 0;
	root = json_loads(t->env_params, 0, NULL);
	ranges = root != NULL ? json_object_get(root, "ranges") : NULL;
	if (ranges != NULL && !json_is_object(ranges)) {
		json_decref(root);
		return err_set(err, "env_params.ranges must be an object of"
		    " parameter -> [lo, hi]");
	}
	json_object_foreach(ranges, key, v) {
		int k = x86sig_find(sig, key);
		json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1);
		struct x86sig_param *p;

		if (k < 0) {
			rc = err_set(err, "env_params.ranges: '%s' is not a"
			    " parameter", key);
			break;
		}
		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    !json_is_integer(lo) || !json_is_integer(hi) ||
		    json_integer_value(lo) > json_integer_value(hi)) {
			rc = err_set(err, "env_params.ranges.%s must be [lo,"
			    " hi], two integers, lo <= hi", key);
			break;
		}
		p = &sig->params[k];
		if (!x86sig_type_signed(p->type) &&
		    json_integer_value(lo) < 0) {
			rc = err_set(err, "env_params.ranges.%s: %s cannot be"
			    " negative", key, x86sig_type_name(p->type));
			break;
		}
		if (!fits(p->type, json_integer_value(lo)) ||
		    !fits(p->type, json_integer_value(hi))) {
			rc = err_set(err, "env_params.ranges.%s: [%lld, %lld]"
			    " does not fit %s", key, json_integer_value(lo),
			    json_integer_value(hi), x86sig_type_name(p->type));
			break;
		}
		p->ranged = 1;
		p->lo = (int64_t)json_integer_value(lo);
		p->hi = (int64_t)json_integer_value(hi);
	}
	json_decref(root);
	return rc;
}

/*
 * The task's own faults, found before anything runs: the run is planned
 * as one stage that prints the reason, and judge() makes it task-defect.
 */
static int
defect(struct env_plan *plan, const char *msg)
{
	char *line = xasprintf("x86-asm: the task is defective: %s", msg);
	const char *const argv[] = { "printf", "%s\\n", line, NULL };

	buf_printf(&plan->precheck, "defect %s\n", msg);
	env_plan_stage(plan, "check", argv);
	free(line);
	return 0;
}

/* A small non-negative integer param within [lo, hi], or def. */
static int
int_param(const struct task *t, const char *key, long def, long lo, long hi,
    long *out, char *why, size_t wn)
{
	long v = env_param_int(t, key, def);

	if (v < lo || v > hi) {
		snprintf(why, wn, "env_params.%s must be %ld to %ld", key, lo,
		    hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int
write_share(struct env_plan *plan, const char *workdir, const char *name,
    struct err *err)
{
	char *path = xasprintf("x86/%s", name);
	size_t len;
	const char *data = env_share(path, &len);
	int rc;

	free(path);
	if (data == NULL)
		return err_set(err, "x86-asm: share/envs/x86/%s is not built"
		    " in", name);
	rc = env_write_input(plan, workdir, name, data, len, err);
	return rc;
}

/* What prepare() reads from a task. */
struct setup {
	struct x86sig	 sig;
	int		 intel;		/* syntax: intel */
	char		*opt;		/* ref_opt, NULL for 2 (new) */
	long		 cases, max_n, time_n, seed;
};

/*
 * Read and check the task's env_params and files into su.  0, or -1 with
 * the task's defect in why.
 */
static int
setup_read(const struct task *t, struct setup *su, char *why, size_t wn)
{
	char *symbol = env_param_str(t, "symbol");
	char *signature = env_param_str(t, "signature");
	char *syntax = env_param_str(t, "syntax");
	char *length = env_param_str(t, "length");
	struct err perr;
	int rc = -1;

	su->opt = env_param_str(t, "ref_opt");
	if (symbol == NULL || signature == NULL) {
		snprintf(why, wn, "env_params needs \"symbol\" and"
		    " \"signature\"");
		goto out;
	}
	if (syntax != NULL && strcmp(syntax, "att") != 0 &&
	    strcmp(syntax, "intel") != 0) {
		snprintf(why, wn, "env_params.syntax is \"%s\": att or intel",
		    syntax);
		goto out;
	}
	su->intel = syntax != NULL && strcmp(syntax, "intel") == 0;
	if (su->opt != NULL && strcmp(su->opt, "0") != 0 &&
	    strcmp(su->opt, "1") != 0 && strcmp(su->opt, "2") != 0 &&
	    strcmp(su->opt, "3") != 0 && strcmp(su->opt, "s") != 0) {
		snprintf(why, wn, "env_params.ref_opt is \"%s\": 0, 1, 2, 3 or"
		    " s", su->opt);
		goto out;
	}
	if (x86sig_parse(signature, length, &su->sig, &perr) < 0 ||
	    read_ranges(t, &su->sig, &perr) < 0) {
		snprintf(why, wn, "%s", perr.msg);
		goto out;
	}
	if (strcmp(su->sig.name, symbol) != 0) {
		snprintf(why, wn, "the signature declares %s, not the symbol"
		    " %s", su->sig.name, symbol);
		goto out;
	}
	if (task_file_by_name(t, REF_FILE) == NULL) {
		snprintf(why, wn, "no %s: the reference is a task file of that"
		    " name", REF_FILE);
		goto out;
	}
	if (int_param(t, "cases", 2000, 1, 1000000, &su->cases, why, wn) < 0 ||
	    int_param(t, "max_n", 1024, 0, 1L << 24, &su->max_n, why, wn) < 0 ||
	    int_param(t, "time_n", 4096, 0, 1L << 24, &su->time_n, why,
	    wn) < 0 || int_param(t, "seed", 1, 0, 0x7fffffffL, &su->seed, why,
	    wn) < 0)
		goto out;
	for (size_t i = 0; i < t->nfiles; i++)
		for (size_t k = 0; reserved[k] != NULL; k++)
			if (strcmp(t->files[i].name, reserved[k]) == 0) {
				snprintf(why, wn, "the task file name %s is"
				    " reserved by the env", reserved[k]);
				goto out;
			}
	rc = 0;
out:
	free(symbol);
	free(signature);
	free(syntax);
	free(length);
	return rc;
}

static int
x86asm_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const struct task_file *input = task_file_by_name(t, INPUT_FILE);
	struct setup su;
	struct x86sig *sig = &su.sig;
	struct buf gen = BUF_INIT;
	char why[ERR_MSG_MAX];
	int intel, rc = -1;

	memset(&su, 0, sizeof su);
	if (x86prog_mode(t)) {
		/* A whole program on test cases (SuperCoder): x86prog.c. */
		if (x86prog_prepare(t, c, workdir, plan, err) < 0)
			return -1;
		/* The input is the benchmark's (SuperCoder's gcc -O3, the
		 * parent of its answer): judged on its own.  Only an
		 * optimization of it that is the input again copied it. */
		if (input != NULL &&
		    cand_kind_from_name(c->kind) == KIND_OPTIMIZATION &&
		    copied_input(c->code, c->code_len, input->data,
		    input->len, 0))
			buf_adds(&plan->precheck, "copied-input\n");
		return 0;
	}
	env_nonce(plan->nonce, sizeof plan->nonce, 24, 'X');
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 60);
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (setup_read(t, &su, why, sizeof why) < 0) {
		rc = defect(plan, why);
		goto out;
	}
	intel = su.intel;
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		goto out;
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (f == input)
			env_note_input(plan, f->name, f->data, f->len);
		else if (env_write_input(plan, workdir, f->name, f->data,
		    f->len, err) < 0)
			goto out;
	}
	if (input != NULL && copied_input(c->code, c->code_len, input->data,
	    input->len, intel))
		buf_adds(&plan->precheck, "copied-input\n");
	{
		/* Where an ABI violation would most likely start. */
		static const char *const regs[] = { "rbx", "rbp", "r12", "r13",
		    "r14", "r15" };
		int l;

		for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
			l = register_line(c->code, c->code_len, regs[i]);

			if (l > 0)
				buf_printf(&plan->precheck, "reg %s %d\n",
				    regs[i], l);
		}
		/* The harness's names for the direction flag and the
		 * caller's stack slot. */
		l = std_line(c->code, c->code_len);
		if (l > 0)
			buf_printf(&plan->precheck, "reg df %d\n", l);
		l = stack_store_line(c->code, c->code_len, intel);
		if (l > 0)
			buf_printf(&plan->precheck, "reg stack %d\n", l);
	}
	if (write_share(plan, workdir, "harness.c", err) < 0 ||
	    write_share(plan, workdir, "abi.s", err) < 0)
		goto out;
	x86sig_table(sig, su.cases, (unsigned long)su.seed, su.max_n,
	    su.time_n, &gen);
	if (env_write_input(plan, workdir, "sig.h", gen.p, gen.len, err) < 0)
		goto out;
	buf_reset(&gen);
	x86sig_thunks(sig, REF_FILE, su.opt, &gen);
	if (env_write_input(plan, workdir, "thunks.h", gen.p, gen.len,
	    err) < 0)
		goto out;
	if (env_write_input(plan, workdir, "pre.s", intel ? PRE_INTEL :
	    PRE_ATT, strlen(intel ? PRE_INTEL : PRE_ATT), err) < 0)
		goto out;
	if (memmem(c->code, c->code_len, ".note.GNU-stack", 15) == NULL &&
	    env_write_input(plan, workdir, "note.s", NOTE_GNU_STACK,
	    strlen(NOTE_GNU_STACK), err) < 0)
		goto out;
	if (env_mkdir(workdir, "run", err) < 0)
		goto out;
	{
		const char *as[14];
		size_t n = 0;
		/* The candidate first: linked after the harness, identical
		 * two-instruction functions timed 0.83 of the reference. */
		/* Two programs: bench runs the candidate and holds no
		 * secret; check (no candidate code in it) holds the secret,
		 * runs the reference, drives bench and prints every result
		 * line (harness.c, "the two processes"). */
		static const char *const build[] = { "sh", "-c", BUILD_SCRIPT,
		    "gcc", NULL };
		/* The secret comes on ENV_NONCE_FD, never argv. */
		static const char *const run[] = { "./check", "check", NULL };
		/* check runs callgrind on itself (the reference) and on
		 * bench, and reads valgrind's logs through pipes. */
		static const char *const count[] = { "./check", "count",
		    NULL };

		/* as, then the object may export SYMBOL alone and run no
		 * code outside its calls (isolate_script). */
		as[n++] = "sh";
		as[n++] = "-c";
		as[n++] = isolate;
		as[n++] = "as";
		as[n++] = su.sig.name;
		as[n++] = "--64";
		as[n++] = "-g";
		as[n++] = "-o";
		as[n++] = "cand.o";
		as[n++] = "pre.s";
		as[n++] = CAND_FILE;
		if (memmem(c->code, c->code_len, ".note.GNU-stack", 15) ==
		    NULL)
			as[n++] = "note.s";
		as[n] = NULL;
		/* The two programs are sealed once built: the run and count
		 * stages each get copies checked against their hashes, read-
		 * only, in a work area of their own, so that the candidate's
		 * process (bench, in the run stage) can neither replace check
		 * nor leave anything (a .valgrindrc, another bench) for the
		 * count stage (issue 22). */
		static const char *const made[] = { "run/check", "run/bench",
		    NULL };
		static const char *const progs[] = { "check", "bench", NULL };

		env_plan_stage(plan, "assemble", as);
		env_plan_stage(plan, "build", build);
		env_plan_seal(plan, made);
		env_plan_stage(plan, "run", run);
		env_plan_use(plan, progs);
		plan->stages[plan->nstages - 1].nonce_fd = 1;
		plan->stages[plan->nstages - 1].candidate = 1;
		if (have_valgrind()) {
			env_plan_stage(plan, "count", count);
			env_plan_use(plan, progs);
			plan->stages[plan->nstages - 1].nonce_fd = 1;
			plan->stages[plan->nstages - 1].candidate = 1;
		}
		else
			buf_adds(&plan->precheck, "no-valgrind\n");
	}
	rc = 0;
out:
	buf_release(&gen);
	free(su.opt);
	return rc;
}

/* --- judge ------------------------------------------------------------ */

/* What the logs said. */
struct scan {
	/* assemble and build */
	char	*first_error;		/* the line (new) */
	char	*first_error_file;	/* its file's base name (new) */
	char	*undefined;		/* the first undefined symbol (new) */
	int	 undefined_line;	/* its candidate line, 0 none */
	int	 multiple, relocation;
	int	 ref_mismatch;		/* an error about assay_ref_SYMBOL */
	/* run */
	int	 have_equiv, equiv_pass, have_abi, abi_pass, have_timing;
	long	 cases, mismatches;
	char	*first_mismatch;	/* MISMATCH/CRASH/HANG line (new) */
	int	 crash, hang;
	char	*abi_line;		/* the first ABI line (new) */
	char	*abi_regs;		/* "rbx r12" from the summary (new) */
	char	*reference;		/* the REFERENCE line (new) */
	char	*cex;			/* the COUNTEREXAMPLE's JSON (new) */
	double	 ref_ns, cand_ns, time_ratio;
	/* count */
	long	 ir_ref, ir_cand;
	/* callgrind's hot lines ("hot WHO LINE N"), hottest first */
	struct x86_hot {
		int	 line;
		long	 count;
	}	 hot_cand[X86_HOT_MAX], hot_ref[X86_HOT_MAX];
	int	 nhot_cand, nhot_ref;
	char	*hot_none;		/* "hot cand none: WHY" (new) */
	char	*counted_fail;		/* "COUNTED FAIL: WHY" (new) */
};

static void
scan_release(struct scan *s)
{
	free(s->first_error);
	free(s->first_error_file);
	free(s->undefined);
	free(s->first_mismatch);
	free(s->abi_line);
	free(s->abi_regs);
	free(s->reference);
	free(s->hot_none);
	free(s->counted_fail);
	free(s->cex);
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/*
 * "FILE:LINE: SEV: MSG" (as), "FILE:LINE:COL: SEV: MSG" (gcc),
 * "FILE:LINE: MSG" (ld with -g; an error), read by env_located().
 * Fills the parts; 1 when it is such a line.  file is the base name.
 */
static int
parse_located(const char *line, char *file, size_t fn, int *lineno,
    int *col, char *sev, size_t sn, const char **msg)
{
	struct env_located loc;
	char *tmp;

	if (!env_located(line, strlen(line), &loc))
		return 0;
	tmp = xstrndup(loc.file, loc.flen);
	snprintf(file, fn, "%s", base_name(tmp));
	free(tmp);
	*lineno = loc.line;
	*col = loc.col;
	snprintf(sev, sn, "%s", loc.severity != NULL ? loc.severity : "error");
	*msg = loc.msg;
	return 1;
}

/* `NAME' or 'NAME' after needle in line, new string or NULL. */
static char *
quoted_after(const char *line, const char *needle)
{
	const char *p = strstr(line, needle), *q;

	if (p == NULL)
		return NULL;
	p += strlen(needle);
	if (*p != '`' && *p != '\'')
		return NULL;
	p++;
	q = strchr(p, '\'');
	return q != NULL ? xstrndup(p, (size_t)(q - p)) : NULL;
}

/* Is name a file the env writes around the candidate (the harness)? */
static int
env_file(const char *name)
{
	static const char *const files[] = { "harness.c", "sig.h",
	    "thunks.h", "abi.s", "pre.s", "note.s" };

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (strcmp(name, files[i]) == 0)
			return 1;
	return 0;
}

static void
scan_tool_log(const struct env_plan *plan, const char *log, size_t len,
    struct scan *s, struct run *r)
{
	const char *p = log, *end = log + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l), file[128], sev[16];
		const char *msg;
		int lineno, col;

		p += l + (nl != NULL);
		if (line[0] == '$' || strstr(line, "Assembler messages:") !=
		    NULL || strstr(line, ": In function") != NULL ||
		    strncmp(line, "collect2:", 9) == 0 ||
		    strncmp(line, "In file included", 16) == 0 ||
		    strncmp(line, "                 from", 21) == 0) {
			free(line);
			continue;
		}
		if (strstr(line, "undefined reference to") != NULL ||
		    strstr(line, "multiple definition of") != NULL ||
		    strstr(line, "recompile with -fPIE") != NULL ||
		    strstr(line, "can not be used when making") != NULL) {
			const char *ld = strncmp(line, "/usr/bin/ld: ", 13) ==
			    0 ? line + 13 : line;
			char *norm;
			int cl = 0;

			/* "/work/cand.s:4: undefined reference to `f'" (as -g
			 * gives ld the line), the same after "/usr/bin/ld: ",
			 * or "/usr/bin/ld: cand.o: ...". */
			if (parse_located(ld, file, sizeof file, &lineno,
			    &col, sev, sizeof sev, &msg)) {
				cl = strcmp(file, plan->cand_file) == 0 ?
				    lineno : 0;
				norm = xasprintf("%s:%d: %s", file, lineno,
				    msg);
				/* Where the harness calls the symbol says
				 * nothing about the candidate: one diagnostic
				 * for all its calls. */
				if (env_file(file))
					run_add_diag(r, "", 0, 0, "error", msg,
					    0);
				else
					run_add_diag(r, file, lineno, 0, "error",
					    msg, cl);
			} else {
				norm = xstrdup(ld);
				run_add_diag(r, "", 0, 0, "error", norm, 0);
			}
			if (strstr(line, "undefined reference to") != NULL &&
			    s->undefined == NULL) {
				s->undefined = quoted_after(line,
				    "undefined reference to ");
				s->undefined_line = cl;
			}
			s->multiple += strstr(line, "multiple definition") !=
			    NULL;
			s->relocation += strstr(line, "relocation") != NULL;
			if (s->first_error == NULL) {
				s->first_error = norm;
				s->first_error_file = xstrdup(cl > 0 ?
				    plan->cand_file : "ld");
			} else {
				free(norm);
			}
		} else if (parse_located(line, file, sizeof file, &lineno,
		    &col, sev, sizeof sev, &msg)) {
			int in_cand = strcmp(file, plan->cand_file) == 0;

			run_add_diag(r, file, lineno, col, sev, msg, in_cand ?
			    lineno : 0);
			if (strcmp(sev, "error") == 0) {
				s->ref_mismatch |= strstr(msg, "assay_ref_") !=
				    NULL;
				if (s->first_error == NULL) {
					s->first_error = xstrdup(line);
					s->first_error_file = xstrdup(file);
				}
			}
		} else if (strncmp(line, "/usr/bin/ld: ", 13) == 0 &&
		    strstr(line, ": in function") == NULL &&
		    strstr(line, "warning:") == NULL) {
			/* Another link error ("cannot find", ...). */
			if (s->first_error == NULL) {
				s->first_error = xstrdup(line);
				s->first_error_file = xstrdup("ld");
			}
		}
		free(line);
	}
}

/* A line of the harness: the secret, a space, the rest; else NULL. */
static const char *
harness_line(const struct env_plan *plan, const char *line)
{
	size_t n = strlen(plan->nonce);

	if (n == 0 || strncmp(line, plan->nonce, n) != 0 || line[n] != ' ')
		return NULL;
	return line + n + 1;
}

static void
scan_run_log(const struct env_plan *plan, const char *log, size_t len,
    struct scan *s)
{
	const char *p = log, *end = log + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		const char *h = harness_line(plan, line);
		char word[16];

		p += l + (nl != NULL);
		if (h == NULL) {
			free(line);
			continue;
		}
		if ((strncmp(h, "MISMATCH ", 9) == 0 ||
		    strncmp(h, "CRASH ", 6) == 0 ||
		    strncmp(h, "HANG ", 5) == 0) && s->first_mismatch == NULL)
			s->first_mismatch = xstrdup(h);
		s->crash += strncmp(h, "CRASH ", 6) == 0;
		s->hang += strncmp(h, "HANG ", 5) == 0;
		if (strncmp(h, "ABI ", 4) == 0 && s->abi_line == NULL)
			s->abi_line = xstrdup(h);
		if (strncmp(h, "REFERENCE ", 10) == 0 && s->reference == NULL)
			s->reference = xstrdup(h);
		if (strncmp(h, "COUNTEREXAMPLE ", 15) == 0 && s->cex == NULL)
			s->cex = xstrdup(h + 15);
		if (sscanf(h, "equivalence: %15s (%ld mismatches / %ld cases",
		    word, &s->mismatches, &s->cases) == 3) {
			s->have_equiv = 1;
			s->equiv_pass = strcmp(word, "PASS") == 0;
		}
		/* The timing compares every timed result: a difference
		 * there fails the equivalence after the fact. */
		if (strncmp(h, "MISMATCH while timing", 21) == 0 &&
		    s->have_equiv) {
			s->equiv_pass = 0;
			s->mismatches++;
		}
		if (strncmp(h, "abi: PASS", 9) == 0) {
			s->have_abi = 1;
			s->abi_pass = 1;
		} else if (strncmp(h, "abi: FAIL (", 11) == 0) {
			s->have_abi = 1;
			free(s->abi_regs);
			s->abi_regs = xstrndup(h + 11, strcspn(h + 11, ")"));
		}
		if (sscanf(h, "timing: ref %lf ns/call, asm %lf ns/call, ratio"
		    " %lf", &s->ref_ns, &s->cand_ns, &s->time_ratio) == 3) {
			s->have_timing = 1;
		}
		free(line);
	}
}

/* The count N of a checker's line (digits to the end), else -1. */
static long
count_value(const char *p)
{
	char *e;
	long v;

	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtol(p, &e, 10);
	return errno == 0 && *e == '\0' ? v : -1;
}

/*
 * The checker's "hot WHO LINE N" (WHO "ref" or "cand", after "hot "):
 * callgrind's self count of that line of ref.c or cand.s in one call,
 * hottest first; "hot cand none: WHY" when it did not believe the
 * profile (harness.c, assay_hot_lines()).
 */
static void
scan_hot(const char *h, struct scan *s)
{
	int cand = strncmp(h, "cand ", 5) == 0;
	struct x86_hot *v = cand ? s->hot_cand : s->hot_ref;
	int *n = cand ? &s->nhot_cand : &s->nhot_ref;
	char *e;
	long line, count;

	if (!cand && strncmp(h, "ref ", 4) != 0)
		return;
	h += cand ? 5 : 4;
	if (cand && strncmp(h, "none: ", 6) == 0) {
		if (s->hot_none == NULL)
			s->hot_none = xstrdup(h + 6);
		return;
	}
	errno = 0;
	line = strtol(h, &e, 10);
	if (e == h || *e != ' ' || line <= 0 || line > INT_MAX)
		return;
	count = count_value(e + 1);
	if (count < 0 || errno != 0 || *n >= X86_HOT_MAX)
		return;
	v[*n].line = (int)line;
	v[(*n)++].count = count;
}

/*
 * The checker's "count ref N" and "count cand N" (or "count WHO none:
 * WHY"): it ran callgrind on each itself and read valgrind's log through
 * a pipe the candidate cannot name; lines without the secret (the
 * candidate's output) say nothing.
 */
static void
scan_count_log(const struct env_plan *plan, const char *log, size_t len,
    struct scan *s)
{
	const char *p = log, *end = log + len;

	s->ir_ref = s->ir_cand = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		const char *h = harness_line(plan, line);
		long v;

		p += l + (nl != NULL);
		if (h != NULL && strncmp(h, "count ref ", 10) == 0 &&
		    (v = count_value(h + 10)) > 0)
			s->ir_ref = v;
		else if (h != NULL && strncmp(h, "count cand ", 11) == 0 &&
		    (v = count_value(h + 11)) > 0)
			s->ir_cand = v;
		else if (h != NULL && strncmp(h, "hot ", 4) == 0)
			scan_hot(h + 4, s);
		else if (h != NULL && strncmp(h, "COUNTED FAIL: ", 14) == 0 &&
		    s->counted_fail == NULL)
			s->counted_fail = xstrdup(h + 14);
		free(line);
	}
}

/*
 * Triage rules (docs/triage.md), first match wins: an assembler error's
 * subcategory; "assembler-error" when none matches.
 */
static const struct env_rule x86asm_rules[] = {
	{ "assemble", "no such instruction", CATEGORY_COMPILE,
	  "unknown-instruction" },
	{ "assemble", "operand", CATEGORY_COMPILE, "operand-mismatch" },
	{ "assemble", "invalid instruction suffix", CATEGORY_COMPILE,
	  "operand-mismatch" },
	{ "assemble", "ambiguous", CATEGORY_COMPILE, "operand-mismatch" },
	{ "assemble", "already defined", CATEGORY_COMPILE,
	  "duplicate-symbol" },
	{ "assemble", "unknown pseudo-op", CATEGORY_COMPILE,
	  "unknown-directive" },
	{ "assemble", "bad register", CATEGORY_COMPILE, "bad-register" },
	{ "assemble", "bad memory operand", CATEGORY_COMPILE, "bad-operand" },
	{ "assemble", "junk", CATEGORY_COMPILE, "syntax-error" },
	{ "assemble", "bad expression", CATEGORY_COMPILE, "syntax-error" },
	{ "assemble", "invalid character", CATEGORY_COMPILE, "syntax-error" },
	{ "assemble", "unbalanced", CATEGORY_COMPILE, "syntax-error" },
	{ "assemble", "missing", CATEGORY_COMPILE, "syntax-error" },
};
#define X86ASM_NRULES (sizeof x86asm_rules / sizeof x86asm_rules[0])

/* env_verdict(), and the stage when stage is not NULL. */
static void
verdict(struct run *r, enum verdict v, const char *stage, enum category cat,
    const char *sub, const char *evidence)
{
	if (stage != NULL)
		env_set(&r->stage, stage);
	env_verdict(r, v, cat, sub, evidence);
}

/* Is the timing's difference noise: within 3 %, or a ns a call? */
static int
time_noise(const struct scan *s)
{
	double d = s->cand_ns - s->ref_ns;

	return (s->time_ratio > 1 - NOISE && s->time_ratio < 1 + NOISE) ||
	    (d < NOISE_NS && d > -NOISE_NS);
}

/* Metrics of the run and count stages. */
static void
set_metrics(const struct scan *s, struct run *r)
{
	struct buf m = BUF_INIT;

	if (!s->have_equiv)
		return;
	buf_printf(&m, "{\"cases\":%ld,\"mismatches\":%ld", s->cases,
	    s->mismatches);
	if (s->ir_ref > 0 && s->ir_cand > 0) {
		double ir = (double)s->ir_ref / (double)s->ir_cand;

		buf_printf(&m, ",\"ir_ref\":%ld,\"ir_cand\":%ld,\"ir_ratio\":"
		    "%.3f,\"ir_noise\":%s", s->ir_ref, s->ir_cand, ir,
		    ir > 1 - NOISE && ir < 1 + NOISE ? "true" : "false");
	}
	if (s->have_timing)
		buf_printf(&m, ",\"time_ratio\":%.3f,\"ref_ns\":%.1f,"
		    "\"cand_ns\":%.1f,\"time_noise\":%s", s->time_ratio,
		    s->ref_ns, s->cand_ns, time_noise(s) ? "true" : "false");
	buf_adds(&m, "}");
	free(r->metrics);
	r->metrics = buf_detach(&m, NULL);
}

/* The metrics say the count is not believed ("ir_believed": false):
 * optimize takes no gain from it. */
static void
mark_unbelieved(struct run *r)
{
	json_t *m = r->metrics != NULL ? json_loads(r->metrics, 0, NULL) :
	    NULL;

	if (m == NULL)
		return;
	json_object_set_new(m, "ir_believed", json_false());
	free(r->metrics);
	r->metrics = json_dumps(m, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(m);
}

/* "1.27x fewer instructions (28679 -> 22538)" and the timing, for
 * evidence.  New string. */
static char *
speed_words(const struct scan *s, int valgrind)
{
	struct buf b = BUF_INIT;
	double t = s->time_ratio;

	if (s->ir_ref > 0 && s->ir_cand > 0) {
		double ir = (double)s->ir_ref / (double)s->ir_cand;

		if (ir > 1 - NOISE && ir < 1 + NOISE)
			buf_printf(&b, "callgrind: the same instruction count"
			    " within 3 %% noise (%ld -> %ld)", s->ir_ref,
			    s->ir_cand);
		else
			buf_printf(&b, "callgrind: %.3fx %s instructions (%ld"
			    " -> %ld)", ir >= 1 ? ir : 1 / ir, ir >= 1 ?
			    "fewer" : "more", s->ir_ref, s->ir_cand);
	} else {
		buf_printf(&b, "callgrind: %s", valgrind ? "no count" :
		    "not run (valgrind is not installed)");
	}
	if (t > 1 - NOISE && t < 1 + NOISE)
		buf_printf(&b, "; time: as fast, ratio %.3f is within the 3 %%"
		    " noise", t);
	else if (time_noise(s))
		buf_printf(&b, "; time: as fast, %.1f vs %.1f ns per call"
		    " differ by less than the %.1f ns noise (ratio %.3f)",
		    s->cand_ns, s->ref_ns, NOISE_NS, t);
	else
		buf_printf(&b, "; time: %.3fx %s (%.1f vs %.1f ns per call)",
		    t >= 1 ? t : 1 / t, t >= 1 ? "faster" : "slower",
		    s->cand_ns, s->ref_ns);
	return buf_detach(&b, NULL);
}

static void
judge_build(const struct task *t, const struct env_plan *plan,
    struct scan *s, const struct env_stage_result *res, struct run *r)
{
	char *sym = env_param_str(t, "symbol"), *ev;
	const char *f = s->first_error_file;

	if (s->ref_mismatch) {
		/* The reference and the signature disagree. */
		ev = xasprintf("ref.c does not match env_params.signature: %s",
		    s->first_error);
		verdict(r, VERDICT_TASK_DEFECT, "build", CATEGORY_NONE,
		    "signature-mismatch", ev);
		free(ev);
	} else if (f != NULL && strcmp(f, "ld") != 0 &&
	    strcmp(f, plan->cand_file) != 0 && !env_file(f)) {
		/* ref.c, or a header of the task's. */
		ev = xasprintf("the reference does not build: %s",
		    s->first_error);
		verdict(r, VERDICT_TASK_DEFECT, "build", CATEGORY_NONE,
		    "reference-build", ev);
		free(ev);
	} else if (s->undefined != NULL && sym != NULL &&
	    strcmp(s->undefined, sym) == 0) {
		ev = xasprintf("the candidate defines no global symbol %s"
		    " (undefined reference to `%s'): add \".globl %s\" and its"
		    " label", sym, sym, sym);
		verdict(r, VERDICT_FAIL, "build", CATEGORY_COMPILE,
		    "missing-symbol", ev);
		free(ev);
	} else if (s->undefined != NULL) {
		verdict(r, VERDICT_FAIL, "build", CATEGORY_COMPILE,
		    "undefined-symbol", s->first_error);
		r->evidence_line = s->undefined_line;
	} else if (s->multiple > 0) {
		verdict(r, VERDICT_FAIL, "build", CATEGORY_COMPILE,
		    "duplicate-symbol", s->first_error);
	} else if (s->relocation > 0) {
		verdict(r, VERDICT_FAIL, "build", CATEGORY_COMPILE,
		    "relocation", s->first_error);
	} else if (f != NULL && strcmp(f, "ld") != 0) {
		/* The generated harness or abi.s: assay's own fault. */
		verdict(r, VERDICT_ENV_ERROR, "build", CATEGORY_NONE,
		    "harness-build", s->first_error);
	} else {
		ev = env_evidence(s->first_error, res->log, res->log_len,
		    "the link");
		verdict(r, VERDICT_FAIL, "build", CATEGORY_COMPILE,
		    "link-error", ev);
		free(ev);
	}
	free(sym);
}

/* The precheck's "reg rbx 12": where the candidate first names reg. */
static int
precheck_line(const struct env_plan *plan, const char *reg)
{
	char pat[16];
	const char *p;
	int n;

	snprintf(pat, sizeof pat, "reg %s ", reg);
	p = strstr(buf_str(&plan->precheck), pat);
	if (p == NULL)
		return 0;
	n = env_atoi(p + strlen(pat));
	return n > 0 ? n : 0;
}

/* A string member of o, else "?". */
static const char *
cex_str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "?";
}

/*
 * The checker's COUNTEREXAMPLE line (harness.c assay_cex(); only check,
 * which holds the secret, prints it) as the run's counterexample: the
 * object as the checker wrote it, when it has the members a reader
 * needs, and its words:
 *   case 1 (random): n=1 a={2147483647} b={2066896222}
 *   return: reference 4438625836791081634, candidate 0
 */
static int
set_counterexample(const char *line, struct run *r)
{
	json_t *o = line != NULL ? json_loads(line, 0, NULL) : NULL, *in;
	struct buf b = BUF_INIT;
	const char *k;
	json_t *v;

	in = json_object_get(o, "inputs");
	if (!json_is_object(o) || !json_is_object(in) ||
	    !json_is_integer(json_object_get(o, "case")) ||
	    !json_is_string(json_object_get(o, "at")) ||
	    !json_is_string(json_object_get(o, "candidate"))) {
		json_decref(o);
		return 0;
	}
	buf_printf(&b, "case %lld (%s%s):", (long long)json_integer_value(
	    json_object_get(o, "case")), cex_str(o, "mode"),
	    json_is_true(json_object_get(o, "dirty")) ? ", garbage in the"
	    " upper halves of 32-bit arguments" : "");
	json_object_foreach(in, k, v)
		buf_printf(&b, " %s=%s", k, json_is_string(v) ?
		    json_string_value(v) : "?");
	if (json_is_string(json_object_get(o, "reference")))
		buf_printf(&b, "\n%s: reference %s, candidate %s",
		    cex_str(o, "at"), cex_str(o, "reference"),
		    cex_str(o, "candidate"));
	else
		buf_printf(&b, "\n%s: %s", cex_str(o, "at"),
		    cex_str(o, "candidate"));
	feedback_set(r, "counterexample", o, buf_str(&b));
	buf_release(&b);
	return 1;
}

static void
judge_run(const struct env_plan *plan, const struct env_stage_result *run,
    struct scan *s, struct run *r)
{
	char *ev;

	if (s->reference != NULL) {
		ev = xasprintf("the reference failed on its own input: %s",
		    s->reference);
		verdict(r, VERDICT_TASK_DEFECT, "run", CATEGORY_NONE,
		    "reference-crash", ev);
		free(ev);
		return;
	}
	if (s->have_equiv && !s->equiv_pass) {
		const char *sub = s->hang > 0 ? "hang" : s->crash > 0 ?
		    "crash" : "mismatch";

		/* The failing input is the counterexample member's; the
		 * first MISMATCH line (which names it too) is the evidence
		 * only when the checker gave no counterexample. */
		int cex = set_counterexample(s->cex, r);

		ev = xasprintf("%s%sequivalence: FAIL (%ld mismatches / %ld"
		    " cases)%s", !cex && s->first_mismatch != NULL ?
		    s->first_mismatch : "", !cex && s->first_mismatch != NULL ?
		    "; " : "", s->mismatches, s->cases,
		    s->have_abi && !s->abi_pass ? "; the ABI check failed"
		    " too" : "");
		verdict(r, VERDICT_FAIL, "run", CATEGORY_FUNCTIONAL, sub, ev);
		free(ev);
		return;
	}
	if (s->have_abi && !s->abi_pass) {
		const char *p = s->abi_regs != NULL ? s->abi_regs : "";
		char reg[8];

		verdict(r, VERDICT_FAIL, "run", CATEGORY_FUNCTIONAL,
		    "abi-violation",
		    s->abi_line != NULL ? s->abi_line : "abi: FAIL");
		/* The first of the things not kept whose line is known. */
		r->evidence_line = 0;
		while (*p != '\0' && r->evidence_line == 0) {
			size_t n = strcspn(p, " ");

			snprintf(reg, sizeof reg, "%.*s", (int)n, p);
			r->evidence_line = precheck_line(plan, reg);
			p += n + strspn(p + n, " ");
		}
		return;
	}
	if (s->crash > 0 && s->first_mismatch != NULL) {
		/* While timing, after the cases passed. */
		verdict(r, VERDICT_FAIL, "run", CATEGORY_FUNCTIONAL, "crash",
		    s->first_mismatch);
		set_counterexample(s->cex, r);
		return;
	}
	if (!s->have_equiv || !s->have_abi || !s->have_timing ||
	    run->exit_code != 0) {
		ev = run->exit_code > 128 ? xasprintf("the harness died of"
		    " signal %d before its result", run->exit_code - 128) :
		    xasprintf("no result from the harness (exit status %d):"
		    " the candidate ended the process or broke the harness",
		    run->exit_code);
		verdict(r, VERDICT_FAIL, "run", CATEGORY_FUNCTIONAL,
		    run->exit_code > 128 ? "crash" : "no-result-line", ev);
		free(ev);
		return;
	}
	verdict(r, VERDICT_PASS, "run", CATEGORY_NONE, NULL, NULL);
}

/*
 * The assemble stage's refusal (isolate): "x86-asm: forbidden-KIND: WHY"
 * at the start of a line, which only the stage's script prints (as's
 * messages start with the file's name); a WHY that starts "cand.s:LINE:"
 * makes LINE the evidence line.  1 when found.
 */
static int
judge_isolate(const struct env_stage_result *as, struct run *r)
{
	static const char mark[] = "x86-asm: forbidden-";
	const char *p = as->log, *end = as->log + as->log_len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > sizeof mark - 1 && memcmp(p, mark, sizeof mark - 1) ==
		    0) {
			char *line = xstrndup(p + 9, l - 9);
			char *colon = strchr(line, ':');

			if (colon != NULL) {
				const char *why = colon + 1 + strspn(colon +
				    1, " ");
				long ln = 0;

				*colon = '\0';
				verdict(r, VERDICT_FAIL, "assemble",
				    CATEGORY_COMPILE, line, why);
				/* "cand.s:LINE: ...": the line the bytes
				 * came from */
				if (strncmp(why, CAND_FILE ":", sizeof
				    CAND_FILE) == 0)
					ln = strtol(why + sizeof CAND_FILE,
					    NULL, 10);
				if (ln > 0 && ln < INT_MAX)
					r->evidence_line = (int)ln;
				free(line);
				return 1;
			}
			free(line);
		}
		p += l + (nl != NULL);
	}
	return 0;
}

/*
 * The hot lines (feedback member "hot_lines") from callgrind's per-line
 * counts: the candidate's lines with their share of its count, the
 * reference's beside them.  Nothing when the candidate's were not
 * counted.
 */
static void
set_hot_lines(const struct scan *s, struct run *r)
{
	json_t *o, *lines, *ref;
	struct buf b = BUF_INIT;

	if (s->nhot_cand == 0 || s->ir_cand <= 0)
		return;
	o = json_object();
	lines = json_array();
	ref = json_array();
	buf_printf(&b, "callgrind, one call on the timing input: %ld"
	    " instructions", s->ir_cand);
	if (s->ir_ref > 0)
		buf_printf(&b, " (the reference: %ld)", s->ir_ref);
	buf_adds(&b, "\n");
	for (int i = 0; i < s->nhot_cand; i++) {
		double sh = (double)s->hot_cand[i].count / (double)s->ir_cand;

		json_array_append_new(lines, json_pack("{s:i, s:I, s:f}",
		    "line", s->hot_cand[i].line, "count",
		    (json_int_t)s->hot_cand[i].count, "share",
		    (double)(long)(sh * 10000 + 0.5) / 10000));
		buf_printf(&b, "line %d: %ld (%.1f %%)\n",
		    s->hot_cand[i].line, s->hot_cand[i].count, 100 * sh);
	}
	for (int i = 0; i < s->nhot_ref && s->ir_ref > 0; i++) {
		double sh = (double)s->hot_ref[i].count / (double)s->ir_ref;

		json_array_append_new(ref, json_pack("{s:i, s:I, s:f}",
		    "line", s->hot_ref[i].line, "count",
		    (json_int_t)s->hot_ref[i].count, "share",
		    (double)(long)(sh * 10000 + 0.5) / 10000));
		if (i < 3)
			buf_printf(&b, "%sline %d: %ld (%.1f %%)", i == 0 ?
			    "the reference, ref.c: " : ", ",
			    s->hot_ref[i].line, s->hot_ref[i].count,
			    100 * sh);
	}
	json_object_set_new(o, "file", json_string(CAND_FILE));
	json_object_set_new(o, "lines", lines);
	json_object_set_new(o, "instructions", json_integer(s->ir_cand));
	if (s->ir_ref > 0)
		json_object_set_new(o, "ref_instructions",
		    json_integer(s->ir_ref));
	json_object_set_new(o, "reference", ref);
	feedback_set(r, "hot_lines", o, buf_str(&b));
	buf_release(&b);
}

/*
 * A performance failure's bottleneck in one line, from the hot lines:
 * the hottest lines that make half the candidate's count (at most
 * three) against the reference's count.  New string, or NULL when there
 * are no hot lines.
 */
static char *
bottleneck_words(const struct scan *s)
{
	struct buf b = BUF_INIT;
	long sum = 0;
	int n;

	if (s->nhot_cand == 0 || s->ir_cand <= 0)
		return NULL;
	for (n = 0; n < s->nhot_cand && n < 3 && 2 * sum < s->ir_cand; n++)
		sum += s->hot_cand[n].count;
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%d", i == 0 ? (n == 1 ? "line " :
		    "lines ") : i == n - 1 ? " and " : ", ",
		    s->hot_cand[i].line);
	buf_printf(&b, " %s %.0f %% of the candidate's %ld instructions",
	    n == 1 ? "runs" : "run", 100.0 * (double)sum /
	    (double)s->ir_cand, s->ir_cand);
	if (s->ir_ref > 0)
		buf_printf(&b, " (%.2fx the reference's %ld)",
		    (double)s->ir_cand / (double)s->ir_ref, s->ir_ref);
	return buf_detach(&b, NULL);
}

/*
 * A performance failure names its bottleneck in the feedback member
 * "bottleneck" alone (with its hottest line): the evidence stays the
 * toolchain's verdict line, so a request without the feedback members
 * (repair --feedback minimal) carries no bottleneck.
 */
static void
performance_fail(const struct scan *s, struct run *r, const char *label,
    char *why)
{
	char *bn;

	verdict(r, VERDICT_FAIL, NULL, CATEGORY_PERFORMANCE, label, why);
	free(why);
	bn = bottleneck_words(s);
	if (bn == NULL) {
		feedback_set(r, "bottleneck", json_pack("{s:b}", "measured",
		    0), "not measured: callgrind gave no per-line counts (the"
		    " timing and the instruction count are in the evidence)");
		return;
	}
	feedback_set(r, "bottleneck", json_pack("{s:b, s:i, s:s}",
	    "measured", 1, "line", s->hot_cand[0].line, "by", "callgrind"),
	    bn);
	free(bn);
}

/*
 * The checker's lines that carry a feedback member's information (the
 * failing inputs: MISMATCH, CRASH and HANG lines of a case, the
 * COUNTEREXAMPLE; callgrind's "hot" lines) leave the stored log, which a
 * request without the feedback members (repair --feedback minimal)
 * quotes: one line says where they went.  Only the checker's own lines
 * (the secret's) go; the timing's MISMATCH/CRASH lines name no input
 * and stay.  In place on r->log, before the secret is stripped.
 */
static void
strip_member_lines(const struct env_plan *plan, struct run *r)
{
	static const char note[] = "(%d checker lines taken out of the log:"
	    " the failing inputs and callgrind's hot lines are the run's"
	    " feedback members counterexample and hot_lines; show prints"
	    " them)\n";
	char *p, *end, *w, *at = NULL, *line;
	int n = 0;

	if (r->log == NULL)
		return;
	p = w = r->log;
	end = r->log + r->log_len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl + 1 - p) :
		    (size_t)(end - p);
		const char *h;
		int drop;

		line = xstrndup(p, l - (nl != NULL));
		h = harness_line(plan, line);
		drop = h != NULL && (strncmp(h, "hot ", 4) == 0 ||
		    strncmp(h, "COUNTEREXAMPLE ", 15) == 0 ||
		    ((strncmp(h, "MISMATCH ", 9) == 0 ||
		    strncmp(h, "CRASH ", 6) == 0 ||
		    strncmp(h, "HANG ", 5) == 0) &&
		    strstr(h, " while timing") == NULL));
		free(line);
		if (drop) {
			if (at == NULL)
				at = w;
			n++;
		} else {
			memmove(w, p, l);
			w += l;
		}
		p += l;
	}
	r->log_len = (size_t)(w - r->log);
	r->log[r->log_len] = '\0';
	if (n > 0) {
		char *msg = xasprintf(note, n);
		size_t ml = strlen(msg), off = (size_t)(at - r->log);

		r->log = xrealloc(r->log, r->log_len + ml + 1);
		memmove(r->log + off + ml, r->log + off, r->log_len - off + 1);
		memcpy(r->log + off, msg, ml);
		r->log_len += ml;
		free(msg);
	}
}

static void
x86asm_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	struct scan s;
	const struct env_rule *rule;
	const struct env_stage_result *last = nres > 0 ? &res[nres - 1] : NULL;
	const char *pre = buf_str(&plan->precheck);
	int copied = strstr(pre, "copied-input\n") != NULL;
	int valgrind = strstr(pre, "no-valgrind\n") == NULL;
	int counted = 0, disagree, slow, slower, busy, beyond;
	double ir;
	char *ev;

	if (x86prog_mode(t)) {
		x86prog_judge(t, plan, res, nres, stop, r);
		return;
	}
	memset(&s, 0, sizeof s);
	s.ir_ref = s.ir_cand = -1;
	if (strncmp(pre, "defect ", 7) == 0) {
		char *msg = xstrndup(pre + 7, strcspn(pre + 7, "\n"));

		verdict(r, VERDICT_TASK_DEFECT, "check", CATEGORY_NONE,
		    "bad-task", msg);
		free(msg);
		return;
	}
	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	for (size_t i = 0; i < nres && i < 2; i++)
		scan_tool_log(plan, res[i].log, res[i].log_len, &s, r);
	/* the linker names an undefined symbol once per call */
	env_diags_dedup(r);
	if (nres >= 3)
		scan_run_log(plan, res[2].log, res[2].log_len, &s);
	if (nres >= 4) {
		scan_count_log(plan, res[3].log, res[3].log_len, &s);
		counted = s.ir_ref > 0 && s.ir_cand > 0;
	}
	set_metrics(&s, r);
	env_set(&r->stage, plan->stages[nres - 1].name);
	/* A run that passed its checks and timing keeps its verdict when
	 * only callgrind ran out of time or failed. */
	if (nres == 4 && res[2].exit_code == 0 && s.have_timing &&
	    (stop == ENV_STOP_TIMEOUT || stop == ENV_STOP_NONE))
		goto speed;
	/* Out of time once the check passed: too slow.  A flood of output
	 * is never a matter of speed. */
	slow = s.equiv_pass && stop != ENV_STOP_OUTPUT;
	if (env_judge_limits(stop, last->exit_code, nres <= 2 ? "compile" :
	    slow ? "performance" : "functional", nres <= 2 ? "the build" :
	    slow ? "timing" : "the run", r))
		goto out;
	if (stop == ENV_STOP_DISK || last->exit_code == 128 + 25) {
		verdict(r, VERDICT_FAIL, NULL,
		    nres <= 2 ? CATEGORY_COMPILE : CATEGORY_FUNCTIONAL,
		    "resource-limit",
		    "the work directory or a file passed its size limit");
		goto out;
	}
	if (res[0].exit_code == 127 || (nres >= 2 && res[1].exit_code == 127)) {
		verdict(r, VERDICT_ENV_ERROR, NULL, CATEGORY_NONE,
		    "toolchain-missing", "as or gcc could not be started");
		goto out;
	}
	if (res[0].exit_code != 0 && judge_isolate(&res[0], r))
		goto out;
	if (res[0].exit_code != 0) {
		const char *msg = NULL;

		for (size_t i = 0; i < r->ndiags && msg == NULL; i++)
			if (strcmp(r->diags[i].severity, "error") == 0)
				msg = r->diags[i].message;
		rule = env_rule_find(x86asm_rules, X86ASM_NRULES, "assemble",
		    msg);
		env_set(&r->stage, "assemble");
		ev = env_evidence(s.first_error, res[0].log, res[0].log_len,
		    "the assembler");
		env_verdict_rule(r, VERDICT_FAIL, rule, CATEGORY_COMPILE,
		    "assembler-error", ev);
		free(ev);
		goto out;
	}
	/* A run that ended before the stage it would be judged by (a
	 * fuzzer's input; verify runs every stage of a passing run) says
	 * nothing of the candidate: never read a stage that did not run. */
	if (nres < 2 || (res[1].exit_code == 0 && nres < 3)) {
		verdict(r, VERDICT_ENV_ERROR, NULL, CATEGORY_NONE, NULL,
		    "the run ended before its stages did");
		goto out;
	}
	if (res[1].exit_code != 0) {
		judge_build(t, plan, &s, &res[1], r);
		goto out;
	}
	judge_run(plan, &res[2], &s, r);
	goto check;
speed:
	judge_run(plan, &res[2], &s, r);
	if (nres == 4 && !counted)
		run_add_diag(r, "", 0, 0, "note", stop == ENV_STOP_TIMEOUT ?
		    "callgrind ran out of time: the timing ratio alone"
		    " decides" : "callgrind gave no count (an instruction"
		    " valgrind does not know?): the timing ratio alone"
		    " decides", 0);
check:
	if (!verdict_is(r->verdict, VERDICT_PASS))
		goto out;
	if (!valgrind)
		run_add_diag(r, "", 0, 0, "note", "callgrind not run: valgrind"
		    " is not installed; the timing ratio alone decides", 0);
	if (counted)
		env_set(&r->stage, "count");
	/* The call callgrind counted answered otherwise than the check's
	 * calls: the candidate did other work when counted (it can know
	 * valgrind by /proc/self/maps, or its clock), so the count is of
	 * something else, and the candidate is wrong there. */
	if (nres == 4 && s.counted_fail != NULL) {
		char *why = xasprintf("wrong when counted: %s",
		    s.counted_fail);

		verdict(r, VERDICT_FAIL, "count", CATEGORY_FUNCTIONAL,
		    "differs-when-counted", why);
		free(why);
		goto out;
	}
	ir = counted ? (double)s.ir_ref / (double)s.ir_cand : 0;
	/* The count runs inside valgrind, where the candidate can know it
	 * is counted; the clock runs outside, on changing inputs.  So the
	 * count may excuse a slower clock only within a busy machine's
	 * noise (BUSY); past it the clock fails the candidate whatever the
	 * count says.  A count that says faster by DISAGREE while the clock
	 * says slower beyond its noise is not believed: within BUSY the
	 * candidate passes on the clock's noise, but the count is no gain
	 * and its per-line profile is not kept (ADR 0059). */
	slower = s.time_ratio <= 1 - NOISE && !time_noise(&s);
	busy = slower && s.time_ratio <= 1 / BUSY;
	disagree = counted && ir >= DISAGREE && slower;
	beyond = counted && s.time_ratio > IPC_SPAN * ir;
	if (counted && !disagree)
		set_hot_lines(&s, r);
	if (counted && !disagree && s.hot_none != NULL) {
		char *why = xasprintf("callgrind's per-line counts not used:"
		    " %s", s.hot_none);

		run_add_diag(r, "", 0, 0, "note", why, 0);
		free(why);
	}
	ev = speed_words(&s, valgrind);
	if (copied) {
		performance_fail(&s, r, "copied-input", xasprintf("the"
		    " candidate is input.s unchanged, modulo whitespace and"
		    " comments (%s)", ev));
	} else if (beyond || (busy && disagree)) {
		char *why = beyond ? xasprintf("the two measures disagree: %s;"
		    " the clock says faster by more than %gx what the counted"
		    " call's instructions allow (no x86 core runs that many"
		    " more a cycle): the timed calls did less work than the"
		    " counted one, as an answer carried from call to call does",
		    ev, IPC_SPAN) : xasprintf("the two measures disagree: %s;"
		    " a count that says faster while the clock says slower did"
		    " not count the candidate's work", ev);

		verdict(r, VERDICT_FAIL, NULL, CATEGORY_PERFORMANCE,
		    "measures-disagree", why);
		free(why);
		feedback_set(r, "bottleneck", json_pack("{s:b}", "measured",
		    0), "not measured: callgrind's count and the clock"
		    " disagree, so its per-line counts are not believed");
	} else if (busy || (slower && !(counted && ir > 1 - NOISE))) {
		/* Slower by the clock beyond a busy machine's noise, or
		 * beyond its 3 % and by the count too when callgrind gave
		 * one: within BUSY a clock alone is noise (the reference
		 * timed against itself came out 1.16x "slower" while
		 * another job ran). */
		performance_fail(&s, r, "slower-than-reference",
		    xasprintf("correct but slower than the reference%s: %s",
		    busy && counted && ir > 1 - NOISE ? " by the clock,"
		    " beyond a busy machine's noise, whatever the count" :
		    "", ev));
	} else {
		char *why = xasprintf("equivalent on %ld cases, ABI kept; %s%s",
		    s.cases, ev, disagree ? "; the count is not believed: the"
		    " clock says slower (within a busy machine's noise), so"
		    " it is no gain" : "");

		env_set(&r->evidence, why);
		free(why);
		if (disagree)
			mark_unbelieved(r);
	}
	free(ev);
out:
	strip_member_lines(plan, r);
	scan_release(&s);
}

const struct env_ops env_x86asm = {
	.name = "x86-asm",
	.domain = "compiler",
	.lang = "asm",
	.packages = "gcc binutils valgrind",
	.missing_hint = "x86-64 hosts only; valgrind is optional (without it"
	    " the timing ratio alone decides)",
	.toolchain = x86asm_toolchain,
	.partial = x86asm_partial,
	.prepare = x86asm_prepare,
	.rules = x86asm_rules,
	.nrules = X86ASM_NRULES,
	.judge = x86asm_judge,
};
