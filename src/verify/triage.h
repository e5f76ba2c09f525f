/*
 * triage.h - the failure category of a failed run, from the toolchain's
 * own output and the candidate's code (design.md section 3; issue 3).
 *
 * An env's judge already suggests a category from its stage (compile
 * errors, mismatches), with its own rules (struct env_rule, env.h).
 * triage_apply() refines that: format rules over the candidate's code
 * (markdown fences, prose around the code, a missing top module), which
 * win over everything by the taxonomy's precedence, then the env's
 * ENV_RULE_WARNING rules for warnings that explain a functional failure
 * (a literal truncated at line 152 explains 86 mismatches: the cause is
 * a malformed literal, category compile).  The
 * evidence then names the cause, the symptom follows it, and
 * evidence_line is the candidate line it points to: the line of the
 * diagnostic the evidence quotes, none when that one lies outside the
 * candidate (the testbench), the line that drives the output a mismatch
 * names.
 *
 * Called by verify.c for every finished run; pure: no I/O.
 */
#ifndef ASSAY_TRIAGE_H
#define ASSAY_TRIAGE_H

#include <stddef.h>

#include "model/sample.h"

/*
 * Refine r (a run of candidate c in env) when its verdict is fail or
 * timeout: format first (a candidate with no code at all is
 * format/no-code, or format/refusal when its generation record holds
 * the model's refusal), then a warning on a candidate line that
 * explains a functional failure.  tops: the module names the task
 * expects, space-separated, from the env's tops(); NULL: those r's
 * compile log could not find (Icarus Verilog's "Unknown module type:
 * NAME").  A compile failure is format/missing-top only when the
 * candidate declares none of them; when neither names a module, the tool
 * found every module the testbench instantiates, and it never is (an
 * RTLLM alu with an undeclared rst_n is compile/unable-to-bind, not a
 * missing TopModule).  Sets category, subcategory, evidence
 * and evidence_line; leaves other runs alone.
 *
 * An evidence_line the env's judge set stays.  Otherwise it is the
 * candidate line of the diagnostic r->evidence quotes (its text, and its
 * "FILE:LINE:" when several share the text; an error before a warning),
 * and 0 when that diagnostic is on no candidate line: a testbench's
 * PINNOTFOUND must not point at some warning of the candidate's.  A
 * mismatch quotes no diagnostic: triage_output_line().  Evidence that
 * quotes nothing else (a limit, a tool that printed no message) points
 * at the first error on a candidate line, never at a warning.
 */
void	triage_apply(const char *env, const struct candidate *c,
	    const char *tops, struct run *r);

/*
 * The format violation of code, if any: its subcategory ("markdown-fence",
 * "prose", "missing-top") or NULL, and the 1-based line in *line (0 when
 * none).  For Verilog; other languages only get the fence check.
 */
const char *triage_format(const char *code, size_t len, const char *lang,
	    int compiled, int *line);

/*
 * triage_format() for a task that expects the modules named in tops
 * (space-separated; NULL: TopModule and top_module): missing-top only
 * when code declares none of them ("module NAME", comments skipped).
 */
const char *triage_format_tops(const char *code, size_t len,
	    const char *lang, int compiled, const char *tops, int *line);

/*
 * The candidate line that drives the output a mismatch names: evidence
 * holds "Hint: Output 'NAME' has N mismatches ..." (VerilogEval's
 * testbenches), or RealBench's "Hint: Output NAME has N mismatches ..."
 * and "NAME has N mismatches ..." (not "total has ...", the sum); the
 * last line assigning NAME, else the first that mentions it (its
 * declaration).  0 when there is none.
 */
int	triage_output_line(const char *code, size_t len, const char *evidence);

#endif
