/*
 * xml: any byte string made safe text for XML 1.0, and the way back; a
 * matched pair, xml_unescape(xml_escape(s)) == s for every s.
 *
 * Escaping goes in two steps, so that a writer can take the first alone
 * (a label is cleaned once, then cut to fit, then given its entities):
 *   xml_clean: a byte that is not part of valid UTF-8, or that XML cannot
 *     carry at all (control characters but TAB; C1 controls; U+FFFE,
 *     U+FFFF), becomes the four characters \xNN; a backslash followed by
 *     'x' becomes \x5c, so that the step can be undone. The result is
 *     valid UTF-8.
 *   xml_entities: & < > " ' become &amp; &lt; &gt; &quot; &#39;.
 * xml_escape does both; xml_unescape undoes both.
 *
 *	struct buf b;
 *	buf_init(&b);
 *	xml_escape(&b, name, len);	b.p: safe in text and attributes
 *	buf_release(&b);
 */
#ifndef FG_SVG_XML_H
#define FG_SVG_XML_H

#include <stddef.h>

#include "base/buf.h"

/* Appends s[0..len) (borrowed; any bytes) to b, made valid UTF-8 as above. */
void	 xml_clean(struct buf *b, const char *s, size_t len);

/*
 * Appends s[0..len) (borrowed; the output of xml_clean, or any text known
 * to be valid UTF-8) to b, with & < > " ' as entities.
 */
void	 xml_entities(struct buf *b, const char *s, size_t len);

/* xml_clean then xml_entities: appends s[0..len) as safe XML text. */
void	 xml_escape(struct buf *b, const char *s, size_t len);

/*
 * Appends s[0..len) (borrowed; any bytes), cleaned as xml_clean does, as
 * a JavaScript string literal in double quotes that is safe inside a
 * CDATA section: controls, " \ < > & and ] as \uXXXX.
 */
void	 xml_jsstr(struct buf *b, const char *s, size_t len);

/*
 * Undoes xml_escape on s[0..len) (borrowed): the five entities (and
 * &apos;), decimal and hex character references up to U+10FFFF, and \xHH.
 * Anything else, an unknown entity too, is kept as it is. Returns a newly
 * allocated string, NUL-terminated (it may hold NULs of its own), which the
 * caller frees; its length goes to *outlen.
 */
char	*xml_unescape(const char *s, size_t len, size_t *outlen);

#endif
