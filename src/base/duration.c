/*
 * duration.c - the monotonic clock and spans of seconds as text; see
 * duration.h.
 */
#include "base/duration.h"

#include <stdio.h>
#include <time.h>

const char *
duration_hms(int64_t s, char *buf, size_t n)
{
	if (s <= 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(s / 3600),
		    (long long)(s / 60 % 60), (long long)(s % 60));
	return buf;
}

int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
