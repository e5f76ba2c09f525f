/*
 * vcd.h - a Value Change Dump (IEEE 1364 section 18) reader and writer:
 * the waveform of the signals a Verilog testbench compares (run.wave),
 * the reference/candidate pairs among them and where they differ.
 *
 * Reads the four-state VCD Icarus Verilog and Verilator write: $scope,
 * $var, $upscope, $timescale, $enddefinitions, #TIME, scalar ("0!") and
 * vector ("b1010 !") changes; $dumpvars/$dumpall/$dumpon/$dumpoff are
 * containers of changes, $comment/$date/$version are skipped.  Real
 * values ("r1.5") are not read (an error: the harness dumps none).  No
 * C library for VCD is packaged for Debian 12 (docs/adr/0049).
 * Pure: no I/O, no tools.  The env judges (iverilog.c, verilator.c) and
 * the waveform sheet (ui/panes/wave.c) call it.
 */
#ifndef ASSAY_VCD_H
#define ASSAY_VCD_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

#define VCD_WIDTH_MAX 4096	/* bits of one variable; wider is an error */
#define VCD_SIGNALS_MAX 4096	/* variables of one dump */

/*
 * One variable's values: the value after each change (times ascending),
 * each exactly width characters of 0 1 x z, most significant first,
 * extended as VCD says ("b1" of a 4-bit vector is 0001, "bx" is xxxx).
 */
struct vcd_signal {
	char	*name;		/* dotted scope path and name: "tb.f_ref" */
	const char *leaf;	/* its last component, inside name */
	int	 width;
	int64_t	*t;		/* change times, ascending (owned) */
	char	*vals;		/* nch * width characters (owned) */
	size_t	 nch, cap;
};

/* A dump: its variables in the order the header declares them. */
struct vcd {
	char	timescale[32];	/* "1ps", "1 ns"; "" when the dump has none */
	struct vcd_signal *sig;	/* owned */
	size_t	 nsig;
	int64_t	 end;		/* the last time the dump reached */
	int	 cut;		/* a "$comment assay: cut" says it was capped */
};

/* A reference/candidate pair: NAME_ref and NAME_dut of one scope. */
struct vcd_pair {
	char	 name[64];	/* NAME */
	int	 ref, cand;	/* indexes into vcd.sig */
};

#define VCD_INIT { "", NULL, 0, 0, 0 }

/*
 * Parse the VCD text (len bytes; need not be NUL-terminated) into *v,
 * which must be VCD_INIT.  file names the text in messages.  0, or -1
 * with err "FILE:LINE: what" (a truncated definition, a width of 0 or
 * over VCD_WIDTH_MAX, an undeclared or malformed id code, a value that
 * is not 0 1 x z or wider than its variable, time going back, a number
 * that does not fit); *v is then released.  A variable declared twice
 * under one id code (an alias) shares its changes.
 */
int	vcd_parse(const char *text, size_t len, const char *file,
	    struct vcd *v, struct err *err);

/* Free what v holds and make it VCD_INIT again; NULL-safe. */
void	vcd_release(struct vcd *v);

/* The index of the variable named name (dotted) or whose leaf is name,
 * the first declared; -1 when none. */
int	vcd_find(const struct vcd *v, const char *name);

/*
 * The value of variable s at time t (after every change at t): width
 * characters, borrowed for the life of v; NULL before its first change.
 */
const char *vcd_value_at(const struct vcd *v, int s, int64_t t);

/*
 * The reference/candidate pairs of v (NAME_ref and NAME_dut in one
 * scope, VerilogEval's testbench convention), in the order of the refs,
 * into *pairs (new, caller frees with free()).  Returns their number.
 */
size_t	vcd_pairs(const struct vcd *v, struct vcd_pair **pairs);

/*
 * Do reference value ref and candidate value cand (width characters
 * each; NULL: not yet driven, all x) differ as VerilogEval's testbench
 * compares them (ref === (ref ^ cand ^ ref)): a reference bit x matches
 * anything; a 0 or 1 needs the same bit; a z matches nothing.  1 or 0.
 */
int	vcd_differs(const char *ref, const char *cand, int width);

/*
 * The first time after `after` (use INT64_MIN for the first) at which pair
 * p starts to differ, dir 1; with dir -1 the last such start before
 * `after`.  0 with the time in *t, or -1 when there is none.
 */
int	vcd_mismatch(const struct vcd *v, const struct vcd_pair *p,
	    int64_t after, int dir, int64_t *t);

/*
 * The times at which any of the variables idx (n of them) changes, in
 * [from, to], ascending and unique, into *times (new, caller frees).
 * Returns their number.
 */
size_t	vcd_times(const struct vcd *v, const int *idx, size_t n, int64_t from,
	    int64_t to, int64_t **times);

/*
 * A value for people into buf (n bytes): a 1-bit value as its character;
 * a vector of 0 and 1 in hexadecimal ("3a"); all x as "x", all z as
 * "z"; anything else in binary.  NULL (not driven) as "-".
 */
void	vcd_format(const char *val, int width, char *buf, size_t n);

/*
 * Time t of v for people into buf (n bytes): "35 ps" when the timescale
 * is 1 of a unit ("1ps", "1 ns"), "35 x 10ns" otherwise, "35" when the
 * dump has none.
 */
void	vcd_time_text(const struct vcd *v, int64_t t, char *buf, size_t n);

/*
 * Write the variables keep (indexes into v->sig, n of them) as VCD text
 * into out: a header with their scopes and timescale, then their changes
 * in time order.  When the text would pass max bytes it stops at the
 * last whole time step that fits and says so in a "$comment assay: cut
 * at TIME ... $end" (vcd_parse() sets cut on reading it).  Returns 1
 * when it was cut, else 0.  Never fails.
 */
int	vcd_write(const struct vcd *v, const int *keep, size_t n, size_t max,
	    struct buf *out);

#endif
