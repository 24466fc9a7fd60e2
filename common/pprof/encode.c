#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/num.h"
#include "base/str.h"
#include "base/xalloc.h"
#include "pprof/encode.h"
#include "pprof/pb.h"
#include "stream/dso.h"
#include "stream/stream.h"

/* Mapping flags: what the stream told about a DSO's frames. */
#define MAP_FUNCS	1
#define MAP_FILES	2
#define MAP_LINES	4
#define MAP_INLINE	8

/* The fields of profile.proto (github.com/google/pprof, proto/profile.proto). */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING,
	PROFILE_LOCATION, PROFILE_FUNCTION, PROFILE_STRING_TABLE,
	PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD,
	PROFILE_COMMENT, PROFILE_DEFAULT_SAMPLE_TYPE,
	VALUETYPE_TYPE = 1, VALUETYPE_UNIT,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL,
	LABEL_KEY = 1, LABEL_STR, LABEL_NUM,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_BUILD_ID,
	MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES, MAPPING_HAS_LINE_NUMBERS,
	MAPPING_HAS_INLINE_FRAMES,
	LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE,
	LINE_FUNCTION_ID = 1, LINE_LINE,
	FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME
};

uint64_t
pprof_str(struct pprof *p, const char *s, size_t len)
{
	if (len == 0)
		return 0;	/* s may be NULL */
	return stacktab_get(&p->strs, s, len) - p->strs.ents;
}

static uint64_t
cstr_id(struct pprof *p, const char *s)
{
	return pprof_str(p, s, strlen(s));
}

/* The leading digits of s[0..len), saturated at 2^64-1; *used says how many. */
static uint64_t
parse_u64(const char *s, size_t len, size_t *used)
{
	uint64_t v;

	num_u64(s, len, &v, used);
	return v;
}

static uint64_t
map_id(struct pprof *p, const char *dso, size_t len)
{
	size_t n = p->maps.n;
	struct stacktab_entry *e = stacktab_get(&p->maps, dso, len);
	uint64_t id = e - p->maps.ents + 1;

	if (p->maps.n != n)
		p->maps.ents[id - 1].u[0] = pprof_str(p, dso, len);
	return id;
}

static uint64_t
func_id(struct pprof *p, const char *name, size_t nlen, const char *file,
    size_t flen)
{
	char *k = xmalloc(nlen + flen + 1);
	size_t n = p->funcs.n;
	uint64_t id;

	memcpy(k, name, nlen);
	k[nlen] = '\0';
	if (flen > 0)		/* file is NULL when there is none */
		memcpy(k + nlen + 1, file, flen);
	id = stacktab_get(&p->funcs, k, nlen + 1 + flen) - p->funcs.ents + 1;
	free(k);
	if (p->funcs.n != n) {
		uint64_t nid = pprof_str(p, name, nlen), fid = pprof_str(p, file, flen);

		p->funcs.ents[id - 1].u[0] = nid;
		p->funcs.ents[id - 1].u[1] = fid;
	}
	return id;
}

/*
 * Whether a function's name is a symbol as the file holds it: a C name, or
 * one still mangled ("_ZN3app4mainE"), which go tool pprof demangles when
 * system_name is name. A demangled name ("app::main", "f<int>") is not: its
 * mangled one is not in the stream, and pprof would take an equal system
 * name for one not yet demangled and cut its "<...>" and "(...)".
 */
static int
is_symbol(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '.' || s[i] == '$' || s[i] == '@'))
			return 0;
	return len > 0;
}

/* One line of a location: a function, and where in it. */
struct loc_line {
	const char	*name, *file;
	size_t		 nlen, flen;
	uint64_t	 line;
	int		 noline;	/* an [unknown] frame that pprof may symbolize */
};

/*
 * A source line "  FILE:LINE": sets l's file and line. "??:0" and text
 * without a line number leave them unset.
 */
static void
srcline(struct loc_line *l, const char *s, size_t len)
{
	const char *colon;
	size_t used;
	uint64_t n;

	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if ((colon = memrchr(s, ':', len)) == NULL || colon == s)
		return;
	n = parse_u64(colon + 1, s + len - (colon + 1), &used);
	if (used == 0 || str_is(s, colon - s, "??"))
		return;
	l->file = s;
	l->flen = colon - s;
	l->line = n > INT64_MAX ? 0 : n;
}

