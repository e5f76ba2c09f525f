#include <stdio.h>

int main(void)
{
	long n, s = 0;

	if (scanf("%ld", &n) != 1)
		return 1;
	for (long i = 1; i <= n; i++)
		s += i;
	printf("%ld\n", s);
	return 0;
}
