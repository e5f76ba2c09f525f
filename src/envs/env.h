/*
 * env.h - the toolchain environment interface (design.md sections 4, 7).
 *
 * An env is data plus a few functions: which files to write into the
 * work directory and which commands (stages) to run there, and how to
 * read the stages' output into a verdict, diagnostics, metrics and a
 * suggested failure category.  verify.c owns the work directory, the
 * sandbox, the limits and the processes; an env never runs anything
 * itself except its toolchain's version query.  Adding a toolchain is
 * adding one file in src/envs/ and one line in envs.c.
 */
#ifndef ASSAY_ENV_H
#define ASSAY_ENV_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/sample.h"
#include "model/vocab.h"

#define ENV_MAX_STAGES 6
#define ENV_MAX_ARGS 64
#define ENV_MAX_RO 16		/* read-only data files of a stage */
#define ENV_MAX_SEAL 8		/* files a stage seals or uses */

/* One command of a run, e.g. compile then simulate. */
struct env_stage {
	char	 name[16];		/* "compile", "simulate" */
	char	*argv[ENV_MAX_ARGS];	/* owned, NULL-terminated */
	/*
	 * Subdirectory of the work directory the stage sees as its whole
	 * /work ("" for all of it): a simulation that needs only the
	 * compiled image cannot read the sources next to it.
	 */
	char	 subdir[16];
	/*
	 * 1: the stage may use assay's lasting compiler cache.  verify.c
	 * then binds it read-write at /ccache and sets CCACHE_DIR, for this
	 * stage only: a stage that runs candidate code must never see it
	 * (it could plant objects that later builds link).  Set it only on
	 * stages that compile and run nothing of the candidate's.
	 */
	int	 cache;
	/*
	 * 1: the stage runs code on the GPU.  Where the NVIDIA driver is
	 * loaded (/proc/driver/nvidia/version and /dev/nvidiactl exist),
	 * verify.c binds the /dev/nvidia*
	 * device nodes and /sys read-only into the sandbox and lifts the
	 * address-space limit, which the CUDA runtime's start-up alone
	 * exceeds (it reserves large virtual ranges); the CPU time, file
	 * size and process limits and the wall clock still hold.
	 */
	int	 gpu;
	/*
	 * 1: the stage reads the run's secret (env_plan.nonce and a
	 * newline) from fd ENV_NONCE_FD, a pipe, instead of finding it on
	 * its command line: a command line is readable by every process of
	 * the sandbox (/proc/1/cmdline is the sandbox's own).
	 */
	int	 nonce_fd;
	/*
	 * 1: no /proc in the stage's sandbox: a stage whose guest opens
	 * files by name on the host (QEMU's semihosting) must not reach
	 * /proc/self/fd/N (the evidence QEMU writes) or other processes'
	 * command lines; a Verilog simulation, whose image holds the
	 * harness's secret, must not read it through /proc/self/exe or
	 * mem, nor learn the image's path from its command line.
	 */
	int	 no_proc;
	/*
	 * Files of the stage's directory (plain names, owned, NULL-
	 * terminated) that the sandbox binds read-only over themselves:
	 * task data files the simulation reads at run time (RTLLM's
	 * tdata.txt, reference.dat), which the code under test must not
	 * rewrite to decide its own verdict.  env_plan_data() fills it.
	 */
	char	*ro[ENV_MAX_RO + 1];
	/*
	 * 1: the stage runs the project venv's Python (env_venv_dir()).
	 * verify.c binds the venv read-only at ENV_VENV_MOUNT in the
	 * sandbox, for this stage only; without the sandbox it puts the
	 * venv's own path where an argument starts with ENV_VENV_MOUNT.
	 */
	int	 venv;
	/*
	 * 1: the stage's output is data for the judge (a waveform dump),
	 * not text for a person: the live view shows a line saying so
	 * instead of its bytes (verify.c, flush_live); the stored log has
	 * it until the env's judge takes it out.
	 */
	int	 quiet;
	/*
	 * 1: candidate code runs in this stage, natively or in a program
	 * that executes it (QEMU, vvp, a Verilator model, Python): what
	 * the stage can write is the candidate's to write.  Every later
	 * stage of the env runs in a sealed work area (below), never in
	 * the directories this one could write.
	 */
	int	 candidate;
	/*
	 * Files this stage makes that a later stage runs or reads: paths
	 * relative to the stage's /work ("run/check", "ev/uart.txt"), no
	 * ".." and no symbolic link on the way (owned, NULL-terminated).
	 * When the stage ends with status 0, verify.c copies each, a
	 * regular file, into the job's seal store (a directory no sandbox
	 * binds) under its last component ("check") with its SHA-256.
	 * env_plan_seal() fills it.
	 */
	char	*seal[ENV_MAX_SEAL + 1];
	/*
	 * Sealed files this stage runs or reads, by name ("check"; owned,
	 * NULL-terminated): sealed by an earlier stage or from prepare()'s
	 * files (env_plan.seal).  A stage that uses sealed files, or that
	 * comes after a candidate stage, runs in a fresh work area that
	 * verify.c makes for it (/work is that area, subdir is ignored):
	 * it holds these files alone, each checked against its hash when
	 * it is put there and bound read-only, so that no process of the
	 * stage can replace or rewrite it.  env_plan_use() fills it.
	 */
	char	*use[ENV_MAX_SEAL + 1];
	/*
	 * A sealed file this stage reads on fd ENV_INPUT_FD, by name
	 * ("want.rec"; "" for none), sealed by an earlier stage: verify.c
	 * opens its copy in the seal store read-only, checks its hash and
	 * hands the descriptor to the stage's command, which runs in a
	 * sealed work area that does not hold the file.  No path in the
	 * sandbox names it: a process of the stage holds it only while it
	 * keeps the descriptor (nvcc's checker reads the expected values
	 * so and closes it before the candidate's run starts, ADR 0056).
	 * env_plan_input() sets it.
	 */
	char	 input[64];
};

