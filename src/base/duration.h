/*
 * duration.h - spans of time: the monotonic clock in milliseconds, and a
 * span of seconds as people read it in a table.
 */
#ifndef ASSAY_DURATION_H
#define ASSAY_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* s seconds as "H:MM:SS" ("1:02:03"; hours unbounded), or "-" when s is
 * 0 or less, into buf of n bytes (truncated).  Returns buf. */
const char *duration_hms(int64_t s, char *buf, size_t n);

/* Milliseconds of CLOCK_MONOTONIC (clock_gettime(2)): for deadlines and
 * spans, never for dates.  Thread-safe. */
int64_t	mono_ms(void);

#endif