void
pprof_location(struct pprof *p, size_t id, const char *text, size_t len)
{
	struct loc_line lines[64], *more = NULL, *ls = lines;
	size_t nl = 0, cap = 64, i, n;
	const char *l = text, *end = text + len, *nl_at;
	struct stream_frame fr, phys = { 0 };
	uint64_t mid = 0, addr = 0, flags = 0;
	const char *dfile = NULL;	/* the DSO as a file name */
	size_t dflen = 0;
	char *dtmp = NULL, *dname = NULL;
	int has_phys = 0, has_addr = 0;

	for (; l < end; l = nl_at + 1) {
		nl_at = memchr(l, '\n', end - l);
		n = nl_at - l;
		switch (stream_classify(l, n, NULL, &fr)) {
		case STREAM_FRAME:
			if (nl == cap) {
				more = xrealloc(more, 2 * cap * sizeof(*more));
				if (ls == lines)
					memcpy(more, lines, sizeof(lines));
				ls = more;
				cap *= 2;
			}
			memset(&ls[nl], 0, sizeof(ls[nl]));
			ls[nl].name = fr.sym.p;
			ls[nl].nlen = stream_sym_len(fr.sym.p, fr.sym.len);
			if (!has_addr)
				addr = fr.addrval;
			has_addr = 1;
			if (!str_is(fr.dso.p, fr.dso.len, STREAM_INLINED)) {
				phys = fr;
				has_phys = 1;
				addr = fr.addrval;
			} else
				flags |= MAP_INLINE;
			nl++;
			break;
		case STREAM_SRCLINE:
			if (nl > 0)
				srcline(&ls[nl - 1], l, n);
			break;
		default:
			break;
		}
	}
	if (has_phys) {
		struct loc_line *pl = &ls[nl - 1];

		mid = map_id(p, phys.dso.p, phys.dso.len);
		if (str_is(pl->name, pl->nlen, STREAM_UNKNOWN)) {
			/* Named after the DSO where the DSO is not a file:
			 * [kernel.kallsyms], [vdso], [unknown]. */
			if (phys.dso.len > 0 && phys.dso.p[0] == '/')
				pl->noline = 1;
			else {
				const char *b;
				size_t bl;

				/* "[[vdso]]", as fgfold names it */
				dso_unknown_base(phys.dso.p, phys.dso.len, &b, &bl);
				dname = xasprintf("[%.*s]", (int)bl, b);
				pl->name = dname;
				pl->nlen = strlen(dname);
			}
		}
		if (phys.dso.len > 0 && phys.dso.p[0] == '[') {
			dfile = phys.dso.p;
			dflen = phys.dso.len;
		} else {
			dtmp = xasprintf("[%.*s]", (int)phys.dso.len, phys.dso.p);
			dfile = dtmp;
			dflen = strlen(dtmp);
		}
	}
	/* The id and mapping id are written by pprof_encode, which puts the
	   main program's mapping first. */
	buf_reset(&p->tmp);
	if (addr != 0)
		pb_uint(&p->tmp, LOCATION_ADDRESS, addr);
	for (i = 0; i < nl; i++) {
		if (ls[i].noline)
			continue;
		buf_reset(&p->tmp2);
		pb_uint(&p->tmp2, LINE_FUNCTION_ID, ls[i].flen > 0 ?
		    func_id(p, ls[i].name, ls[i].nlen, ls[i].file, ls[i].flen) :
		    func_id(p, ls[i].name, ls[i].nlen, dfile, dflen));
		if (ls[i].line > 0)
			pb_uint(&p->tmp2, LINE_LINE, ls[i].line);
		pb_msg(&p->tmp, LOCATION_LINE, &p->tmp2);
		flags |= MAP_FUNCS;
		if (ls[i].flen > 0)
			flags |= MAP_FILES;
		if (ls[i].line > 0)
			flags |= MAP_LINES;
	}
	if (mid != 0)
		p->maps.ents[mid - 1].u[1] |= flags;
	free(more);
	free(dtmp);
	free(dname);
	/* The message's place in larena, and its mapping. It may be empty
	   (an [unknown] frame at address 0). */
	p->locs[id - 1].off = p->larena.len;
	p->locs[id - 1].len = p->tmp.len;
	p->locs[id - 1].map = mid;
	buf_add(&p->larena, p->tmp.p, p->tmp.len);
}

/* A ValueType message (type, unit) as field `field` of out. */
static void
value_type(struct pprof *p, struct buf *out, uint32_t field, const char *type,
    const char *unit)
{
	buf_reset(&p->tmp);
	pb_uint(&p->tmp, VALUETYPE_TYPE, cstr_id(p, type));
	pb_uint(&p->tmp, VALUETYPE_UNIT, cstr_id(p, unit));
	pb_msg(out, field, &p->tmp);
}

static void
label(struct pprof *p, uint64_t key, int is_num, uint64_t v)
{
	buf_reset(&p->tmp2);
	pb_uint(&p->tmp2, LABEL_KEY, key);
	pb_uint(&p->tmp2, is_num ? LABEL_NUM : LABEL_STR, v);
	pb_msg(&p->tmp, SAMPLE_LABEL, &p->tmp2);
}

