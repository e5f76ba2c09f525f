/*
 * solid.c - a cad run's solids from its log, and their views (solid.h).
 */
#define _GNU_SOURCE	/* memmem */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/solid.h"

#include "base/buf.h"

#define HEADER "$ ./assay-iou "

void
solid_release(struct solid_set *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < SOLID_NWHICH; i++)
		free(s->mesh[i].v);
	free(s->turn);
	memset(s, 0, sizeof *s);
	s->iou = -1;
}

/* Parse "N x y z ..." (after "mesh: X ") of len bytes into m. */
static int
parse_mesh(const char *p, size_t len, struct solid_mesh *m)
{
	char *tmp = xstrndup(p, len), *q = tmp, *end;
	unsigned long n = strtoul(q, &end, 10);
	int rc = -1;

	if (end == q || n == 0 || n > SOLID_MAX_TRI)
		goto out;
	m->v = xreallocarray(NULL, n * 9, sizeof *m->v);
	for (size_t i = 0; i < n * 9; i++) {
		double d;

		q = end;
		d = strtod(q, &end);
		if (end == q || !isfinite(d) || fabs(d) > 1e9)
			goto out;
		m->v[i] = (float)d;
	}
	while (*end == ' ')
		end++;
	if (*end != '\0')
		goto out;
	m->ntri = n;
	rc = 0;
out:
	if (rc < 0) {
		free(m->v);
		m->v = NULL;
	}
	free(tmp);
	return rc;
}

static int
from_log(const struct run *r, const char *log, size_t log_len,
    struct solid_set *s, struct err *err)
{
	const char *end, *p, *start = NULL, *why = NULL;
	int lineno = 0, start_line = 0;