#define ENV_NONCE_FD 5
#define ENV_INPUT_FD 6		/* SANDBOX_INPUT_FD */

/* toolchain()'s "installed but does not run" (struct env_ops). */
#define ENV_TOOL_BROKEN (-2)

/* Where a venv stage sees the project venv, and its Python there. */
#define ENV_VENV_MOUNT "/venv"
#define ENV_VENV_PYTHON ENV_VENV_MOUNT "/bin/python3"

/* What an env's prepare() produces: files written, stages to run. */
struct cuda_launch_issue;

struct env_plan {
	struct env_stage stages[ENV_MAX_STAGES];
	size_t	 nstages;
	int	 timeout_s;	/* wall clock for the whole run */
	/*
	 * A per-run secret the env puts into its harness's own output.
	 * verify.c removes "NONCE " wherever it appears and drops whole
	 * "NONCE finish" lines, from the stored log and the live output,
	 * after the judge has seen them.
	 */
	char	 nonce[33];
	int	 finish_tagged;	/* the testbench's $finish calls are marked */
	char	*cand_file;	/* name the candidate was written under (owned) */
	struct buf inputs;	/* JSON object text: file name -> sha256 */
	/*
	 * Findings of static checks prepare() makes on the candidate before
	 * anything runs, as text lines the env
	 * defines; its judge() reads them.  Empty when none; owned.
	 */
	struct buf precheck;
	/*
	 * The CUDA launch-limit issues nvcc's prepare() found in the
	 * candidate (cuda_launch_check()), for its judge(): a struct, not
	 * text.  Owned; NULL when none.
	 */
	struct cuda_launch_issue *launch;
	size_t	 nlaunch;
	/*
	 * Files prepare() wrote that a stage uses (env_stage.use): paths
	 * relative to the env's work directory, sealed by verify.c right
	 * after prepare(), before any stage runs (owned, NULL-terminated).
	 */
	char	*seal[ENV_MAX_SEAL + 1];
};

/* How each stage ended, as verify.c saw it. */
struct env_stage_result {
	int	 ran;		/* 0 when an earlier stage stopped the run */
	int	 exit_code;	/* exit status, 128 + signal when killed */
	const char *log;	/* this stage's merged output (borrowed) */
	size_t	 log_len;
};

