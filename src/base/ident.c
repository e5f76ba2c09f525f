/*
 * ident.c - the rules for ids, task ids, domains, task file names,
 * reviewer names and labels (benchmark, env, origin); see ident.h.  Each check says what is wrong in words a
 * user can act on; callers add where the value came from.
 */
#include "base/ident.h"

#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/textsafe.h"

const char *const ident_domains[5] = { "chip", "gpu", "embedded",
	"compiler", "3d" };

static int
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* The first byte of s outside [A-Za-z0-9_-] and extra, or NULL. */
static const char *
bad_char(const char *s, size_t n, const char *extra)
{
	for (size_t i = 0; i < n; i++)
		if (!alnum(s[i]) && s[i] != '_' && s[i] != '-' &&
		    (extra == NULL || strchr(extra, s[i]) == NULL))
			return s + i;
	return NULL;
}

static int
char_error(struct err *err, const char *what, char c, const char *allowed)
{
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		return err_set(err, "%s holds the byte 0x%02x (allowed: %s)",
		    what, (unsigned char)c, allowed);
	return err_set(err, "%s holds '%c' (allowed: %s)", what, c, allowed);
}

int
ident_check_id(const char *s, struct err *err)
{
	size_t n = s != NULL ? strlen(s) : 0;
	const char *bad;

	if (n == 0)
		return err_set(err, "an id must not be empty");
	if (n > IDENT_MAX)
		return err_set(err, "an id is at most %d bytes (this one has"
		    " %zu)", IDENT_MAX, n);
	bad = bad_char(s, n, NULL);
	if (bad != NULL)
		return char_error(err, "the id", *bad,
		    "letters, digits, '_' and '-'");
	if (!alnum(s[0]))
		return err_set(err, "an id begins with a letter or a digit");
	if (strcasecmp(s, "task") == 0)
		return err_set(err, "\"task\" is reserved (the dataset keeps"
		    " task.json beside the candidates)");
	return 0;
}

int
ident_check_task_id(const char *s, struct err *err)
{
	size_t n = s != NULL ? strlen(s) : 0, parts = 0;
	const char *p;

	if (n == 0)
		return err_set(err, "a task id must not be empty");
	if (n > IDENT_TASK_MAX)
		return err_set(err, "a task id is at most %d bytes (this one"
		    " has %zu)", IDENT_TASK_MAX, n);
	for (p = s; ; ) {
		size_t l = strcspn(p, "/");
		const char *bad = bad_char(p, l, NULL);

		parts++;
		if (l == 0)
			return err_set(err, "a task id has no empty part (no"
			    " leading, trailing or double '/')");
		if (l > IDENT_MAX)
			return err_set(err, "each '/' part of a task id is at"
			    " most %d bytes", IDENT_MAX);
		if (bad != NULL)
			return char_error(err, "the task id", *bad, "letters,"
			    " digits, '_' and '-', parts joined by '/'");
		if (!alnum(p[0]) && p[0] != '_')
			return err_set(err, "each '/' part of a task id begins"
			    " with a letter, a digit or '_'");
		if (l == 5 && strncmp(p, "files", 5) == 0)
			return err_set(err, "\"files\" is reserved in a task id"
			    " (the dataset keeps a task's files there)");
		if (p[l] == '\0')
			break;
		p += l + 1;
	}
	if (parts > IDENT_TASK_PARTS)
		return err_set(err, "a task id has at most %d '/' parts",
		    IDENT_TASK_PARTS);
	return 0;
}

char *
ident_fit_task_id(const char *s)
{
	struct buf b = BUF_INIT;
	const char *p;

	if (s == NULL)
		return NULL;
	for (p = s; ; ) {
		size_t l = strcspn(p, "/");

		if (l > IDENT_MAX) {
			char hex[65];

			hash_sha256(p, l, hex);
			buf_add(&b, p, IDENT_MAX - 9);
			buf_printf(&b, "-%.8s", hex);
		} else {
			buf_add(&b, p, l);
		}
		if (p[l] == '\0')
			break;
		buf_adds(&b, "/");
		p += l + 1;
	}
	return buf_detach(&b, NULL);
}

int
ident_check_domain(const char *s, struct err *err)
{
	for (size_t i = 0; s != NULL && i < 5; i++)
		if (strcmp(s, ident_domains[i]) == 0)
			return 0;
	return err_set(err, "the domain must be one of chip, gpu, embedded,"
	    " compiler, 3d");
}

int
ident_check_file_name(const char *s, struct err *err)
{
	size_t n = s != NULL ? strlen(s) : 0;
	const char *bad;

	if (n == 0)
		return err_set(err, "a file name must not be empty");
	if (n > IDENT_FILE_MAX)
		return err_set(err, "a file name is at most %d bytes",
		    IDENT_FILE_MAX);
	bad = bad_char(s, n, ".+,");
	if (bad != NULL)
		return char_error(err, "the file name", *bad, "letters,"
		    " digits, '_', '-', '+', ',' and '.'; no '/'");
	if (!alnum(s[0]) && s[0] != '_')
		return err_set(err, "a file name begins with a letter, a digit"
		    " or '_' (never '-' or '.')");
	return 0;
}

/*
 * A name of people's text (what: "a reviewer name"): 1 to max bytes of
 * valid UTF-8 without control characters, line or paragraph separators,
 * direction controls, leading or trailing space, nor a byte of forbid.
 */
static int
check_text(const char *s, const char *what, size_t max, const char *forbid,
    struct err *err)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0)
		return err_set(err, "%s must not be empty", what);
	if (n > max)
		return err_set(err, "%s is at most %zu bytes (this one has %zu)",
		    what, max, n);
	if (s[0] == ' ' || s[n - 1] == ' ')
		return err_set(err, "%s has no leading or trailing space",
		    what);
	for (size_t i = 0; i < n; ) {
		unsigned cp;
		size_t l = safe_utf8_len(s + i, n - i, &cp);

		if (l == 0)
			return err_set(err, "%s is UTF-8 (byte 0x%02x at %zu is"
			    " not)", what, (unsigned char)s[i], i);
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			return err_set(err, "%s holds no control characters"
			    " (U+%04X at byte %zu)", what, cp, i);
		if (cp == 0x2028 || cp == 0x2029 || cp == 0x200e ||
		    cp == 0x200f || cp == 0x061c ||
		    (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return err_set(err, "%s holds no line separators or"
			    " direction controls (U+%04X at byte %zu)", what,
			    cp, i);
		if (cp < 0x80 && forbid != NULL && strchr(forbid, (int)cp) !=
		    NULL)
			return err_set(err, "%s holds no '%c'", what, (int)cp);
		i += l;
	}
	return 0;
}

int
ident_check_reviewer(const char *s, struct err *err)
{
	return check_text(s, "a reviewer name", IDENT_NAME_MAX, "<>", err);
}

int
ident_check_label(const char *s, const char *what, struct err *err)
{
	return check_text(s, what, IDENT_LABEL_MAX, NULL, err);
}

const char *
ident_show(const char *s, char *out, size_t n)
{
	struct buf b = BUF_INIT;

	if (n == 0)
		return out;
	if (s == NULL)
		s = "(null)";
	safe_text(&b, s, strlen(s), SAFE_QUOTE);
	if (b.len < n) {
		memcpy(out, buf_str(&b), b.len + 1);
	} else if (n > 4) {
		memcpy(out, b.p, n - 4);
		memcpy(out + n - 4, "...", 4);
	} else {
		out[0] = '\0';
	}
	buf_release(&b);
	return out;
}
