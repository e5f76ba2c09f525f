/*
 * verilog_wave.h - the waveform of a Verilog simulation's compared
 * signals (issue 26; docs/adr/0049-waveforms.md), for iverilog.c and
 * verilator.c.
 *
 * The dump comes from the harness, never from the candidate, which may
 * call no $dump task (verilog_check_candidate()): our copy of the
 * testbench has its own $dumpfile/$dumpvars made "if (0)", and a harness
 * module of a random name dumps the testbench's compared signals
 * (VerilogEval's NAME_ref, NAME_dut and tb_match) into the simulation's
 * random image directory, which no code of the design can name.  The
 * simulate stage seals the dump; a "wave" stage after it, in a sealed
 * area, prints it under the run's secret; the judge reads it from that
 * stage's log, keeps the compared signals (run.wave, at most
 * WAVE_STORE_MAX bytes, cut at a whole time step and marked so), writes
 * the feedback member "waveform" of a failed run, and takes the dump out
 * of the stored log.
 */
#ifndef ASSAY_VERILOG_WAVE_H
#define ASSAY_VERILOG_WAVE_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "envs/env.h"
#include "model/sample.h"

#define WAVE_FILE "assay_wave.sv"	/* the harness module's file */
#define WAVE_VCD "wave.vcd"		/* the dump, in the image's dir */
#define WAVE_DUMP_MAX (1 << 20)	/* bytes the simulator may dump */
#define WAVE_STORE_MAX (64 << 10)	/* bytes of run.wave */
#define WAVE_STAGE "wave"

/*
 * The compared signals of module top of task t's testbench files:
 * NAME_ref where NAME_dut is also a name of that module, as "NAME_ref
 * NAME_dut ...", then tb_match when it has it.  Names of other modules
 * (stimulus generators, helpers) are not its and are left out.  New
 * string, or NULL when it compares no such pair (RTLLM: no waveform).
 */
char	*verilog_wave_signals(const struct task *t, const char *top);

/*
 * Write the harness module into workdir/WAVE_FILE: a module of a random
 * name (into mod, n bytes) whose initial block dumps signals (space-
 * separated, verilog_wave_signals()) of module top into imgdir/WAVE_VCD
 * (relative to where the simulation runs), at most WAVE_DUMP_MAX bytes.
 * bind (Verilator, which builds one top and honours neither $dumplimit
 * nor $dumpoff): the module, bound into top, writes the VCD itself with
 * $fwrite, one line per change of the signals, and stops at
 * WAVE_DUMP_MAX bytes saying so.  Its
 * hash is not an input of the run (a new name each run).  0, or -1 with
 * err when a task file is called WAVE_FILE or the write fails.
 */
int	verilog_wave_write(struct env_plan *plan, const char *workdir,
	    const struct task *t, const char *top, const char *signals,
	    const char *imgdir, int bind, char *mod, size_t n,
	    struct err *err);

/*
 * Add WAVE_FILE to the NULL-terminated argv (ENV_MAX_ARGS entries), last
 * of the files to compile; left out when argv is full.
 */
void	verilog_wave_add_source(const char **argv);

/*
 * Plan the wave stage after the simulate stage (the last one planned,
 * which must run in the image's parent directory): seal imgdir/WAVE_VCD
 * and print it in a sealed area under the run's secret.
 */
void	verilog_wave_plan(struct env_plan *plan, const char *imgdir);

/*
 * A failed compile or build whose error r's diagnostics place in
 * WAVE_FILE (the harness module could not bind a signal): sets r to
 * env-error/harness-error with that message and returns 1; else 0.
 */
int	verilog_wave_harness_error(struct run *r);

/*
 * Read the wave stage's result s (NULL: it did not run) into r: run.wave
 * (the compared signals, bounded) and, when r's verdict is fail, the
 * feedback member "waveform" (first mismatch time, the differing
 * signals, and a table of a few steps around it).  Takes the stage's
 * output out of r->log, leaving one line that says where the waveform
 * went.  A dump that does not parse leaves run.wave empty and says why
 * in the log.  Never fails.
 */
void	verilog_wave_judge(const struct env_plan *plan,
	    const struct env_stage_result *s, struct run *r);

/*
 * The feedback text of a waveform: the first mismatch of the pairs in
 * the VCD text wave (wave_len bytes) and a table of before steps before
 * and after steps from it, into b; the JSON member into *member (new,
 * may be NULL).  0, or -1 when the waveform shows no mismatch or does
 * not parse.  For the judge and for tests.
 */
int	verilog_wave_feedback(const char *wave, size_t wave_len, int before,
	    int after, struct buf *b, json_t **member);

#endif
