/*
 * sample.h - the words of design.md section 2 as plain structs: task,
 * candidate, recorded result, run, diagnostic.  No behaviour beyond
 * releasing what a struct owns.  Every char * member is owned by the
 * struct (NULL when absent) and freed by its *_release().
 */
#ifndef ASSAY_SAMPLE_H
#define ASSAY_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#define SAMPLE_HASH_HEX 65	/* sha256 in hex, NUL included */

/* A verification file of a task: testbench, reference, harness ... */
struct task_file {
	char	*name;		/* file name as written into the work directory */
	char	*role;		/* "testbench", "reference", "source" or
				   "data" (read at run time, not compiled) */
	char	*data;
	size_t	 len;
};

struct task {
	char	*id;		/* namespaced: "verilog-eval-v2/Prob041_dff8r" */
	char	*benchmark;	/* "verilog-eval-v2", "rtlfixer", ... */
	char	*domain;	/* "chip", "gpu", "embedded", "compiler", "3d" */
	char	*env;		/* "iverilog", ... */
	char	*env_params;	/* JSON object text; NULL means {} */
	char	*spec;		/* the natural-language requirement */
	char	*interface;	/* port list / signature, may be NULL */
	char	*source;	/* where it was imported from (path[:line]) */
	char	*extra;		/* JSON object of fields assay does not know */
	char	*license;	/* SPDX id ("MIT"), "NOASSERTION", or NULL */
	char	*license_source;	/* where it was read: a LICENSE path,
					   "--license", or NULL */
	char	*split;		/* "train", "valid", ... or NULL: none yet */
	int	 split_hand;	/* 1: set by hand, kept by every assignment */
	struct task_file *files;	/* owned array */
	size_t	 nfiles;
};

struct candidate {
	char	*id;		/* short stable id, e.g. "c3f9a0e1" */
	char	*task_id;
	char	*origin;	/* model name, "reference" or "human" */
	char	*origin_raw;	/* the raw field the model name came from */
	char	*kind;		/* "direct", "repair" or "optimization" */
	char	*lang;		/* "verilog", "c", "cuda", ... */
	char	*parent;	/* candidate id, or NULL */
	char	*source;	/* "path:line" or the problem's path */
	char	*code;
	size_t	 code_len;
	char	 code_hash[SAMPLE_HASH_HEX];
	char	*extra;		/* JSON object of unknown fields, or NULL */
};

/* A verdict or log recorded by whoever made the row; never trusted. */
struct recorded {
	char	*verdict;	/* as recorded: "fail", "pass", ... or NULL */
	char	*stage;		/* "compile", "simulate" or NULL */
	char	*log;
	char	*extra;		/* JSON object: the raw recorded fields */
};

/* One parsed toolchain message. */
struct diag {
	char	*file;		/* as the tool printed it */
	int	 line, col;	/* 1-based; 0 when unknown */
	char	*severity;	/* "error", "warning", "sorry", "note" */
	char	*message;
	int	 cand_line;	/* line in the candidate's code, 0 when elsewhere */
};

struct run {
	int64_t	 id;
	char	*cand_id;
	char	*env;
	char	*verdict;	/* pass fail timeout skipped env-error task-defect */
	char	*stage;		/* "compile", "simulate", ... or NULL */
	char	*subcategory;	/* e.g. "output-limit", "mismatch" */
	char	*category;	/* suggested failure category, or NULL */
	char	*evidence;	/* the log line the suggestion rests on */
	int	 evidence_line;	/* the candidate line it points to, 0: none */
	char	*command;	/* shell text that reproduces the run */
	char	*toolchain;	/* "Icarus Verilog version 11.0 (stable)" */
	char	*inputs;	/* JSON object: file name -> sha256 */
	char	 input_key[SAMPLE_HASH_HEX];	/* hash of env, toolchain, inputs */
	char	*metrics;	/* JSON object, e.g. {"mismatches":41,"total":432} */
	int	 exit_code;	/* of the last stage run; -1 when killed */
	int64_t	 wall_ms;
	int64_t	 started;	/* unix seconds */
	char	*log;		/* merged stdout+stderr of every stage */
	size_t	 log_len;
	struct diag *diags;	/* owned array */
	size_t	 ndiags;
	/*
	 * The feedback a repair is asked with (docs/formats.md "Feedback"):
	 * a JSON object the env's judge writes from what the checker saw,
	 * never from what the candidate printed about itself, e.g.
	 * {"counterexample":{...},"bottleneck":"...","hot_lines":[...]};
	 * NULL: none.
	 */
	char	*feedback;
	/*
	 * The waveform of the signals the testbench compares, reference and
	 * candidate, as VCD text written where the candidate cannot reach
	 * it (docs/formats.md "Waveform"); NULL, 0: none kept.
	 */
	char	*wave;
	size_t	 wave_len;
};

void	task_release(struct task *t);
void	candidate_release(struct candidate *c);
void	recorded_release(struct recorded *r);
void	run_release(struct run *r);
void	diag_release(struct diag *d);

/* Add a file to t (copies name, role and data). */
void	task_add_file(struct task *t, const char *name, const char *role,
	    const char *data, size_t len);

/* The task file of that role, or NULL.  Borrowed from t. */
const struct task_file *task_file_by_role(const struct task *t,
	    const char *role);
/* The task file named name, or NULL.  Borrowed from t. */
const struct task_file *task_file_by_name(const struct task *t,
	    const char *name);

/* Append a diagnostic (copies the strings) to r. */
void	run_add_diag(struct run *r, const char *file, int line, int col,
	    const char *severity, const char *message, int cand_line);

#endif
