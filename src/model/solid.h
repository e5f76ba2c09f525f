/*
 * solid.h - the solids a cad run judged, as triangles, and their
 * pictures: orthographic and isometric views rasterised with a depth
 * list per pixel, so that a view can tell where along the line of sight
 * one solid has material the other lacks (the symmetric difference).
 * The workbench's 3D sheet (src/ui/panes/solid.c) draws them; ADR 0052.
 *
 * The triangles come from the run's log, from the lines the OCCT helper
 * printed in the cad env's sealed iou stage (assay-iou --mesh,
 * tools/iou/iou_occt.cpp): the solids it computed the IoU of, never a
 * file the candidate could write after the judgement.  Only the lines
 * after the log's last "$ ./assay-iou " header (found even in the
 * middle of a line) are read, and only from a run that ended at that
 * stage, so nothing a candidate's script printed before it can pass
 * for them.
 */
#ifndef ASSAY_MODEL_SOLID_H
#define ASSAY_MODEL_SOLID_H

#include <stddef.h>

#include "base/err.h"
#include "model/sample.h"

/* The solids of a run: the candidate, the reference, the candidate
 * turned by the helper's best right angle. */
enum solid_which { SOLID_CAND, SOLID_REF, SOLID_TURNED, SOLID_NWHICH };

/* A triangle mesh: ntri triangles of 9 floats (x y z three times, in the
 * STEP file's units, counter-clockwise seen from outside); owned. */
struct solid_mesh {
	float	*v;
	size_t	 ntri;
};

struct solid_set {
	struct solid_mesh mesh[SOLID_NWHICH];	/* ntri 0: not kept */
	double	 iou;		/* the IoU line's; -1: none */
	char	*turn;		/* "90 about Z" (orient:), or NULL; owned */
	double	 turn_iou;	/* its IoU */
};

/* Most triangles a mesh line may hold (the helper's MESH_MAX). */
#define SOLID_MAX_TRI 20000

/*
 * Read the solids of run r (a cad run that reached its iou stage) from
 * its log into s (zeroed first; solid_release() frees it, also after an
 * error).  0 with at least the candidate's and the reference's meshes,
 * else -1 with err saying why (not a cad run, it stopped before the
 * iou stage, verified before meshes were kept, a malformed mesh line
 * with its log line number).
 */
int	solid_from_run(const struct run *r, struct solid_set *s,
	    struct err *err);
void	solid_release(struct solid_set *s);

enum solid_view { SOLID_FRONT, SOLID_TOP, SOLID_SIDE, SOLID_ISO,
    SOLID_NVIEWS };

/* "front", "top", "side", "iso". */
const char *solid_view_name(enum solid_view v);

/* A pixel of a view. */
enum solid_px_kind {
	SOLID_PX_EMPTY,		/* no material along the line of sight */
	SOLID_PX_SAME,		/* the solid's material, the other has it too */
	SOLID_PX_ONLY		/* material of this solid the other lacks */
};
struct solid_px {
	unsigned char	 kind;	/* enum solid_px_kind */
	unsigned char	 shade;	/* 0 dark .. SOLID_SHADES - 1 bright */
};
#define SOLID_SHADES 4

/*
 * The box (xmin ymin zmin xmax ymax zmax) that holds every kept mesh of
 * s, so that all views share one scale.
 */
void	solid_box(const struct solid_set *s, float box[6]);

/*
 * Rasterise mesh a in view v into w x h pixels (row 0 at the top; out
 * holds w * h), scaled so that box fits, square pixels, centred.  A
 * pixel is SOLID_PX_ONLY where the line of sight through it crosses
 * material of a that b (may be NULL: no comparison) does not have,
 * shaded by the surface where that material begins; SAME where it
 * crosses a's material only where b has it too, shaded by a's nearest
 * surface; EMPTY where it meets no material of a.  Material is told by
 * the sense of the surfaces crossed (entering or leaving), so meshes
 * must be closed and outward-facing, as the helper writes them.
 */
void	solid_render(const struct solid_mesh *a, const struct solid_mesh *b,
	    enum solid_view v, const float box[6], int w, int h,
	    struct solid_px *out);

#endif
