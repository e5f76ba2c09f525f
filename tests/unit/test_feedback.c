/*
 * test_feedback.c - a run's feedback object (src/model/feedback.c):
 * members set with bounded text, the others kept, and the text form the
 * repair prompt carries in its fixed order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/feedback.h"

static void
test_feedback_members_and_order(void **state)
{
	struct run r;
	struct buf b = BUF_INIT;
	json_t *root;

	(void)state;
	memset(&r, 0, sizeof r);
	feedback_set(&r, "counterexample", json_pack("{s:i}", "step", 3),
	    "step 3: in=1 ref out=0 cand out=1");
	feedback_set(&r, "waveform", json_pack("{s:I}", "first_ps", 5000),
	    "t=5000 out ref 0 cand 1");
	/* not a member: dropped, the others kept */
	feedback_set(&r, "verdict", json_object(), "pass");
	/* not an object: dropped */
	feedback_set(&r, "bottleneck", json_string("x"), "slow");
	assert_non_null(r.feedback);
	assert_null(strstr(r.feedback, "verdict"));
	assert_null(strstr(r.feedback, "bottleneck"));
	assert_string_equal(feedback_text(r.feedback, "counterexample",
	    &root), "step 3: in=1 ref out=0 cand out=1");
	json_decref(root);
	/* the waveform first, then the counterexample, whatever the order
	 * they were set in */
	assert_int_equal(feedback_words(&b, r.feedback), 2);
	assert_string_equal(buf_str(&b), "Waveform, first mismatch:\n"
	    "t=5000 out ref 0 cand 1\nCounterexample:\n"
	    "step 3: in=1 ref out=0 cand out=1\n");
	buf_release(&b);
	/* a member set again replaces the old one */
	feedback_set(&r, "counterexample", json_object(), "again");
	assert_string_equal(feedback_text(r.feedback, "counterexample",
	    &root), "again");
	json_decref(root);
	/* no feedback, not JSON: no words */
	assert_int_equal(feedback_words(&b, NULL), 0);
	assert_int_equal(feedback_words(&b, "not json"), 0);
	assert_int_equal(b.len, 0);
	free(r.feedback);
}

/* A candidate's printing reaches the text through a log line: it is
 * bounded, printable and cut at a line's end. */
static void
test_feedback_text_bounded(void **state)
{
	struct run r;
	struct buf in = BUF_INIT;
	json_t *root;
	const char *t;
	char *p;

	(void)state;
	memset(&r, 0, sizeof r);
	buf_adds(&in, "a\x1b[2Jb\tc\r\n");
	for (int i = 0; i < 300; i++)
		buf_addc(&in, 'x');
	buf_adds(&in, "\n\xc3\xa9\xff\n");
	for (int i = 0; i < 100; i++)
		buf_adds(&in, "0123456789 0123456789\n");
	feedback_set(&r, "hot_lines", json_object(), buf_str(&in));
	t = feedback_text(r.feedback, "hot_lines", &root);
	assert_non_null(t);
	assert_true(strlen(t) <= FEEDBACK_TEXT_MAX);
	assert_memory_equal(t, "a?[2Jb c?\n", 10);
	/* the long line: 120 characters and "..." */
	p = strchr(t, '\n') + 1;
	assert_int_equal(strchr(p, '\n') - p, FEEDBACK_LINE_MAX + 3);
	assert_memory_equal(p + FEEDBACK_LINE_MAX, "...\n", 4);
	/* UTF-8 kept, a stray byte replaced */
	assert_non_null(strstr(t, "\n\xc3\xa9?\n"));
	/* cut at a line's end, and said so */
	assert_string_equal(t + strlen(t) - 10, "\n... (cut)");
	for (p = (char *)t; *p != '\0'; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');
	json_decref(root);
	buf_release(&in);
	free(r.feedback);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feedback_members_and_order),
		cmocka_unit_test(test_feedback_text_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
