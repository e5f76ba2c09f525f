/*
 * termfilter.c - a run's output made safe to feed a terminal; see
 * termfilter.h for what passes.  A byte-at-a-time state machine after
 * ECMA-48's syntax (ground, ESC, CSI, control strings), which keeps what
 * a cut sequence needs between calls; the UTF-8 rules are textsafe.c's.
 */
#include "exec/termfilter.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "base/textsafe.h"

enum {
	TF_GROUND,
	TF_ESC,		/* after ESC */
	TF_ESC_INT,	/* ESC, intermediates (0x20-0x2f) */
	TF_CSI,		/* ESC [ */
	TF_STR,		/* ESC ] P X ^ _: a string up to ST or BEL */
	TF_STR_ESC	/* ESC inside a string: ST when '\\' follows */
};

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */
#define DOTTED_CIRCLE "\xe2\x97\x8c"	/* U+25CC, a combining mark's base */

/*
 * 1 when cp takes no column of its own (a combining mark, a zero-width
 * space or joiner): glibc's wcwidth() in C.UTF-8, whatever the process's
 * locale, so that the filter reads alike in the workbench and in a test.
 * Without that locale, the blocks of combining marks and the zero-width
 * format characters.
 */
static locale_t utf8;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
utf8_open(void)
{
	utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

static int
zero_width(unsigned cp)
{
	locale_t was;
	int w;

	pthread_once(&utf8_once, utf8_open);
	if (utf8 != (locale_t)0) {
		was = uselocale(utf8);
		w = wcwidth((wchar_t)cp);
		uselocale(was);
		return w == 0;
	}
	return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 &&
	    cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x20d0 &&
	    cp <= 0x20ff) || (cp >= 0x2060 && cp <= 0x2064) ||
	    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xfe20 &&
	    cp <= 0xfe2f) || cp == 0xfeff;
}

void
term_filter_init(struct term_filter *f)
{
	memset(f, 0, sizeof *f);
	f->state = TF_GROUND;
}

int
term_filter_mid_line(const struct term_filter *f)
{
	return f->mid_line;
}

static void
line_end(struct term_filter *f, struct buf *out)
{
	if (f->pen)
		buf_adds(out, "\033[m");
	buf_adds(out, "\r\n");
	f->pen = 0;
	f->mid_line = 0;
	f->base = 0;
}

/* A UTF-8 sequence cut short by a byte that does not continue it. */
static void
utf8_drop(struct term_filter *f, struct buf *out)
{
	if (f->nu8 > 0) {
		buf_adds(out, REPLACEMENT);
		f->nu8 = 0;
		f->mid_line = 1;
		f->base = 1;
	}
}

static int
utf8_need(unsigned char b)
{
	return b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
}

/* A byte of 0x80 or more on the ground: part of a UTF-8 sequence. */
static void
utf8_byte(struct term_filter *f, unsigned char b, struct buf *out)
{
	unsigned cp;

	if ((b & 0xc0) == 0x80 && f->nu8 > 0) {
		f->u8[f->nu8++] = b;
		if (f->nu8 < utf8_need(f->u8[0]))
			return;
		if (safe_utf8_len((const char *)f->u8, (size_t)f->nu8,
		    &cp) == (size_t)f->nu8 && !safe_cp_unsafe(cp)) {
			/* a mark with nothing to its left on the line */
			if (!f->base && zero_width(cp))
				buf_adds(out, DOTTED_CIRCLE);
			buf_add(out, f->u8, (size_t)f->nu8);
		} else {
			buf_adds(out, REPLACEMENT);
		}
		f->nu8 = 0;
		f->mid_line = 1;
		f->base = 1;
		return;
	}
	utf8_drop(f, out);
	if (b >= 0xc2 && b <= 0xf4) {
		f->u8[0] = b;
		f->nu8 = 1;
	} else {
		buf_adds(out, REPLACEMENT);	/* a stray continuation... */
		f->mid_line = 1;
		f->base = 1;
	}
}

/* SGR parameters that only colour text (termfilter.h lists them). */
static int
sgr_keep(long v)
{
	return v == 0 || v == 1 || v == 2 || v == 3 || v == 4 ||
	    (v >= 22 && v <= 24) || v == 39 || (v >= 31 && v <= 36) ||
	    (v >= 91 && v <= 96);
}

