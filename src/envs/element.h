/*
 * element.h - the first mismatching element of a numeric output as a
 * run's counterexample (feedback.h, docs/formats.md "Feedback"): shared
 * by the envs whose checker compares arrays at a tolerance (triton,
 * nvcc; docs/envs/triton.md, docs/envs/nvcc.md).
 */
#ifndef ASSAY_ENVS_ELEMENT_H
#define ASSAY_ENVS_ELEMENT_H

#include <jansson.h>

#include "model/sample.h"

/*
 * Set r's counterexample to o (consumed), the checker's first
 * mismatching element, with its text.  o must hold "index" (an integer,
 * or an array of them: one per dimension), "reference", "candidate",
 * "atol", "rtol", "tolerance" (numbers, or "nan"/"inf" strings, as JSON
 * has no such numbers) and may hold "abs_diff", "mismatches",
 * "elements", "trial" and "array" (integers).  scaled names the value
 * rtol multiplies ("reference" or "candidate").  An o without them is
 * dropped (its checker wrote no counterexample), r unchanged.  Text:
 *   first mismatching element: index [3, 17] (trial 1)
 *   candidate 0.5, reference 0.25: difference 0.25 > tolerance
 *     0.00015 (atol 0.0001 + rtol 0.0001 x |candidate|)
 *   120 of 4096 elements differ
 */
void	element_counterexample(struct run *r, json_t *o, const char *scaled);

#endif