/* Why verify.c stopped a run, if it did. */
enum env_stop {
	ENV_STOP_NONE,
	ENV_STOP_TIMEOUT,	/* wall clock */
	ENV_STOP_OUTPUT,	/* output cap */
	ENV_STOP_CANCEL,	/* the user pressed x */
	ENV_STOP_DISK,		/* the work directory passed its size cap */
	/*
	 * Not a stop of verify.c's: the last stage's process died of a
	 * SIGKILL nobody outside the sandbox sent (the CPU limit was not
	 * reached): something inside killed the harness.
	 */
	ENV_STOP_KILLED
};

/*
 * A triage rule (docs/triage.md): a message of stage whose text matches
 * pattern is evidence of category/subcategory.  stage is a stage name of
 * the env ("compile"), several separated by blanks ("lint build"), or
 * ENV_RULE_WARNING: a warning, of any stage, that explains a failure
 * seen later (a truncated literal behind mismatches), which
 * triage_apply() reads after the judge.  pattern is text the message
 * holds; '^' at its start ties it to the message's start and '*' stands
 * for any text between two parts ("^CompilationError:*NameError").  Each
 * env holds its rules as data, first match wins; env_rule_find() is the
 * one engine that reads them.
 */
struct env_rule {
	const char	*stage;
	const char	*pattern;
	enum category	 category;
	const char	*subcategory;
};

#define ENV_RULE_WARNING "warning"

struct env_ops {
	const char	*name;		/* "iverilog" */
	const char	*domain;	/* "chip" */
	const char	*lang;		/* "verilog" */
	const char	*packages;	/* Debian packages that provide it, or
					   NULL when Debian has none */
	/*
	 * What to tell a user whose machine lacks the toolchain, beyond the
	 * packages: where it comes from when Debian has no package, or why
	 * it cannot run here ("needs an NVIDIA GPU and driver").  May be NULL.
	 */
	const char	*missing_hint;
	/*
	 * What the env does on a machine without a GPU, for assay envs
	 * ("compiles and checks launch limits; the run is skipped"); NULL
	 * for an env that needs no GPU (it does everything).
	 */
	const char	*without_gpu;

	/*
	 * Optional (NULL: reinstalling its packages is the advice).  What
	 * to do about a toolchain whose smoke test fails (verify/smoke.h),
	 * read from its identity (toolchain()'s string, borrowed) and
	 * whether it ran sandboxed, into buf (n bytes); leave buf empty for
	 * the default advice.  Pure.
	 */
	void	(*broken_hint)(const char *identity, int sandboxed, char *buf,
		    size_t n);

	/*
	 * Identity of the installed toolchain into buf ("Icarus Verilog
	 * version 11.0 (stable)").  -1 with err when it is not installed;
	 * ENV_TOOL_BROKEN with err (the tool's first error line) when it is
	 * installed but does not run (its version query fails: a library
	 * missing, a wrapper that hangs): a broken toolchain, not a missing
	 * one (issue 21).
	 */
	int	(*toolchain)(char *buf, size_t n, struct err *err);

	/*
	 * Optional (NULL: the env has no optional parts).  What an installed
	 * toolchain lacks, read from its identity (toolchain()'s string,
	 * borrowed): 1 with a short list of the missing parts in buf
	 * ("torch, triton, a GPU") when some of what the env does cannot be
	 * done here (candidates that need it are verified as skipped, or a
	 * measurement is left out), 0 when nothing is missing.  Pure: runs
	 * nothing.  assay envs shows the list and missing_hint; verify does
	 * not call it, and runs such a toolchain as any other.
	 */
	int	(*partial)(const char *identity, char *buf, size_t n);

	/*
	 * Write the candidate and the task files into workdir and fill plan
	 * (stages, timeout, inputs).  0 or -1 with err.
	 */
	int	(*prepare)(const struct task *t, const struct candidate *c,
		    const char *workdir, struct env_plan *plan, struct err *err);

	/*
	 * Optional (NULL: none).  The names of the modules (functions ...)
	 * a candidate of task t must define, space-separated, for triage's
	 * missing-top rule (triage_apply()); new, caller frees; NULL when
	 * the env cannot tell.  Pure: runs nothing.
	 */
	char	*(*tops)(const struct task *t);