/*
 * pprof takes the first mapping for the main program: its name heads every
 * report, and its symbols are the ones looked for first. Returns the id of
 * the DSO that is the program: the one named as the first word of
 * "# cmdline", else the first that is neither a shared library nor
 * bracketed ([kernel.kallsyms]); 0 when there is none.
 */
static uint64_t
main_mapping(struct pprof *p)
{
	const char *prog = p->prof.prog;
	uint64_t first = 0;
	size_t i;

	for (i = 0; i < p->maps.n; i++) {
		const char *f = p->maps.ents[i].key, *base;
		size_t len = p->maps.ents[i].len, blen;

		if (len == 0 || f[0] == '[')
			continue;
		base = memrchr(f, '/', len);
		base = base ? base + 1 : f;
		blen = f + len - base;
		if (prog != NULL && strlen(prog) == blen &&
		    memcmp(prog, base, blen) == 0)
			return i + 1;
		if (first == 0 && memmem(base, blen, ".so", 3) == NULL)
			first = i + 1;
	}
	return first;
}

/* The id mapping id gets in the output: main first, the rest in order. */
static uint64_t
map_order(uint64_t main_map, uint64_t id)
{
	if (main_map == 0 || id > main_map)
		return id;
	return id == main_map ? 1 : id + 1;
}

void
pprof_encode(struct pprof *p, struct buf *out)
{
	const struct stacks *s = &p->prof;
	const char *event = s->event;
	int on_time = event != NULL && stream_event_is_clock(event, strlen(event));
	int c_on = -1, c_off = -1, c_wall = -1, ncol = 1;
	const char *deflt = "samples", *on_type = "samples";
	uint64_t k_pid, k_tid, k_comm, main_map;
	size_t i, j;

	pprof_number(p);
	/* The sample types: which columns the values have. */
	value_type(p, out, PROFILE_SAMPLE_TYPE, "samples", "count");
	if (s->has_weight) {
		c_on = ncol++;
		on_type = on_time ? "cpu" :
		    event[0] != '\0' ? event : "events";
		value_type(p, out, PROFILE_SAMPLE_TYPE, on_type,
		    on_time ? "nanoseconds" : "count");
		deflt = on_type;
	}
	if (s->has_off) {
		c_off = ncol++;
		value_type(p, out, PROFILE_SAMPLE_TYPE, "off-cpu", "nanoseconds");
		deflt = "off-cpu";
		if (!s->has_on || (c_on >= 0 && on_time)) {
			c_wall = ncol++;
			value_type(p, out, PROFILE_SAMPLE_TYPE, "wall", "nanoseconds");
			deflt = "wall";
		}
	}
	GROW(p->vals, ncol, p->vals_cap);
	k_pid = cstr_id(p, "pid");
	k_tid = cstr_id(p, "tid");
	k_comm = cstr_id(p, "comm");
	for (i = 0; i < s->stacks.n; i++) {
		const struct stacktab_entry *e = &s->stacks.ents[i];
		const uint8_t *k = (const uint8_t *)e->key, *end = k + e->len;
		int side = stacks_key_side(&k);
		size_t th = stacks_key_thread(&k);
		const struct stacks_thread *t = &s->thr[th];

		buf_reset(&p->tmp);
		/* The location ids in the key are already the packed field. */
		if (k < end)
			pb_bytes(&p->tmp, SAMPLE_LOCATION_ID, k, end - k);
		memset(p->vals, 0, ncol * sizeof(*p->vals));
		p->vals[0] = e->u[0];
		if (side == STACKS_ON && c_on >= 0)
			p->vals[c_on] = e->u[1];
		if (side == STACKS_OFF)
			p->vals[c_off] = e->u[1];
		if (c_wall >= 0)
			p->vals[c_wall] = e->u[1];
		pb_packed(&p->tmp, SAMPLE_VALUE, p->vals, ncol);
		if (t->pid >= 0)
			label(p, k_pid, 1, t->pid);
		label(p, k_tid, 1, t->tid);
		label(p, k_comm, 0, p->tcomm[th]);
		pb_msg(out, PROFILE_SAMPLE, &p->tmp);
	}
	main_map = main_mapping(p);
	for (j = 0; j < p->maps.n; j++) {
		/* In the order of map_order: pprof takes the first for main. */
		size_t i = j == 0 && main_map != 0 ? main_map - 1 :
		    main_map != 0 && j < main_map ? j - 1 : j;
		const struct stacktab_entry *e = &p->maps.ents[i];
		const struct stacktab_entry *b = stacktab_find(&p->prof.buildids,
		    e->key, e->len);

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, MAPPING_ID, map_order(main_map, i + 1));
		pb_uint(&p->tmp, MAPPING_FILENAME, e->u[0]);
		if (b != NULL)
			pb_uint(&p->tmp, MAPPING_BUILD_ID, pprof_str(p,
			    s->bids.ents[b->u[0]].key, s->bids.ents[b->u[0]].len));
		if (e->u[1] & MAP_FUNCS)
			pb_uint(&p->tmp, MAPPING_HAS_FUNCTIONS, 1);
		if (e->u[1] & MAP_FILES)
			pb_uint(&p->tmp, MAPPING_HAS_FILENAMES, 1);
		if (e->u[1] & MAP_LINES)
			pb_uint(&p->tmp, MAPPING_HAS_LINE_NUMBERS, 1);
		if (e->u[1] & MAP_INLINE)
			pb_uint(&p->tmp, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_msg(out, PROFILE_MAPPING, &p->tmp);
	}
	for (i = 0; i < s->locs.n; i++) {
		const struct pprof_loc *l = &p->locs[i];

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, LOCATION_ID, i + 1);
		if (l->map != 0)
			pb_uint(&p->tmp, LOCATION_MAPPING_ID,
			    map_order(main_map, l->map));
		if (l->len != 0)
			buf_add(&p->tmp, p->larena.p + l->off, l->len);
		pb_msg(out, PROFILE_LOCATION, &p->tmp);
	}
	for (i = 0; i < p->funcs.n; i++) {
		const struct stacktab_entry *e = &p->funcs.ents[i];

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, FUNCTION_ID, i + 1);
		pb_uint(&p->tmp, FUNCTION_NAME, e->u[0]);
		/* the key is "NAME\0FILE" */
		if (is_symbol(e->key, (const char *)memchr(e->key, '\0',
		    e->len) - e->key))
			pb_uint(&p->tmp, FUNCTION_SYSTEM_NAME, e->u[0]);
		if (e->u[1] != 0)
			pb_uint(&p->tmp, FUNCTION_FILENAME, e->u[1]);
		pb_msg(out, PROFILE_FUNCTION, &p->tmp);
	}
	if (s->time_nanos > 0)
		pb_uint(out, PROFILE_TIME_NANOS, s->time_nanos);
	if (s->duration > 0)
		pb_uint(out, PROFILE_DURATION_NANOS, s->duration);
	if (c_on >= 0 && on_time) {
		value_type(p, out, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
		if (s->hdr_period > 0 || s->first_period > 0)
			pb_uint(out, PROFILE_PERIOD, s->hdr_period > 0 ?
			    s->hdr_period : s->first_period);
	}
	for (i = 0; i < p->ncomments; i++)
		pb_uint(out, PROFILE_COMMENT, p->comments[i]);
	pb_uint(out, PROFILE_DEFAULT_SAMPLE_TYPE, cstr_id(p, deflt));
	/* Last, when every string is in. */
	for (i = 0; i < p->strs.n; i++)
		pb_bytes(out, PROFILE_STRING_TABLE, p->strs.ents[i].key,
		    p->strs.ents[i].len);
}

