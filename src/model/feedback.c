/*
 * feedback.c - a run's feedback object: setting a member with a bounded
 * text, and the text form the repair prompt and the SFT turn carry.
 */
#include "model/feedback.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static const char *const members[] = { FEEDBACK_MEMBERS };
static const char *const headings[] = { "Waveform, first mismatch:",
	"Counterexample:", "Bottleneck:", "Hot lines:" };
#define NMEMBERS (sizeof members / sizeof members[0])

_Static_assert(sizeof headings / sizeof headings[0] == NMEMBERS,
    "a heading for each feedback member");

static int
member_index(const char *name)
{
	for (size_t i = 0; i < NMEMBERS; i++)
		if (strcmp(members[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * text made bounded: tabs become a space, other control bytes and DEL
 * '?', a line over FEEDBACK_LINE_MAX characters is cut with "...", and
 * the whole stops at FEEDBACK_TEXT_MAX bytes at a line's end with
 * "... (cut)".  UTF-8 sequences are counted as one character and never
 * split; invalid bytes become '?'.
 */
static char *
bounded(const char *text)
{
	struct buf b = BUF_INIT, line = BUF_INIT;
	const unsigned char *p = (const unsigned char *)(text != NULL ? text :
	    "");
	size_t chars = 0;
	int cut = 0;

	for (;;) {
		unsigned c = *p;

		if (c == '\0' || c == '\n') {
			/* drop trailing blanks of the line */
			while (line.len > 0 && line.p[line.len - 1] == ' ')
				line.len--;
			if (b.len + line.len + 1 > FEEDBACK_TEXT_MAX - 10) {
				cut = 1;
				break;
			}
			buf_add(&b, line.p != NULL ? line.p : "",
			    line.len);
			if (c == '\0')
				break;
			buf_addc(&b, '\n');
			buf_reset(&line);
			chars = 0;
			p++;
			continue;
		}
		if (chars == FEEDBACK_LINE_MAX) {
			buf_adds(&line, "...");
			chars++;
		}
		if (c >= 0x80) {
			size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 :
			    c >= 0xc2 && c < 0xe0 ? 2 : 0;
			size_t k;

			for (k = 1; n > 0 && k < n; k++)
				if ((p[k] & 0xc0) != 0x80)
					break;
			if (n == 0 || k < n) {
				if (chars < FEEDBACK_LINE_MAX)
					buf_addc(&line, '?');
				p++;
			} else {
				if (chars < FEEDBACK_LINE_MAX)
					buf_add(&line, p, n);
				p += n;
			}
		} else {
			if (chars < FEEDBACK_LINE_MAX)
				buf_addc(&line, c == '\t' ? ' ' : c < 0x20 ||
				    c == 0x7f ? '?' : (char)c);
			p++;
		}
		if (chars < FEEDBACK_LINE_MAX)
			chars++;
	}
	while (b.len > 0 && b.p[b.len - 1] == '\n')
		b.len--;
	if (cut)
		buf_adds(&b, b.len > 0 ? "\n... (cut)" : "... (cut)");
	buf_release(&line);
	buf_addc(&b, '\0');
	return buf_detach(&b, NULL);
}

void
feedback_set(struct run *r, const char *name, json_t *v, const char *text)
{
	json_t *root = NULL;
	char *t, *s;

	if (member_index(name) < 0 || !json_is_object(v)) {
		json_decref(v);
		return;
	}
	if (r->feedback != NULL)
		root = json_loads(r->feedback, 0, NULL);
	if (!json_is_object(root)) {
		json_decref(root);
		root = json_object();
	}
	t = bounded(text);
	json_object_set_new(v, "text", json_string(t));
	free(t);
	json_object_set_new(root, name, v);
	s = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (s == NULL)
		return;
	free(r->feedback);
	r->feedback = xstrdup(s);
	free(s);
}

const char *
feedback_text(const char *fb, const char *name, json_t **root)
{
	json_t *m;

	*root = fb != NULL ? json_loads(fb, 0, NULL) : NULL;
	m = json_object_get(*root, name);
	return json_string_value(json_object_get(m, "text"));
}

int
feedback_words(struct buf *b, const char *fb)
{
	int n = 0;

	for (size_t i = 0; i < NMEMBERS; i++) {
		json_t *root;
		const char *t = feedback_text(fb, members[i], &root);

		if (t != NULL && *t != '\0') {
			buf_printf(b, "%s\n%s\n", headings[i], t);
			n++;
		}
		json_decref(root);
	}
	return n;
}
