#include <string.h>

#include "profile/own.h"

int
own_match(const char *name, size_t len, const char *c)
{
	size_t cl = strlen(c), i;

	if (len > cl + 2 && memcmp(name, c, cl) == 0 &&
	    memcmp(name + cl, "::", 2) == 0)
		return 1;
	if (len > cl + 3 && name[0] == '<' && memcmp(name + 1, c, cl) == 0 &&
	    memcmp(name + 1 + cl, "::", 2) == 0)
		return 1;
	for (i = 0; name[0] == '<' && i + 4 + cl + 2 <= len; i++)
		if (memcmp(name + i, " as ", 4) == 0 &&
		    memcmp(name + i + 4, c, cl) == 0 &&
		    memcmp(name + i + 4 + cl, "::", 2) == 0)
			return 1;
	return 0;
}

int
own_any(const char *name, size_t len, char *const *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (own_match(name, len, c[i]))
			return 1;
	return 0;
}
