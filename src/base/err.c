/*
 * err.c - error messages, fatal exit and allocation wrappers; see err.h.
 * Used by every module; depends on nothing but libc.
 */
#include "base/err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*fatal_hook)(void);

int
err_set(struct err *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	/* Messages quote imported names and tool output: no byte of them
	 * may drive the terminal they are printed on. */
	for (unsigned char *p = (unsigned char *)err->msg; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';	/* a C1 control, U+0080..U+009F */
	}
	return -1;
}

void
err_clear(struct err *err)
{
	if (err != NULL)
		err->msg[0] = '\0';
}

void
fatal_set_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook != NULL) {
		void (*hook)(void) = fatal_hook;

		fatal_hook = NULL;	/* a failing hook must not recurse */
		hook();
	}
	fputs("assay: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(70);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n != 0 ? n : 1);

	if (p == NULL)
		fatal("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb != 0 ? nmemb : 1, size != 0 ? size : 1);

	if (p == NULL)
		fatal("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n != 0 ? n : 1);

	if (q == NULL)
		fatal("out of memory (%zu bytes)", n);
	return q;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		fatal("allocation overflow (%zu x %zu)", nmemb, size);
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return s != NULL ? xstrndup(s, strlen(s)) : NULL;
}

void
strv_free(char **v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

void
array_free(void *v, size_t n, size_t size, void (*release)(void *))
{
	for (size_t i = 0; v != NULL && i < n; i++)
		release((char *)v + i * size);
	free(v);
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("xasprintf: bad format %s", fmt);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