	memset(s, 0, sizeof *s);
	s->iou = -1;
	if (r->env == NULL || strcmp(r->env, "cad") != 0)
		return err_set(err, "not a cad run (env %s)",
		    r->env != NULL ? r->env : "none");
	if (r->stage == NULL || strcmp(r->stage, "iou") != 0 ||
	    log == NULL)
		return err_set(err, "the run stopped at %s, before the IoU"
		    " stage: no solids were compared",
		    r->stage != NULL ? r->stage : "its start");
	end = log + log_len;
	/*
	 * The iou stage's header: its last occurrence, even in the middle
	 * of a line (a script's output need not end in a newline before
	 * the next stage's header), since that stage ran last and only the
	 * helper wrote after it.
	 */
	for (p = log; p < end; p++) {
		p = memmem(p, (size_t)(end - p), HEADER, strlen(HEADER));
		if (p == NULL)
			break;
		start = p;
	}
	if (start == NULL)
		return err_set(err, "the run's log has no IoU stage");
	for (p = log; p < start; p++)
		if (*p == '\n')
			lineno++;
	start_line = lineno + 1;
	lineno = start_line;
	for (p = start; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		int which = -1;

		if (p != start && l >= 2 && memcmp(p, "$ ", 2) == 0)
			break;	/* a later stage: none in the cad env */
		if (why == NULL && l > 11 && memcmp(p, "assay-iou: ", 11) == 0)
			why = p;
		if (l > 4 && memcmp(p, "vA=", 3) == 0) {
			const char *q = memmem(p, l, " IoU=", 5);

			if (q != NULL)
				s->iou = strtod(q + 5, NULL);
		} else if (l > 8 && memcmp(p, "orient: ", 8) == 0) {
			char *line = xstrndup(p, l);
			char *q = strstr(line, "rotation=\"");
			char *a = strstr(line, "\" about=");
			char *v = strstr(line, " IoU=");

			if (q != NULL && a != NULL && v != NULL && a > q) {
				free(s->turn);
				s->turn = xstrndup(q + 10,
				    (size_t)(a - q - 10));
				s->turn_iou = strtod(v + 5, NULL);
			}
			free(line);
		} else if (l > 9 && memcmp(p, "mesh: ", 6) == 0 &&
		    p[7] == ' ') {
			which = p[6] == 'A' ? SOLID_CAND : p[6] == 'B' ?
			    SOLID_REF : p[6] == 'T' ? SOLID_TURNED : -1;
			if (which < 0 || s->mesh[which].v != NULL)
				return err_set(err, "run %lld log line %d:"
				    " an unexpected mesh line",
				    (long long)r->id, lineno);
			if (l > 16 && memcmp(p + 8, "too-many ", 9) == 0)
				return err_set(err, "run %lld log line %d:"
				    " the %s solid has too many triangles"
				    " to draw (%.*s)", (long long)r->id,
				    lineno, which == SOLID_CAND ? "candidate's"
				    : "other", (int)(l - 17), p + 17);
			if (parse_mesh(p + 8, l - 8, &s->mesh[which]) < 0)
				return err_set(err, "run %lld log line %d:"
				    " a malformed mesh line", (long long)r->id,
				    lineno);
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (s->mesh[SOLID_CAND].v == NULL || s->mesh[SOLID_REF].v == NULL)
		return why != NULL ? err_set(err, "no solids to draw: %.*s",
		    (int)strcspn(why, "\n"), why) : err_set(err, "the run"
		    " kept no solids (verified before the helper printed"
		    " them): verify it again");
	return 0;
}

/*
 * The meshes are in r->wave since the cad judge moved them out of the
 * log (keep_meshes() in src/envs/cad.c); read after the log's last iou
 * header, as if the helper had printed them there.  A run judged before
 * that keeps them in its log.
 */
int
solid_from_run(const struct run *r, struct solid_set *s, struct err *err)
{
	struct buf b = BUF_INIT;
	int rc;

	if (r->wave == NULL || r->log == NULL)
		return from_log(r, r->log, r->log_len, s, err);
	buf_add(&b, r->log, r->log_len);
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_add(&b, r->wave, r->wave_len);
	rc = from_log(r, b.p, b.len, s, err);
	buf_release(&b);
	return rc;
}

const char *
solid_view_name(enum solid_view v)
{
	static const char *const names[SOLID_NVIEWS] = { "front", "top",
	    "side", "iso" };

	return v < SOLID_NVIEWS ? names[v] : "?";
}

void
solid_box(const struct solid_set *s, float box[6])
{
	int any = 0;

	for (int i = 0; i < 3; i++) {
		box[i] = 0;
		box[i + 3] = 0;
	}
	for (int m = 0; m < SOLID_NWHICH; m++)
		for (size_t k = 0; k < s->mesh[m].ntri * 3; k++) {
			const float *p = s->mesh[m].v + 3 * k;

			for (int i = 0; i < 3; i++) {
				if (!any || p[i] < box[i])
					box[i] = p[i];
				if (!any || p[i] > box[i + 3])
					box[i + 3] = p[i];
			}
			any = 1;
		}
}

/* The axes of a view: right, up and toward the viewer (right-handed). */
static void
view_axes(enum solid_view v, double ax[3][3])
{
	static const double axes[SOLID_NVIEWS][3][3] = {
		/* front: from -Y, x right, z up */
		{ { 1, 0, 0 }, { 0, 0, 1 }, { 0, -1, 0 } },
		/* top: from +Z, x right, y up */
		{ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
		/* side (right): from +X, y right, z up */
		{ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } },
		/* iso: from (1, 1, 1) */
		{ { -0.70710678, 0.70710678, 0 },
		  { -0.40824829, -0.40824829, 0.81649658 },
		  { 0.57735027, 0.57735027, 0.57735027 } },
	};

	memcpy(ax, axes[v], sizeof axes[v]);
}

struct hit {
	float		 depth;		/* away from the viewer */
	unsigned char	 who;		/* 0: a, 1: b */
	signed char	 sense;		/* +1 entering, -1 leaving */
	unsigned char	 shade;
};

struct frame {
	double	 ax[3][3];
	double	 cu, cv, scale;
	int	 w, h;
};

static double
dot3(const double a[3], const float b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The top-left rule: of two triangles that share an edge, one owns a
 * pixel centre on it. */
static int
inside_edge(double e, double dx, double dy)
{
	return e > 0 || (e == 0 && (dy > 0 || (dy == 0 && dx < 0)));
}

/*
 * Walk mesh m's triangles over the frame: count the hits of each pixel
 * into count (fill NULL), or write them at hits + pos[pixel]++.
 */
static void
raster(const struct solid_mesh *m, unsigned char who, const struct frame *f,
    size_t *count, struct hit *hits, size_t *pos)
{
	static const double light[3] = { -0.3, 0.5, 0.81 };

	if (m == NULL)
		return;
	for (size_t t = 0; t < m->ntri; t++) {
		const float *p = m->v + 9 * t;
		double sx[3], sy[3], d[3], n[3], e1[3], e2[3], nt, nl, len;
		double area, minx, maxx, miny, maxy;
		signed char sense;
		unsigned char shade;
		int i0 = 0, i1 = 1, i2 = 2;

		for (int k = 0; k < 3; k++) {
			e1[k] = p[3 + k] - p[k];
			e2[k] = p[6 + k] - p[k];
		}
		n[0] = e1[1] * e2[2] - e1[2] * e2[1];
		n[1] = e1[2] * e2[0] - e1[0] * e2[2];
		n[2] = e1[0] * e2[1] - e1[1] * e2[0];
		len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		if (!(len > 0))
			continue;
		nt = (n[0] * f->ax[2][0] + n[1] * f->ax[2][1] +
		    n[2] * f->ax[2][2]) / len;
		if (fabs(nt) < 1e-9)
			continue;	/* edge-on */
		sense = nt > 0 ? 1 : -1;
		/* lit in view space: the normal's components on the axes */
		nl = 0;
		for (int k = 0; k < 3; k++)
			nl += light[k] * (n[0] * f->ax[k][0] + n[1] *
			    f->ax[k][1] + n[2] * f->ax[k][2]) / len;
		nl = fabs(nl);
		shade = (unsigned char)(nl * SOLID_SHADES >= SOLID_SHADES ?
		    SOLID_SHADES - 1 : nl * SOLID_SHADES);
		for (int k = 0; k < 3; k++) {
			const float *q = p + 3 * k;

			sx[k] = (dot3(f->ax[0], q) - f->cu) * f->scale +
			    f->w / 2.0;
			sy[k] = f->h / 2.0 - (dot3(f->ax[1], q) - f->cv) *
			    f->scale;
			d[k] = -dot3(f->ax[2], q);
		}
		area = (sx[1] - sx[0]) * (sy[2] - sy[0]) -
		    (sx[2] - sx[0]) * (sy[1] - sy[0]);
		if (area == 0)
			continue;
		if (area < 0) {
			i1 = 2;
			i2 = 1;
			area = -area;
		}
		minx = fmin(sx[0], fmin(sx[1], sx[2]));
		maxx = fmax(sx[0], fmax(sx[1], sx[2]));
		miny = fmin(sy[0], fmin(sy[1], sy[2]));
		maxy = fmax(sy[0], fmax(sy[1], sy[2]));
		for (int y = (int)fmax(0, floor(miny - 0.5));
		    y < f->h && y <= maxy; y++)
			for (int x = (int)fmax(0, floor(minx - 0.5));
			    x < f->w && x <= maxx; x++) {
				double px = x + 0.5, py = y + 0.5, w0, w1, w2;
				size_t at = (size_t)y * (size_t)f->w +
				    (size_t)x;
				struct hit *h;

				/* edge functions, positive inside */
				w0 = (sx[i2] - sx[i1]) * (py - sy[i1]) -
				    (sy[i2] - sy[i1]) * (px - sx[i1]);
				w1 = (sx[i0] - sx[i2]) * (py - sy[i2]) -
				    (sy[i0] - sy[i2]) * (px - sx[i2]);
				w2 = (sx[i1] - sx[i0]) * (py - sy[i0]) -
				    (sy[i1] - sy[i0]) * (px - sx[i0]);
				if (!inside_edge(w0, sx[i2] - sx[i1],
				    sy[i2] - sy[i1]) ||
				    !inside_edge(w1, sx[i0] - sx[i2],
				    sy[i0] - sy[i2]) ||
				    !inside_edge(w2, sx[i1] - sx[i0],
				    sy[i1] - sy[i0]))
					continue;
				if (hits == NULL) {
					count[at]++;
					continue;
				}
				h = &hits[pos[at]++];
				h->depth = (float)((w0 * d[i0] + w1 * d[i1] +
				    w2 * d[i2]) / area);
				h->who = who;
				h->sense = sense;
				h->shade = shade;
			}
	}
}

static int
hit_cmp(const void *x, const void *y)
{
	const struct hit *a = x, *b = y;

	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* Classify one pixel from its hits (sorted here). */
static struct solid_px
classify(struct hit *h, size_t n, double eps)
{
	struct solid_px px = { SOLID_PX_EMPTY, 0 };
	int in[2] = { 0, 0 }, same = -1;

	qsort(h, n, sizeof *h, hit_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && h[i].depth - h[i - 1].depth > eps &&
		    in[0] > 0) {
			if (in[1] <= 0) {
				px.kind = SOLID_PX_ONLY;
				px.shade = h[i - 1].shade;
				return px;
			}
			if (same < 0)
				same = h[i - 1].shade;
		}
		in[h[i].who] += h[i].sense;
	}
	if (same >= 0) {
		px.kind = SOLID_PX_SAME;
		px.shade = (unsigned char)same;
	}
	return px;
}

void
solid_render(const struct solid_mesh *a, const struct solid_mesh *b,
    enum solid_view v, const float box[6], int w, int h,
    struct solid_px *out)
{
	struct frame f;
	double umin = 0, umax = 0, vmin = 0, vmax = 0, diag, eps;
	size_t npx, *count, *pos, total = 0;
	struct hit *hits;

	if (w <= 0 || h <= 0)
		return;
	npx = (size_t)w * (size_t)h;
	memset(out, 0, npx * sizeof *out);
	if (a == NULL || a->ntri == 0)
		return;
	view_axes(v, f.ax);
	for (int c = 0; c < 8; c++) {
		float q[3] = { box[(c & 1) ? 3 : 0], box[(c & 2) ? 4 : 1],
		    box[(c & 4) ? 5 : 2] };
		double u = dot3(f.ax[0], q), vv = dot3(f.ax[1], q);

		if (c == 0 || u < umin)
			umin = u;
		if (c == 0 || u > umax)
			umax = u;
		if (c == 0 || vv < vmin)
			vmin = vv;
		if (c == 0 || vv > vmax)
			vmax = vv;
	}
	diag = sqrt((double)(box[3] - box[0]) * (box[3] - box[0]) +
	    (double)(box[4] - box[1]) * (box[4] - box[1]) +
	    (double)(box[5] - box[2]) * (box[5] - box[2]));
	eps = diag > 0 ? diag * 1e-3 : 1e-6;
	f.cu = (umin + umax) / 2;
	f.cv = (vmin + vmax) / 2;
	f.w = w;
	f.h = h;
	f.scale = fmin(umax > umin ? w / (umax - umin) : 1e9,
	    vmax > vmin ? h / (vmax - vmin) : 1e9);
	if (!(f.scale < 1e9))
		f.scale = 1;
	count = xcalloc(npx + 1, sizeof *count);
	pos = xcalloc(npx + 1, sizeof *pos);
	raster(a, 0, &f, count, NULL, NULL);
	raster(b, 1, &f, count, NULL, NULL);
	for (size_t i = 0; i < npx; i++) {
		pos[i] = total;
		total += count[i];
	}
	hits = xreallocarray(NULL, total + 1, sizeof *hits);
	raster(a, 0, &f, count, hits, pos);
	raster(b, 1, &f, count, hits, pos);
	for (size_t i = 0; i < npx; i++) {
		/* pos[i] is now the end of pixel i's hits */
		out[i] = classify(hits + pos[i] - count[i], count[i], eps);
		if (b == NULL && out[i].kind == SOLID_PX_ONLY)
			out[i].kind = SOLID_PX_SAME;	/* nothing to compare */
	}
	free(hits);
	free(pos);
	free(count);
}