/* ESC [ f->seq m: pass the parameters sgr_keep() allows. */
static void
sgr(struct term_filter *f, struct buf *out)
{
	/* at most SEQ_MAX + 1 parameters (an empty one is 0), each kept
	 * as two digits at most and a ';' */
	char kept[3 * (TERM_FILTER_SEQ_MAX + 1) + 1];
	size_t nk = 0;
	const char *p = f->seq;
	int mode = 0, skip = 0;

	f->seq[f->nseq] = '\0';
	for (;;) {
		size_t len = strcspn(p, ";");
		long v = 0;
		int sub = memchr(p, ':', len) != NULL;

		for (size_t i = 0; i < len && !sub && v < 1000; i++)
			v = v * 10 + (p[i] - '0');
		if (skip > 0) {
			skip--;		/* an operand of 38 or 48 */
		} else if (mode) {
			/* after 38 or 48: 5;N or 2;R;G;B */
			mode = 0;
			skip = v == 5 ? 1 : v == 2 ? 3 : 0;
		} else if (!sub && (v == 38 || v == 48)) {
			mode = 1;
		} else if (!sub && sgr_keep(v)) {
			if (nk > 0)
				kept[nk++] = ';';
			nk += (size_t)snprintf(kept + nk, sizeof kept - nk,
			    "%ld", v);
		}
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	if (nk == 0)
		return;
	kept[nk] = '\0';
	buf_printf(out, "\033[%sm", kept);
	f->pen = 1;
}

void
term_filter_run(struct term_filter *f, const char *s, size_t n,
    struct buf *out)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)s[i];

		switch (f->state) {
		case TF_ESC:
			if (b == '[') {
				f->state = TF_CSI;
				f->nseq = 0;
				f->seq_bad = 0;
				continue;
			}
			if (b == ']' || b == 'P' || b == 'X' || b == '^' ||
			    b == '_') {
				f->state = TF_STR;
				f->nseq = 0;
				continue;
			}
			if (b == 0x1b)
				continue;
			if (b >= 0x20 && b <= 0x2f) {
				f->state = TF_ESC_INT;
				f->nseq = 1;
				continue;
			}
			f->state = TF_GROUND;
			if (b >= 0x30 && b <= 0x7e)
				continue;	/* ESC c, ESC 7, ESC M: dropped */
			break;			/* a control: as on the ground */
		case TF_ESC_INT:
			if (b >= 0x20 && b <= 0x2f &&
			    ++f->nseq < TERM_FILTER_SEQ_MAX)
				continue;
			f->state = b == 0x1b ? TF_ESC : TF_GROUND;
			if (b >= 0x20 && b <= 0x7e)
				continue;	/* its final (or too long) */
			if (b == 0x1b)
				continue;
			break;
		case TF_CSI:
			if (b >= 0x20 && b <= 0x3f) {
				if (f->nseq >= TERM_FILTER_SEQ_MAX) {
					f->state = TF_GROUND;	/* too long */
					continue;
				}
				/* a private marker or an intermediate: not
				 * a plain SGR */
				if (!((b >= '0' && b <= '9') || b == ';' ||
				    b == ':'))
					f->seq_bad = 1;
				f->seq[f->nseq++] = (char)b;
				continue;
			}
			if (b >= 0x40 && b <= 0x7e) {
				f->state = TF_GROUND;
				if (b == 'm' && !f->seq_bad)
					sgr(f, out);
				continue;
			}
			f->state = b == 0x1b ? TF_ESC : TF_GROUND;
			if (b == 0x1b)
				continue;
			break;
		case TF_STR:
			if (b == 0x1b) {
				f->state = TF_STR_ESC;
				continue;
			}
			if (b == 0x07 || b == 0x18 || b == 0x1a) {
				f->state = TF_GROUND;	/* BEL ends an OSC */
				continue;
			}
			if (b != '\n' && b != '\r' &&
			    ++f->nseq < TERM_FILTER_STR_MAX)
				continue;
			f->state = TF_GROUND;
			if (b != '\n' && b != '\r')
				continue;	/* too long: ends here */
			break;			/* a line end ends it */
		case TF_STR_ESC:
			if (b == '\\') {
				f->state = TF_GROUND;	/* ST */
				continue;
			}
			f->state = TF_ESC;	/* a new escape */
			i--;
			continue;
		default:
			break;
		}
		/* the ground */
		if (b >= 0x80) {
			f->after_cr = 0;
			utf8_byte(f, b, out);
			continue;
		}
		utf8_drop(f, out);
		if (b == '\n' && f->after_cr) {
			f->after_cr = 0;	/* "\r\n": one line end */
			continue;
		}
		if (b == '\r' && f->after_cr)
			continue;		/* "\r\r\n" too */
		f->after_cr = b == '\r';
		if (b == '\n' || b == '\r') {
			line_end(f, out);
		} else if (b == 0x1b) {
			f->state = TF_ESC;
		} else if (b == '\t' || (b >= 0x20 && b < 0x7f)) {
			buf_addc(out, (char)b);
			f->mid_line = 1;
			f->base = b != '\t';	/* a tab moves the cursor */
		}
		/* other C0 controls and DEL: dropped */
	}
}

void
term_filter_end(struct term_filter *f, struct buf *out)
{
	int mid;

	utf8_drop(f, out);
	mid = f->mid_line;
	if (f->pen)
		buf_adds(out, "\033[m");
	term_filter_init(f);
	f->mid_line = mid;
}