	/*
	 * The env's triage rules, first match wins (NULL, 0: none); its
	 * judge reads those of its stages, triage_apply() those of
	 * ENV_RULE_WARNING.  Borrowed for the life of the program.
	 */
	const struct env_rule *rules;
	size_t		 nrules;

	/*
	 * Read the stages' results into r: verdict, stage, subcategory,
	 * diagnostics, metrics, category and evidence.  May rewrite the log
	 * in r (e.g. remove the nonce).  Never fails: anything unexpected is
	 * a verdict.  The stage logs still hold the nonce.
	 */
	void	(*judge)(const struct task *t, const struct env_plan *plan,
		    const struct env_stage_result *res, size_t nres,
		    enum env_stop stop, struct run *r);
};

/* The table of envs (envs.c); NULL when no env has that name. */
const struct env_ops *env_find(const char *name);
const struct env_ops *const *env_list(size_t *n);

/* Helpers for envs. */
/*
 * A per-run secret (env_plan.nonce) into out (n bytes): lead, then
 * random hex digits, digits characters in all (held at n - 1), NUL-
 * terminated.  lead is a letter: the secret is then a word of its own
 * (no digit run a program prints by chance) and a name in Verilog, C and
 * Python.  Reads getrandom(); should it fail, rand() and the pid (weak,
 * but the run still has a secret).  Never fails.
 */
void	env_nonce(char *out, size_t n, size_t digits, char lead);
/*
 * The decimal digits at *p (up to end, or the first non-digit when end
 * is NULL) as an int in *out, held at INT_MAX (env_digit()), *p moved
 * past all of them: a log's numbers are the candidate's to choose (a
 * 40-digit line number).  Returns the number of digits (0: none, *out
 * is 0).
 */
int	env_digits(const char **p, const char *end, int *out);
/* atoi() for a count or a line number, held at INT_MAX; 0 when s does
 * not start with a digit. */
int	env_atoi(const char *s);
/*
 * Replace the string field *field (a struct run's verdict, stage, ...) by
 * a copy of v: the old value is freed, v is borrowed and copied; NULL v
 * leaves *field NULL.  Never fails (xstrdup() dies on OOM).
 */
void	env_set(char **field, const char *v);
/*
 * A located message as gcc, GNU as, ld and Icarus Verilog print it:
 * "FILE:LINE:COL: SEVERITY: MESSAGE", "FILE:LINE: SEVERITY: MESSAGE" or
 * "FILE:LINE: MESSAGE" (ld with -g; Icarus' "syntax error").  FILE holds
 * no blank.  SEVERITY is "error", "warning", "note", "sorry" or gcc's
 * "fatal error" (an error), also capitalised as GNU as writes them.
 */
struct env_located {
	const char	*file;		/* a span of the line, flen bytes */
	size_t		 flen;
	int		 line, col;	/* held at INT_MAX; col 0: none */
	const char	*severity;	/* "error", "warning", "note", "sorry";
					   NULL when the line names none */
	const char	*msg;		/* after the severity and blanks */
	size_t		 msglen;
};
/*
 * A stage's output: its log (len bytes) past the "$ COMMAND" line that
 * verify.c puts first, which names the files on the command line but is
 * not the tool's.  Points into log; *outlen its length.
 */
const char *env_stage_output(const char *log, size_t len, size_t *outlen);
/*
 * The line of a tool's log (len bytes; a stage's header line is skipped,
 * env_stage_output()) to quote as the evidence of its
 * failure: the first line that says "error" in any case ("ERROR: No
 * supported gcc/g++ host compiler found", "nvcc fatal", a located
 * error), else the first line that is not blank; trimmed of blanks and
 * carriage returns, cut at 300 bytes, made terminal-safe.  New string,
 * or NULL when the log holds nothing but blanks: only then may a
 * verdict say a tool "failed without an error message".
 */
char	*env_first_error(const char *log, size_t len);
/*
 * A failure's evidence: a copy of ev when the judge found one, else the
 * tool's first error line in its stage's log (log, len:
 * env_first_error()), else "TOOL failed without a message", which is
 * then true.  New string.
 */
char	*env_evidence(const char *ev, const char *log, size_t len,
	    const char *tool);
/* Parse line (len bytes, no newline) into *loc; 1 when it is such a
 * message, else 0.  Everything in loc points into line. */
