/*
 * buf.h - a growable byte buffer, always NUL-terminated.
 * Embedded: buf_init() / buf_release(); BUF_INIT for static initialisation.
 */
#ifndef ASSAY_BUF_H
#define ASSAY_BUF_H

#include <stddef.h>

struct buf {
	char	*p;	/* owned; NULL until the first add */
	size_t	 len;	/* bytes used, not counting the NUL */
	size_t	 cap;
};

#define BUF_INIT { NULL, 0, 0 }

void	buf_init(struct buf *b);
/* Free the contents; leaves b initialised. NULL-safe. */
void	buf_release(struct buf *b);
void	buf_reset(struct buf *b);		/* len = 0, keeps memory */
void	buf_add(struct buf *b, const void *p, size_t n);
void	buf_adds(struct buf *b, const char *s);
void	buf_addc(struct buf *b, char c);
/*
 * Add s quoted for a POSIX shell, always in single quotes, a quote in it
 * as '\'' ("it's" becomes 'it'\''s'): one word whatever s holds.
 */
void	buf_add_quoted(struct buf *b, const char *s);
void	buf_printf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* The contents as a string: borrowed, "" when empty, valid until next add. */
const char *buf_str(const struct buf *b);
/* Hand the contents to the caller (caller frees) and reinitialise b. */
char	*buf_detach(struct buf *b, size_t *len);

#endif
