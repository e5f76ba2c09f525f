/*
 * task_new.h - a structured task made from real code (`assay task new`,
 * the workbench's `:task new`; docs/adr/0044-task-from-real-code.md).
 *
 * A C file becomes an x86-asm task (domain compiler): the prototype of
 * its function (lang/cfunc.h), checked by the env's signature grammar
 * (envs/x86sig.h), is the interface with the registers the System V
 * AMD64 ABI gives each parameter; the file is the task's ref.c, which
 * the env compares a candidate with on seeded random input vectors (seed
 * and cases stated in env_params); the reference is the assembly given
 * with --reference (gcc -O2 -S of the file makes one).
 *
 * A CUDA file becomes an nvcc task (domain gpu): its host entries and
 * kernels, each launch's configuration as written and the target's
 * launch limits (envs/nvcc.h) are the interface; the file is the
 * reference; --testbench names the harness (a host program, env_params
 * .harness), else compiling for the target and the launch check are the
 * whole verification.
 *
 * A Verilog or SystemVerilog file becomes a task of domain chip whose
 * interface is its module's ports and parameters as the Verilog grammar
 * reads them (lang/vheader.h), whose requirement is a --spec file or the
 * comment above the module (else a skeleton the user fills in), and
 * whose reference is the file itself:
 *   - with a testbench: env iverilog, the testbench a task file, its own
 *     module the top, and the reference's module renamed to the one the
 *     testbench instantiates (RTLLM's verified_X -> X);
 *   - without: env yosys with env_params.equiv, the file a task file of
 *     role reference, so that a candidate is proven equivalent to it by
 *     the yosys env's miter and SAT induction (ADR 0037).
 * Nothing here runs a tool or touches a store: the caller verifies the
 * reference and stores the task (app/task_new.h).
 */
#ifndef ASSAY_TASK_NEW_H
#define ASSAY_TASK_NEW_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/sample.h"

#define TASK_NEW_SKELETON "TODO: say what the code does."

/* The bound task new gives the equivalence proof of a sequential design
 * (solver steps, two a clock cycle): ADR 0037, measured there. */
#define TASK_NEW_EQUIV_DEPTH_SEQ 60

struct task_new_opts {
	const char *testbench;	/* a testbench file, or NULL */
	const char *spec_file;	/* the requirement's file, or NULL */
	const char *id;		/* the task id; NULL: "local/MODULE" */
	const char *top;	/* the module (function) the task asks for;
				   NULL: the testbench's, else the file's
				   top (its only non-static function) */
	const char *reference;	/* C: the reference's assembly (.s) */
	const char *arch;	/* CUDA: the target, NULL: sm_90 */
	const char *env;	/* NULL: iverilog with a testbench, yosys
				   without */
	int	 timeout_s;	/* 0: the env's default */
	int	 equiv_depth;	/* yosys: steps of the bounded proof; 0:
				   TASK_NEW_EQUIV_DEPTH_SEQ for a sequential
				   design, else the env's default */
};

struct task_new {
	struct task task;
	struct candidate ref;	/* origin "reference", id NULL */
	char	*module;	/* the module, function, entry or solid the
				   task asks for */
	const char *what;	/* which: "module", "function", "entry",
				   "solid" (static) */
	size_t	 nports;	/* its ports, parameters or launches */
	const char *counted;	/* which: "ports", ... (static); NULL:
				   nothing counted (a solid) */
	int	 skeleton;	/* 1: the requirement is TASK_NEW_SKELETON */
	struct buf warnings;	/* lines: what was guessed or left out */
};

/*
 * Build *out from files (the design first; the others are data files the
 * testbench reads at run time) and o.  0, or -1 with err naming the file
 * and line where that applies ("adder.v:3: ..."): not a Verilog file, no
 * module, a module without ports, no such --top, a testbench that
 * instantiates nothing of it, a file the testbench reads by name
 * ($readmemh, $readmemb, $fopen for reading) that is not among the data
 * files ("testbench.v:43: reads reference.dat, which is not given
 * ..."), an unreadable file, a bad id.  out is
 * released with task_new_release() in either case.
 */
int	task_new_build(char *const *files, size_t nfiles,
	    const struct task_new_opts *o, struct task_new *out,
	    struct err *err);
void	task_new_release(struct task_new *tn);

/*
 * A trivial stub of tn's task, which a verification that constrains the
 * outputs must reject: a Verilog module of the same name and ports whose
 * outputs are all constant 0 (ones: all 1s: ~0); for an x86-asm task the
 * function returning 0 (ones: -1 in rax), in AT&T syntax.  New string, or
 * NULL when the kind of task has no stub (CUDA, CadQuery) or the ports
 * are not known.
 */
char	*task_new_stub(const struct task_new *tn, int ones);

/*
 * The task as one line of the assay JSONL (docs/formats.md): {"task":
 * {... "reference": CODE}}, which `assay import` reads; new string, or
 * NULL with err when a text is not UTF-8.
 */
char	*task_new_jsonl(const struct task_new *tn, struct err *err);

/*
 * Read back a line task_new_jsonl() wrote, changed by hand (the editor of
 * `--edit` and `:task new`), into tn's task and reference, replacing
 * them; the module and its name stay.  0, or -1 with err (JSON error
 * with its line and column, a missing field, an empty reference) and tn
 * unchanged.
 */
int	task_new_read_back(struct task_new *tn, const char *text,
	    struct err *err);

#endif
