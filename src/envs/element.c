/*
 * element.c - the first mismatching element of a numeric output as a
 * run's counterexample (element.h).
 */
#include "envs/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "model/feedback.h"

/* A number member (or its "nan"/"inf" string) as text into out; 0 when
 * it is neither. */
static int
num_text(const json_t *o, const char *key, char *out, size_t n)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v)) {
		snprintf(out, n, "%.9g", json_number_value(v));
		return 1;
	}
	if (json_is_string(v) && (strcmp(json_string_value(v), "nan") == 0 ||
	    strcmp(json_string_value(v), "inf") == 0 ||
	    strcmp(json_string_value(v), "-inf") == 0)) {
		snprintf(out, n, "%s", json_string_value(v));
		return 1;
	}
	return 0;
}

void
element_counterexample(struct run *r, json_t *o, const char *scaled)
{
	char ref[40], cand[40], atol[40], rtol[40], tol[40], diff[40];
	json_t *idx = json_object_get(o, "index"), *v;
	struct buf b = BUF_INIT;
	size_t i;
	int ok;

	ok = json_is_object(o) && (json_is_integer(idx) ||
	    json_is_array(idx)) && num_text(o, "reference", ref, sizeof ref) &&
	    num_text(o, "candidate", cand, sizeof cand) &&
	    num_text(o, "atol", atol, sizeof atol) &&
	    num_text(o, "rtol", rtol, sizeof rtol) &&
	    num_text(o, "tolerance", tol, sizeof tol);
	json_array_foreach(idx, i, v)
		ok = ok && json_is_integer(v) && i < 16;
	if (!ok) {
		json_decref(o);
		return;
	}
	buf_adds(&b, "first mismatching element: ");
	if (json_is_integer(json_object_get(o, "array")))
		buf_printf(&b, "array %lld, ", (long long)json_integer_value(
		    json_object_get(o, "array")));
	if (json_is_integer(idx)) {
		buf_printf(&b, "index %lld", (long long)json_integer_value(idx));
	} else {
		buf_adds(&b, "index [");
		json_array_foreach(idx, i, v)
			buf_printf(&b, "%s%lld", i > 0 ? ", " : "",
			    (long long)json_integer_value(v));
		buf_adds(&b, "]");
	}
	if (json_is_integer(json_object_get(o, "trial")))
		buf_printf(&b, " (trial %lld)", (long long)json_integer_value(
		    json_object_get(o, "trial")));
	buf_printf(&b, "\ncandidate %s, reference %s: ", cand, ref);
	if (num_text(o, "abs_diff", diff, sizeof diff))
		buf_printf(&b, "difference %s, ", diff);
	buf_printf(&b, "tolerance %s (atol %s + rtol %s x |%s|)", tol, atol,
	    rtol, scaled);
	if (json_is_integer(json_object_get(o, "mismatches")) &&
	    json_is_integer(json_object_get(o, "elements")))
		buf_printf(&b, "\n%lld of %lld elements differ",
		    (long long)json_integer_value(json_object_get(o,
		    "mismatches")), (long long)json_integer_value(
		    json_object_get(o, "elements")));
	feedback_set(r, "counterexample", o, buf_str(&b));
	buf_release(&b);
}
