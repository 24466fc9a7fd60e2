/*
 * diag: what a reader of a sample stream says about its input, in the
 * same words in every tool that reads one (fgfold, fgpprof): each line
 * that is no part of the format, up to DIAG_BAD_SHOWN of them and then
 * one line that more follow; a last sample cut off before its empty line.
 * Every message names the input and the line. (An input that cannot be
 * read is said as every tool says it: base/cmdfile.h.)
 *
 *	struct stream_diag d;
 *	stream_diag_init(&d, name);
 *	... stream_diag_bad(&d, lr.lineno, line, len); ...
 *	if (in_sample) stream_diag_cut(&d, head_lineno);
 *	rval = d.bad > 0 || ...;
 */
#ifndef FG_DIAG_H
#define FG_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#define DIAG_BAD_SHOWN	10	/* unrecognised lines shown per input */
#define DIAG_QUOTE_SIZE	(80 * 4 + 4)	/* stream_quote's out for max 80 */

struct stream_diag {
	const char	*name;		/* borrowed: the input, for messages */
	unsigned long	 bad;		/* unrecognised lines so far */
};

/* name is borrowed; a diag owns nothing, so there is no release. */
void	 stream_diag_init(struct stream_diag *, const char *name);

/*
 * Counts line[0..len), read at lineno, as unrecognised, and says so while
 * no more than DIAG_BAD_SHOWN have been: the line cut at 80 bytes.
 */
void	 stream_diag_bad(struct stream_diag *, unsigned long lineno,
	    const char *line, size_t len);

/*
 * Says that the sample whose head is at lineno had no closing empty line,
 * and that it was dropped (a reader that counts samples), or, with kept,
 * passed on as it is (fgsym).
 */
void	 stream_diag_cut(const struct stream_diag *, unsigned long lineno);
void	 stream_diag_cut_kept(const struct stream_diag *, unsigned long lineno);

/*
 * Says that the input ends in the middle of line lineno, with no newline:
 * the writer was cut off there. stream_diag_cut_inside: inside the sample
 * whose head is at head, which was dropped, or with kept passed on.
 */
void	 stream_diag_cut_line(const struct stream_diag *, unsigned long lineno);
void	 stream_diag_cut_inside(const struct stream_diag *, unsigned long lineno,
	    unsigned long head, int kept);

/*
 * Says that the input, all of it well formed, holds no sample: not bad
 * input, in the same words in fgfold, fgpprof and fgsvg (which exit 0).
 * why (borrowed, or NULL) is what more the reader knows of the reason.
 */
void	 stream_diag_empty(const char *why);

/*
 * Writes s[0..len) into out, of outsize bytes, for a message: at most max
 * bytes of s (then "..."), and every byte that is no printable text (a
 * control character, NUL, a C1 control, a byte of no UTF-8 character)
 * as \xHH, so that a message never holds raw binary. out is always
 * NUL-terminated; outsize >= max * 4 + 4 holds it all. Returns out.
 */
char	*stream_quote(char *out, size_t outsize, const char *s, size_t len,
	    size_t max);

/*
 * All of s[0..len), quoted as stream_quote quotes (no byte that is no
 * printable text, never cut): a new string, the caller frees it.
 */
char	*stream_quoted(const char *s, size_t len);

/*
 * warnx(3) and warn(3), the message whole but quoted as stream_quote
 * quotes: an ESC, BEL or CR that a name from the input brings (a DSO, an
 * MMAP2 file name, an event's name, a path inside a file) is written
 * \x1b, \x07, \x0d, never to the terminal, where it would set its title
 * or clear the screen. For every message that holds such a name.
 */
void	 stream_warnx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
void	 stream_vwarnx(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
void	 stream_vwarn(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));

/*
 * The number of bytes of a valid, printable UTF-8 character at s[0..len)
 * (1 for printable ASCII and a tab), or 0 when s starts with a byte that
 * is no printable text.
 */
size_t	 stream_text_char(const unsigned char *s, size_t len);

#endif