int	env_located(const char *line, size_t len, struct env_located *loc);

/*
 * The one de-duplication policy for diagnostics: drop every diagnostic of
 * r that is the same as an earlier one in all its fields (file, line,
 * column, candidate line, severity, message), keeping the first and the
 * order.  A linker names an undefined symbol at every call site, nvcc
 * repeats an error for each pass.  Linear in the number of diagnostics.
 */
void	env_diags_dedup(struct run *r);

/*
 * The first of rules[0..n) for stage (a stage name, or ENV_RULE_WARNING)
 * whose pattern text matches (env_rule_matches()), or NULL (none, or
 * text NULL).  Borrowed from rules.
 */
const struct env_rule *env_rule_find(const struct env_rule *rules,
	    size_t n, const char *stage, const char *text);
/* Does text match pattern (struct env_rule): its parts in order, the
 * first at text's start when pattern starts with '^'?  1 or 0. */
int	env_rule_matches(const char *pattern, const char *text);
/*
 * env_verdict() with rule's category and subcategory; when rule is NULL
 * (no rule matched), with category and subcategory instead.
 */
void	env_verdict_rule(struct run *r, enum verdict v,
	    const struct env_rule *rule, enum category category,
	    const char *subcategory, const char *evidence);

/*
 * A judge's finding in one call: r's verdict (v, which must be a
 * verdict), category (CATEGORY_NONE: none), subcategory and evidence are
 * replaced by copies of the arguments (NULL: none); the old values are
 * freed after the new ones are copied, so an argument may be one of r's
 * fields.  The stage and everything else of r are left alone.
 */
void	env_verdict(struct run *r, enum verdict v, enum category cat,
	    const char *subcategory, const char *evidence);
/*
 * The verdict of a run that hit the output cap or the wall clock
 * (stop), or the CPU limit (exit_code, the last stage's, is 128 + SIGXCPU
 * or 128 + SIGKILL while stop is ENV_STOP_NONE), or whose harness the
 * candidate killed (ENV_STOP_KILLED): fail/output-limit,
 * timeout/timeout or fail/harness-killed, in category, with evidence
 * that starts with what ("the run", "synthesis").  Returns 1 when it
 * judged r so, else 0 and leaves r alone.
 */
int	env_judge_limits(enum env_stop stop, int exit_code,
	    const char *category, const char *what, struct run *r);
void	env_plan_init(struct env_plan *p);
void	env_plan_release(struct env_plan *p);
/* Append a stage: argv strings are copied; the list ends with NULL. */
void	env_plan_stage(struct env_plan *p, const char *name,
	    const char *const *argv);
/* The same, for a stage that sees only the subdirectory subdir. */
void	env_plan_stage_in(struct env_plan *p, const char *name,
	    const char *const *argv, const char *subdir);
/*
 * Seal: the last stage planned makes the files paths (relative to its
 * /work, NULL-terminated) for a later stage (env_stage.seal); with no
 * stage planned yet, they are prepare()'s own files (env_plan.seal).
 * Use: the last stage planned runs or reads the sealed files names
 * (env_stage.use).  A name is the last component of its sealed path.
 * Copies the strings; more than ENV_MAX_SEAL is a bug (ASSAY_BUG).
 */
void	env_plan_seal(struct env_plan *p, const char *const *paths);
void	env_plan_use(struct env_plan *p, const char *const *names);
/*
 * The last stage planned reads the sealed file name on fd ENV_INPUT_FD
 * (env_stage.input), never by a path.  A name too long is a bug
 * (ASSAY_BUG).
 */
void	env_plan_input(struct env_plan *p, const char *name);
/*
 * A task data file for the last stage planned (a simulation that reads
 * it at run time by its bare name): write data (len bytes) to
 * workdir/SUBDIR/name, SUBDIR being that stage's subdir (it must exist),
 * mode 0444, record its hash in inputs under name, and list name in the
 * stage's ro[] so that the sandbox binds it read-only.  0, or -1 with err:
 * no stage, a bad name (as env_write_input()), more than ENV_MAX_RO files,
 * or a write error.
 */
int	env_plan_data(struct env_plan *p, const char *workdir,
	    const char *name, const char *data, size_t len, struct err *err);
