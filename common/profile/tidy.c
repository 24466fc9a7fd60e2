#include <string.h>

#include "base/str.h"
#include "profile/tidy.h"

/* A Go method name such as "net/http.(*Client).Do": ".(" then later ").". */
static int
is_go_method(const char *s, size_t len)
{
	const char *p = memmem(s, len, ".(", 2);

	return p != NULL && memmem(p + 2, len - (p + 2 - s), ").", 2) != NULL;
}

/*
 * Where the argument list starts: the first '(' that is not part of
 * "(anonymous namespace)". With brackets balanced, a '(' inside <...> is
 * part of a template argument and is skipped, and so are a lambda's
 * parameters inside {...} ("main::{lambda(int)#1}::operator()"),
 * "operator()" and the '<' or '>' of an operator's name. With brackets
 * unbalanced we do what the reference does and take the first '('.
 */
static size_t
args_start(const char *s, size_t len)
{
	size_t i, first = len, depth = 0, braces = 0, cut = len;
	int unbalanced = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '(' && len - i >= sizeof(TIDY_ANON) - 1 &&
		    memcmp(s + i, TIDY_ANON, sizeof(TIDY_ANON) - 1) == 0) {
			i += sizeof(TIDY_ANON) - 2;
			continue;
		}
		if (s[i] == '(' && first == len)
			first = i;
		if (s[i] == 'o' && len - i >= 8 && memcmp(s + i, "operator", 8) == 0 &&
		    (i == 0 || !tidy_isident(s[i - 1])) &&
		    (i + 8 == len || !tidy_isident(s[i + 8]))) {
			i += 8;
			while (i < len && s[i] == ' ')
				i++;
			if (len - i >= 2 && s[i] == '(' && s[i + 1] == ')') {
				if (first == len)
					first = i;
				i += 1;
				continue;
			}
			while (i < len && strchr("<>=!+-*/%^&|~[],", s[i]) != NULL)
				i++;
			i--;
			continue;
		}
		if (s[i] == '{')
			braces++;
		else if (s[i] == '}' && braces > 0)
			braces--;
		else if (s[i] == '}')
			unbalanced = 1;
		else if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth > 0) {
			if (i > 0 && s[i - 1] == '-')	/* "->" is not a bracket */
				continue;
			depth--;
		} else if (s[i] == '>')
			unbalanced = 1;
		else if (s[i] == '(' && depth == 0 && braces == 0 && cut == len)
			cut = i;
	}
	if (depth != 0 || braces != 0 || unbalanced)
		return first;
	return cut;
}

size_t
tidy_name(const char *name, size_t len, char *out)
{
	size_t i, n = 0;

	if (!is_go_method(name, len))
		len = args_start(name, len);
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c == '"' || c == '\'')
			continue;
		out[n++] = c == ';' ? ':' : c;
	}
	out[n] = '\0';
	return n;
}

/* The "$..$" escapes of Rust's legacy mangling, and what they stand for. */
static const struct {
	const char	*esc;
	char		 c;
} rust_esc[] = {
	{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' },
	{ "$C$", ',' }, { "$RF$", '&' }, { "$BP$", '*' }, { "$SP$", '@' },
	{ "$u20$", ' ' }, { "$u22$", '"' }, { "$u27$", '\'' },
	{ "$u2b$", '+' }, { "$u3b$", ';' }, { "$u5b$", '[' }, { "$u5d$", ']' },
	{ "$u7b$", '{' }, { "$u7d$", '}' }, { "$u7e$", '~' },
};

static int
ishex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The escape at s[0..len), or -1. */
static int
rust_escape(const char *s, size_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof(rust_esc) / sizeof(rust_esc[0]); i++) {
		n = strlen(rust_esc[i].esc);
		if (len >= n && memcmp(s, rust_esc[i].esc, n) == 0)
			return i;
	}
	return -1;
}

size_t
tidy_rust_legacy(char *s, size_t len)
{
	size_t i, n = 0;
	int k, hashed = len >= 19 && memcmp(s + len - 19, "::h", 3) == 0;

	for (i = len - 16; hashed && i < len; i++)
		hashed = ishex(s[i]);
	if (hashed)
		len -= 19;
	else {
		/* No hash: only a name that holds an escape is Rust's. */
		for (i = 0; i < len && (s[i] != '$' || rust_escape(s + i,
		    len - i) < 0); i++)
			;
		if (i == len)
			return len;
	}
	/* A leading '_' only keeps the name from starting with '$'. */
	i = len > 1 && s[0] == '_' && s[1] == '$' ? 1 : 0;
	while (i < len) {
		if (s[i] == '$' && (k = rust_escape(s + i, len - i)) >= 0) {
			s[n++] = rust_esc[k].c;
			i += strlen(rust_esc[k].esc);
		} else if (s[i] == '.' && i + 1 < len && s[i + 1] == '.') {
			s[n++] = ':';
			s[n++] = ':';
			i += 2;
		} else
			s[n++] = s[i++];
	}
	return n;
}

size_t
tidy_strip_hex(const char *s, size_t len, char *out)
{
	size_t i = 0, n = 0;

	while (i < len) {
		if (s[i] == '0' && i + 1 < len && s[i + 1] == 'x') {
			size_t j = i + 2;

			while (j < len && str_hexval(s[j]) >= 0)
				j++;
			if (j > i + 2) {
				memcpy(out + n, "0x...", 5);
				n += 5;
				i = j;
				continue;
			}
		}
		out[n++] = s[i++];
	}
	return n;
}

size_t
tidy_java(char *s, size_t len)
{
	if (len == 0 || s[0] != 'L' || memchr(s, '/', len) == NULL)
		return len;
	memmove(s, s + 1, len - 1);
	return len - 1;
}

void
tidy_comm(char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == ' ')
			s[i] = '_';
		else if (s[i] == ';')
			s[i] = ':';
}