int
pprof_write(struct pprof *p, FILE *out)
{
	struct buf raw;
	z_stream z;
	unsigned char buf[1 << 16];
	int zr;

	buf_init(&raw);
	pprof_encode(p, &raw);
	memset(&z, 0, sizeof(z));
	/* 16 + 15: a gzip header, with no name and time 0, so that the same
	   input gives the same bytes. The fastest level, as Go's runtime/pprof
	   uses: profiles compress well at any level. */
	if ((zr = deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY)) != Z_OK)
		errx(2, "zlib: deflateInit2: %s", zError(zr));
	z.next_in = (Bytef *)raw.p;
	do {
		/* avail_in is 32 bits wide: feed a big profile in pieces. */
		size_t left = raw.len - ((char *)z.next_in - raw.p);

		if (z.avail_in == 0)
			z.avail_in = left > (1u << 30) ? 1u << 30 : left;
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, left > z.avail_in ? Z_NO_FLUSH : Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			errx(2, "zlib: deflate: %s", z.msg ? z.msg : zError(zr));
		if (fwrite(buf, 1, sizeof(buf) - z.avail_out, out) !=
		    sizeof(buf) - z.avail_out) {
			int e = errno;

			deflateEnd(&z);
			buf_release(&raw);
			errno = e;
			return -1;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	buf_release(&raw);
	if (p->prof.saturated)
		warnx("a sum passed 2^63-1, the largest value a profile holds, "
		    "and stopped there; convert fewer samples at a time");
	return 0;
}