/* Make the subdirectory name of workdir (mode 0755).  0 or -1 with err. */
int	env_mkdir(const char *workdir, const char *name, struct err *err);
/*
 * Write data to workdir/name (mode 0644) and record its hash in inputs.
 * name must pass ident_check_file_name() (no '/', never beginning with
 * '-' or '.'), so every name an env puts on a command line after writing
 * it is a plain file name, never an option.  0 or -1 with err.
 */
int	env_write_input(struct env_plan *p, const char *workdir,
	    const char *name, const char *data, size_t len, struct err *err);
/*
 * Write each file of t into workdir as env_write_input() does, in the
 * task's order, refusing the first whose name is in reserved (a list
 * ended by NULL: the names the env writes itself) with "task file name
 * NAME is reserved by BY".  0, or -1 with err set (files before the
 * refused or failed one are written).
 */
int	env_write_task_files(struct env_plan *p, const char *workdir,
	    const struct task *t, const char *const *reserved, const char *by,
	    struct err *err);
/*
 * Checked number parsing for log parsers, whose input is partly the
 * candidate's: env_digit() is num * 10 + the digit c, and env_add() is
 * a + b, each held at INT_MAX / LONG_MAX (LONG_MIN) instead of
 * overflowing (a long digit run in a log is undefined behaviour
 * otherwise).  num must be >= 0 and c a digit.
 */
int	env_digit(int num, char c);
long	env_add(long a, long b);
/* Record the hash of a non-file input (env_params) in inputs. */
void	env_note_input(struct env_plan *p, const char *name, const char *data,
	    size_t len);
/* Integer / boolean / string field of a task's env_params (JSON). */
long	env_param_int(const struct task *t, const char *key, long def);
int	env_param_bool(const struct task *t, const char *key, int def);
/* New string or NULL. */
char	*env_param_str(const struct task *t, const char *key);
/*
 * A list of strings of env_params: key's value as a string (one) or an
 * array of strings, into *v (new, free with strv_free()) and *n; none
 * (NULL, 0) when the key is absent or null.  -1 with err when the value
 * is anything else ("env_params.KEY: a string or an array of strings").
 */
int	env_param_strv(const struct task *t, const char *key, char ***v,
	    size_t *n, struct err *err);
/*
 * A file of share/envs compiled into the binary (scripts/embed.sh): the
 * device header, startup code or linker script an env writes into the
 * work directory.  name is relative to share/envs ("arm/stm32f4.h").
 * Returns the bytes (static, NUL-terminated, not to be freed) and their
 * length in *len, or NULL when there is no such file.
 */
const char *env_share(const char *name, size_t *len);
/*
 * The project venv (scripts/venv.sh, made by `make deps` from
 * scripts/venv-requirements.txt): CadQuery, PyTorch and Triton for the
 * cad and triton envs.  Its directory is $ASSAY_VENV when that is set,
 * else venv/ beside the running executable (build/assay uses
 * build/venv).  Returns the directory (static; do not free) when
 * DIR/bin/python3 runs, else NULL (no venv: the envs fall back to
 * /usr/bin/python3 and say what is missing).
 */
const char *env_venv_dir(void);
/*
 * The Python a stage runs: ENV_VENV_PYTHON with the stage's venv flag set
 * (*venv = 1) when there is a venv, else /usr/bin/python3 (*venv = 0).
 */
const char *env_python(int *venv);
/*
 * One line, "NAME VERSION" for each of the packages (a NULL-terminated
 * list of distribution names, "torch", "cadquery") the project venv
 * holds, joined by ", ", with "NAME not installed" for the others, into
 * buf; "no venv" when there is none.  Runs the venv's Python outside the
 * sandbox (trusted).  0, or -1 when the venv's Python cannot run.
 */
int	env_venv_versions(const char *const *names, char *buf, size_t n);
/*
 * First line of a command's output (trusted, outside any sandbox) into
 * buf; -1 when it cannot run, exits 127, prints nothing, fails or does
 * not answer within 30 s (then killed, with its process group), with
 * buf holding its first error line (env_first_error()) or why, for the
 * caller's message.
 */
int	env_tool_version(const char *const *argv, char *buf, size_t n);

#endif
