/*
 * test_solid.c - a cad run's solids read from its log and drawn
 * (src/model/solid.c): only the iou stage's mesh lines count, and the
 * views show a solid's own material apart from what the other solid
 * shares, on the right side of each view.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/solid.h"

/* The 12 triangles of a box, counter-clockwise seen from outside, as
 * the helper prints them: " 12 x y z ...". */
static void
box_line(struct buf *b, float x0, float y0, float z0, float x1, float y1,
    float z1)
{
	const float q[6][4][3] = {
		{ { x0, y0, z0 }, { x0, y1, z0 }, { x1, y1, z0 }, { x1, y0, z0 } },
		{ { x0, y0, z1 }, { x1, y0, z1 }, { x1, y1, z1 }, { x0, y1, z1 } },
		{ { x0, y0, z0 }, { x1, y0, z0 }, { x1, y0, z1 }, { x0, y0, z1 } },
		{ { x0, y1, z0 }, { x0, y1, z1 }, { x1, y1, z1 }, { x1, y1, z0 } },
		{ { x0, y0, z0 }, { x0, y0, z1 }, { x0, y1, z1 }, { x0, y1, z0 } },
		{ { x1, y0, z0 }, { x1, y1, z0 }, { x1, y1, z1 }, { x1, y0, z1 } },
	};
	static const int tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };

	buf_printf(b, " 12");
	for (int f = 0; f < 6; f++)
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < 3; k++)
				buf_printf(b, " %g %g %g", q[f][tri[t][k]][0],
				    q[f][tri[t][k]][1], q[f][tri[t][k]][2]);
}

/* A cad run whose log holds log; stage "iou". */
static void
run_with(struct run *r, struct buf *log)
{
	memset(r, 0, sizeof *r);
	r->id = 7;
	r->env = "cad";
	r->stage = "iou";
	r->log = (char *)buf_str(log);
	r->log_len = log->len;
}

static void
test_solid_only_the_iou_stage(void **state)
{
	struct buf log = BUF_INIT;
	struct solid_set s;
	struct run r;
	struct err err = { "" };

	(void)state;
	/* what a candidate's script printed before the iou stage: a
	 * header and meshes of its own making, ignored */
	buf_printf(&log, "$ python3 -I -u cq_run.py\n"
	    "$ ./assay-iou candidate.step reference.step --mesh\n"
	    "vA=1 vB=1 vInter=1 vUnion=1 IoU=1.000000\nmesh: A");
	box_line(&log, 0, 0, 0, 9, 9, 9);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, 0, 0, 0, 9, 9, 9);
	buf_printf(&log, "\n$ ./assay-iou candidate.step reference.step"
	    " --orient 0.900000 --mesh\n"
	    "vA=2 vB=2 vInter=0 vUnion=4 IoU=0.000000\n"
	    "orient: rotation=\"90 about Z\" about=origin IoU=1.000000\n"
	    "mesh: A");
	box_line(&log, 0, 0, 0, 2, 1, 1);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, -1, 0, 0, 0, 2, 1);
	buf_printf(&log, "\nmesh: T");
	box_line(&log, -1, 0, 0, 0, 2, 1);
	buf_printf(&log, "\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), 0);
	assert_int_equal(s.mesh[SOLID_CAND].ntri, 12);
	assert_int_equal(s.mesh[SOLID_TURNED].ntri, 12);
	assert_true(s.iou == 0);
	assert_string_equal(s.turn, "90 about Z");
	assert_true(s.turn_iou == 1);
	{
		float box[6];

		/* the second header's solids: x from -1 to 2, not 9 */
		solid_box(&s, box);
		assert_true(box[0] == -1 && box[3] == 2 && box[4] == 2);
	}
	solid_release(&s);

	/* the script's output ended without a newline: the real header
	 * starts mid-line and is still the one read */
	buf_reset(&log);
	buf_printf(&log, "$ ./assay-iou candidate.step reference.step\n"
	    "mesh: A");
	box_line(&log, 0, 0, 0, 9, 9, 9);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, 0, 0, 0, 9, 9, 9);
	buf_printf(&log, "\nno newline here$ ./assay-iou candidate.step"
	    " reference.step --mesh\nvA=2 vB=2 vInter=2 vUnion=2"
	    " IoU=1.000000\nmesh: A");
	box_line(&log, 0, 0, 0, 1, 1, 1);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, 0, 0, 0, 1, 1, 1);
	buf_printf(&log, "\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), 0);
	{
		float box[6];

		solid_box(&s, box);
		assert_true(box[3] == 1 && box[4] == 1 && box[5] == 1);
	}
	solid_release(&s);

	/* a run that stopped at the script: the same log, no solids */
	r.stage = "cadquery";
	assert_int_equal(solid_from_run(&r, &s, &err), -1);
	assert_non_null(strstr(err.msg, "before the IoU stage"));
	solid_release(&s);
	r.stage = "iou";
	r.env = "iverilog";
	assert_int_equal(solid_from_run(&r, &s, &err), -1);
	assert_non_null(strstr(err.msg, "not a cad run"));
	solid_release(&s);

	/* a run verified before the helper printed meshes */
	buf_reset(&log);
	buf_printf(&log, "$ ./assay-iou candidate.step reference.step"
	    " --orient 0.900000\nvA=2 vB=2 vInter=2 vUnion=2 IoU=1.000000\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), -1);
	assert_non_null(strstr(err.msg, "verify it again"));
	solid_release(&s);

	/* a truncated mesh line names its log line */
	buf_reset(&log);
	buf_printf(&log, "$ ./assay-iou candidate.step reference.step\n"
	    "vA=2 vB=2 vInter=2 vUnion=2 IoU=1.000000\n"
	    "mesh: A 12 0 0 0 1 1 1\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), -1);
	assert_string_equal(err.msg, "run 7 log line 3: a malformed mesh"
	    " line");
	solid_release(&s);
	buf_release(&log);
}

/* Count the pixels of each kind in columns [x0, x1) of a view. */
static void
kinds(const struct solid_px *px, int w, int h, int x0, int x1, int n[3])
{
	n[0] = n[1] = n[2] = 0;
	for (int y = 0; y < h; y++)
		for (int x = x0; x < x1; x++)
			n[px[y * w + x].kind]++;
}

static void
test_solid_views_show_the_difference(void **state)
{
	struct buf log = BUF_INIT;
	struct solid_set s;
	struct run r;
	struct err err = { "" };
	struct solid_px px[30 * 30];
	float box[6];
	int n[3];

	(void)state;
	/* the candidate x 0..2, the reference x 1..3 (both y, z 0..1) */
	buf_printf(&log, "$ ./assay-iou candidate.step reference.step\n"
	    "mesh: A");
	box_line(&log, 0, 0, 0, 2, 1, 1);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, 1, 0, 0, 3, 1, 1);
	buf_printf(&log, "\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), 0);
	solid_box(&s, box);

	/* front (x right, z up): 30 x 10 pixels, 10 per unit of x */
	solid_render(&s.mesh[SOLID_CAND], &s.mesh[SOLID_REF], SOLID_FRONT,
	    box, 30, 10, px);
	kinds(px, 30, 10, 0, 10, n);		/* x 0..1: the candidate's own */
	assert_int_equal(n[SOLID_PX_ONLY], 100);
	kinds(px, 30, 10, 10, 20, n);		/* x 1..2: shared */
	assert_int_equal(n[SOLID_PX_SAME], 100);
	kinds(px, 30, 10, 20, 30, n);		/* x 2..3: not the candidate's */
	assert_int_equal(n[SOLID_PX_EMPTY], 100);
	/* the reference's view: mirror image */
	solid_render(&s.mesh[SOLID_REF], &s.mesh[SOLID_CAND], SOLID_FRONT,
	    box, 30, 10, px);
	kinds(px, 30, 10, 0, 10, n);
	assert_int_equal(n[SOLID_PX_EMPTY], 100);
	kinds(px, 30, 10, 20, 30, n);
	assert_int_equal(n[SOLID_PX_ONLY], 100);
	/* alone: all the candidate's material is its own, drawn SAME */
	solid_render(&s.mesh[SOLID_CAND], NULL, SOLID_FRONT, box, 30, 10,
	    px);
	kinds(px, 30, 10, 0, 20, n);
	assert_int_equal(n[SOLID_PX_SAME], 200);

	/* side (from +X: y right, z up): seen end on, the candidate's
	 * own part lies behind the shared one, and still shows */
	solid_render(&s.mesh[SOLID_CAND], &s.mesh[SOLID_REF], SOLID_SIDE,
	    box, 30, 10, px);
	kinds(px, 30, 10, 0, 30, n);
	assert_int_equal(n[SOLID_PX_SAME], 0);
	assert_true(n[SOLID_PX_ONLY] > 0);

	/* iso: both shown, some of each kind, nothing outside the box's
	 * outline in the corners */
	solid_render(&s.mesh[SOLID_CAND], &s.mesh[SOLID_REF], SOLID_ISO,
	    box, 30, 10, px);
	kinds(px, 30, 10, 0, 30, n);
	assert_true(n[SOLID_PX_ONLY] > 0 && n[SOLID_PX_EMPTY] > 0);
	assert_int_equal(px[0].kind, SOLID_PX_EMPTY);
	solid_release(&s);

	/* top (x right, y up): a box at high y is drawn in the top rows */
	buf_reset(&log);
	buf_printf(&log, "$ ./assay-iou candidate.step reference.step\n"
	    "mesh: A");
	box_line(&log, 0, 2, 0, 3, 3, 1);
	buf_printf(&log, "\nmesh: B");
	box_line(&log, 0, 0, 0, 3, 1, 1);
	buf_printf(&log, "\n");
	run_with(&r, &log);
	assert_int_equal(solid_from_run(&r, &s, &err), 0);
	solid_box(&s, box);
	solid_render(&s.mesh[SOLID_CAND], &s.mesh[SOLID_REF], SOLID_TOP,
	    box, 30, 30, px);
	assert_int_equal(px[1 * 30 + 15].kind, SOLID_PX_ONLY);
	assert_int_equal(px[28 * 30 + 15].kind, SOLID_PX_EMPTY);
	solid_release(&s);
	buf_release(&log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solid_only_the_iou_stage),
		cmocka_unit_test(test_solid_views_show_the_difference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
